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

    /// Every figure that is there, in the panel's order.
    #[allow(
        clippy::too_many_lines,
        reason = "one entry per fleet figure, in the panel's order; splitting it would scatter the table"
    )]
    fn figures(&self) -> Vec<FleetFigure> {
        let (c, rec, inputs) = (self.c, self.rec, self.inputs);
        let at = level_text(rec.level);
        let price = inputs.price_per_gpu_hour.unwrap_or_default();
        let kwh_price = inputs.price_per_kwh.unwrap_or_default();
        let replicas = c.replicas.unwrap_or_default();
        let replicas_text = grouped(replicas as f64, 0);
        let power_kw = c.fleet_power_kw.unwrap_or_default();
        let figure = |label,
                      hook,
                      value: Option<f64>,
                      text: &dyn Fn(f64) -> String,
                      formula: &dyn Fn(f64) -> String| {
            FleetFigure::of(label, hook, value, text, formula)
        };
        [
            figure(
                "Replicas",
                "cap-replicas",
                c.replicas.map(|r| r as f64),
                &|r| format!("{} × {}", grouped(r, 0), crate::core::model::format::gpus(self.num_gpus)),
                &|_| self.replicas(replicas),
            ),
            figure(
                "Demanded output",
                "demand-tok-s",
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
                "Concurrent streams at this load",
                "implied-streams",
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
                "GPUs",
                "cap-gpus",
                c.gpus.map(|g| g as f64),
                &|g| grouped(g, 0),
                &|g| format!(
                    "GPUs = replicas × GPUs per replica = {replicas_text} × {} = {}",
                    self.num_gpus.unwrap_or_default(),
                    grouped(g, 0),
                ),
            ),
            figure(
                "Fleet capacity",
                "fleet-throughput",
                c.fleet_throughput_tok_s,
                &|v| format!("{} tok/s", grouped(v, 0)),
                &|v| format!(
                    "fleet capacity = replicas × throughput at {at} = {replicas_text} × {} = {}",
                    Self::tok_s(rec.throughput_tok_s),
                    Self::tok_s(v),
                ),
            ),
            figure(
                "Utilisation",
                "fleet-utilisation",
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
                "Fleet power",
                "fleet-power-kw",
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
                "GPU cost",
                "cost-per-mtok",
                c.cost_per_mtok,
                &|v| format!("{} per M output tokens", money(v)),
                &|v| format!("{} = {}", self.per_mtok(price), money(v)),
            ),
            figure(
                "Fleet GPU cost",
                "fleet-gpu-cost-per-hour",
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
                "Fleet electricity",
                "fleet-elec-cost-per-hour",
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
                "Fleet total",
                "fleet-cost-per-hour",
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
                "GPU cost at this load",
                "load-cost-per-mtok",
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
                "Energy",
                "kwh-per-mtok",
                c.kwh_per_mtok,
                &|v| format!("{} kWh per M output tokens", significant(v, 3)),
                &|v| format!("{} = {}", self.kwh(), significant(v, 3)),
            ),
            figure(
                "Electricity",
                "elec-cost-per-mtok",
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
                "Total cost",
                "total-cost-per-mtok",
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
                "CO2",
                "co2-per-mtok",
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
                "Energy per request",
                "energy-per-request",
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
        .into_iter()
        .flatten()
        .collect()
    }
}

/// The fleet figures of a planned sweep at its recommended level, each with its formula;
/// `None` without a recommendation.
pub fn fleet_figures(
    sweep: &Sweep,
    plan: &Plan,
    slo: &Slo,
    inputs: &CapacityInputs,
) -> Option<(Capacity, Vec<FleetFigure>)> {
    let (rec, c) = with_recommendation(sweep, plan, slo, inputs)?;
    let figures = Known {
        rec: &rec,
        num_gpus: sweep.deployment.num_gpus,
        inputs,
        c: &c,
    }
    .figures();
    Some((c, figures))
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
