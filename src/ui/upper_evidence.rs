//! The evidence beneath the answer: the fleet figures, the power budget, the period and the
//! trade-off chart. Its code is loaded on demand when its place comes into view (scrolled,
//! resized, or reached by the keyboard), or at once when the link sets the fleet inputs, a load
//! or a power budget, or names a part of the page: a first visit in a 1280 × 720 window, which
//! shows the inputs and the answer, does not fetch it (its place starts 120 px below).

use std::sync::Arc;

use leptos::prelude::*;
use wasm_split_helpers::wasm_split;

use super::near_view::{draw_evidence, linked_to_a_part, near_view, Place, Settle};
use super::plan_shown::PlanShown;
use crate::core::plan::chart::ChartY;
use crate::on_demand::{Drawn, Failed};

/// The id of the element the evidence is drawn into.
const HOLDER: &str = "upper-evidence";

/// The evidence's place, and once it is in view the evidence, drawn by its code loaded on
/// demand (see the module's docs).
#[component]
pub fn UpperEvidence(
    /// The data, the scenario and the plan the evidence shows.
    shown: PlanShown,
    open_sweep: Callback<usize>,
    /// Sets what the chart's y axis shows.
    set_chart_y: Callback<ChartY>,
    /// True until the evidence is drawn or its place is found far from the viewport: the
    /// page's evidence is not `ready` before.
    pending: RwSignal<bool>,
    /// True when the link sets what it shows beyond the answer (fleet inputs, a load, a power
    /// budget): it is drawn at once then.
    asked: bool,
) -> impl IntoView {
    let place = Place {
        holder: HOLDER,
        testid: HOLDER,
        ahead_px: 0.0,
        button: "Show the fleet figures and the trade-off chart",
        lost: "The fleet figures and the chart cannot be drawn",
    };
    let linked = linked_to_a_part();
    near_view(place, asked || linked, pending, move |owner| {
        let wiring = Wiring {
            open_sweep,
            set_chart_y,
        };
        upper_view(owner, shown.clone(), wiring, linked)
    })
}

/// What the evidence sets: the deployment shown and the chart's y axis.
#[derive(Clone, Copy)]
struct Wiring {
    open_sweep: Callback<usize>,
    set_chart_y: Callback<ChartY>,
}

/// Draws the evidence into the [`HOLDER`] element under `owner` ([`draw_evidence`]), with its
/// code (loaded on demand); then, for a link to a part of the page (`linked`), scrolls there
/// (what is drawn above it has moved it), and focuses itself when the focus was on its place.
#[wasm_split(on_demand, fallible)]
fn upper_view(
    owner: Option<Owner>,
    shown: PlanShown,
    wiring: Wiring,
    linked: bool,
) -> Result<Option<Drawn>, Failed> {
    let Wiring {
        open_sweep,
        set_chart_y,
    } = wiring;
    let settle = Settle {
        scroll: linked,
        refocus: None,
    };
    Ok(draw_evidence(owner, HOLDER, settle, move || {
        let source = Arc::clone(&shown.source);
        let (scenario, result) = (shown.scenario, shown.result);
        let reference = source.provenance.reference;
        view! {
            {(!reference).then(|| view! {
                <super::capacity::CapacityPanel shown=shown.clone() />
                <div class="autoscaler-opener">
                    <super::why::Opener opens=super::why::Opens::Autoscaler source=Arc::clone(&source) scenario=scenario result=result />
                </div>
            })}
            // The reference systems are not sized as a fleet, but a budget given is answered
            // (or why it cannot be), as on the command line.
            <super::power::Power shown=shown.clone() />
            {(!reference).then(|| view! {
                <super::period::Period shown=shown.clone() />
            })}
            <super::chart::TradeoffChart
                source=source
                scenario=scenario
                result=result
                open_sweep=open_sweep
                set_chart_y=set_chart_y
            />
        }
    }))
}
