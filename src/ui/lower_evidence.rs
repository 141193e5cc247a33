//! The evidence below the chart: the deployments side by side, the whole sweep, the requests,
//! where the numbers come from and how they are computed. Its code is loaded on demand when its
//! place comes near the viewport (scrolled, resized, or reached by the keyboard), or at once
//! when the link's `#fragment` names a part of the page: a first visit that reads the answer and
//! the chart does not fetch it.

use std::sync::Arc;

use leptos::prelude::*;
use wasm_split_helpers::wasm_split;

use super::compare::Order;
use super::near_view::{draw_evidence, linked_to_a_part, near_view, Place, Settle};
use super::plan_shown::PlanShown;
use crate::on_demand::{Drawn, Failed};

/// The id of the element the evidence is drawn into.
const HOLDER: &str = "lower-evidence";

/// The evidence's place, and once it is near the viewport the evidence, drawn by its code
/// loaded on demand (see the module's docs).
#[component]
pub fn LowerEvidence(
    /// The data, the scenario and the plan the evidence shows.
    shown: PlanShown,
    open_sweep: Callback<usize>,
    compare: (Memo<Order>, Callback<Order>),
    /// True until the evidence is drawn or its place is found far from the viewport: the
    /// page's evidence is not `ready` before.
    pending: RwSignal<bool>,
    /// The id of an element of it to focus once drawn (carried over a mount on the whole
    /// bundled data): it is drawn at once then.
    refocus: Option<String>,
    /// Keeps the level the requests panel shows in the scenario (URL `requests_at`).
    set_requests_at: Callback<f64>,
) -> impl IntoView {
    let place = Place {
        holder: HOLDER,
        testid: "lower-evidence",
        ahead_px: 200.0,
        button: "Show the deployments side by side, the whole sweep and how it is computed",
        lost: "The tables below the chart cannot be drawn",
    };
    let at_once = refocus.is_some() || linked_to_a_part();
    near_view(place, at_once, pending, move |owner| {
        let wiring = Wiring {
            open_sweep,
            compare: compare.0,
            set_compare: compare.1,
            set_requests_at,
        };
        lower_view(owner, shown.clone(), wiring, refocus.clone())
    })
}

/// What the evidence sets: the deployment shown, the side-by-side table's switch and order, the
/// requests panel's level.
#[derive(Clone, Copy)]
struct Wiring {
    open_sweep: Callback<usize>,
    compare: Memo<Order>,
    set_compare: Callback<Order>,
    set_requests_at: Callback<f64>,
}

/// Draws the evidence into the [`HOLDER`] element under `owner` ([`draw_evidence`]), with its
/// code (loaded on demand); then scrolls to the part the link's `#fragment` names, and focuses
/// `refocus` (else itself, when the focus was on its place).
#[wasm_split(on_demand, fallible)]
fn lower_view(
    owner: Option<Owner>,
    shown: PlanShown,
    wiring: Wiring,
    refocus: Option<String>,
) -> Result<Option<Drawn>, Failed> {
    let Wiring {
        open_sweep,
        compare,
        set_compare,
        set_requests_at,
    } = wiring;
    let settle = Settle {
        scroll: true,
        refocus,
    };
    Ok(draw_evidence(owner, HOLDER, settle, move || {
        let source = Arc::clone(&shown.source);
        let (scenario, result) = (shown.scenario, shown.result);
        let reference = source.provenance.reference;
        view! {
            {(!reference).then(|| view! {
                <super::cost::Cost shown=shown.clone() />
                <super::compare::Compare source=Arc::clone(&source) scenario=scenario open_sweep=open_sweep compare=compare set_compare=set_compare />
            })}
            <super::sweep_table::SweepTable shown=shown.clone() />
            <super::requests::Requests shown=shown set_level=set_requests_at />
            <super::provenance::ProvenancePanel
                source=Arc::clone(&source)
                sweep_index=Signal::derive(move || result.with(|r| r.as_ref().map(|(i, _)| *i)))
            />
            <super::method::Method source=source />
        }
    }))
}
