//! The chart's words and files: each point's figures in a sentence, the readout of the point
//! in focus, the summary a screen reader is given, and the chart as a standalone SVG file;
//! with what the chart draws (which deployments, at what width). Geometry is `core::plan::chart`.

use crate::core::model::format::{
    counted, for_count, gpus, grouped, level as level_text, significant, trimmed,
};
use crate::core::model::limits::MAX_SERIES;
use crate::core::model::source::Source;
use crate::core::model::sweep::Statistic;
use crate::core::plan::chart::{ChartLayout, ChartY};
use crate::core::scenario::Scenario;

/// Series colours, one per drawn series so no colour repeats within a chart, chosen to stay
/// apart in light and dark mode (CSS variables `--s0`..`--s11`).
pub const SERIES_CLASSES: [&str; MAX_SERIES] = [
    "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11",
];

/// The colour class of the chart's series `i` (drawn series never number more than
/// [`MAX_SERIES`], so none repeats).
pub fn series_class(i: usize) -> &'static str {
    SERIES_CLASSES[i % SERIES_CLASSES.len()]
}

/// Styles written into a downloaded SVG (the page's CSS does not travel with the file), light
/// colours.
pub(super) const EXPORT_STYLE: &str = "<style>svg{font:11px system-ui,sans-serif;background:#fff}\
.grid{stroke:#d9dcd6}.frame{fill:none;stroke:#5c6166}.tick{fill:#5c6166}.axis-label{fill:#1d1f21;font-size:12px}\
.feasible{fill:#e3f2ec;opacity:.7}.target{stroke:#1d1f21;stroke-width:2;stroke-dasharray:5 3}.target-label{fill:#1d1f21}\
.title{font-size:13px;font-weight:600;fill:#1d1f21}.legend-text{fill:#1d1f21}\
.frontier{fill:none;stroke:#1d1f21;stroke-width:1.5;stroke-dasharray:2 3}.series-line{fill:none;stroke-width:1.5}\
.current .series-line{stroke-width:3}.point{stroke:#fff}.point.recommended{stroke:#1d1f21;stroke-width:3}\
.s0 .series-line{stroke:#1f6f5c}.point.s0{fill:#1f6f5c}.s1 .series-line{stroke:#b4540a}.point.s1{fill:#b4540a}\
.s2 .series-line{stroke:#3556a8}.point.s2{fill:#3556a8}.s3 .series-line{stroke:#9c2f76}.point.s3{fill:#9c2f76}\
.s4 .series-line{stroke:#5d6b00}.point.s4{fill:#5d6b00}.s5 .series-line{stroke:#4c0891}.point.s5{fill:#4c0891}\
.s6 .series-line{stroke:#a23b2a}.point.s6{fill:#a23b2a}.s7 .series-line{stroke:#00728f}.point.s7{fill:#00728f}\
.s8 .series-line{stroke:#7a5c00}.point.s8{fill:#7a5c00}.s9 .series-line{stroke:#4b4b4b}.point.s9{fill:#4b4b4b}\
.s10 .series-line{stroke:#6b2e37}.point.s10{fill:#6b2e37}.s11 .series-line{stroke:#2e7d32}.point.s11{fill:#2e7d32}</style>";

/// The downloaded chart's title: "Llama 3.1 8B Instruct: per-user tok/s at p50 ITL vs output tok/s per
/// GPU (target 20 tok/s per user)", or "… vs total $ per M output tokens …" on the cost axis.
pub fn export_title(source: &Source, scenario: &Scenario) -> String {
    let model = source
        .model_index(&scenario.deployment.model_id)
        .map_or(scenario.deployment.model_id.as_str(), |m| {
            source.models[m].nickname.as_str()
        });
    format!(
        "{model}: per-user tok/s at {} vs {} (target {} tok/s per user)",
        scenario.slo.stat.short_label(),
        scenario.drawn_chart_y().quantity(),
        trimmed(scenario.slo.target.tokens_per_second(), 4),
    )
}

