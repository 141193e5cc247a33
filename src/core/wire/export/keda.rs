//! The autoscaler as a KEDA `ScaledObject` (`keda.sh/v1alpha1`): one Prometheus trigger on the
//! engine's metric summed over the deployment, `threshold` the recommended level per replica
//! (KEDA's default `AverageValue`: replicas = ceil(query ÷ threshold)), the replicas from the
//! fleet or the load's trough and peak (`plan::autoscaler`), and comments that say where the
//! numbers come from, with the scenario's link. The page's download and the command line's
//! `--autoscaler keda` write this same document; a native test validates it against KEDA's CRD
//! schema.
//!
//! Every text from a file (a model id, a deployment label) is written inside a comment with its
//! line ends and control characters replaced, or as a YAML single-quoted scalar.

use crate::core::model::deployment::LevelKind;
use crate::core::model::format::{amount, grouped, trimmed, url_number};
use crate::core::model::source::Source;
use crate::core::model::sweep::MODEL_NOT_STATED;
use crate::core::plan::autoscaler::Autoscaler;
use crate::core::plan::planner::Plan;
use crate::core::scenario::Scenario;
use crate::core::text::headline::slo_sentence;
use crate::core::text::why_text::at_level;
use crate::core::wire::handoff::ExportError;

/// Where KEDA reaches Prometheus, to be set to the cluster's own.
const SERVER_ADDRESS: &str = "http://prometheus.monitoring.svc:9090";

/// A text for one comment line: control characters (line ends among them) as spaces.
fn comment(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// A YAML single-quoted scalar (`'` doubled, control characters as spaces).
fn quoted(text: &str) -> String {
    format!("'{}'", comment(text).replace('\'', "''"))
}

/// A Kubernetes name from a model id: lower-case letters, digits and `-`, at most 63
/// characters, starting and ending with a letter or digit.
fn k8s_name(model_id: &str) -> String {
    let mut name = String::new();
    for c in model_id.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            name.push(c);
        } else if !name.ends_with('-') && !name.is_empty() {
            name.push('-');
        }
    }
    let name: String = name.chars().take(63).collect();
    let name = name.trim_matches('-');
    if name.is_empty() {
        "llm-server".to_string()
    } else {
        name.to_string()
    }
}

/// The most replicas KEDA's `minReplicaCount` and `maxReplicaCount` hold (int32 in its CRD).
const MAX_REPLICA_COUNT: u64 = i32::MAX as u64;

/// The `ScaledObject`'s name: the model's and the deployment's label's, as [`k8s_name`] writes
/// them, the model's cut so the deployment's (which tells a model's deployments apart) stays
/// whole within 63 characters where it can.
fn object_name(model_id: &str, deployment: &str) -> String {
    let deployment = k8s_name(deployment);
    let room = 63usize.saturating_sub(deployment.len() + 1).max(1);
    let model: String = k8s_name(model_id).chars().take(room).collect();
    k8s_name(&format!("{model}-{deployment}"))
}

/// The comments on what the query selects: the engine whose metric names it uses (stated by the
/// deployment, read from the gauges of its signals, or assumed) and the model it filters on.
fn selection_notes(a: &Autoscaler, engine_stated: bool, model: &str) -> Vec<String> {
    let mut lines = Vec::new();
    match (a.engine.1, engine_stated) {
        (false, _) => lines.push(format!(
            "# The engine is not stated: {}'s metric names are used.",
            a.engine.0.label()
        )),
        (true, false) => lines.push(format!(
            "# The engine is not stated; the server's signals were read from {0}'s gauges, so {0}'s metric names are used.",
            a.engine.0.label()
        )),
        (true, true) => {}
    }
    lines.push(if model == MODEL_NOT_STATED {
        "# The model is not stated in the data: the query sums every model the server reports; add {model_name=\"…\"} (the server's served model name) to select yours.".to_string()
    } else {
        format!(
            "# The query selects model_name {}, the model as the data names it: it must be the name the server serves (the server's --served-model-name); add a label that selects this deployment's pods if other deployments serve the same model.",
            quoted(model)
        )
    });
    lines
}

/// The threshold with its unit, which agrees with it: `383.014 requests running`, `1 request
/// running`, `3.5 completed requests per second`.
fn threshold_text(a: &Autoscaler) -> String {
    let shown = trimmed(a.threshold, 6);
    match a.kind {
        LevelKind::RequestRate => amount(
            shown,
            "completed request per second",
            "completed requests per second",
        ),
        _ => amount(shown, "request running", "requests running"),
    }
}

