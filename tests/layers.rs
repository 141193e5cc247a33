//! The core's layers (issue 31): what judges a sweep never reads the URL. The modules below
//! plan on a sweep and an SLO; the scenario (the URL's state) is read above them and hands them
//! typed values (`Slo`, `capacity::Pricing`, `chart::ChartY`). A `use` of the scenario in their
//! code (tests aside) would run an arrow upward, and close a circle through the values the
//! scenario keeps in them.

use std::fs;
use std::path::Path;

/// Modules that judge a sweep, under `src/core/`.
const JUDGING: [&str; 7] = [
    "planner.rs",
    "attainment.rs",
    "anomalies.rs",
    "capacity.rs",
    "compare.rs",
    "chart.rs",
    "attain_plot.rs",
];

/// `text` without its tests module.
fn without_tests(text: &str) -> &str {
    text.find("#[cfg(test)]").map_or(text, |i| &text[..i])
}

#[test]
fn modules_that_judge_a_sweep_never_read_the_scenario() {
    let core = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/core");
    let upward: Vec<String> = JUDGING
        .iter()
        .filter_map(|name| {
            let text = fs::read_to_string(core.join(name)).expect(name);
            without_tests(&text)
                .lines()
                .find(|l| l.trim_start().starts_with("use ") && l.contains("scenario"))
                .map(|l| format!("{name}: {l}"))
        })
        .collect();
    assert!(upward.is_empty(), "{upward:#?}");
}
