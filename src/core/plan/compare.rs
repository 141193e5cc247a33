//! Deployments side by side: the same SLO planned on every deployment of a model and its
//! precision variants (or of every model), sortable, with the best value per column.

use serde::{Deserialize, Serialize};

use crate::core::model::family::family_key;
use crate::core::model::source::Source;
use crate::core::plan::ab::Arm;
use crate::core::plan::capacity::{at_recommendation, Pricing};
use crate::core::plan::cost::at_recommendation as cost_at;
use crate::core::plan::planner::{plan, Plan, Recommendation, Slo, Status};

/// One deployment planned for the current SLO.
#[derive(Clone, Debug, PartialEq)]
pub struct CompareRow {
    /// Index into `Source::sweeps`.
    pub sweep_index: usize,
    /// The plan for this deployment.
    pub plan: Plan,
    /// Figures at its recommended level, if it has one.
    pub recommendation: Option<Recommendation>,
    /// Its fleet's cost for the scenario's load and its own GPU type's price ([`price_rows`]).
    pub costs: Costs,
}

/// A deployment's fleet and cost at its own recommended level and its own GPU type's price;
/// each `None` when an input or a measured figure it needs is absent.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Costs {
    /// GPUs needed for the load (`users` or `rps`).
    pub gpus_needed: Option<u64>,
    /// Fleet $ per hour (GPU + electricity, the parts priced).
    pub fleet_cost_per_hour: Option<f64>,
    /// Total $ per million output tokens, one replica running full.
    pub total_cost_per_mtok: Option<f64>,
    /// $ per request ÷ the API's $ per request, with an API's price (`api`).
    pub vs_api: Option<f64>,
}

impl CompareRow {
    /// True for `ok` and `all-meet`: some level meets the SLO from the smallest up.
    pub fn meets(&self) -> bool {
        matches!(self.plan.status, Status::Ok | Status::AllMeet)
    }
}

/// A sortable column of the comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Column {
    /// Recommended `max_num_seqs` (higher is better).
    Concurrency,
    /// Output tok/s per GPU (higher is better).
    ThroughputPerGpu,
    /// Aggregate output tok/s (higher is better).
    Throughput,
    /// J/token (lower is better).
    Energy,
    /// Per-user tok/s at the statistic (higher is better).
    UserTps,
    /// Fleet $ per hour for the load (lower is better).
    FleetCostPerHour,
    /// Total $ per million output tokens (lower is better).
    TotalCostPerMtok,
    /// $ per request ÷ a hosted API's (lower is better).
    VsApi,
}

impl Column {
    /// Every sortable column.
    pub const ALL: [Column; 5] = [
        Column::Concurrency,
        Column::ThroughputPerGpu,
        Column::Throughput,
        Column::Energy,
        Column::UserTps,
    ];

    /// The cost columns, shown when prices are given.
    pub const COSTS: [Column; 2] = [Column::FleetCostPerHour, Column::TotalCostPerMtok];

    /// The column against an API, shown when prices and an API's price (`api`) are given.
    pub const API: [Column; 1] = [Column::VsApi];

