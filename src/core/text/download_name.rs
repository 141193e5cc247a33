//! A download's file name, named for its scenario: the model, the deployment, the target and the
//! statistic it is judged on, so
//! that files downloaded for two scenarios neither overwrite nor hide each other.

use crate::core::plan::planner::Target;
use crate::core::scenario::Scenario;

/// Longest part a name takes from the scenario, in characters (a model id can be long).
const PART_CHARS: usize = 40;

/// A part of a file name: letters, digits, `.` and `-` kept, any other run of characters one
/// `-`, cut to [`PART_CHARS`].
fn part(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() || c == '.' {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').chars().take(PART_CHARS).collect()
}

/// "llm-slo-planner_Llama-3.1-8B-Instruct_1xH100_tps25-p50_scenario.json": the model (its name
/// after the organisation), the GPUs and their type, the configuration where one is picked, the
/// target (`tps` or `tpot` and its value), its statistic (`p50`, `tpot-p99`) and the share of
/// requests asked under `attain` (`attain90`), then `what` the file holds and its `extension`.
pub fn download_name(scenario: &Scenario, what: &str, extension: &str) -> String {
    let picked = &scenario.deployment;
    let model = picked.model_id.rsplit('/').next().unwrap_or_default();
    let gpus = picked.num_gpus.map_or_else(
        || part(&picked.gpu),
        |n| format!("{n}x{}", part(&picked.gpu)),
    );
    // Under `attain` a level is judged request by request: the share asked is named too.
    let target = match scenario.slo.target {
        Target::TokensPerSecond(tps) => format!("tps{tps}"),
        Target::MsPerToken(ms) => format!("tpot{ms}"),
    };
    let attain = scenario
        .slo
        .attain
        .map(|share| format!("-attain{share}"))
        .unwrap_or_default();
    let target = format!("{target}-{}{attain}", part(scenario.slo.stat.key()));
    let parts = [
        "llm-slo-planner".to_string(),
        part(model),
        gpus,
        picked.cfg.as_deref().map(part).unwrap_or_default(),
        target,
        what.to_string(),
    ];
    let stem: Vec<String> = parts.into_iter().filter(|p| !p.is_empty()).collect();
    format!("{}.{extension}", stem.join("_"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::import::bundled::lm_arena_chat;

    #[test]
    fn a_download_is_named_for_its_model_deployment_and_target() {
        let source = lm_arena_chat();
        let model = "model=meta-llama/Llama-3.1-8B-Instruct";
        for (query, (what, extension), name) in [
            (
                "gpu=H100&gpus=1&tps=25",
                ("scenario", "json"),
                "llm-slo-planner_Llama-3.1-8B-Instruct_1xH100_tps25-p50_scenario.json",
            ),
            (
                "gpu=B200&gpus=1&tpot=40.5&stat=tpot_p90",
                ("chart", "svg"),
                "llm-slo-planner_Llama-3.1-8B-Instruct_1xB200_tpot40.5-tpot-p90_chart.svg",
            ),
            (
                "gpu=H100&gpus=1&tps=25&attain=90",
                ("scenario", "json"),
                "llm-slo-planner_Llama-3.1-8B-Instruct_1xH100_tps25-p50-attain90_scenario.json",
            ),
        ] {
            let scenario = Scenario::from_query(&format!("{model}&{query}"), source).0;
            assert_eq!(download_name(&scenario, what, extension), name, "{query}");
        }
    }

    #[test]
    fn a_part_keeps_only_what_a_file_name_can_hold() {
        assert_eq!(part("H100 80GB HBM3"), "H100-80GB-HBM3");
        assert_eq!(part("../<b>x</b>"), "..-b-x-b");
        assert_eq!(part(&"m".repeat(100)).len(), PART_CHARS);
    }
}
