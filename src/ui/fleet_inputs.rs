//! The optional fleet, cost and energy inputs: one field per entry of `FLEET_INPUTS`, and a
//! price per GPU-hour for each GPU type of the data.

use std::sync::Arc;

use leptos::prelude::*;

use super::fleet_field::{optional_field, FieldLook};
use wasm_split_helpers::wasm_split;

use crate::core::model::format::url_number;
use crate::core::model::source::Source;
use crate::core::scenario::{
    api_text, parse_api, parse_input, FleetInput, InputKind, Scenario, FLEET_INPUTS,
};
use crate::on_demand::{self, Drawn, Failed, Holder};

/// Optional fleet, cost and energy inputs ([`FLEET_INPUTS`]); an empty field means "not given".
/// Folded unless the link sets (or tries to set) one of them, so the answer is near on a phone;
/// the fields are drawn when it is first unfolded (or at once when `open`), by their code loaded
/// on demand ([`fields`]).
#[component]
pub fn Fleet(source: Arc<Source>, scenario: RwSignal<Scenario>, open: bool) -> impl IntoView {
    let draw = on_demand::on_unfold(
        open,
        Holder {
            id: FIELDS,
            lost: "The fleet inputs cannot be drawn",
        },
        move |owner| fields_view(owner, Arc::clone(&source), scenario),
    );
    view! {
        <details class="field fleet" open=open on:toggle=move |_| draw()>
            <summary>"Fleet, cost and energy (optional)"</summary>
            <div id=FIELDS>"Loading…"</div>
        </details>
    }
}

/// The id of the element the fields are drawn into.
const FIELDS: &str = "fleet-fields";

/// Draws the fields into the [`FIELDS`] element under `owner` ([`on_demand::draw_in`]), with
/// their code (loaded on demand).
#[wasm_split(on_demand, fallible)]
fn fields_view(
    owner: Option<Owner>,
    source: Arc<Source>,
    scenario: RwSignal<Scenario>,
) -> Result<Option<Drawn>, Failed> {
    Ok(on_demand::draw_in(owner, FIELDS, move || {
        fields(&source, scenario)
    }))
}

/// One field per fleet input, then the API's price, then the power budget's, then a price per
/// GPU type, then the load over time.
fn fields(source: &Source, scenario: RwSignal<Scenario>) -> impl IntoView {
    view! {
        {FLEET_INPUTS.iter().map(|input| view! {
            // The API's price comes before the cached share that qualifies it.
            {(input.key == "cached").then(|| api_input(scenario))}
            {fleet_input(scenario, input)}
        }).collect_view()}
        <p class="hint">"GPU price above is for every GPU type; a type's own price, below, takes its place."</p>
        {super::power_inputs::power_fields(scenario)}
        {source.gpu_types().into_iter().enumerate().map(|(i, gpu)| gpu_price_input(scenario, i, gpu.to_string())).collect_view()}
        {super::load_inputs::load_fields(scenario)}
    }
}

/// The price per GPU-hour of one GPU type (URL `price=TYPE:PRICE`); empty: that type takes the
/// price for every type, if any.
fn gpu_price_input(scenario: RwSignal<Scenario>, index: usize, gpu: String) -> impl IntoView {
    let initial = scenario.with_untracked(|s| s.fleet.gpu_prices.for_gpu(&gpu, None));
    let look = FieldLook {
        id: format!("price-{index}"),
        testid: "price-input".to_string(),
        label: format!("{gpu} price"),
        unit: "$ per GPU-hour",
        decimal: true,
        gpu: Some(gpu.clone()),
        initial: initial.map(url_number).unwrap_or_default(),
    };
    optional_field(
        look,
        |text| parse_input(InputKind::Amount, text),
        move |v| scenario.update(|s| s.fleet.gpu_prices.set(&gpu, v)),
    )
}

/// A hosted API's price to cost a request against (URL `api`): `INPUT:OUTPUT[:CACHED]`, $ per
/// million tokens.
fn api_input(scenario: RwSignal<Scenario>) -> impl IntoView {
    let initial = scenario.with_untracked(|s| s.fleet.capacity.api.as_ref().map(api_text));
    let look = FieldLook {
        id: "fleet-api".to_string(),
        testid: "input-api".to_string(),
        label: "API price".to_string(),
        unit: "$ per M input:output[:cached input] tokens, e.g. 1.25:10",
        decimal: false,
        gpu: None,
        initial: initial.unwrap_or_default(),
    };
    optional_field(look, parse_api, move |v| {
        scenario.update(|s| s.fleet.capacity.api = v);
    })
}

/// The field of one fleet input (URL `key`), e.g. users or the price for every GPU type.
fn fleet_input(scenario: RwSignal<Scenario>, input: &'static FleetInput) -> impl IntoView {
    let initial = scenario.with_untracked(|s| input.get(&s.fleet.capacity));
    let look = FieldLook {
        id: format!("fleet-{}", input.key),
        testid: format!("input-{}", input.key),
        label: input.label.to_string(),
        unit: input.unit,
        decimal: true,
        gpu: None,
        initial: initial.map(url_number).unwrap_or_default(),
    };
    optional_field(
        look,
        |text| parse_input(input.kind, text),
        move |v| scenario.update(|s| *(input.field)(&mut s.fleet.capacity) = v),
    )
}