/// The `ScaledObject` of the deployment `sweep_index` at its recommended level under
/// `scenario`, with the scenario's link `url`.
///
/// Errors: [`ExportError::NoSuchDeployment`], or [`ExportError::NoAutoscaler`] without a
/// recommended level.
pub fn keda_yaml(
    source: &Source,
    scenario: &Scenario,
    sweep_index: usize,
    plan: &Plan,
    url: &str,
) -> Result<String, ExportError> {
    let sweep = source
        .sweeps
        .get(sweep_index)
        .ok_or(ExportError::NoSuchDeployment)?;
    let slo = &scenario.slo;
    let a = scenario
        .autoscaler(sweep, plan, slo)
        .ok_or(ExportError::NoAutoscaler)?;
    let model = &source.models[sweep.model_index].model_id;
    let name = object_name(model, source.sweep_label(sweep_index));
    let threshold = threshold_text(&a);
    let mut lines = vec![
        format!("# KEDA ScaledObject for {} on {}, written by LLM SLO Planner.", comment(model), comment(source.sweep_label(sweep_index))),
        format!("# Scenario: {}", comment(url)),
        format!(
            "# {} is the highest measured level that meets {}.",
            at_level(a.kind, a.targets.level),
            comment(&slo_sentence(slo))
        ),
        format!(
            "# threshold: {threshold} per replica (HPA AverageValue: replicas = ceil(query / threshold))."
        ),
    ];
    if a.kind == LevelKind::MaxNumSeqs {
        lines.push(format!(
            "# On a max_num_seqs sweep the threshold is the batch the level held (avg_batch_size), as {} never passes the cap.",
            a.metric
        ));
    }
    lines.extend(selection_notes(
        &a,
        sweep.deployment.engine.is_some(),
        model,
    ));
    let (min_replicas, max_replicas) = (
        a.min_replicas.min(MAX_REPLICA_COUNT),
        a.max_replicas.map(|m| m.min(MAX_REPLICA_COUNT)),
    );
    if a.max_replicas.is_some_and(|m| m > MAX_REPLICA_COUNT) || a.min_replicas > MAX_REPLICA_COUNT {
        lines.push(format!(
            "# The fleet needs {} replicas, more than KEDA's replica counts hold ({}): capped there.",
            grouped(a.max_replicas.unwrap_or(a.min_replicas).max(a.min_replicas) as f64, 0),
            grouped(MAX_REPLICA_COUNT as f64, 0)
        ));
    }
    lines.push(match (a.from_load, a.max_replicas) {
        (true, _) => "# Replicas: the load's trough and peak at this level.".to_string(),
        (false, Some(_)) => "# Replicas: 1 to the fleet the demand (users or rps) needs at this level.".to_string(),
        (false, None) => "# Replicas: no demand (users, rps or load) was given, so no maxReplicaCount is set (KEDA's default is 100).".to_string(),
    });
    lines.push(
        "# Set scaleTargetRef.name to your inference server's Deployment and serverAddress to your Prometheus."
            .to_string(),
    );
    lines.extend([
        "apiVersion: keda.sh/v1alpha1".to_string(),
        "kind: ScaledObject".to_string(),
        "metadata:".to_string(),
        format!("  name: {name}"),
        "spec:".to_string(),
        "  scaleTargetRef:".to_string(),
        format!("    name: {name}"),
        format!("  minReplicaCount: {min_replicas}"),
    ]);
    if let Some(max) = max_replicas {
        lines.push(format!("  maxReplicaCount: {}", max.max(min_replicas)));
    }
    lines.extend([
        "  triggers:".to_string(),
        "    - type: prometheus".to_string(),
        "      metadata:".to_string(),
        format!("        serverAddress: {SERVER_ADDRESS}"),
        format!("        query: {}", quoted(&a.query)),
        format!("        threshold: {}", quoted(&url_number(a.threshold))),
    ]);
    Ok(lines.join("\n") + "\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_texts_are_safe_in_yaml() {
        assert_eq!(
            k8s_name("meta-llama/Llama-3.1-8B-Instruct"),
            "meta-llama-llama-3-1-8b-instruct"
        );
        assert_eq!(k8s_name("///"), "llm-server");
        assert_eq!(k8s_name(&"a".repeat(100)).len(), 63);
        assert_eq!(quoted("it's\nhere"), "'it''s here'");
        assert_eq!(comment("a\r\nb"), "a  b");
    }

    #[test]
    fn the_thresholds_unit_agrees_with_it() {
        let mut a = crate::core::plan::autoscaler::example(LevelKind::Concurrency, 1.0);
        assert_eq!(threshold_text(&a), "1 request running");
        a.threshold = 383.014_285;
        assert_eq!(threshold_text(&a), "383.014 requests running");
        (a.kind, a.threshold) = (LevelKind::RequestRate, 1.0);
        assert_eq!(threshold_text(&a), "1 completed request per second");
        a.threshold = 3.5;
        assert_eq!(threshold_text(&a), "3.5 completed requests per second");
    }
}
