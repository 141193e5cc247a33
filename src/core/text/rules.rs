//! The rules of the answer in words: one list, shown on the page ("How this is computed") and
//! stated in the README's "How the numbers are computed" (a test checks that the README states
//! each, word for word). The code that applies each rule is named in its entry.

/// One rule: its name and what it says.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rule {
    /// Short name, e.g. `Recommendation`.
    pub name: &'static str,
    /// The rule in one or two sentences.
    pub text: &'static str,
    /// Where the code applies it (`core::plan::planner::plan`).
    pub code: &'static str,
}

/// Every rule, in the order the page lists them.
pub const RULES: [Rule; 12] = [
    Rule {
        name: "Level",
        text: "one setting of the sweep variable (vLLM `max_num_seqs`, a client's concurrency, or a request rate); `avg_batch_size` is what the run actually reached.",
        code: "core::model::deployment::LevelKind",
    },
    Rule {
        name: "Statistics",
        text: "p50/p90/p95/p99 are percentiles of inter-token latency (ITL), pooled over all tokens of the run: “tok/s at p90 ITL” means 90% of token gaps are at most that long, not the p90 of per-user speed. TPOT and normalized TPOT statistics are per request: (end-to-end − TTFT) ÷ (output tokens − 1), and end-to-end ÷ output tokens. `rate` = concurrency × 1000 / output throughput, ms per token, with concurrency the run's `avg_batch_size` (else the client's concurrency): throughput shared by the requests in flight; it includes prefill and queueing, so it is not mean ITL. Per-user tok/s = 1000 / latency.",
        code: "core::model::statistic::Statistic",
    },
    Rule {
        name: "Meets",
        text: "a level meets when its latency at the chosen statistic is at most the target in ms per token (for a tok/s target S: when 1000 / latency ≥ S), and every tail limit holds (latency at its statistic ≤ its bound).",
        code: "core::plan::planner::judge",
    },
    Rule {
        name: "Recommendation",
        text: "the largest level such that every level at or below it meets. A higher level that meets again after a lower one failed is shown as “also meets”, never recommended.",
        code: "core::plan::planner::plan",
    },
    Rule {
        name: "Estimate",
        text: "only when the status is `ok` and no limits are set: between the recommended level and the next measured one (which fails), latency at the statistic is taken as linear in log2(level) and solved for the target; throughput and J/token are interpolated the same way. It is labelled as an estimate and never replaces the measured answer; nothing is estimated outside the measured range.",
        code: "core::plan::estimate::estimate",
    },
    Rule {
        name: "Repeated runs",
        text: "a sweep is one configuration: runs that differ in any field their file states (GPU, parallelism, engine, dataset, date, …) are separate sweeps. Where several runs share a level, each figure of the level is the worst over the runs that report it (highest latency, J/token and power; lowest throughput, avg batch and served rate); where fewer than all report it, the page says so (“1 of 2 runs”).",
        code: "core::model::sweep::Level",
    },
    Rule {
        name: "Saturated",
        text: "on a request-rate sweep, a level served below 0.8 × its offered rate (completed ÷ (duration − mean end-to-end latency)) did not sustain that load and fails as `saturated`; one served above 1.25 × is flagged `rate-above-offered`.",
        code: "core::plan::anomalies::SATURATED_BELOW",
    },
    Rule {
        name: "Failed requests",
        text: "a level where more than 1% of the requests issued failed fails, the count named (“4,068 of 4,800 requests failed”), like a target it misses; up to 1% is flagged `failed-requests`. A level's figures describe its completed requests only.",
        code: "core::plan::anomalies::FAILED_ABOVE",
    },
    Rule {
        name: "Attainment",
        text: "with `attain=P`, a request is good when it completed with an output token, its TPOT is at most the target in ms per token (one output token: no TPOT, met), its TTFT at most every TTFT limit and its end-to-end latency at most every end-to-end limit; a level meets when good ÷ issued ≥ P% (failed requests are misses, not judged apart), other limits on the level. Per-user speed: 1000 ÷ the TPOT P% of issued requests reach. A sweep without per-request records is not judged.",
        code: "core::plan::attainment::attainment",
    },
    Rule {
        name: "Implausible speed",
        text: "a level whose per-user speed at a statistic implies 100 × or more its measured throughput (R = concurrency × 1000 / latency / throughput ≥ 100) is flagged `implausible-speed` at that statistic; the menu says so beside it.",
        code: "core::plan::anomalies::speed_ratio",
    },
    Rule {
        name: "Figures",
        text: "throughput and power are totals over all GPUs of the deployment; per GPU = throughput / GPU count. J/token is the stored `energy_per_token_joules` (= power / throughput); where a file stores none it is derived from the same run (power ÷ throughput, or J per request ÷ output tokens) and marked as derived. Headroom is in the unit entered: (speed − S) / S, or (T − latency) / T.",
        code: "core::model::row::Row::finish",
    },
    Rule {
        name: "Plan for a day",
        text: "with a load over time (`load=KIND:STEP:V1,…`), the fleet is sized step by step at the recommended level. With k = ceil(lag ÷ STEP) steps, the covered load at step i is the largest of V_i … V_(i+k) (values past the end are not there); replicas(t) = max(min_replicas, ceil(covered load ÷ what one replica serves)): its streams for `users`, throughput ÷ output tokens per request for `rps`; GPUs(t) = replicas(t) × GPUs per replica. Over the period (`period_h` = values × STEP ÷ 60): GPU-hours = Σ GPUs(t) × STEP ÷ 60; mean GPUs = GPU-hours ÷ `period_h`; GPU $ = GPU-hours × price; energy = Σ replicas(t) × power × PUE × STEP ÷ 60 ÷ 1000 kWh, an upper bound (every running replica at the power measured at the level); electricity $ = kWh × $/kWh; kg CO2 = kWh × g/kWh ÷ 1000; total $ = GPU $ + electricity $ (the parts priced); saved GPU-hours = peak GPUs × `period_h` − GPU-hours; per day = a figure × 24 ÷ `period_h`.",
        code: "core::plan::period::period",
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::text::readme::{flat, section};

    #[test]
    fn the_readme_states_every_rule_word_for_word() {
        let section = section("## How the numbers are computed");
        for rule in RULES {
            let stated = flat(&format!("- **{}**: {}", rule.name, rule.text));
            assert!(
                section.contains(&stated),
                "README's rules section should state, word for word:\n{stated}"
            );
            let code = format!("(`{}`)", rule.code);
            assert!(
                section.contains(&code),
                "README should name {code} for {}",
                rule.name
            );
        }
    }

    #[test]
    fn the_thresholds_stated_are_the_ones_applied() {
        use crate::core::plan::anomalies::{
            ABOVE_OFFERED, FAILED_ABOVE, IMPLAUSIBLE_SPEED_RATIO, SATURATED_BELOW,
        };
        let text = |name: &str| RULES.iter().find(|r| r.name == name).map_or("", |r| r.text);
        assert!(text("Saturated").contains(&format!("below {SATURATED_BELOW} ×")));
        assert!(text("Saturated").contains(&format!("above {ABOVE_OFFERED} ×")));
        assert!(text("Implausible speed").contains(&format!("≥ {IMPLAUSIBLE_SPEED_RATIO}")));
        assert!(text("Failed requests").contains(&format!("more than {}%", FAILED_ABOVE * 100.0)));
    }

    #[test]
    fn each_rule_names_code_that_exists() {
        let sources = [
            (
                "core::model::deployment",
                include_str!("../model/deployment.rs"),
            ),
            (
                "core::model::statistic",
                include_str!("../model/statistic.rs"),
            ),
            ("core::plan::planner", include_str!("../plan/planner.rs")),
            ("core::plan::estimate", include_str!("../plan/estimate.rs")),
            ("core::model::sweep", include_str!("../model/sweep.rs")),
            (
                "core::plan::anomalies",
                include_str!("../plan/anomalies.rs"),
            ),
            (
                "core::plan::attainment",
                include_str!("../plan/attainment.rs"),
            ),
            ("core::model::row", include_str!("../model/row.rs")),
            ("core::plan::period", include_str!("../plan/period.rs")),
        ];
        for rule in RULES {
            let (module, text) = sources
                .iter()
                .find(|(m, _)| rule.code.starts_with(m))
                .unwrap_or_else(|| panic!("{} names an unknown module", rule.code));
            let item = rule.code[module.len()..].trim_start_matches("::");
            let last = item.rsplit("::").next().unwrap_or_default();
            assert!(
                last.is_empty()
                    || [
                        format!("fn {last}"),
                        format!("struct {last}"),
                        format!("enum {last}"),
                        format!("const {last}")
                    ]
                    .iter()
                    .any(|decl| text.contains(decl.as_str())),
                "{} is not declared in {module}",
                rule.code
            );
        }
    }
}
