//! Resolving what a link names against a source: the deployment (GPU type and count), its
//! configuration, and the statistic judged by default, each falling back with a named error.

use super::errors::{ParamError, ParamErrorKind};
use super::values::echo;
use super::DEFAULT_GPU;
use crate::core::model::source::Source;
use crate::core::model::sweep::{Statistic, Sweep};

/// The statistic a sweep is judged on by default: p50 ITL if it reports it, else its first
/// per-token statistic (p50 ITL when it reports none).
pub(super) fn default_stat(sweep: &Sweep) -> Statistic {
    let has = sweep.statistics();
    if has.contains(&Statistic::P50) {
        return Statistic::P50;
    }
    has.into_iter()
        .find(|s| s.is_per_token())
        .unwrap_or(Statistic::P50)
}

/// Picks the configuration among the sweeps with this model, GPU and count (newest date first):
/// the named one if it exists; else, for a link made before sweeps were told apart by every
/// identity field, the one sweep whose label contains the old label; else the first, with a
/// message. `None` when that sweep is the only one (it needs no `cfg`).
pub(super) fn resolve_config(
    source: &Source,
    model_index: usize,
    gpu: &str,
    num_gpus: Option<u32>,
    cfg: Option<String>,
    errors: &mut Vec<ParamError>,
) -> Option<String> {
    let candidates: Vec<usize> = source
        .sweeps_of(model_index)
        .into_iter()
        .filter(|&i| {
            let d = &source.sweeps[i].deployment;
            d.gpu == gpu && d.num_gpus == num_gpus
        })
        .collect();
    let first = candidates.first().and_then(|&i| source.sweep_cfg(i));
    let Some(wanted) = cfg else {
        return first.map(str::to_string);
    };
    if candidates
        .iter()
        .any(|&i| source.sweep_cfg(i) == Some(wanted.as_str()))
    {
        return Some(wanted);
    }
    // A link made before: its `cfg` was a label whose parts (comma-separated), e.g.
    // "sglang, 1024/1024" or "PP2", each name one of the sweep's identity fields.
    let parts: Vec<String> = wanted
        .split(", ")
        .map(|p| p.trim().to_ascii_lowercase())
        .filter(|p| !p.is_empty())
        .collect();
    let legacy: Vec<usize> = candidates
        .iter()
        .copied()
        .filter(|&i| {
            let fields = source.sweeps[i].deployment.field_texts();
            let holds = |part: &String| {
                fields.iter().any(|f| {
                    let f = f.to_ascii_lowercase();
                    f == *part || f.split(' ').any(|word| word == part)
                })
            };
            !parts.is_empty() && parts.iter().all(holds)
        })
        .collect();
    match legacy[..] {
        [only] => return source.sweep_cfg(only).map(str::to_string),
        [newest, ..] => {
            let chosen = source.sweep_cfg(newest).unwrap_or_default();
            errors.push(ParamError::new(
                "cfg",
                ParamErrorKind::CfgAmbiguous {
                    value: echo(&wanted),
                    matches: legacy.len(),
                    shown: echo(chosen),
                },
            ));
            return Some(chosen.to_string()).filter(|c| !c.is_empty());
        }
        [] => {}
    }
    errors.push(ParamError::new(
        "cfg",
        ParamErrorKind::CfgUnknown {
            value: echo(&wanted),
            shown: first.map(str::to_string),
        },
    ));
    first.map(str::to_string)
}

/// Picks the deployment of a model: the named GPU type if the model has it (else H100, else the
/// model's first GPU), then the named GPU count if measured (else the fewest GPUs).
pub(super) fn resolve_deployment(
    source: &Source,
    model_index: usize,
    gpu: Option<String>,
    num_gpus: Option<u32>,
    errors: &mut Vec<ParamError>,
) -> (String, Option<u32>) {
    let sweeps: Vec<_> = source
        .sweeps_of(model_index)
        .into_iter()
        .map(|i| &source.sweeps[i])
        .collect();
    let known_gpu = |name: &str| {
        sweeps
            .iter()
            .find(|s| s.deployment.gpu.eq_ignore_ascii_case(name))
            .map(|s| s.deployment.gpu.clone())
    };
    let fallback_gpu = known_gpu(DEFAULT_GPU).unwrap_or_else(|| {
        sweeps
            .first()
            .map(|s| s.deployment.gpu.clone())
            .unwrap_or_default()
    });
    let gpu = match gpu.as_deref().map(|name| (name, known_gpu(name))) {
        Some((_, Some(known))) => known,
        Some((name, None)) => {
            errors.push(ParamError::new(
                "gpu",
                ParamErrorKind::GpuNotMeasured {
                    value: echo(name),
                    shown: fallback_gpu.clone(),
                },
            ));
            fallback_gpu
        }
        None => fallback_gpu,
    };
    let counts: Vec<Option<u32>> = sweeps
        .iter()
        .filter(|s| s.deployment.gpu == gpu)
        .map(|s| s.deployment.num_gpus)
        .collect();
    // The fewest stated count; a sweep without a stated count only when there is no other.
    let fewest = counts.iter().flatten().copied().min();
    let num_gpus = match num_gpus {
        Some(n) if counts.contains(&Some(n)) => Some(n),
        Some(n) => {
            errors.push(ParamError::new(
                "gpus",
                ParamErrorKind::GpusNotMeasured {
                    count: n,
                    gpu: gpu.clone(),
                    shown: fewest,
                },
            ));
            fewest
        }
        None => fewest,
    };
    (gpu, num_gpus)
}
