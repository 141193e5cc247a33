//! What the fleet panel shows: each figure of [`Capacity`] with its label, hook, display text
//! and the formula that gives it, this deployment's numbers written in (shown on hover/focus),
//! so every figure traces to the measured level and the inputs.

use crate::core::model::format::{grouped, level as level_text, money, significant, trimmed};
use crate::core::model::sweep::Sweep;
use crate::core::plan::capacity::{with_recommendation, Capacity, CapacityInputs};
use crate::core::plan::planner::{Plan, Recommendation, Slo};

/// One figure of the fleet panel.
#[derive(Clone, Debug, PartialEq)]
pub struct FleetFigure {
    /// Label, e.g. "Fleet total".
    pub label: &'static str,
    /// `data-testid` of the value.
    pub hook: &'static str,
    /// The unrounded value (`data-value`).
    pub value: f64,
    /// The value as shown, with its unit.
    pub text: String,
    /// "name = formula = numbers = result", e.g.
    /// "fleet $/hour = GPU $/hour + electricity $/hour = $4.98 + $0.138 = $5.12".
    pub formula: String,
}

impl FleetFigure {
    /// The figure of `value` with its `text` and `formula`; `None` when the value is absent.
    pub fn of(
        label: &'static str,
        hook: &'static str,
        value: Option<f64>,
        text: impl Fn(f64) -> String,
        formula: impl Fn(f64) -> String,
    ) -> Option<FleetFigure> {
        value.map(|v| FleetFigure {
            label,
            hook,
            value: v,
            text: text(v),
            formula: formula(v),
        })
    }
}

/// How the JSON writes a fleet figure: its field's name and whether the number is whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonField {
    /// A count (replicas, GPUs), written without a fraction.
    Whole(&'static str),
    /// Any other number.
    Number(&'static str),
}

/// What names a fleet figure on every front: the panel's label and hook, the JSON's field.
struct FleetName {
    label: &'static str,
    hook: &'static str,
    json: JsonField,
}

/// One figure of the fleet in the list every front lays out: its JSON field, and the figure
/// where its value is there (`None`: the JSON writes `null`, the panel and the text leave it out).
#[derive(Clone, Debug, PartialEq)]
pub struct FleetEntry {
    /// The field of `result.capacity` it is written as.
    pub json: JsonField,
    /// The figure with its value, text and formula; `None` when its value is not there.
    pub figure: Option<FleetFigure>,
}

/// " (without electricity price: not given)" when a total leaves a part out.
fn lacks(c: &Capacity) -> String {
    c.total_lacks
        .map(|part| format!(" (without {part}: not given)"))
        .unwrap_or_default()
}

/// "a + b" over the parts that are given, for the totals' formulas.
fn parts(a: Option<f64>, b: Option<f64>) -> String {
    [a, b]
        .into_iter()
        .flatten()
        .map(money)
        .collect::<Vec<_>>()
        .join(" + ")
}

/// An input as the user gave it: `40`, `0.1`, `2.49`.
fn given(v: f64) -> String {
    trimmed(v, 6)
}

/// An input price as given: `$2.49`, `$0.1`.
pub fn given_money(v: f64) -> String {
    format!("${}", given(v))
}

/// The numbers a formula is written with.
struct Known<'a> {
    rec: &'a Recommendation,
    num_gpus: Option<u32>,
    inputs: &'a CapacityInputs,
    c: &'a Capacity,
}