/// "1 x H100, TP1, bf16 at max_num_seqs 384: 26.5 tok/s per user at p50 ITL, 9,248 tok/s per GPU".
pub fn point_text(
    source: &Source,
    sweep_index: usize,
    p: &crate::core::plan::chart::ChartPoint,
    stat: &str,
    y: ChartY,
) -> String {
    format!(
        "{} at {} {}: {} tok/s per user at {}, {}",
        source.sweep_label(sweep_index),
        source.sweeps[sweep_index].level_kind().label(),
        level_text(p.level),
        significant(p.user_tps, 3),
        stat,
        y.text(p.y),
    )
}

/// Chart height in SVG units (= CSS px: the view box matches the drawn size).
pub const HEIGHT: f64 = 340.0;

/// Width of the chart for a viewport width: the drawn size, so text stays at its CSS size.
pub fn chart_width(viewport: f64) -> f64 {
    // The results column is the viewport less the controls column above 800 px.
    let column = if viewport > 800.0 {
        viewport - 400.0
    } else {
        viewport - 48.0
    };
    column.clamp(300.0, 760.0)
}

/// The sweeps of `all` (a model's) the chart draws: every one up to [`MAX_SERIES`]; else the
/// selected one and those with the highest tok/s per GPU at the statistic, in `all`'s order.
pub fn drawn_series(
    source: &Source,
    all: &[usize],
    selected: Option<usize>,
    stat: Statistic,
) -> Vec<usize> {
    if all.len() <= MAX_SERIES {
        return all.to_vec();
    }
    let best = |i: usize| {
        let sweep = &source.sweeps[i];
        sweep
            .levels()
            .iter()
            .filter(|l| l.user_tps(stat).is_some())
            .filter_map(|l| sweep.per_gpu(l.throughput_tok_s))
            .fold(f64::NEG_INFINITY, f64::max)
    };
    let mut ranked: Vec<(usize, f64)> = all
        .iter()
        .copied()
        .filter(|&i| Some(i) != selected)
        .map(|i| (i, best(i)))
        .collect();
    crate::core::model::order::sort_by(&mut ranked, |a, b| b.1.total_cmp(&a.1));
    let keep: Vec<usize> = ranked
        .into_iter()
        .take(MAX_SERIES - usize::from(selected.is_some()))
        .map(|(i, _)| i)
        .chain(selected)
        .collect();
    all.iter().copied().filter(|i| keep.contains(i)).collect()
}

/// What the chart does with a model's sweeps ([`charted`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Charted {
    /// The sweeps drawn, in the model's menu order.
    pub drawn: Vec<usize>,
    /// Whether the selected sweep is among them.
    pub selected_drawn: bool,
    /// Whether the selected sweep is among `unpriced`.
    pub selected_unpriced: bool,
    /// On the cost axis, the model's sweeps (every campaign) whose GPU type has no price: not
    /// drawn, for electricity alone does not cost a deployment. Empty on other axes.
    pub unpriced: Vec<usize>,
    /// The model's other sweeps not drawn: past [`MAX_SERIES`], or older campaigns.
    pub not_drawn: usize,
    /// Whether the model's sweeps are grouped by configuration ([`crate::core::model::campaigns::is_grouped`]).
    pub grouped: bool,
}

/// Which of `model`'s sweeps the chart draws under `scenario`, with `selected` the sweep shown:
/// the menu's sweeps (each configuration's newest campaign, or the selected one in its place,
/// [`crate::core::model::campaigns::shown`]); on the cost axis only those whose GPU type has a price; of
/// those, [`drawn_series`]. The price is checked before the most productive are picked, so a
/// cost chart never draws fewer than it could because unpriced deployments took the places.
pub fn charted(
    source: &Source,
    scenario: &Scenario,
    model: usize,
    selected: Option<usize>,
) -> Charted {
    use crate::core::model::campaigns::{is_grouped, menu_entries, shown};
    let of_model = source.sweeps_of(model);
    let cost = scenario.drawn_chart_y() == ChartY::Cost;
    let priced = |i: &usize| !cost || scenario.gpu_priced(&source.sweeps[*i].deployment.gpu);
    let candidates: Vec<usize> = shown(&menu_entries(source, &of_model), selected)
        .into_iter()
        .filter(priced)
        .collect();
    let shown_selected = selected;
    let selected = selected.filter(|i| candidates.contains(i));
    let drawn = drawn_series(source, &candidates, selected, scenario.slo.stat);
    let unpriced: Vec<usize> = of_model.iter().copied().filter(|i| !priced(i)).collect();
    let not_drawn = of_model.len() - drawn.len() - unpriced.len();
    Charted {
        drawn,
        selected_drawn: selected.is_some(),
        selected_unpriced: shown_selected.is_some_and(|i| unpriced.contains(&i)),
        unpriced,
        not_drawn,
        grouped: is_grouped(of_model.len()),
    }
}

