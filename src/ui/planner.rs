//! The planner for one source: one [`Scenario`] signal, everything else derived from it.

use std::sync::Arc;

use leptos::prelude::*;

use super::compare::Order;
use super::plan_shown::PlanShown;
use crate::browser;
use crate::core::model::source::Source;
use crate::core::plan::capacity::CapacityInputs;
use crate::core::plan::chart::ChartY;
use crate::core::plan::planner::{plan, Plan};
use crate::core::scenario::{is_fleet_param, Fleet, Scenario};

/// The selected sweep's index and its plan under the scenario's SLO; `None` when the scenario
/// names no sweep of `source`.
fn plan_scenario(source: &Source, scenario: &Scenario) -> Option<(usize, Plan)> {
    scenario
        .sweep_index(source)
        .map(|i| (i, plan(&source.sweeps[i], &scenario.slo)))
}

/// Inputs, answer and evidence for `source`, starting from the scenario in `query` (and the
/// model menu's `note`, carried from the planner this one replaces).
///
/// The answer follows every change in the same task. The evidence beneath it (fleet figures,
/// chart, tables, provenance, method) follows a frame later, once the answer is painted: at
/// start-up (drawn once `evidence` is true, a frame after the inputs beside the answer, see
/// `Controls`) and while typing (from `shown`, a copy of the scenario brought up to date after
/// each paint). `main.results[data-evidence]` is `ready` when the evidence shows the current
/// scenario, `pending` while it is catching up.
#[component]
pub fn Planner(
    source: Arc<Source>,
    query: String,
    note: Option<String>,
    /// True once the answer is painted: the inputs beside it are drawn then (see `Controls`).
    painted: Signal<bool>,
    /// True a frame later: the evidence is drawn then.
    evidence: Signal<bool>,
    /// The id of an element of the evidence below the chart to focus once drawn (carried over
    /// a mount on the whole bundled data).
    refocus: Option<String>,
) -> impl IntoView {
    let (initial, mut url_errors) = Scenario::from_query(&query, &source);
    // A statistic the data cannot give is said at the top, with the link's other errors.
    url_errors.extend(initial.unreported_stat(&source));
    // The fleet inputs start unfolded when the link sets one of them, or tries to.
    let fleet_open = initial.fleet.capacity != CapacityInputs::default()
        || !initial.fleet.gpu_prices.0.is_empty()
        || initial.fleet.load.is_some()
        || url_errors.iter().any(|e| is_fleet_param(&e.param));
    // The evidence beneath the answer is drawn at once for a link that sets what it shows.
    let asked = fleet_open || initial.fleet != Fleet::default();
    let scenario = RwSignal::new(initial.clone());
    let shown = RwSignal::new(initial.clone());
    let link_untouched = Memo::new(move |was: Option<&bool>| {
        was.copied().unwrap_or(true) && scenario.with(|s| *s == initial)
    });

    Effect::new(move |_| {
        browser::replace_query(&scenario.with(Scenario::to_query));
    });

    let catching_up = StoredValue::new(false);
    Effect::new(move |_| {
        scenario.track();
        if catching_up.try_get_value() == Some(false) {
            catching_up.set_value(true);
            browser::after_paint(move || {
                // The planner may be gone by then (another source shown): nothing to update.
                let Some(now) = scenario.try_get_untracked() else {
                    return;
                };
                catching_up.try_set_value(false);
                if shown.try_with_untracked(|s| *s != now) == Some(true) {
                    shown.set(now);
                }
            });
        }
    });

    let planned = Arc::clone(&source);
    let result = Memo::new(move |_| scenario.with(|s| plan_scenario(&planned, s)));
    let planned = Arc::clone(&source);
    let shown_result = Memo::new(move |_| shown.with(|s| plan_scenario(&planned, s)));
    let opened = Arc::clone(&source);
    let open_sweep = Callback::new(move |i: usize| {
        scenario.update(|s| *s = s.with_sweep(&opened, i));
    });
    let set_chart_y = Callback::new(move |y: ChartY| scenario.update(|s| s.view.chart_y = y));
    let set_requests_at = Callback::new(move |level: f64| {
        if scenario.with_untracked(|s| s.view.requests_at != Some(level)) {
            scenario.update(|s| s.view.requests_at = Some(level));
        }
    });
    // The side-by-side table's switch and order, as the scenario holds them now: the table
    // follows a press at once, not a frame later with the rest of the evidence.
    let compare = Memo::new(move |_| scenario.with(|s| (s.view.compare_all, s.view.compare_sort)));
    let set_compare = Callback::new(move |(all, sort): Order| {
        if scenario.with_untracked(|s| (s.view.compare_all, s.view.compare_sort) != (all, sort)) {
            scenario.update(|s| {
                s.view.compare_all = all;
                s.view.compare_sort = sort;
            });
        }
    });
    let shown = shown.read_only();
    // The evidence beneath the answer and below the chart, each once its place is near the
    // viewport, are drawn too.
    let upper_pending = RwSignal::new(true);
    let lower_pending = RwSignal::new(true);
    let ready = move || {
        evidence.get()
            && !upper_pending.get()
            && !lower_pending.get()
            && scenario.with(|now| shown.with(|s| s == now))
    };

    view! {
        <super::scenario_errors::ScenarioErrors errors=url_errors visible=link_untouched.into() />
        <div class="layout">
            <super::controls::Controls source=Arc::clone(&source) scenario=scenario fleet_open=fleet_open note=note painted=painted />
            <main class="results" data-evidence=move || if ready() { "ready" } else { "pending" }>
                <super::answer::Answer source=Arc::clone(&source) scenario=scenario result=result />
                <super::ab::AbPanel source=Arc::clone(&source) scenario=scenario />
                {move || evidence.get().then(|| evidence_view(Arc::clone(&source), Evidence { shown, shown_result, open_sweep, set_chart_y, set_requests_at, compare, set_compare, upper_pending, lower_pending, asked, refocus: refocus.clone() }))}
            </main>
        </div>
    }
}

