//! A link's parameters, each declared once in [`scenario_params!`](crate::scenario_params): its
//! keys, the part of the [`Scenario`] it sets ([`Group`]: what is carried to another source),
//! how it is read (with its error) and written back, the fleet form's field where it has one,
//! its entries in the JSON download's `scenario`, and its row of the README's table. The command
//! line offers each key as `--key` ([`param_keys`]). From that one list come [`PARAMS`] (the
//! reader and writer of every front), [`FLEET_INPUTS`] (the page's fleet form), the JSON's
//! entries (`core::wire::export`) and the README's table (held to it by a test).

use super::errors::ParamErrorKind;
use super::read::Read;
use super::values::InputKind;
use super::Scenario;
use crate::core::plan::capacity::CapacityInputs;

/// Hands the list of a link's parameters to the macro `$then`, in the order a link writes them,
/// as items of the form
///
/// ```text
/// /// docs
/// name {
///     keys: ["key", ...],            // the link's keys (the command line's `--key`)
///     group: Group,                  // the part of the scenario it sets
///     needs: "key",                  // optional: the parameter it qualifies, without which it
///                                    // is not read (named) nor written back
///     read: |read, key, value| ...,  // into `params::Read`; `Err` is a `ParamErrorKind`
///     write: |scenario, link| ...,   // back into a `params::Link` (nothing when a default)
///     json: { "key": |scenario| value, ... },  // the JSON download's `scenario` entries
///     form: { label: "...", unit: "...", kind: InputKind, field: |c| &mut c.x },  // optional
///     readme: ("meaning", "default"),           // the README's table row
/// }
/// ```
///
/// Adding a parameter is one item here and the code that uses its value.
#[macro_export]
macro_rules! scenario_params {
    ($then:ident) => {
        $then! {
            /// The data.
            src {
                keys: ["src"],
                group: Deployment,
                read: |r, _, v| {
                    r.src = Some(v.trim().to_string()).filter(|v| !v.is_empty());
                    Ok(())
                },
                write: |s, link| link.text("src", s.src.as_deref()),
                json: {},
                readme: (
                    "the data: `lm-arena-chat`, `gpqa`, `sourcegraph-fim`, `image-chat` (ML.ENERGY workloads), `reference` (the seed documents' reference systems), an import (`imp-…`) or `shared`",
                    "`lm-arena-chat`"
                ),
            }
            /// The model.
            model {
                keys: ["model"],
                group: Deployment,
                read: |r, _, v| {
                    r.model = Some(v.to_string());
                    Ok(())
                },
                write: |s, link| link.text("model", Some(&s.deployment.model_id)),
                json: {},
                readme: (
                    "the model's `model_id`, e.g. `meta-llama/Llama-3.1-8B-Instruct`",
                    "`meta-llama/Llama-3.1-8B-Instruct`"
                ),
            }
            /// The GPU type.
            gpu {
                keys: ["gpu"],
                group: Deployment,
                read: |r, _, v| {
                    r.gpu = Some(v.to_string());
                    Ok(())
                },
                write: |s, link| link.text("gpu", Some(&s.deployment.gpu)),
                json: {},
                readme: ("GPU type, e.g. `H100`, `B200`", "H100 if the model has it, else its other GPU"),
            }
            /// GPUs per replica.
            gpus {
                keys: ["gpus"],
                group: Deployment,
                read: |r, _, v| {
                    r.num_gpus = Some(
                        $crate::core::scenario::parse_gpus(v)
                            .map_err($crate::core::scenario::ParamErrorKind::Invalid)?,
                    );
                    Ok(())
                },
                write: |s, link| link.text("gpus", s.deployment.num_gpus.map(|n| n.to_string()).as_deref()),
                json: {},
                readme: ("GPUs per replica", "the fewest measured for that GPU"),
            }
            /// What tells a sweep apart.
            cfg {
                keys: ["cfg"],
                group: Deployment,
                read: |r, _, v| {
                    r.cfg = Some(v.to_string());
                    Ok(())
                },
                write: |s, link| link.text("cfg", s.deployment.cfg.as_deref()),
                json: {},
                readme: (
                    "what tells a sweep apart where model, GPU and count do not identify one: the identity fields that differ among those sweeps, as the picker shows them (e.g. `2026-03-25`, `sharegpt`, `EP8`, `max_num_seqs=8`); a link made before still opens the one sweep whose label contains its `cfg`",
                    "the newest date first, then the first"
                ),
            }
            /// The per-user target, in one of its units.
            target {
                keys: ["tps", "tpot"],
                group: Slo,
                read: |r, k, v| r.target(k, v),
                write: |s, link| match s.slo.target {
                    $crate::core::plan::planner::Target::TokensPerSecond(v) => link.number("tps", Some(v)),
                    $crate::core::plan::planner::Target::MsPerToken(v) => link.number("tpot", Some(v)),
                },
                json: {
                    "target_unit": |s| match s.slo.target {
                        $crate::core::plan::planner::Target::TokensPerSecond(_) => "tok/s per user".into(),
                        $crate::core::plan::planner::Target::MsPerToken(_) => "ms per token".into(),
                    },
                    "target_value": |s| match s.slo.target {
                        $crate::core::plan::planner::Target::TokensPerSecond(v)
                        | $crate::core::plan::planner::Target::MsPerToken(v) => v.into(),
                    },
                },
                readme: (
                    "per-user target: tok/s per user, or ms per output token (give one)",
                    "`tps=20`"
                ),
            }
            /// The statistic the target is judged on.
            stat {
                keys: ["stat"],
                group: Slo,
                read: |r, _, v| r.stat(v),
                write: |s, link| link.text("stat", Some(s.slo.stat.key())),
                json: { "statistic": |s| s.slo.stat.key().into() },
                readme: (
                    "`p50`, `p90`, `p95`, `p99`, `itl_mean` (ITL), `tpot_mean`, `tpot_p50`, `tpot_p90`, `tpot_p95`, `tpot_p99` (TPOT), `ntpot_mean`, `ntpot_p50`, `ntpot_p90`, `ntpot_p95`, `ntpot_p99` (normalized TPOT: end-to-end ÷ output tokens, TTFT included) or `rate`; the menu offers what the sweep has, and says beside a statistic where its per-user speed cannot be true (`implausible-speed`)",
                    "`p50`"
                ),
            }
            /// Tail limits.
            limit {
                keys: ["limit"],
                group: Slo,
                read: |r, _, v| r.limit(v),
                write: |s, link| {
                    for limit in &s.slo.limits {
                        link.pair(
                            "limit",
                            &format!(
                                "{}:{}",
                                limit.stat.key(),
                                $crate::core::model::format::url_number(limit.max_ms)
                            ),
                        );
                    }
                },
                json: {
                    "limits": |s| $crate::core::scenario::JsonEntry::Objects(
                        s.slo
                            .limits
                            .iter()
                            .map(|l| vec![("statistic", l.stat.key().into()), ("max_ms", l.max_ms.into())])
                            .collect(),
                    ),
                },
                readme: (
                    "optional tail limit `STAT:MS`, repeatable, e.g. `limit=p99:150`; TTFT too (`ttft_mean`, `ttft_p50`, `ttft_p90`, `ttft_p95`, `ttft_p99`) and end-to-end latency (`e2e_mean`, `e2e_p50`, `e2e_p90`, `e2e_p95`, `e2e_p99`)",
                    "none"
                ),
            }
            /// The share of requests that must each meet the SLO.
            attain {
                keys: ["attain"],
                group: Slo,
                read: |r, _, v| {
                    r.attain = Some(
                        $crate::core::scenario::parse_attain(v)
                            .map_err($crate::core::scenario::ParamErrorKind::Invalid)?,
                    );
                    Ok(())
                },
                write: |s, link| link.number("attain", s.slo.attain),
                json: { "attain_percent": |s| s.slo.attain.into() },
                readme: (
                    "the share of requests, percent (50 to 100, e.g. `95` or `99.9`), that must each meet the target (their own TPOT) and every TTFT and end-to-end limit (their own TTFT and end-to-end latency) at a level: judged on per-request records (see \"Attainment\"); a sweep without them is not judged, and the message offers its aggregate statistic",
                    "none: judged on the level's statistic"
                ),
            }
            /// The chart's y axis.
            y {
                keys: ["y"],
                group: View,
                read: |r, _, v| {
                    $crate::core::scenario::parse_word(v, "cost", $crate::core::scenario::Accepts::Cost)
                        .map_err($crate::core::scenario::ParamErrorKind::Invalid)?;
                    r.view.chart_y = $crate::core::plan::chart::ChartY::Cost;
                    Ok(())
                },
                write: |s, link| {
                    if s.drawn_chart_y() == $crate::core::plan::chart::ChartY::Cost {
                        link.pair("y", "cost");
                    }
                },
                json: {},
                readme: (
                    "`cost`: the trade-off chart's y axis as total $ per million output tokens (log) instead of tok/s per GPU; used only when a price is given (a switch above the chart sets it)",
                    "tok/s per GPU"
                ),
            }
            /// Every model in the side-by-side table.
            cmp {
                keys: ["cmp"],
                group: View,
                read: |r, _, v| {
                    $crate::core::scenario::parse_word(v, "all", $crate::core::scenario::Accepts::All)
                        .map_err($crate::core::scenario::ParamErrorKind::Invalid)?;
                    r.view.compare_all = true;
                    Ok(())
                },
                write: |s, link| {
                    if s.view.compare_all {
                        link.pair("cmp", "all");
                    }
                },
                json: {},
                readme: (
                    "`all`: the side-by-side table lists every model's deployments that meet the target, not only this model's (the \"All models\" switch)",
                    "this model and its precision variants"
                ),
            }
            /// The side-by-side table's order.
            sort {
                keys: ["sort"],
                group: View,
                read: |r, _, v| r.sort(v),
                write: |s, link| {
                    // A cost column orders nothing without a price (fleet $/hour without a load).
                    match s.view.compare_sort.filter(|(column, _)| {
                        column.sortable(
                            s.priced(),
                            s.fleet.capacity.has_load(),
                            s.fleet.capacity.api.is_some(),
                        )
                    }) {
                        Some((column, false)) => link.pair("sort", column.key()),
                        Some((column, true)) => {
                            link.pair("sort", &format!("{}:reversed", column.key()))
                        }
                        None => {}
                    }
                },
                json: {},
                readme: (
                    "the side-by-side table's order, a column by its name in the CSV download: `level`, `throughput_per_gpu_tok_s`, `throughput_tok_s`, `energy_j_per_token`, `per_user_tok_s`, and with a price `fleet_cost_usd_per_hour`, `total_cost_usd_per_mtok` (and with an `api`, `vs_api`); best first, or worst first with `:reversed` (e.g. `sort=energy_j_per_token:reversed`). Pressing a column's header sets it; the switch clears it",
                    "the table's own order (by cost when prices are given)"
                ),
            }
            /// The level the requests panel shows.
            requests_at {
                keys: ["requests_at"],
                group: View,
                needs: "attain",
                read: |r, _, v| {
                    r.view.requests_at = Some(
                        $crate::core::scenario::parse_positive(v)
                            .map_err($crate::core::scenario::ParamErrorKind::Invalid)?,
                    );
                    Ok(())
                },
                write: |s, link| link.number("requests_at", s.view.requests_at),
                json: {},
                readme: (
                    "the level whose requests the requests panel shows (under `attain`, a level with per-request records, e.g. `requests_at=16`); picking a level there sets it; a level the deployment has no per-request records at is named, and the panel shows its own",
                    "the recommended level, else the first that fails"
                ),
            }
            /// Concurrent users.
            users {
                keys: ["users"],
                group: Fleet,
                read: |r, k, v| r.fleet_number(k, v),
                write: |s, link| link.number("users", s.fleet.capacity.users),
                json: { "users": |s| s.fleet.capacity.users.into() },
                form: {
                    label: "Concurrent users",
                    unit: "streams",
                    kind: Users,
                    field: |c| &mut c.users,
                },
                readme: (
                    "concurrent streams to serve at the target (fleet size), a whole number from 1 to 10⁹ (`users=2.5` is named)",
                    "none"
                ),
            }
            /// A load in requests per second.
            rps {
                keys: ["rps"],
                group: Fleet,
                read: |r, k, v| r.fleet_number(k, v),
                write: |s, link| link.number("rps", s.fleet.capacity.rps),
                json: { "requests_per_second": |s| s.fleet.capacity.rps.into() },
                form: {
                    label: "Load (instead of users)",
                    unit: "requests per second",
                    kind: Rate,
                    field: |c| &mut c.rps,
                },
                readme: (
                    "or a load in requests per second, 0.001 to 10⁹ (give one of `users` and `rps`; with both, a message names them and `users` is used)",
                    "none"
                ),
            }
            /// GPU prices.
            price {
                keys: ["price"],
                group: Fleet,
                read: |r, _, v| r.prices(v),
                write: |s, link| {
                    let text = $crate::core::scenario::prices_text(
                        s.fleet.capacity.price_per_gpu_hour,
                        &s.fleet.gpu_prices,
                    );
                    if !text.is_empty() {
                        link.pair("price", &text);
                    }
                },
                json: {
                    "price_usd_per_gpu_hour": |s| s.fleet.capacity.price_per_gpu_hour.into(),
                    "price_usd_per_gpu_hour_by_type": |s| s
                        .fleet
                        .gpu_prices
                        .0
                        .iter()
                        .map(|(g, p)| serde_json::Value::from(vec![
                            serde_json::Value::from(g.as_str()),
                            serde_json::Value::from(*p),
                        ]))
                        .collect::<Vec<_>>()
                        .into(),
                },
                form: {
                    label: "GPU price",
                    unit: "$ per GPU-hour",
                    kind: Amount,
                    field: |c| &mut c.price_per_gpu_hour,
                },
                readme: (
                    "$ per GPU-hour (typed by you: no built-in price): one number for every GPU type, or a price per GPU type (`price=H100:2.49,B200:5.99`), or both (`price=2.5,B200:5.99`: 2.5 for every type not named). Types are matched case-insensitively; \"GPU not stated\" takes only the bare number; a type without a price shows \"no price given\", never 0 or another type's price. At most 64 entries are read, a type name is cut to 200 characters, and an entry given twice is named (the last one is used). The form has the price for every type and one field per GPU type of the data",
                    "none"
                ),
            }
            /// The electricity price.
            kwh_price {
                keys: ["kwh_price"],
                group: Fleet,
                read: |r, k, v| r.fleet_number(k, v),
                write: |s, link| link.number("kwh_price", s.fleet.capacity.price_per_kwh),
                json: { "price_usd_per_kwh": |s| s.fleet.capacity.price_per_kwh.into() },
                form: {
                    label: "Electricity price",
                    unit: "$ per kWh",
                    kind: Amount,
                    field: |c| &mut c.price_per_kwh,
                },
                readme: ("$ per kWh", "none"),
            }
            /// The grid's carbon intensity.
            co2 {
                keys: ["co2"],
                group: Fleet,
                read: |r, k, v| r.fleet_number(k, v),
                write: |s, link| link.number("co2", s.fleet.capacity.co2_g_per_kwh),
                json: { "co2_g_per_kwh": |s| s.fleet.capacity.co2_g_per_kwh.into() },
                form: {
                    label: "Grid carbon intensity",
                    unit: "g CO2 per kWh",
                    kind: Amount,
                    field: |c| &mut c.co2_g_per_kwh,
                },
                readme: ("grams CO2 per kWh", "none"),
            }
            /// The facility's overhead.
            pue {
                keys: ["pue"],
                group: Fleet,
                read: |r, k, v| r.fleet_number(k, v),
                write: |s, link| link.number("pue", s.fleet.capacity.pue),
                json: { "pue": |s| s.fleet.capacity.pue_or_default().into() },
                form: {
                    label: "PUE",
                    unit: "1 = GPUs only",
                    kind: Pue,
                    field: |c| &mut c.pue,
                },
                readme: ("facility overhead factor, 1 to 10", "1.0 = GPUs only"),
            }
            /// A hosted API's price, to cost a request against.
            api {
                keys: ["api"],
                group: Fleet,
                needs: "price",
                read: |r, _, v| {
                    r.fleet.capacity.api = Some(
                        $crate::core::scenario::parse_api(v)
                            .map_err($crate::core::scenario::ParamErrorKind::Invalid)?,
                    );
                    Ok(())
                },
                write: |s, link| {
                    if let Some(api) = s.fleet.capacity.api {
                        link.pair("api", &$crate::core::scenario::api_text(&api));
                    }
                },
                json: {
                    "api_usd_per_m_tokens": |s| s.fleet.capacity.api.map(|a| serde_json::json!({
                        "input": a.input,
                        "output": a.output,
                        "cached_input": a.cached_input,
                    })).into(),
                },
                readme: (
                    "a hosted API's price to cost a request against, `INPUT:OUTPUT` or `INPUT:OUTPUT:CACHED`, $ per million input, output and cached input tokens (e.g. `api=1.25:10` or `api=1.25:10:0.125`; each 0, or 0.0001 to 1,000,000): the API's $ per request at the sweep's input and output lengths, self-hosted ÷ API (`vs_api`) and the break-even utilisation (see \"What a request costs\")",
                    "none"
                ),
            }
            /// The share of input tokens the API serves from its cache.
            cached {
                keys: ["cached"],
                group: Fleet,
                needs: "api",
                read: |r, k, v| r.fleet_number(k, v),
                write: |s, link| link.number("cached", s.fleet.capacity.cached),
                json: { "cached_share": |s| s.fleet.capacity.cached.unwrap_or(0.0).into() },
                form: {
                    label: "Cached input share",
                    unit: "0-1, of the API's input tokens",
                    kind: Share,
                    field: |c| &mut c.cached,
                },
                readme: (
                    "the share of input tokens the API serves from its cache, 0 to 1, priced at the API's cached input price (its third number; without one, at its input price, said)",
                    "0"
                ),
            }
            /// A power budget.
            power {
                keys: ["power"],
                group: Fleet,
                read: |r, _, v| {
                    r.fleet.power.budget_w = Some(
                        $crate::core::scenario::parse_power(v)
                            .map_err($crate::core::scenario::ParamErrorKind::Invalid)?,
                    );
                    Ok(())
                },
                write: |s, link| {
                    if let Some(w) = s.fleet.power.budget_w {
                        link.pair("power", &$crate::core::scenario::power_text(w));
                    }
                },
                json: { "power_budget_w": |s| s.fleet.power.budget_w.into() },
                readme: (
                    "a power budget with its unit, `W`, `kW`, `MW` or `GW` (e.g. `1MW`, `400kW`; from 1 W to 10 GW): the replicas, GPUs and users that fit in it at the recommended level, all in (host watts and PUE), and tok/s and users per MW",
                    "none"
                ),
            }
            /// What one GPU's power is read from.
            power_basis {
                keys: ["power_basis"],
                group: Fleet,
                needs: "power",
                read: |r, _, v| {
                    r.fleet.power.basis = $crate::core::scenario::parse_power_basis(v)
                        .map_err($crate::core::scenario::ParamErrorKind::Invalid)?;
                    Ok(())
                },
                write: |s, link| {
                    let basis = s.fleet.power.basis;
                    if basis != $crate::core::plan::power::PowerBasis::default() {
                        link.pair("power_basis", basis.key());
                    }
                },
                json: { "power_basis": |s| s.fleet.power.basis.key().into() },
                readme: (
                    "what one GPU's power is read from: `measured` (the sweep's power at the recommended level ÷ its GPUs, the GPUs alone) or `tdp` (the GPU type's rated board power, from the table in \"A power budget\")",
                    "measured"
                ),
            }
            /// Watts per GPU beyond the GPU itself.
            host_w {
                keys: ["host_w"],
                group: Fleet,
                needs: "power",
                read: |r, _, v| {
                    r.fleet.power.host_w = Some(
                        $crate::core::scenario::parse_host_w(v)
                            .map_err($crate::core::scenario::ParamErrorKind::Invalid)?,
                    );
                    Ok(())
                },
                write: |s, link| link.number("host_w", s.fleet.power.host_w),
                json: { "host_w": |s| s.fleet.power.host_w.unwrap_or(0.0).into() },
                readme: (
                    "watts per GPU beyond the GPU itself (CPU, memory, network, fans), 0 to 10,000, added before the PUE",
                    "0 (said in the answer)"
                ),
            }
            /// A load over time.
            load {
                keys: ["load"],
                group: Fleet,
                read: |r, _, v| {
                    r.fleet.load = Some(
                        $crate::core::scenario::parse_load(v)
                            .map_err($crate::core::scenario::ParamErrorKind::Invalid)?,
                    );
                    Ok(())
                },
                write: |s, link| {
                    if let Some(load) = &s.fleet.load {
                        link.pair("load", &$crate::core::scenario::load_text(load));
                    }
                },
                json: {
                    "load": |s| s.fleet.load.as_ref().map($crate::core::scenario::load_text).into(),
                },
                readme: (
                    "a load that varies over a period, `KIND:STEP:V1,V2,...`: KIND `rps` or `users`, STEP the minutes each value covers (at least a second, 0.0167, and at most 10,080), then at most 10,080 values (a week by the minute), each 0 to 10⁹; e.g. `load=rps:60:3,2,2,2,3,5,9,14,18,20,21,22,22,21,20,19,18,17,16,14,11,8,6,4` for a day by the hour. A bad part is named (`value 2 must be a number…`) and the rest of the scenario stands. The page shows the period under the fleet (figures with their formulas, a chart of the load and the replicas, every deployment's cost side by side) and has a field for it among the fleet inputs (values, this form, or a pasted CSV of `timestamp,value`; shapes to start from); the command line writes it in its text, as `result.period` in `--json` and as the `period_*` columns in `--csv` (see \"Plan for a day\")",
                    "none"
                ),
            }
            /// Minutes a replica takes to come up.
            lag {
                keys: ["lag"],
                group: Fleet,
                needs: "load",
                read: |r, _, v| {
                    r.fleet.scaling.lag_min = $crate::core::scenario::parse_lag(v)
                        .map_err($crate::core::scenario::ParamErrorKind::Invalid)?;
                    Ok(())
                },
                write: |s, link| {
                    if s.fleet.scaling.lag_min != $crate::core::plan::period::Scaling::default().lag_min {
                        link.number("lag", Some(s.fleet.scaling.lag_min));
                    }
                },
                json: { "lag_min": |s| s.fleet.scaling.lag_min.into() },
                readme: (
                    "minutes a replica takes to come up (0, or a second, 0.0167, to 10,080): the replicas at a step cover the highest load until lag later",
                    "0"
                ),
            }
            /// The fewest replicas that always run.
            min_replicas {
                keys: ["min_replicas"],
                group: Fleet,
                needs: "load",
                read: |r, _, v| {
                    r.fleet.scaling.min_replicas = $crate::core::scenario::parse_min_replicas(v)
                        .map_err($crate::core::scenario::ParamErrorKind::Invalid)?;
                    Ok(())
                },
                write: |s, link| {
                    let floor = s.fleet.scaling.min_replicas;
                    if floor != $crate::core::plan::period::Scaling::default().min_replicas {
                        link.pair("min_replicas", &floor.to_string());
                    }
                },
                json: { "min_replicas": |s| s.fleet.scaling.min_replicas.into() },
                readme: (
                    "the fewest replicas that always run, a whole number (0 to 1,000,000)",
                    "1"
                ),
            }
            /// The candidate compared with the deployment shown.
            vs {
                keys: ["vs"],
                group: Comparison,
                read: |r, _, v| {
                    r.versus.vs = Some(
                        $crate::core::scenario::Vs::parse(v)
                            .map_err($crate::core::scenario::ParamErrorKind::Invalid)?,
                    );
                    Ok(())
                },
                write: |s, link| link.text("vs", s.versus.vs.as_ref().map($crate::core::scenario::Vs::write).as_deref()),
                json: { "vs": |s| s.versus.vs.as_ref().map($crate::core::scenario::Vs::write).into() },
                readme: (
                    "the candidate B compared with the deployment shown (A) at the target: the selectors a link uses to pick a deployment (`gpu`, `gpus`, `cfg`) and its `src`, as one query string, percent-encoded, e.g. `vs=gpu%3DB200%26gpus%3D1` (B200, 1 GPU); A's model, in A's source when `src` is left out. A `vs` that names no sweep, or names A itself, is said and the rest of the scenario stands",
                    "none"
                ),
            }
            /// The tolerance of the comparison's verdict.
            tol {
                keys: ["tol"],
                group: Comparison,
                needs: "vs",
                read: |r, _, v| {
                    r.versus.tol_pct = $crate::core::scenario::parse_tol(v)
                        .map_err($crate::core::scenario::ParamErrorKind::Invalid)?;
                    Ok(())
                },
                write: |s, link| {
                    if s.versus.tol_pct != $crate::core::plan::ab::DEFAULT_TOL_PCT {
                        link.number("tol", Some(s.versus.tol_pct));
                    }
                },
                json: { "tol_percent": |s| s.versus.tol_pct.into() },
                readme: (
                    "the comparison's tolerance, percent (0 to 50): B is better when the low end of the ratio's interval is above 1 + tol, worse when its high end is below 1 − tol",
                    "2"
                ),
            }
        }
    };
}

