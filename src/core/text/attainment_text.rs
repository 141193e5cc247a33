//! The words of attainment: a level's share of good requests and why the others missed
//! (`plan::attainment` counts them), and a dot of the attainment plot (`plan::attain_plot`).

use crate::core::model::format::{level as level_text, trimmed, url_number};
use crate::core::plan::attain_plot::LevelDot;
use crate::core::plan::attainment::Attainment;

/// A level's attainment: "187 of 200 requests good (93.5%; 95% asked)", with the `asked` share
/// as entered; then, for a level that misses, why its requests did: "missed: 12 on TPOT, 3 on
/// TTFT, 1 failed" (a request can miss on both).
pub fn attainment_text(a: &Attainment, asked: Option<f64>) -> String {
    let asked_text = asked.map_or_else(String::new, |p| format!("; {}% asked", url_number(p)));
    let failed = a.issued.saturating_sub(a.completed);
    let causes: Vec<String> = [
        (a.tpot_misses, "on TPOT"),
        (a.ttft_misses, "on TTFT"),
        (a.e2e_misses, "on end-to-end latency"),
        (failed, "failed"),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, why)| format!("{} {why}", level_text(*n as f64)))
    .collect();
    let missed = match causes.is_empty() {
        true => String::new(),
        false => format!("; missed: {}", causes.join(", ")),
    };
    format!(
        "{} of {} requests good ({}%{asked_text}{missed})",
        level_text(a.good as f64),
        level_text(a.issued as f64),
        share_percent(a.good, a.issued, asked)
    )
}

/// good ÷ issued in percent, cut (never rounded up) to the decimals of the share asked (at
/// least one, at most four; one when none is asked), trailing zeros dropped: so a level that
/// fails never shows the share asked or more (1,998 of 2,000 at 100% asked is 99.9%, not 100%),
/// and one that meets never shows less. Exact, in integers.
pub fn share_percent(good: u64, issued: u64, asked: Option<f64>) -> String {
    let decimals = asked.map_or(1, |p| {
        url_number(p)
            .split_once('.')
            .map_or(1, |(_, d)| d.len().clamp(1, 4))
    });
    let scale = 10u64.pow(decimals as u32);
    let units = good.saturating_mul(100 * scale) / issued.max(1);
    let whole_digits = (units / scale).to_string().len();
    trimmed(units as f64 / scale as f64, whole_digits + decimals)
}

/// A dot of the attainment plot against `p` percent, its level followed by `unit`
/// (`LevelKind::unit`): "64 concurrency: 190 of 200 requests good (95%; 95% asked)".
pub fn level_dot_text(dot: &LevelDot, p: f64, unit: &str) -> String {
    format!(
        "{} {unit}: {}",
        level_text(dot.level),
        attainment_text(&dot.attainment, Some(p))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_is_cut_to_the_decimals_asked_never_rounded_up() {
        assert_eq!(share_percent(1998, 2000, Some(100.0)), "99.9");
        assert_eq!(share_percent(1899, 2000, Some(95.0)), "94.9");
        assert_eq!(share_percent(1999, 2000, Some(99.95)), "99.95");
        assert_eq!(share_percent(19989, 20000, Some(99.95)), "99.94");
        assert_eq!(share_percent(136, 200, Some(70.0)), "68");
        assert_eq!(share_percent(9, 200, Some(70.0)), "4.5");
        assert_eq!(share_percent(3, 7, None), "42.8");
        assert_eq!(share_percent(2000, 2000, Some(100.0)), "100");
        assert_eq!(share_percent(0, 0, None), "0");
    }
}
