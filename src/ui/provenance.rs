//! The data panel: where the shown sweep's numbers come from and what the source does not say.

use std::sync::Arc;

use leptos::prelude::*;

use crate::core::model::deployment::Deployment;
use crate::core::model::format::{gpus, grouped};
use crate::core::model::source::{Provenance, Source};
use crate::core::model::sweep::Sweep;

fn stated(value: &Option<String>) -> String {
    value.clone().unwrap_or_else(|| "not stated".to_string())
}

/// Provenance of the sweep at `sweep_index`: source, task, date, hardware, parallelism,
/// precision, average output length, and each condition the source does not state.
#[component]
pub fn ProvenancePanel(source: Arc<Source>, sweep_index: Signal<Option<usize>>) -> impl IntoView {
    move || {
        let index = sweep_index.get()?;
        let sweep = &source.sweeps[index];
        let d = &sweep.deployment;
        let model = &source.models[sweep.model_index];
        let p = &source.provenance;
        let output_len = output_length(sweep);
        let engine = engine(d, p);
        let mut items: Vec<(&str, String)> = vec![
            ("Source", p.publisher.clone()),
            (
                "Task",
                format!("{} ({})", source.task_display_name, source.task),
            ),
            (
                "Data date",
                d.date
                    .clone()
                    .or_else(|| p.date.clone())
                    .unwrap_or_else(|| "not stated".into()),
            ),
            (
                "Model",
                format!("{} · {}", model.model_id, model.size_label()),
            ),
            (
                "Hardware",
                format!(
                    "{} × {}",
                    gpus(sweep.deployment.num_gpus),
                    sweep.deployment.gpu
                ),
            ),
            ("Parallelism", sweep.deployment.parallelism_label()),
            ("Precision", sweep.deployment.precision.clone()),
        ];
        items.extend(
            d.stated()
                .into_iter()
                .filter(|(name, _)| !matches!(*name, "Engine" | "Engine version" | "Date")),
        );
        items.extend([
            ("Average output length", output_len),
            ("Engine and version", engine),
            ("Input length distribution", stated(&p.input_lengths)),
            ("Warm-up", stated(&p.warmup)),
        ]);
        Some(view! {
            <details class="provenance" data-testid="provenance" open=p.reference>
                <summary>"Where these numbers come from"</summary>
                {p.reference.then(|| view! {
                    <p class="note" data-testid="reference-note">
                        "Published reference systems: shown for reading, not ranked or costed."
                    </p>
                })}
                <dl class="provenance-list">
                    {items.into_iter().map(|(k, v)| {
                        let class = if v.starts_with("not stated") { "muted" } else { "" };
                        view! {
                            <div>
                                <dt>{k}</dt>
                                <dd class=class>{v}</dd>
                            </div>
                        }
                    }).collect_view()}
                </dl>
                <ul>{p.notes.iter().map(|n| view! { <li>{n.clone()}</li> }).collect_view()}</ul>
            </details>
        })
    }
}

/// The sweep's average output length, tokens per request, as a range across its levels (or
/// that it is not stated).
fn output_length(sweep: &Sweep) -> String {
    let lengths: Vec<f64> = sweep.rows.iter().filter_map(|r| r.avg_output_len).collect();
    match (
        lengths.iter().copied().reduce(f64::min),
        lengths.iter().copied().reduce(f64::max),
    ) {
        (Some(lo), Some(hi)) if lengths.len() == sweep.rows.len() => {
            format!(
                "{} to {} tokens per request across levels",
                grouped(lo, 0),
                grouped(hi, 0)
            )
        }
        (Some(lo), Some(hi)) => format!(
            "{} to {} tokens per request where reported (not reported at some levels)",
            grouped(lo, 0),
            grouped(hi, 0)
        ),
        _ => "not stated".to_string(),
    }
}

/// The engine and its version, as the deployment or the source states them.
fn engine(d: &Deployment, p: &Provenance) -> String {
    match (&d.engine, &d.engine_version) {
        (Some(e), Some(v)) => format!("{e} ({v})"),
        (Some(e), None) => format!("{e} (version not stated)"),
        (None, Some(v)) => v.clone(),
        (None, None) => stated(&p.engine),
    }
}
