//! The inputs: model, deployment, target, statistic, tail limits, fleet inputs and "Copy link",
//! each a component of its own, sharing the one `scenario` signal.

use std::sync::Arc;

use leptos::prelude::*;

use super::attain_input::AttainInput;
use super::compare_with::CompareWith;
use super::copy_link::CopyLink;
use super::deployment_select::DeploymentSelect;
use super::fleet_inputs::Fleet;
use super::limits::Limits;
use super::model_select::ModelSelect;
use super::statistic_select::StatisticSelect;
use super::target_input::TargetInput;
use crate::browser;
use crate::core::model::source::Source;
use crate::core::model::sweep::Statistic;
use crate::core::scenario::Scenario;

/// The widest viewport (CSS px) with the narrow layout, the inputs above the answer: the
/// `max-width` of the layout's media query in `style/main.css`.
const NARROW_LAYOUT_MAX_PX: f64 = 800.0;

/// The input panel. Every change updates the one `scenario` signal.
#[component]
pub fn Controls(
    source: Arc<Source>,
    scenario: RwSignal<Scenario>,
    /// Whether the fleet, cost and energy inputs start unfolded.
    fleet_open: bool,
    /// The note the statistic menu starts with (a model chosen before this planner mounted).
    note: Option<String>,
    /// True once the answer has been painted (see `App`).
    painted: Signal<bool>,
) -> impl IntoView {
    let held = Arc::clone(&source);
    let model_index =
        Memo::new(move |_| scenario.with(|s| held.model_index(&s.deployment.model_id)));
    let held = Arc::clone(&source);
    let sweep_index = Memo::new(move |_| scenario.with(|s| s.sweep_index(&held)));
    // The statistics the selected sweep reports (for the statistic menu and the limits).
    let held = Arc::clone(&source);
    let statistics = Memo::new(move |_| {
        sweep_index
            .get()
            .map(|i| held.sweeps[i].statistics())
            .unwrap_or_default()
    });
    // The menus follow these memos, not every change of the scenario (a keystroke in the target).
    let stat = Memo::new(move |_| scenario.with(|s| s.slo.stat));
    // What "Add a limit" may propose (a limit that could never be judged with the target is not).
    let held = Arc::clone(&source);
    let proposable = Memo::new(move |_| {
        let judged = stat.get();
        sweep_index
            .get()
            .map(|i| held.sweeps[i].statistics_for_limits(judged))
            .unwrap_or_default()
    });

    // Said when choosing a model or deployment moved the statistic to one it reports.
    let stat_changed = RwSignal::new(note);

    // Beside the answer (a wide layout), the inputs are drawn once the answer is painted: their
    // column keeps its width meanwhile, so nothing moves. Above it (a narrow layout, see
    // `style/main.css`), they are drawn with it, so the answer is not pushed down.
    let beside_answer = browser::viewport_width() > NARROW_LAYOUT_MAX_PX;
    let drawn = move || !beside_answer || painted.get();

    let held = Arc::clone(&source);
    let records = Memo::new(move |_| {
        sweep_index
            .get()
            .is_some_and(|i| held.sweeps[i].has_request_records())
    });
    let inputs = Inputs {
        source,
        scenario,
        model_index,
        sweep_index,
        statistics,
        stat,
        proposable,
        stat_changed,
        fleet_open,
        records,
    };
    view! {
        <aside class="controls" aria-label="Scenario">
            {move || drawn().then(|| inputs.clone().view())}
        </aside>
    }
}

/// What the inputs share (see [`Controls`]).
#[derive(Clone)]
struct Inputs {
    source: Arc<Source>,
    scenario: RwSignal<Scenario>,
    model_index: Memo<Option<usize>>,
    sweep_index: Memo<Option<usize>>,
    statistics: Memo<Vec<Statistic>>,
    stat: Memo<Statistic>,
    proposable: Memo<Vec<Statistic>>,
    stat_changed: RwSignal<Option<String>>,
    fleet_open: bool,
    records: Memo<bool>,
}

impl Inputs {
    /// The inputs themselves. Not inlined into `Controls`: before the answer is painted they are
    /// not drawn, and their code is then not compiled either (the browser compiles a WASM
    /// function the first time it runs).
    #[inline(never)]
    fn view(self) -> impl IntoView {
        view! {
            <ModelSelect source=Arc::clone(&self.source) scenario=self.scenario model_index=self.model_index stat_changed=self.stat_changed />
            <DeploymentSelect
                source=Arc::clone(&self.source)
                scenario=self.scenario
                model_index=self.model_index
                sweep_index=self.sweep_index
                stat_changed=self.stat_changed
            />
            <CompareWith
                source=Arc::clone(&self.source)
                scenario=self.scenario
                model_index=self.model_index
                sweep_index=self.sweep_index
            />
            <TargetInput scenario=self.scenario />
            <AttainInput scenario=self.scenario records=self.records />
            <StatisticSelect
                source=Arc::clone(&self.source)
                sweep_index=self.sweep_index
                scenario=self.scenario
                statistics=self.statistics
                stat=self.stat
                stat_changed=self.stat_changed
            />
            <Limits scenario=self.scenario statistics=self.statistics proposable=self.proposable />
            <Fleet source=self.source scenario=self.scenario open=self.fleet_open />
            <CopyLink scenario=self.scenario />
        }
    }
}