/// A parameter's entry in the JSON download's `scenario`: a JSON value, or objects whose keys
/// keep the order given (written by `core::wire::scenario_json`).
#[derive(Clone, Debug, PartialEq)]
pub enum JsonEntry {
    /// A value.
    Value(serde_json::Value),
    /// Objects, each its keys and values in order.
    Objects(Vec<Vec<(&'static str, serde_json::Value)>>),
}

impl<T: Into<serde_json::Value>> From<T> for JsonEntry {
    fn from(value: T) -> JsonEntry {
        JsonEntry::Value(value.into())
    }
}

/// The part of a [`Scenario`] a parameter sets: all but the deployment and the comparison are
/// carried when the page opens another source ([`Scenario::with_slo_of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// The data and the deployment picked in it.
    Deployment,
    /// The SLO: target, statistic, limits, attainment.
    Slo,
    /// The fleet, cost and energy inputs, and the load over time.
    Fleet,
    /// How the page shows the answer (chart axis, side-by-side table).
    View,
    /// The comparison with a candidate (`vs`, `tol`): not carried to another source, whose
    /// sweeps are others.
    Comparison,
}

/// One link parameter, as every front reads and writes it (declared in
/// [`scenario_params!`](crate::scenario_params)).
pub struct Param {
    /// The link's keys (one, or `tps` and `tpot` for the target).
    pub keys: &'static [&'static str],
    /// The part of the scenario it sets.
    pub group: Group,
    /// The parameter it qualifies (`vs` for `tol`): without it, it is not read (a message names
    /// what it needs) nor written back.
    pub needs: Option<&'static str>,
    pub(super) read: ParamReader,
    pub(super) write: fn(&Scenario, &mut Link),
}