/// What the evidence is drawn with: the scenario shown and its plan; what it sets (the deployment
/// shown, the chart's y axis, the requests panel's level, the side-by-side table's switch and
/// order); whether each part is yet to be drawn, whether the link asks for the upper part at
/// once, and the element to focus once the lower part is drawn.
struct Evidence {
    shown: ReadSignal<Scenario>,
    shown_result: Memo<Option<(usize, Plan)>>,
    open_sweep: Callback<usize>,
    set_chart_y: Callback<ChartY>,
    set_requests_at: Callback<f64>,
    compare: Memo<Order>,
    set_compare: Callback<Order>,
    upper_pending: RwSignal<bool>,
    lower_pending: RwSignal<bool>,
    asked: bool,
    refocus: Option<String>,
}

/// The evidence beneath the answer: fleet figures, power, period and chart (`UpperEvidence`),
/// and below them the tables, provenance and method (`LowerEvidence`), each loaded as it comes
/// near the viewport, for the scenario `shown` and its plan. Not inlined into `Planner`: it is
/// drawn a frame after the answer, and its code is then not compiled before the answer either
/// (the browser compiles a WASM function the first time it runs).
#[inline(never)]
fn evidence_view(source: Arc<Source>, evidence: Evidence) -> impl IntoView {
    let Evidence {
        shown,
        shown_result,
        open_sweep,
        set_chart_y,
        set_requests_at,
        compare,
        set_compare,
        upper_pending,
        lower_pending,
        asked,
        refocus,
    } = evidence;
    let shown = PlanShown {
        source,
        scenario: shown,
        result: shown_result,
    };
    view! {
        <super::upper_evidence::UpperEvidence
            shown=shown.clone()
            open_sweep=open_sweep
            set_chart_y=set_chart_y
            pending=upper_pending
            asked=asked
        />
        <super::lower_evidence::LowerEvidence
            shown=shown
            open_sweep=open_sweep
            compare=(compare, set_compare)
            pending=lower_pending
            refocus=refocus
            set_requests_at=set_requests_at
        />
    }
}
