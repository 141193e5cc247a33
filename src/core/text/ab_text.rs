//! The comparison of two arms in words: the verdict's sentence, what an arm cannot reach, what
//! differs between the arms, the warnings, the noise, and the rule (stated in the README word
//! for word, tested).

use crate::core::model::format;
use crate::core::plan::ab::noise::RESAMPLES;
use crate::core::plan::ab::{AbError, AbVerdict, AbWarning, At, Comparison, Empty, Interval};
use crate::core::text::arm_figures::b_over_a;

/// The rule of the comparison, each part a sentence, in the order the README states them.
pub const RULE: [(&str, &str); 5] = [
    (
        "Repeats",
        "an arm's repeats are the runs at one level that differ only in when or where they ran: repeat k is the k-th run at each level, in the order the files were read (files in name order, rows in file order), and each repeat is its own curve.",
    ),
    (
        "Curve",
        "each repeat's levels, lowest first, at their per-user speed (1000 / the latency at the statistic the target is judged on; under `attain`, 1000 / the TPOT P% of requests reach while meeting every TTFT and end-to-end limit) against output tok/s per GPU (per replica when an arm does not state its GPU count); a level with more than 1% failed requests is not used, and the curve ends below a level that breaks another condition of the SLO.",
    ),
    (
        "Interpolation",
        "the throughput at a speed S lies between the highest level whose speed, and every speed below it, is S or more and the next level, linear in (ln speed, ln tok/s per GPU), labelled interpolated; where S is faster than the first level or slower than the last, there is none: nothing is extrapolated.",
    ),
    (
        "Interval",
        "the ratio B/A at S is the median over every pair of repeats (R_A × R_B), with their min-max as the interval; with one run per arm and per-request records, and the target judged on a TPOT or normalized TPOT statistic or under `attain` (the statistics the records give), a seeded bootstrap (1,000 resamples of the requests of the two levels around S, seed 1) gives the 2.5-97.5 percentiles; with neither, there is no interval.",
    ),
    (
        "Verdict",
        "better when the interval's low end is above 1 + tol, worse when its high end is below 1 − tol, else no difference beyond the noise (without an interval, the ratio itself is held to 1 ± tol); cannot judge when an arm gives no throughput at S.",
    ),
];

/// A per-user speed in words: `40 tok/s per user`.
fn speed(s: f64) -> String {
    format!("{} tok/s per user", format::trimmed(s, 3))
}

/// A ratio as read, three significant digits kept: `1.07×`, `1.00×`.
pub fn ratio_text(r: f64) -> String {
    format!("{}×", format::significant(r, 3))
}

/// What is compared: `the output per GPU`, or `the output per replica` when a GPU count is not
/// stated.
fn per(c: &Comparison) -> &'static str {
    if c.per_gpu {
        "output per GPU"
    } else {
        "output per replica"
    }
}

/// The interval in words: `1.07-1.07 over 2 × 2 repeats`, `0.98-1.10, bootstrap over the
/// requests, 1,000 resamples`, `one run per arm: no noise measured`.
pub fn interval_text(c: &Comparison) -> String {
    let Some(r) = c.ratio else {
        return String::new();
    };
    let range = format!(
        "{}-{}",
        format::significant(r.low, 3),
        format::significant(r.high, 3)
    );
    match c.interval {
        Interval::Repeats => format!("{range} over {}", repeats_text(c)),
        Interval::Bootstrap => format!("{range}, {}", repeats_text(c)),
        Interval::None => repeats_text(c),
    }
}

/// The verdict's word: `better`, `worse`, `no difference beyond the noise` (`… beyond the
/// tolerance` without an interval), `cannot judge`.
pub fn verdict_word(c: &Comparison) -> &'static str {
    match (c.verdict, c.interval) {
        (AbVerdict::Better, _) => "better",
        (AbVerdict::Worse, _) => "worse",
        (AbVerdict::NoDifference, Interval::None) => "no difference beyond the tolerance",
        (AbVerdict::NoDifference, _) => "no difference beyond the noise",
        (AbVerdict::CannotJudge, _) => "cannot judge",
    }
}

