//! What a request costs and a disaggregated deployment's roles: with a price, $ per request,
//! per million total tokens and per role, and with an API's price (`api`) the ratio and the
//! break-even utilisation (`core::plan::cost`), each figure with its formula on hover; for a
//! disaggregated sweep, which GPUs each per-GPU figure divides by and the role figures
//! (`core::text::roles_text`). Drawn with the evidence below the chart, whose code is loaded on
//! demand.

use leptos::prelude::*;

use super::capacity::{escape_dismisses, item};
use super::data_value;
use super::plan_shown::PlanShown;
use crate::core::model::roles::RolePerGpu;
use crate::core::text::cost_text::cost_figures;
use crate::core::text::roles_text::roles_lines;

/// The panel, drawn with the evidence below the chart (its code is loaded on demand with it):
/// nothing without a price or roles.
#[component]
pub fn Cost(shown: PlanShown) -> impl IntoView {
    let dismissed = escape_dismisses();
    // The roles, then the cost figures with their notes, for the shown scenario.
    move || {
        let (i, plan, s) = shown.now()?;
        let sweep = &shown.source.sweeps[i];
        let level = plan.recommended.and_then(|l| sweep.levels().get(l));
        let roles = sweep.deployment.roles().copied();
        let roles_view = roles.map(|r| {
            let per_gpu = level
                .map(|l| RolePerGpu::of(&r, l.throughput_tok_s, l.input_tok_s))
                .unwrap_or_default();
            view! {
                <div
                    data-testid="roles"
                    data-prefill-gpus=super::attr(r.prefill.gpus)
                    data-decode-gpus=super::attr(r.decode.gpus)
                    data-output-per-decode-gpu=per_gpu.output_tok_s_per_decode_gpu.map(data_value).unwrap_or_default()
                    data-input-per-prefill-gpu=per_gpu.input_tok_s_per_prefill_gpu.map(data_value).unwrap_or_default()
                >
                    <h3>"Prefill and decode roles"</h3>
                    {roles_lines(sweep, level).into_iter().map(|l| view! { <p class="hint">{l}</p> }).collect_view()}
                </div>
            }
        });
        let inputs = s.capacity_for(&sweep.deployment.gpu);
        let cost = cost_figures(sweep, &plan, &s.slo, &inputs).map(|(_, figures, notes)| {
            view! {
                <h3>"What a request costs"</h3>
                <dl class="figures">{figures.into_iter().map(|f| item(f, dismissed)).collect_view()}</dl>
                {notes.into_iter().map(|n| view! { <p class="hint" data-testid="cost-note">{n}</p> }).collect_view()}
            }
        });
        (roles_view.is_some() || cost.is_some()).then(|| {
            view! {
                <section class="capacity cost" aria-labelledby="cost-title" data-testid="cost">
                    <h2 id="cost-title">"Per request and per role"</h2>
                    {roles_view}
                    {cost}
                </section>
            }
        })
    }
}