    /// The column's key in a link (`sort=KEY`): its name in the CSV download's header.
    pub fn key(self) -> &'static str {
        match self {
            Column::Concurrency => "level",
            Column::ThroughputPerGpu => "throughput_per_gpu_tok_s",
            Column::Throughput => "throughput_tok_s",
            Column::Energy => "energy_j_per_token",
            Column::UserTps => "per_user_tok_s",
            Column::FleetCostPerHour => "fleet_cost_usd_per_hour",
            Column::TotalCostPerMtok => "total_cost_usd_per_mtok",
            Column::VsApi => "vs_api",
        }
    }

    /// Whether the column holds values to sort by: a cost needs a GPU price (`priced`), fleet $
    /// per hour a load too (`has_load`), vs API an API's price (`has_api`); the others always.
    pub fn sortable(self, priced: bool, has_load: bool, has_api: bool) -> bool {
        match self {
            Column::FleetCostPerHour => priced && has_load,
            Column::TotalCostPerMtok => priced,
            Column::VsApi => priced && has_api,
            _ => true,
        }
    }

    /// The column whose [`Column::key`] is `key`.
    pub fn from_key(key: &str) -> Option<Column> {
        Column::ALL
            .into_iter()
            .chain(Column::COSTS)
            .chain(Column::API)
            .find(|c| c.key() == key)
    }

    /// True when a higher value is better.
    pub fn higher_is_better(self) -> bool {
        !matches!(
            self,
            Column::Energy | Column::FleetCostPerHour | Column::TotalCostPerMtok | Column::VsApi
        )
    }

    /// The column's value for a row; `None` when the row has no recommendation or the figure is
    /// not reported.
    pub fn value(self, row: &CompareRow) -> Option<f64> {
        let r = row.recommendation.as_ref()?;
        match self {
            Column::Concurrency => Some(r.level),
            Column::ThroughputPerGpu => r.throughput_per_gpu_tok_s,
            Column::Throughput => Some(r.throughput_tok_s),
            Column::Energy => r.energy_per_token_j,
            Column::UserTps => Some(r.user_tps),
            Column::FleetCostPerHour => row.costs.fleet_cost_per_hour,
            Column::TotalCostPerMtok => row.costs.total_cost_per_mtok,
            Column::VsApi => row.costs.vs_api,
        }
    }
}

/// Model indices of a model and its precision variants: ids equal once a trailing `-FP8`
/// (any case) is removed, e.g. `Qwen/Qwen3-235B-A22B-Instruct-2507` and its `-FP8` sibling.
/// The model itself comes first, then the others in source order.
pub fn family(source: &Source, model_index: usize) -> Vec<usize> {
    let Some(model) = source.models.get(model_index) else {
        return Vec::new();
    };
    let key = family_key(&model.model_id);
    std::iter::once(model_index)
        .chain(
            (0..source.models.len())
                .filter(|&i| i != model_index && family_key(&source.models[i].model_id) == key),
        )
        .collect()
}

/// Plans `slo` on each of the given sweeps, in the given order.
pub fn compare(source: &Source, sweep_indices: &[usize], slo: &Slo) -> Vec<CompareRow> {
    sweep_indices
        .iter()
        .filter_map(|&i| {
            let sweep = source.sweeps.get(i)?;
            let plan = plan(sweep, slo);
            let recommendation = plan.recommendation(sweep, slo);
            Some(CompareRow {
                sweep_index: i,
                plan,
                recommendation,
                costs: Costs::default(),
            })
        })
        .collect()
}

/// The deployments of a model and its precision variants, each model's fewest GPUs first.
pub fn family_rows(source: &Source, model_index: usize, slo: &Slo) -> Vec<CompareRow> {
    let sweeps: Vec<usize> = family(source, model_index)
        .into_iter()
        .flat_map(|m| source.sweeps_of(m))
        .collect();
    compare(source, &sweeps, slo)
}

/// Every deployment of every model that meets the SLO, best tok/s per GPU first.
pub fn all_meeting(source: &Source, slo: &Slo) -> Vec<CompareRow> {
    let all: Vec<usize> = (0..source.sweeps.len()).collect();
    let mut rows: Vec<CompareRow> = compare(source, &all, slo)
        .into_iter()
        .filter(CompareRow::meets)
        .collect();
    sort_rows(&mut rows, Column::ThroughputPerGpu, false);
    rows
}