/// The headline: `B gives 1.07× the output per GPU of A at 40 tok/s per user (1.07-1.07 over 2
/// × 2 repeats): better`; or why it cannot be judged.
pub fn verdict_text(c: &Comparison) -> String {
    match c.ratio {
        Some(r) => format!(
            "B gives {} the {} of A at {} ({}): {}",
            ratio_text(r.ratio),
            per(c),
            speed(c.speed_tok_s),
            interval_text(c),
            verdict_word(c)
        ),
        None => format!(
            "Cannot judge at {}: {}",
            speed(c.speed_tok_s),
            reach_text(c).join("; ")
        ),
    }
}

/// Which arm gives no throughput at S, and why: `A cannot reach 40 tok/s per user (its fastest
/// level gives 35.2)`, `B is not measured that slow (its slowest level gives 52.1)`.
pub fn reach_text(c: &Comparison) -> Vec<String> {
    let mut out = Vec::new();
    for (name, arm) in [("A", &c.a), ("B", &c.b)] {
        let missing = arm.at.iter().find(|a| a.tok_s().is_none());
        let line = match missing {
            Some(At::TooFast {
                fastest_tok_s: Some(f),
            }) => format!(
                "{name} cannot reach {} (its fastest level gives {})",
                speed(c.speed_tok_s),
                format::trimmed(*f, 3)
            ),
            Some(At::TooFast {
                fastest_tok_s: None,
            }) => format!(
                "{name} has no level that can be judged: {}",
                empty_text(arm.empty)
            ),
            Some(At::TooSlow { slowest_tok_s }) => format!(
                "{name} is not measured that slow (its slowest level gives {})",
                format::trimmed(*slowest_tok_s, 3)
            ),
            _ => continue,
        };
        let line = match arm.repeats {
            0 | 1 => line,
            n => format!(
                "{line}, in {} of its {n} repeats",
                arm.at.iter().filter(|a| a.tok_s().is_none()).count()
            ),
        };
        out.push(line);
    }
    out
}

/// Why an arm has no level to read, in words.
fn empty_text(empty: Option<Empty>) -> String {
    match empty {
        Some(Empty::EndedAt(level)) => format!(
            "its first level ({}) breaks another condition of the SLO (a limit, saturation)",
            format::level(level)
        ),
        Some(Empty::AllFailed) => "every level has more than 1% failed requests".to_string(),
        Some(Empty::NotJudged) | None => "no level reports the statistic the target is judged on (under attain: no level has per-request records); pick a statistic it reports".to_string(),
    }
}

/// `A and B differ in: configuration, date`; `A and B differ in no field their files state`.
pub fn differs_text(c: &Comparison) -> String {
    if c.differs.is_empty() {
        "A and B differ in no field their files state".to_string()
    } else {
        format!("A and B differ in: {}", c.differs.join(", "))
    }
}

/// Each arm's own spread at S: `A's repeats differ by 0.9% at 40 tok/s per user, B's by 0.7%
/// (what an A/A comparison gives)`; the note that one run measures no noise.
pub fn noise_text(c: &Comparison) -> String {
    let pct = |s: f64| format!("{}%", format::trimmed((s - 1.0) * 100.0, 2));
    match (c.interval, c.a.spread, c.b.spread) {
        (Interval::Repeats, sa, sb) => {
            let side = |name: &str, s: Option<f64>, n: usize| match s {
                Some(s) => format!("{name}'s repeats differ by {}", pct(s)),
                None if n < 2 => format!("{name} has one run"),
                None => format!("{name}'s repeats do not all reach this speed"),
            };
            format!(
                "At {}: {}, {} (what comparing an arm with itself gives).",
                speed(c.speed_tok_s),
                side("A", sa, c.a.repeats),
                side("B", sb, c.b.repeats)
            )
        }
        (Interval::Bootstrap, _, _) => format!(
            "One run per arm: the interval resamples each level's requests ({} times, seed 1); it measures the noise of the requests, not of another run or another machine.",
            format::grouped(RESAMPLES as f64, 0)
        ),
        (Interval::None, _, _) => "One run per arm measures no noise: identical runs differ by several percent and machines of one product by tens, so the ratio is held to the tolerance alone. Repeat each arm (another run, date or host) to measure it; per-request records give a bootstrap when the target is judged on a TPOT or normalized TPOT statistic, or under attain.".to_string(),
    }
}