impl Known<'_> {
    fn tok_s(v: f64) -> String {
        format!("{} tok/s", grouped(v, 1))
    }

    fn replicas(&self, replicas: u64) -> String {
        let formula = match (self.inputs.users, self.c.demand_tok_s) {
            (Some(users), _) => format!(
                "ceil(users ÷ streams per replica) = ceil({} ÷ {})",
                given(users),
                self.c
                    .streams_per_replica
                    .map_or_else(String::new, |s| grouped(s, 1)),
            ),
            (None, Some(demand)) => format!(
                "ceil(demanded output ÷ throughput at {}) = ceil({} ÷ {})",
                level_text(self.rec.level),
                Self::tok_s(demand),
                Self::tok_s(self.rec.throughput_tok_s),
            ),
            (None, None) => String::new(),
        };
        format!("replicas = {formula} = {}", grouped(replicas as f64, 0))
    }

    fn per_mtok(&self, price: f64) -> String {
        format!(
            "GPU $/M tokens = price × GPUs per replica ÷ (throughput × 3600) × 1e6 = {} × {} ÷ ({} × 3600) × 1e6",
            given_money(price),
            self.num_gpus.unwrap_or_default(),
            grouped(self.rec.throughput_tok_s, 1),
        )
    }

    fn kwh(&self) -> String {
        format!(
            "kWh per M tokens = J/token × PUE × 1e6 ÷ 3.6e6 = {} J × {} × 1e6 ÷ 3.6e6",
            significant(self.rec.energy_per_token_j.unwrap_or_default(), 3),
            self.inputs.pue_or_default(),
        )
    }

    /// Every figure of the fleet, in the panel's order, each with its JSON field (the figure
    /// `None` where its value is not there).
    #[allow(
        clippy::too_many_lines,
        reason = "one entry per fleet figure, in the panel's order; splitting it would scatter the table"
    )]
    fn entries(&self) -> Vec<FleetEntry> {
        let (c, rec, inputs) = (self.c, self.rec, self.inputs);
        let at = level_text(rec.level);
        let price = inputs.price_per_gpu_hour.unwrap_or_default();
        let kwh_price = inputs.price_per_kwh.unwrap_or_default();
        let replicas = c.replicas.unwrap_or_default();
        let replicas_text = grouped(replicas as f64, 0);
        let power_kw = c.fleet_power_kw.unwrap_or_default();
        let figure = |name: FleetName,
                      value: Option<f64>,
                      text: &dyn Fn(f64) -> String,
                      formula: &dyn Fn(f64) -> String| FleetEntry {
            json: name.json,
            figure: FleetFigure::of(name.label, name.hook, value, text, formula),
        };
        [
            figure(
                FleetName {
                    label: "Replicas",
                    hook: "cap-replicas",
                    json: JsonField::Whole("replicas"),
                },
                c.replicas.map(|r| r as f64),
                &|r| format!("{} × {}", grouped(r, 0), crate::core::model::format::gpus(self.num_gpus)),
                &|_| self.replicas(replicas),
            ),
            figure(
                FleetName {
                    label: "Demanded output",
                    hook: "demand-tok-s",
                    json: JsonField::Number("demand_tok_s"),
                },
                c.demand_tok_s,
                &Self::tok_s,
                &|v| format!(
                    "demanded output = requests/s × output tokens per request at {at} = {} × {} = {}",
                    given(inputs.rps.unwrap_or_default()),
                    grouped(rec.output_tokens_per_request.unwrap_or_default(), 2),
                    Self::tok_s(v),
                ),
            ),
            figure(
                FleetName {
                    label: "Concurrent streams at this load",
                    hook: "implied-streams",
                    json: JsonField::Number("implied_streams"),
                },
                c.implied_streams,
                &|v| format!(
                    "{} (one replica holds {})",
                    grouped(v, 0),
                    c.streams_per_replica.map_or_else(|| "not reported".to_string(), |s| grouped(s, 1)),
                ),
                &|v| format!(
                    "streams = demanded output ÷ per-user tok/s by rate at {at} = {} ÷ {} = {}",
                    grouped(c.demand_tok_s.unwrap_or_default(), 1),
                    significant(rec.rate_user_tps.unwrap_or_default(), 4),
                    grouped(v, 1),
                ),
            ),
            figure(
                FleetName {
                    label: "GPUs",
                    hook: "cap-gpus",
                    json: JsonField::Whole("gpus"),
                },
                c.gpus.map(|g| g as f64),
                &|g| grouped(g, 0),
                &|g| format!(
                    "GPUs = replicas × GPUs per replica = {replicas_text} × {} = {}",
                    self.num_gpus.unwrap_or_default(),
                    grouped(g, 0),
                ),
            ),
            figure(
                FleetName {
                    label: "Fleet capacity",
                    hook: "fleet-throughput",
                    json: JsonField::Number("fleet_throughput_tok_s"),
                },
                c.fleet_throughput_tok_s,
                &|v| format!("{} tok/s", grouped(v, 0)),
                &|v| format!(
                    "fleet capacity = replicas × throughput at {at} = {replicas_text} × {} = {}",
                    Self::tok_s(rec.throughput_tok_s),
                    Self::tok_s(v),
                ),
            ),
            figure(
                FleetName {
                    label: "Utilisation",
                    hook: "fleet-utilisation",
                    json: JsonField::Number("utilisation_fraction"),
                },
                c.utilisation,
                &|u| format!("{}% of fleet capacity", grouped(u * 100.0, 1)),
                &|u| format!(
                    "utilisation = demanded output ÷ fleet capacity = {} ÷ {} = {}%",
                    grouped(c.demand_tok_s.unwrap_or_default(), 1),
                    grouped(c.fleet_throughput_tok_s.unwrap_or_default(), 1),
                    grouped(u * 100.0, 1),
                ),
            ),
            figure(
                FleetName {
                    label: "Fleet power",
                    hook: "fleet-power-kw",
                    json: JsonField::Number("fleet_power_kw"),
                },
                c.fleet_power_kw,
                &|v| format!("{} kW", significant(v, 3)),
                &|v| format!(
                    "fleet power = replicas × power at {at} × PUE = {replicas_text} × {} W × {} = {} kW",
                    grouped(rec.power_w.unwrap_or_default(), 1),
                    inputs.pue_or_default(),
                    significant(v, 4),
                ),
            ),
            figure(
                FleetName {
                    label: "GPU cost",
                    hook: "cost-per-mtok",
                    json: JsonField::Number("gpu_cost_usd_per_mtok"),
                },
                c.cost_per_mtok,
                &|v| format!("{} per M output tokens", money(v)),
                &|v| format!("{} = {}", self.per_mtok(price), money(v)),
            ),
            figure(
                FleetName {
                    label: "Fleet GPU cost",
                    hook: "fleet-gpu-cost-per-hour",
                    json: JsonField::Number("fleet_gpu_cost_usd_per_hour"),
                },
                c.fleet_gpu_cost_per_hour,
                &|v| format!("{} per hour", money(v)),
                &|v| format!(
                    "fleet GPU $/hour = GPUs × price per GPU-hour = {} × {} = {}",
                    grouped(c.gpus.unwrap_or_default() as f64, 0),
                    given_money(price),
                    money(v),
                ),
            ),
            figure(
                FleetName {
                    label: "Fleet electricity",
                    hook: "fleet-elec-cost-per-hour",
                    json: JsonField::Number("fleet_electricity_usd_per_hour"),
                },
                c.fleet_elec_cost_per_hour,
                &|v| format!("{} per hour", money(v)),
                &|v| format!(
                    "electricity $/hour = fleet power × $/kWh = {} kW × {} = {}",
                    significant(power_kw, 4),
                    given_money(kwh_price),
                    money(v),
                ),
            ),
            figure(
                FleetName {
                    label: "Fleet total",
                    hook: "fleet-cost-per-hour",
                    json: JsonField::Number("fleet_total_usd_per_hour"),
                },
                c.fleet_cost_per_hour,
                &|v| format!("{} per hour{}", money(v), lacks(c)),
                &|v| format!(
                    "fleet $/hour = GPU $/hour + electricity $/hour = {} = {}{}",
                    parts(c.fleet_gpu_cost_per_hour, c.fleet_elec_cost_per_hour),
                    money(v),
                    lacks(c),
                ),
            ),
            figure(
                FleetName {
                    label: "GPU cost at this load",
                    hook: "load-cost-per-mtok",
                    json: JsonField::Number("gpu_cost_usd_per_mtok_at_load"),
                },
                c.load_cost_per_mtok,
                &|v| format!("{} per M output tokens", money(v)),
                &|v| format!(
                    "GPU $/M tokens at this load = fleet GPU $/hour ÷ (demanded output × 3600) × 1e6 = {} ÷ ({} × 3600) × 1e6 = {}",
                    money(c.fleet_gpu_cost_per_hour.unwrap_or_default()),
                    grouped(c.demand_tok_s.unwrap_or_default(), 1),
                    money(v),
                ),
            ),
            figure(
                FleetName {
                    label: "Energy",
                    hook: "kwh-per-mtok",
                    json: JsonField::Number("kwh_per_mtok"),
                },
                c.kwh_per_mtok,
                &|v| format!("{} kWh per M output tokens", significant(v, 3)),
                &|v| format!("{} = {}", self.kwh(), significant(v, 3)),
            ),
            figure(
                FleetName {
                    label: "Electricity",
                    hook: "elec-cost-per-mtok",
                    json: JsonField::Number("electricity_usd_per_mtok"),
                },
                c.elec_cost_per_mtok,
                &|v| format!("{} per M output tokens", money(v)),
                &|v| format!(
                    "electricity $/M tokens = kWh per M tokens × $/kWh = {} × {} = {}",
                    significant(c.kwh_per_mtok.unwrap_or_default(), 3),
                    given_money(kwh_price),
                    money(v),
                ),
            ),
            figure(
                FleetName {
                    label: "Total cost",
                    hook: "total-cost-per-mtok",
                    json: JsonField::Number("total_usd_per_mtok"),
                },
                c.total_cost_per_mtok,
                &|v| format!("{} per M output tokens{}", money(v), lacks(c)),
                &|v| format!(
                    "total $/M tokens = GPU $/M + electricity $/M = {} = {}{}",
                    parts(c.cost_per_mtok, c.elec_cost_per_mtok),
                    money(v),
                    lacks(c),
                ),
            ),
            figure(
                FleetName {
                    label: "CO2",
                    hook: "co2-per-mtok",
                    json: JsonField::Number("co2_kg_per_mtok"),
                },
                c.co2_kg_per_mtok,
                &|v| format!("{} kg per M output tokens", significant(v, 3)),
                &|v| format!(
                    "kg CO2 per M tokens = kWh per M tokens × g/kWh ÷ 1000 = {} × {} ÷ 1000 = {}",
                    significant(c.kwh_per_mtok.unwrap_or_default(), 3),
                    given(inputs.co2_g_per_kwh.unwrap_or_default()),
                    significant(v, 3),
                ),
            ),
            figure(
                FleetName {
                    label: "Energy per request",
                    hook: "energy-per-request",
                    json: JsonField::Number("energy_per_request_j"),
                },
                c.energy_per_request_j,
                &|j| format!(
                    "{} J ({} Wh per 1,000 requests)",
                    significant(j, 3),
                    c.wh_per_1000_requests.map_or_else(String::new, |wh| significant(wh, 3)),
                ),
                &|j| format!(
                    "energy per request measured at {at} (worst of its runs, GPUs only) = {} J; Wh per 1,000 requests = J × 1000 ÷ 3600 = {}",
                    significant(j, 3),
                    significant(j * 1000.0 / 3600.0, 3),
                ),
            ),
        ]
        .into()
    }
}