/// What the chart says of the sweeps it leaves off: the others past [`MAX_SERIES`] (or older
/// campaigns), then those without a GPU price on the cost axis; each `None` when there are none.
pub fn left_off_notes(source: &Source, c: &Charted) -> (Option<String>, Option<String>) {
    let others = c.drawn.len() - usize::from(c.selected_drawn);
    let shows = match (c.selected_drawn, others) {
        (true, 0) => "only this one".to_string(),
        (true, n) => format!("this one and the {n} with the highest tok/s per GPU"),
        (false, n) => format!("the {n} with the highest tok/s per GPU"),
    };
    let more = (c.not_drawn > 0).then(|| {
        format!(
            "{} of this model {} not drawn: the chart shows {shows}{}; the side-by-side table lists them all.",
            counted(c.not_drawn, "more deployment"),
            for_count(c.not_drawn, "is", "are"),
            if c.grouped { " among the newest campaign of each configuration (older campaigns are in the campaign menu)" } else { "" },
        )
    });
    let mut types: Vec<&str> = Vec::new();
    for &i in &c.unpriced {
        let gpu = source.sweeps[i].deployment.gpu.as_str();
        if !types.contains(&gpu) {
            types.push(gpu);
        }
    }
    let n = c.unpriced.len();
    let which = match (n, c.selected_unpriced) {
        (1, true) => "This deployment is".to_string(),
        (n, true) => format!(
            "{} of this model, this one among them, are",
            counted(n, "deployment")
        ),
        (n, false) => format!(
            "{} of this model {}",
            counted(n, "deployment"),
            for_count(n, "is", "are")
        ),
    };
    let unpriced = (n > 0).then(|| {
        format!(
            "{which} not drawn on the cost axis: no GPU price is given for {} (electricity alone does not cost a deployment).",
            types.join(", "),
        )
    });
    (more, unpriced)
}

/// The readout of the point in focus (series index, point index in `chart`), or how to get one.
pub fn readout(
    source: &Source,
    chart: &ChartLayout,
    focus: Option<(usize, usize)>,
    stat: &str,
    y: ChartY,
) -> String {
    let Some((si, pi)) = focus else {
        return "Hover or focus a point to read its figures; click it (or press Enter) to switch to that deployment.".into();
    };
    let (Some(series), Some(p)) = (
        chart.series.get(si),
        chart.series.get(si).and_then(|s| s.points.get(pi)),
    ) else {
        return String::new();
    };
    let sweep = &source.sweeps[series.sweep_index];
    let level = sweep.levels().iter().find(|l| l.level == p.level);
    format!(
        "{} ({} tok/s on {}), {}",
        point_text(source, series.sweep_index, p, stat, y),
        grouped(level.map_or(0.0, |l| l.throughput_tok_s), 0),
        gpus(sweep.deployment.num_gpus),
        level.and_then(|l| l.energy_per_token_j).map_or_else(
            || "J/token not reported".into(),
            |j| format!("{} J/token", significant(j, 4))
        ),
    )
}