/// A warning in words.
pub fn warning_text(w: &AbWarning) -> String {
    let or_not = |d: &Option<String>| d.clone().unwrap_or_else(|| "not stated".to_string());
    match w {
        AbWarning::Dataset { a, b } => format!(
            "The workloads differ: dataset {} in A, {} in B.",
            or_not(a),
            or_not(b)
        ),
        AbWarning::Length { which, a, b } => format!(
            "The workloads differ: {which} length {} tokens in A, {} in B (more than 10% apart).",
            format::trimmed(*a, 4),
            format::trimmed(*b, 4)
        ),
        AbWarning::Failed { arm, levels } => format!(
            "{arm}: {} more than 1% failed requests, not used: {}.",
            if levels.len() == 1 {
                "a level has"
            } else {
                "levels have"
            },
            levels
                .iter()
                .map(|(l, s)| format!(
                    "{} ({}% failed)",
                    format::level(*l),
                    format::trimmed(s * 100.0, 2)
                ))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        AbWarning::LevelKinds { a, b } => format!(
            "The arms' levels are of different kinds: {} in A, {} in B.",
            a.label(),
            b.label()
        ),
        AbWarning::PerReplica => {
            "A GPU count is not stated: the arms are compared per replica, not per GPU.".to_string()
        }
        AbWarning::GpusPerReplica { a, b } => format!(
            "The arms use different GPUs per replica: {a} in A, {b} in B; throughput is compared per GPU."
        ),
        AbWarning::AllGpus { arms } => format!(
            "Throughput per GPU counts every GPU of a replica, prefill and decode: {}.",
            arms.iter()
                .map(|(arm, pd)| match pd {
                    Some((p, d)) => format!(
                        "{arm} is disaggregated, {p} + {d} = {} GPUs",
                        u64::from(*p) + u64::from(*d)
                    ),
                    None => format!("{arm} is disaggregated (its roles' GPUs not stated)"),
                })
                .collect::<Vec<_>>()
                .join("; ")
        ),
    }
}

/// The crossovers in words: `B/A crosses 1 at 21.4 tok/s per user`; `B/A does not cross 1
/// where both arms are measured`.
pub fn crossover_text(c: &Comparison) -> String {
    if c.curve.is_empty() {
        return "No speed is reached by both arms.".to_string();
    }
    match c.crossover_tok_s.as_slice() {
        [] => "B/A does not cross 1 where both arms are measured.".to_string(),
        xs => format!(
            "B/A crosses 1 at {}.",
            xs.iter().map(|x| speed(*x)).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// The one-arm ranges in words: `Only A reaches 5.46-11.7 tok/s per user.`; empty when both
/// reach the same speeds.
pub fn only_text(c: &Comparison) -> Vec<String> {
    let range = |(lo, hi): &(f64, f64)| {
        format!(
            "{}-{} tok/s per user",
            format::trimmed(*lo, 3),
            format::trimmed(*hi, 3)
        )
    };
    [("A", &c.only_a), ("B", &c.only_b)]
        .into_iter()
        .filter(|(_, r)| !r.is_empty())
        .map(|(name, r)| {
            format!(
                "Only {name} reaches {}.",
                r.iter().map(range).collect::<Vec<_>>().join(" and ")
            )
        })
        .collect()
}

/// An error in words.
pub fn error_text(e: &AbError) -> String {
    match e {
        AbError::NoSweep => "the candidate names no sweep of the data loaded".to_string(),
        AbError::SameArm => {
            "the candidate B is the deployment A itself: pick another sweep to compare with"
                .to_string()
        }
        AbError::DifferentModels { a, b } => format!(
            "A and B are different models ({a}, {b}): compare two configurations of one model"
        ),
        AbError::Tolerance(t) => format!(
            "tol {} is not a percentage from 0 to 50",
            format::url_number(*t)
        ),
    }
}

/// What the interval rests on, short: `2 × 2 repeats`, `bootstrap over the requests, 1,000
/// resamples`, `one run per arm: no noise measured`.
pub fn repeats_text(c: &Comparison) -> String {
    match c.interval {
        Interval::Repeats => format!("{} × {} repeats", c.a.repeats, c.b.repeats),
        Interval::Bootstrap => format!(
            "bootstrap over the requests, {} resamples",
            format::grouped(RESAMPLES as f64, 0)
        ),
        Interval::None => "one run per arm: no noise measured".to_string(),
    }
}

/// Why the candidate a link names (`vs`, as written) is not compared: `` `vs` "gpu=Z999": the
/// candidate names no sweep of the data loaded; the rest of the page stands. ``
pub fn candidate_error_text(vs: &str, e: &AbError) -> String {
    format!(
        "`vs` \"{}\": {}; the rest of the page stands.",
        format::echo(vs),
        error_text(e)
    )
}

/// The page compares sweeps of the data shown: a candidate in another source (`src`) is not
/// compared there.
pub fn other_source_text(vs: &str, src: &str) -> String {
    format!(
        "`vs` \"{}\": B is in the data \"{}\", not in the data shown; the page compares two sweeps of the data shown (open that data, or import both arms together); the rest of the page stands.",
        format::echo(vs),
        format::echo(src)
    )
}

/// An arm's figures at its recommended level: `B/A` of one figure (`1.07×`); `–` when either is
/// missing or A's is 0.
pub fn arm_ratio_text(a: Option<f64>, b: Option<f64>) -> String {
    b_over_a(a, b).map_or_else(|| "–".to_string(), ratio_text)
}

/// The chart's text alternative: what it shows, in words.
pub fn chart_summary(c: &Comparison) -> String {
    let mut parts = vec![format!(
        "B/A of the {} against per-user speed (log scale), with the 1× line and the target at {}.",
        per(c),
        speed(c.speed_tok_s)
    )];
    parts.push(crossover_text(c));
    parts.extend(only_text(c));
    parts.join(" ")
}

#[cfg(test)]
mod page_tests {
    use super::*;

    #[test]
    fn a_candidate_error_names_the_value_and_says_the_rest_stands() {
        assert_eq!(
            candidate_error_text("gpu=Z999", &AbError::NoSweep),
            "`vs` \"gpu=Z999\": the candidate names no sweep of the data loaded; the rest of the page stands."
        );
        assert!(other_source_text("src=gpqa&gpu=H100", "gpqa")
            .contains("\"gpqa\", not in the data shown"));
        assert_eq!(arm_ratio_text(Some(2.0), Some(3.0)), ratio_text(1.5));
        assert_eq!(arm_ratio_text(Some(0.0), Some(3.0)), "–");
        assert_eq!(arm_ratio_text(None, Some(3.0)), "–");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::plan::ab::noise::{PERCENTILES, SEED};
    use crate::core::plan::ab::FAILED_ABOVE;
    use crate::core::text::readme::{assert_states_each, section};

    #[test]
    fn the_readme_states_the_rule_word_for_word() {
        let section = section("## Is B better than A?");
        assert_states_each(&section, &RULE);
    }

    #[test]
    fn the_figures_the_rule_states_are_the_ones_applied() {
        let rule = RULE.map(|(_, text)| text).join(" ");
        assert!(rule.contains(&format!(
            "{} resamples",
            format::grouped(RESAMPLES as f64, 0)
        )));
        assert!(rule.contains(&format!("seed {SEED}")));
        assert!(rule.contains(&format!("{}-{} percentiles", PERCENTILES.0, PERCENTILES.1)));
        assert!(rule.contains(&format!("more than {}% failed", FAILED_ABOVE * 100.0)));
    }
}