/// Sorts best first by `column` (or worst first when `reversed`); rows without a value always
/// go last. Stable: ties keep their order.
pub fn sort_rows(rows: &mut [CompareRow], column: Column, reversed: bool) {
    crate::core::model::order::sort_by(rows, |a, b| match (column.value(a), column.value(b)) {
        (Some(x), Some(y)) => {
            let best_first = if column.higher_is_better() {
                y.total_cmp(&x)
            } else {
                x.total_cmp(&y)
            };
            if reversed {
                best_first.reverse()
            } else {
                best_first
            }
        }
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
}

/// The side-by-side table for `slo` on `model_id`'s family (or, with `all_models`, every
/// deployment that meets), costed with `pricing` at each deployment's own price, in the order
/// the user chose (`sort`: a column and whether reversed) or else by cost when prices are
/// given; and that cost column.
pub fn table_rows(
    source: &Source,
    slo: &Slo,
    model_id: &str,
    pricing: Pricing,
    all_models: bool,
    sort: Option<(Column, bool)>,
) -> (Vec<CompareRow>, Option<Column>) {
    let mut rows = if all_models {
        all_meeting(source, slo)
    } else {
        source
            .model_index(model_id)
            .map(|m| family_rows(source, m, slo))
            .unwrap_or_default()
    };
    let cost = price_rows(&mut rows, source, slo, pricing, sort.is_some());
    if let Some((column, reversed)) = sort {
        sort_rows(&mut rows, column, reversed);
    }
    (rows, cost)
}

/// Fills each row's [`Costs`] for `slo` and `pricing`'s load and prices, each deployment at its own GPU
/// type's price; then, when no column is chosen (`sorted` false), sorts by the cost that
/// answers "what is cheapest": fleet $ per hour with a load, else total $ per million tokens
/// (rows that do not meet, or have no price, go last). Returns that cost column, if prices are
/// given.
pub fn price_rows(
    rows: &mut [CompareRow],
    source: &Source,
    slo: &Slo,
    pricing: Pricing,
    sorted: bool,
) -> Option<Column> {
    for row in rows.iter_mut() {
        let sweep = &source.sweeps[row.sweep_index];
        let inputs = pricing.for_gpu(&sweep.deployment.gpu);
        // A deployment whose GPU type has no price is never costed: electricity alone would
        // rank it cheap.
        let gpu_priced = inputs.price_per_gpu_hour.is_some();
        if let Some(c) = at_recommendation(sweep, &row.plan, slo, &inputs) {
            row.costs = Costs {
                gpus_needed: c.gpus,
                fleet_cost_per_hour: c.fleet_cost_per_hour.filter(|_| gpu_priced),
                total_cost_per_mtok: c.total_cost_per_mtok.filter(|_| gpu_priced),
                vs_api: cost_at(sweep, &row.plan, slo, &inputs)
                    .and_then(|c| c.vs_api)
                    .filter(|_| gpu_priced),
            };
        }
    }
    let priced = pricing.priced();
    let load = pricing.capacity.has_load();
    let column = priced.then_some(if load {
        Column::FleetCostPerHour
    } else {
        Column::TotalCostPerMtok
    })?;
    if !sorted {
        sort_rows(rows, column, false);
    }
    Some(column)
}

/// The cheapest deployment by `column` among the rows that meet the SLO and have that cost.
pub fn cheapest(rows: &[CompareRow], column: Column) -> Option<&CompareRow> {
    rows.iter()
        .filter(|r| r.meets())
        .filter_map(|r| column.value(r).map(|v| (r, v)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(r, _)| r)
}

/// The best value of `column` over the rows (highest, or lowest for J/token), if any row has one.
pub fn best(rows: &[CompareRow], column: Column) -> Option<f64> {
    let values = rows.iter().filter_map(|r| column.value(r));
    if column.higher_is_better() {
        values.reduce(f64::max)
    } else {
        values.reduce(f64::min)
    }
}

/// Why a deployment has no recommendation, in a few words.
pub fn why_none(row: &CompareRow) -> String {
    match &row.plan.status {
        Status::Unattainable => "none: smallest level fails".into(),
        Status::NoData {
            records_missing: true,
            ..
        } => "none: no per-request records".into(),
        Status::NoData { missing, .. } if missing.is_empty() => {
            "none: its statistics are never reported together".into()
        }
        Status::NoData { missing, .. } => format!(
            "none: no {}",
            missing
                .iter()
                .map(|s| s.key())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        _ => "none".into(),
    }
}

/// An arm planned on its own at `slo`: its recommended level's figures and its fleet's cost for
/// `pricing`'s load at its own GPU type's price (as the side-by-side table counts them);
/// `None` when the arm names no sweep.
pub fn recommended(arm: Arm, slo: &Slo, pricing: Pricing) -> Option<CompareRow> {
    let mut rows = compare(arm.source, &[arm.sweep_index], slo);
    price_rows(&mut rows, arm.source, slo, pricing, true);
    rows.pop()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::import::bundled::lm_arena_chat;
    use crate::core::model::sweep::Statistic;
    use crate::core::plan::planner::Target;
    use crate::core::scenario::Scenario;

    fn slo(tps: f64) -> Slo {
        Slo::new(Target::TokensPerSecond(tps), Statistic::P50)
    }

    /// A column's link key is its name in the CSV download, so `sort=` reads as the file does.
    #[test]
    fn every_sortable_column_is_named_as_in_the_csv_download() {
        let header = crate::core::wire::export::csv_header();
        for column in Column::ALL.into_iter().chain(Column::COSTS) {
            assert!(header.contains(&column.key()), "{column:?}");
            assert_eq!(Column::from_key(column.key()), Some(column));
        }
        assert_eq!(Column::from_key("J/token"), None);
    }

    #[test]
    fn family_joins_precision_variants() {
        let source = lm_arena_chat();
        let qwen = source
            .model_index("Qwen/Qwen3-235B-A22B-Instruct-2507")
            .unwrap();
        let fp8 = source
            .model_index("Qwen/Qwen3-235B-A22B-Instruct-2507-FP8")
            .unwrap();
        assert_eq!(family(source, qwen), vec![qwen, fp8]);
        assert_eq!(family(source, fp8), vec![fp8, qwen]);
        let llama8 = source
            .model_index("meta-llama/Llama-3.1-8B-Instruct")
            .unwrap();
        assert_eq!(family(source, llama8), vec![llama8]);
        // 3 bf16 + 3 FP8 deployments.
        assert_eq!(family_rows(source, qwen, &slo(20.0)).len(), 6);
    }

    #[test]
    fn sorting_puts_best_first_and_missing_last() {
        let source = lm_arena_chat();
        let qwen = source
            .model_index("Qwen/Qwen3-235B-A22B-Instruct-2507")
            .unwrap();
        let mut rows = family_rows(source, qwen, &slo(20.0));
        sort_rows(&mut rows, Column::Energy, false);
        let energies: Vec<Option<f64>> = rows.iter().map(|r| Column::Energy.value(r)).collect();
        let known: Vec<f64> = energies.iter().flatten().copied().collect();
        assert!(known.windows(2).all(|w| w[0] <= w[1]));
        assert!(energies
            .iter()
            .skip_while(|e| e.is_some())
            .all(Option::is_none));
        assert_eq!(best(&rows, Column::Energy), known.first().copied());
        sort_rows(&mut rows, Column::ThroughputPerGpu, true);
        let tputs: Vec<f64> = rows
            .iter()
            .filter_map(|r| Column::ThroughputPerGpu.value(r))
            .collect();
        assert!(tputs.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn all_meeting_lists_only_meeting_deployments_by_throughput_per_gpu() {
        let source = lm_arena_chat();
        // At 25 tok/s every deployment's smallest level meets.
        assert_eq!(all_meeting(source, &slo(25.0)).len(), 38);
        let rows = all_meeting(source, &slo(100.0));
        assert!(!rows.is_empty() && rows.len() < source.sweeps.len());
        assert!(rows.iter().all(CompareRow::meets));
        let tputs: Vec<f64> = rows
            .iter()
            .filter_map(|r| Column::ThroughputPerGpu.value(r))
            .collect();
        assert_eq!(tputs.len(), rows.len());
        assert!(tputs.windows(2).all(|w| w[0] >= w[1]));
        // The Llama-3.1-8B on 1 x H100 row is the planner's own answer: 100 tok/s = 10 ms;
        // 16 at 7.91 ms meets, 32 at 8.91 ms meets, 64 at 11.5 ms fails.
        let llama = rows
            .iter()
            .find(|r| {
                let s = &source.sweeps[r.sweep_index];
                source.models[s.model_index].model_id == "meta-llama/Llama-3.1-8B-Instruct"
                    && s.deployment.gpu == "H100"
            })
            .unwrap();
        assert_eq!(llama.recommendation.as_ref().unwrap().level, 32.0);
    }

    #[test]
    fn with_a_load_and_prices_rows_rank_by_fleet_cost_and_the_cheapest_is_named() {
        let source = lm_arena_chat();
        let (scenario, _) = Scenario::from_query(
            "model=meta-llama%2FLlama-3.1-8B-Instruct&tps=20&rps=40&price=H100:2.49,B200:5.99&kwh_price=0.1",
            source,
        );
        let model = source.model_index(&scenario.deployment.model_id).unwrap();
        let mut rows = family_rows(source, model, &scenario.slo);
        let column = price_rows(&mut rows, source, &scenario.slo, scenario.pricing(), false);
        assert_eq!(column, Some(Column::FleetCostPerHour));
        let costs: Vec<Option<f64>> = rows.iter().map(|r| r.costs.fleet_cost_per_hour).collect();
        let known: Vec<f64> = costs.iter().flatten().copied().collect();
        assert!(known.windows(2).all(|w| w[0] <= w[1]), "{costs:?}");
        // Rows without a cost come after those with one.
        let first_none = costs
            .iter()
            .position(Option::is_none)
            .unwrap_or(costs.len());
        assert!(costs[first_none..].iter().all(Option::is_none));
        let best = cheapest(&rows, Column::FleetCostPerHour).unwrap();
        let sweep = &source.sweeps[best.sweep_index];
        assert_eq!(
            (sweep.deployment.gpu.as_str(), sweep.deployment.num_gpus),
            ("H100", Some(1))
        );
        assert!((best.costs.fleet_cost_per_hour.unwrap() - 5.12).abs() < 0.005);
        // Prices without a load: ranked by total $ per million output tokens.
        let (no_load, _) = Scenario::from_query("tps=20&price=2.5", source);
        let mut rows = family_rows(source, model, &no_load.slo);
        assert_eq!(
            price_rows(&mut rows, source, &no_load.slo, no_load.pricing(), false),
            Some(Column::TotalCostPerMtok)
        );
        // No prices: nothing is ranked by cost.
        let (plain, _) = Scenario::from_query("tps=20", source);
        assert_eq!(
            price_rows(&mut rows, source, &plain.slo, plain.pricing(), false),
            None
        );
    }

    #[test]
    fn a_deployment_without_a_gpu_price_is_never_costed_ranked_or_named_cheapest() {
        let source = lm_arena_chat();
        let query =
            "model=meta-llama%2FLlama-3.1-8B-Instruct&tps=20&rps=40&price=H100:2.49&kwh_price=0.1";
        let (scenario, _) = Scenario::from_query(query, source);
        let model = source.model_index(&scenario.deployment.model_id).unwrap();
        let mut rows = family_rows(source, model, &scenario.slo);
        let column =
            price_rows(&mut rows, source, &scenario.slo, scenario.pricing(), false).unwrap();
        let gpu = |r: &CompareRow| source.sweeps[r.sweep_index].deployment.gpu.clone();
        let b200 = rows.iter().find(|r| gpu(r) == "B200").unwrap();
        // Its electricity ($0.162 per hour) alone would have made it the cheapest.
        assert_eq!(b200.costs.fleet_cost_per_hour, None);
        assert_eq!(b200.costs.total_cost_per_mtok, None);
        assert_eq!(b200.costs.gpus_needed, Some(3));
        assert_eq!(gpu(cheapest(&rows, column).unwrap()), "H100");
        // Electricity only, no GPU price: nothing is costed or ranked.
        let (kwh_only, _) = Scenario::from_query(
            "model=meta-llama%2FLlama-3.1-8B-Instruct&tps=20&rps=40&kwh_price=0.1",
            source,
        );
        assert_eq!(
            price_rows(&mut rows, source, &kwh_only.slo, kwh_only.pricing(), false),
            None
        );
        assert!(!kwh_only.priced());
    }
}