/// The chart in words, for a screen reader: each deployment from its first to its last level.
pub fn summary(source: &Source, chart: &ChartLayout, stat: &str, y: ChartY) -> String {
    let lines: Vec<String> = chart
        .series
        .iter()
        .filter_map(|s| {
            let (first, last) = (s.points.first()?, s.points.last()?);
            let kind = source.sweeps[s.sweep_index].level_kind().label();
            let label = source.sweep_label(s.sweep_index);
            Some(if s.points.len() == 1 {
                format!(
                    "{label}: {} tok/s per user and {} at {kind} {} (one level)",
                    significant(first.user_tps, 3),
                    y.text(first.y),
                    level_text(first.level),
                )
            } else {
                format!(
                    "{label}: from {} tok/s per user and {} at {kind} {} to {} and {} at {}",
                    significant(first.user_tps, 3),
                    y.text(first.y),
                    level_text(first.level),
                    significant(last.user_tps, 3),
                    y.number(last.y),
                    level_text(last.level),
                )
            })
        })
        .collect();
    format!(
        "Per-user speed at {stat} against {}, level by level. {}.",
        y.quantity(),
        lines.join("; ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::import::bundled::lm_arena_chat;
    use crate::core::plan::chart::layout;

    #[test]
    fn the_chart_is_as_wide_as_its_column_within_bounds() {
        assert_eq!(chart_width(1280.0), 760.0);
        assert_eq!(chart_width(1000.0), 600.0);
        assert_eq!(chart_width(360.0), 312.0);
        assert_eq!(chart_width(200.0), 300.0);
    }

    #[test]
    fn a_model_with_few_deployments_draws_them_all() {
        let source = lm_arena_chat();
        let model = source
            .model_index("meta-llama/Llama-3.1-8B-Instruct")
            .unwrap();
        let all = source.sweeps_of(model);
        assert_eq!(
            drawn_series(source, &all, all.first().copied(), Statistic::P50),
            all
        );
    }

    /// One model on 12 B200 deployments (1 to 12 GPUs, 5,000 tok/s per GPU) and 3 H100
    /// deployments (1 to 3 GPUs, 1,000 tok/s per GPU): 15 sweeps, not grouped.
    fn b200_and_h100() -> Source {
        use crate::core::import::{import, InputFile};
        let mut csv = String::from("model,gpu,num_gpus,concurrency,output_tok_s,p50_itl_ms\n");
        for n in 1..=12 {
            csv += &format!("m,B200,{n},8,{},10\n", 5000 * n);
        }
        for n in 1..=3 {
            csv += &format!("m,H100,{n},8,{},10\n", 1000 * n);
        }
        let files = [InputFile {
            name: "fleet.csv".to_string(),
            text: csv,
        }];
        import(&files).unwrap().source
    }

    fn gpus_drawn(source: &Source, c: &Charted) -> Vec<String> {
        c.drawn
            .iter()
            .map(|&i| {
                let d = &source.sweeps[i].deployment;
                format!("{}x{}", d.num_gpus.unwrap(), d.gpu)
            })
            .collect()
    }

    #[test]
    fn past_twelve_deployments_the_chart_draws_the_selected_and_the_most_productive() {
        let source = b200_and_h100();
        let (scenario, errors) = Scenario::from_query("model=m&gpu=H100&gpus=1&tps=50", &source);
        assert!(errors.is_empty(), "{errors:?}");
        let selected = scenario.sweep_index(&source);
        let c = charted(&source, &scenario, 0, selected);
        assert_eq!(c.drawn.len(), MAX_SERIES);
        assert!(c.selected_drawn);
        // 5,000 tok/s per GPU for every B200: 11 of the 12 are drawn beside the 1 x H100.
        let drawn = gpus_drawn(&source, &c);
        assert!(drawn.contains(&"1xH100".to_string()));
        assert_eq!(drawn.iter().filter(|d| d.ends_with("B200")).count(), 11);
        assert_eq!((c.not_drawn, c.unpriced.len(), c.grouped), (3, 0, false));
        assert_eq!(
            left_off_notes(&source, &c),
            (
                Some("3 more deployments of this model are not drawn: the chart shows this one and the 11 with the highest tok/s per GPU; the side-by-side table lists them all.".to_string()),
                None
            )
        );
    }

    #[test]
    fn on_the_cost_axis_the_priced_deployments_are_drawn_whatever_the_unpriced_produce() {
        let source = b200_and_h100();
        let (scenario, errors) = Scenario::from_query(
            "model=m&gpu=H100&gpus=1&tps=50&y=cost&price=H100:2",
            &source,
        );
        assert!(errors.is_empty(), "{errors:?}");
        let selected = scenario.sweep_index(&source);
        let c = charted(&source, &scenario, 0, selected);
        // The B200s out-produce the H100s per GPU, but have no price: all three H100s are
        // drawn (picking the twelve most productive first would have left only the selected).
        assert_eq!(gpus_drawn(&source, &c), ["1xH100", "2xH100", "3xH100"]);
        assert_eq!((c.unpriced.len(), c.not_drawn), (12, 0));
        assert_eq!(
            left_off_notes(&source, &c),
            (
                None,
                Some("12 deployments of this model are not drawn on the cost axis: no GPU price is given for B200 (electricity alone does not cost a deployment).".to_string())
            )
        );
        // The selected deployment unpriced: the chart draws the priced ones and says so.
        let (on_b200, _) = Scenario::from_query(
            "model=m&gpu=B200&gpus=1&tps=50&y=cost&price=H100:2",
            &source,
        );
        let c = charted(&source, &on_b200, 0, on_b200.sweep_index(&source));
        assert_eq!(gpus_drawn(&source, &c), ["1xH100", "2xH100", "3xH100"]);
        assert!(!c.selected_drawn && c.selected_unpriced);
        assert_eq!(
            left_off_notes(&source, &c).1.unwrap(),
            "12 deployments of this model, this one among them, are not drawn on the cost axis: no GPU price is given for B200 (electricity alone does not cost a deployment)."
        );
    }

    #[test]
    fn the_summary_states_each_deployments_measured_ends_and_a_single_level_as_such() {
        let source = b200_and_h100();
        let chart = layout(
            &[
                (0, vec![(8.0, 100.0, 5000.0)]),
                (12, vec![(8.0, 100.0, 1000.0), (16.0, 50.0, 1800.0)]),
            ],
            20.0,
            600.0,
            HEIGHT,
            false,
        );
        assert_eq!(
            summary(&source, &chart, "p50 ITL", ChartY::PerGpu),
            format!(
                "Per-user speed at p50 ITL against output tok/s per GPU, level by level. {}: 100 tok/s per user and 5,000 tok/s per GPU at concurrency 8 (one level); {}: from 100 tok/s per user and 1,000 tok/s per GPU at concurrency 8 to 50.0 and 1,800 at 16.",
                source.sweep_label(0),
                source.sweep_label(12)
            )
        );
    }

    #[test]
    fn the_downloaded_charts_title_names_the_axis_drawn() {
        let source = lm_arena_chat();
        let (per_gpu, _) = Scenario::from_query("tps=20", source);
        assert_eq!(
            export_title(source, &per_gpu),
            "Llama 3.1 8B Instruct: per-user tok/s at p50 ITL vs output tok/s per GPU (target 20 tok/s per user)"
        );
        let (cost, _) = Scenario::from_query("tps=20&price=2&y=cost", source);
        assert_eq!(
            export_title(source, &cost),
            "Llama 3.1 8B Instruct: per-user tok/s at p50 ITL vs total $ per M output tokens (target 20 tok/s per user)"
        );
    }

    /// The downloaded SVG carries the page's light series colours (`--s0`..`--s11` in
    /// style/main.css), so a file and the page it came from draw each deployment alike.
    #[test]
    fn the_downloaded_svg_uses_the_pages_light_series_colours() {
        let css = include_str!("../../../style/main.css");
        let light = &css[..css.find("prefers-color-scheme: dark").unwrap()];
        for class in SERIES_CLASSES {
            let var = format!("--{class}: ");
            let at = light.find(&var).unwrap() + var.len();
            let colour = &light[at..at + 7];
            assert!(
                EXPORT_STYLE.contains(&format!(".point.{class}{{fill:{colour}}}")),
                "{class} is {colour} on the page"
            );
        }
    }
}