/// The fleet's figures of a planned sweep at its recommended level, in the panel's order, each
/// with its JSON field and, where its value is there, the figure with its formula; `None`
/// without a recommendation. The panel, the command line's text and the JSON's
/// `result.capacity` all lay out this one list.
pub fn fleet_entries(
    sweep: &Sweep,
    plan: &Plan,
    slo: &Slo,
    inputs: &CapacityInputs,
) -> Option<(Capacity, Vec<FleetEntry>)> {
    let (rec, c) = with_recommendation(sweep, plan, slo, inputs)?;
    let entries = Known {
        rec: &rec,
        num_gpus: sweep.deployment.num_gpus,
        inputs,
        c: &c,
    }
    .entries();
    Some((c, entries))
}

/// The fleet figures of a planned sweep at its recommended level that are there, each with its
/// formula ([`fleet_entries`] without the absent ones); `None` without a recommendation.
pub fn fleet_figures(
    sweep: &Sweep,
    plan: &Plan,
    slo: &Slo,
    inputs: &CapacityInputs,
) -> Option<(Capacity, Vec<FleetFigure>)> {
    let (c, entries) = fleet_entries(sweep, plan, slo, inputs)?;
    Some((c, entries.into_iter().filter_map(|e| e.figure).collect()))
}

/// How many streams one replica holds and where that comes from, or why replicas cannot be
/// counted (`measured_batch`: the level's average batch is measured), ending in a space.
pub fn streams_note(c: &Capacity, measured_batch: bool) -> String {
    match (c.streams_per_replica, measured_batch) {
        (None, _) => "Streams per replica are not reported for this sweep, so replicas cannot be counted. ".to_string(),
        (Some(s), true) => format!(
            "One replica holds {} streams (the avg batch measured at this level, not the cap). ",
            grouped(s, 1),
        ),
        (Some(s), false) => format!(
            "One replica holds {} streams (the client's concurrency at this level; no average batch is reported). ",
            grouped(s, 1),
        ),
    }
}

/// What is said about the load given: `users` used when both are given, or an `rps` load the
/// sweep cannot turn into output tok/s.
pub fn load_note(inputs: &CapacityInputs, c: &Capacity) -> Option<&'static str> {
    match (inputs.users, inputs.rps, c.demand_tok_s) {
        (Some(_), Some(_), _) => Some("Both concurrent users and requests per second are given: users size the fleet."),
        (None, Some(_), None) => Some("This sweep does not state output tokens per request at this level, so a load in requests per second cannot be turned into output tok/s: nothing is sized."),
        _ => None,
    }
}

/// Said when prices are given for other GPU types than this deployment's `gpu`.
pub fn no_price_note(gpu: &str) -> String {
    format!("GPU cost: no price given for {gpu} (prices are given for other GPU types only).")
}