/// Reads one parameter's value (its key, then its value) into what the link says; `Err` is what
/// was wrong with it.
type ParamReader = fn(&mut Read, &str, &str) -> Result<(), ParamErrorKind>;

/// One optional fleet, cost and energy input of the page's form: its URL key (also the form's
/// `input-KEY` hook), label, unit, what it accepts, and its field of [`CapacityInputs`].
pub struct FleetInput {
    /// URL key, e.g. `kwh_price`.
    pub key: &'static str,
    /// Form label, e.g. `Electricity price`.
    pub label: &'static str,
    /// Unit shown after the label, e.g. `$ per kWh`.
    pub unit: &'static str,
    /// What the input accepts.
    pub kind: InputKind,
    /// The input's field.
    pub field: fn(&mut CapacityInputs) -> &mut Option<f64>,
}

impl FleetInput {
    /// The input's value in `inputs`.
    pub fn get(&self, inputs: &CapacityInputs) -> Option<f64> {
        let mut inputs = *inputs;
        *(self.field)(&mut inputs)
    }
}

/// The parameter a declaration qualifies: its `needs`, when it has one.
const fn qualified(needs: &[&'static str]) -> Option<&'static str> {
    match needs {
        [needs] => Some(*needs),
        _ => None,
    }
}

/// Declares [`PARAMS`] and [`FLEET_INPUTS`] from the list.
macro_rules! declare_params {
    ($(
        $(#[$doc:meta])*
        $name:ident {
            keys: [$($key:literal),+],
            group: $group:ident,
            $(needs: $needs:literal,)?
            read: $read:expr,
            write: $write:expr,
            json: { $($json:tt)* },
            $(form: {
                label: $label:literal,
                unit: $unit:literal,
                kind: $kind:ident,
                field: $field:expr,
            },)?
            readme: ($meaning:literal, $default:literal),
        }
    )*) => {
        /// Every link parameter, in the order a link writes them: the one list of what a link
        /// may hold (see [`scenario_params!`](crate::scenario_params)).
        pub const PARAMS: &[Param] = &[$(
            Param {
                keys: &[$($key),+],
                group: Group::$group,
                needs: qualified(&[$($needs)?]),
                read: $read,
                write: $write,
            },
        )*];

        /// The fleet, cost and energy inputs of the page's form, in form and URL order.
        pub const FLEET_INPUTS: &[FleetInput] = &[$($(
            FleetInput {
                key: stringify!($name),
                label: $label,
                unit: $unit,
                kind: InputKind::$kind,
                field: $field,
            },
        )?)*];
    };
}

crate::scenario_params!(declare_params);

/// Every URL key a scenario reads, in the order a link writes them: the one list of them, for
/// front ends that take the same parameters another way (the command line's `--KEY VALUE`).
pub fn param_keys() -> Vec<&'static str> {
    PARAMS.iter().flat_map(|p| p.keys.iter().copied()).collect()
}

/// True when `key` is a parameter of the fleet, cost and energy inputs or of the load over time
/// ([`Group::Fleet`]).
pub fn is_fleet_param(key: &str) -> bool {
    PARAMS
        .iter()
        .any(|p| p.group == Group::Fleet && p.keys.contains(&key))
}

/// A link being written: its parameters in order, encoded as a query string, and how many.
pub struct Link(form_urlencoded::Serializer<'static, String>, usize);

impl Link {
    /// Adds `key=value`.
    pub fn pair(&mut self, key: &str, value: &str) {
        self.0.append_pair(key, value);
        self.1 += 1;
    }

    /// Adds `key=value` when there is a value.
    pub fn text(&mut self, key: &str, value: Option<&str>) {
        if let Some(value) = value {
            self.pair(key, value);
        }
    }

    /// Adds `key=NUMBER` when there is a number, written as a link writes numbers
    /// ([`url_number`](crate::core::model::format::url_number)).
    pub fn number(&mut self, key: &str, value: Option<f64>) {
        if let Some(v) = value {
            self.pair(key, &crate::core::model::format::url_number(v));
        }
    }
}

/// The query string of `scenario`, without the leading `?`: each parameter of [`PARAMS`] writes
/// itself, in order, but one that qualifies another ([`Param::needs`]) the link does not hold.
pub(super) fn query_of(scenario: &Scenario) -> String {
    let mut link = Link(form_urlencoded::Serializer::new(String::new()), 0);
    let mut written: Vec<&str> = Vec::new();
    for param in PARAMS {
        if param.needs.is_some_and(|needs| !written.contains(&needs)) {
            continue;
        }
        let before = link.1;
        (param.write)(scenario, &mut link);
        if link.1 > before {
            written.push(param.keys[0]);
        }
    }
    link.0.finish()
}

#[cfg(test)]
mod tests {
    use super::{param_keys, Group, PARAMS};

    /// Declares `readme_rows` from the list: each parameter's row of the README's table.
    macro_rules! declare_readme_rows {
        ($(
            $(#[$doc:meta])*
            $name:ident {
                keys: [$($key:literal),+],
                group: $group:ident,
                $(needs: $needs:literal,)?
                read: $read:expr,
                write: $write:expr,
                json: { $($json:tt)* },
                $(form: { $($form:tt)* },)?
                readme: ($meaning:literal, $default:literal),
            }
        )*) => {
            /// The README's table of parameters, a row per declaration (a parameter that
            /// qualifies another says so after its meaning).
            fn readme_rows() -> Vec<String> {
                vec![$({
                    let keys: Vec<String> = [$($key),+].iter().map(|k| format!("`{k}`")).collect();
                    let needs = super::qualified(&[$($needs)?]);
                    let alone = needs.map_or_else(String::new, |n| {
                        format!("; read only with `{n}` (alone, it is named and left out of the link)")
                    });
                    format!("| {} | {}{alone} | {} |", keys.join(" or "), $meaning, $default)
                }),*]
            }
        };
    }

    crate::scenario_params!(declare_readme_rows);

    #[test]
    fn the_readme_table_is_the_declarations() {
        let readme = include_str!("../../../README.md");
        let table: Vec<&str> = readme
            .split("| parameter | meaning | default |\n|---|---|---|\n")
            .nth(1)
            .expect("the README has its table of parameters")
            .lines()
            .take_while(|l| l.starts_with('|'))
            .collect();
        let rows = readme_rows();
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(
                table.get(i).copied(),
                Some(row.as_str()),
                "row {} of the README's table of parameters should be:\n{row}",
                i + 1
            );
        }
        assert_eq!(
            table.len(),
            rows.len(),
            "the README's table has rows no parameter declares"
        );
    }

    #[test]
    fn each_key_is_declared_once_and_fleet_keys_are_the_fleet_group() {
        let mut keys = param_keys();
        let count = keys.len();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), count);
        assert!(PARAMS
            .iter()
            .filter(|p| p.group == Group::Fleet)
            .all(|p| super::is_fleet_param(p.keys[0])));
    }
}
