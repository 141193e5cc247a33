//! Each arm of a comparison at its own recommended level (`plan::compare::recommended`): the
//! one list of figures, each with its key, labels, unit and format, and B/A computed once.
//! The page's table, the command line's text, the JSON's `recommended` and `b_over_a` and the
//! CSV's `a_…`/`b_…` columns each lay this list out.

use crate::core::model::format::{grouped, level, money, significant, trimmed};
use crate::core::plan::compare::CompareRow;

/// How a figure's value is written for people.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// A concurrency level (`format::level`).
    Level,
    /// A whole count, grouped: `1,204` (and a whole number in the JSON).
    Count,
    /// Dollars (`format::money`).
    Money,
    /// Three significant digits.
    Significant,
}

/// One figure of an arm at its own recommended level.
#[derive(Clone, Copy, Debug)]
pub struct ArmFigure {
    /// Its name in the JSON (`recommended.KEY`, `b_over_a.KEY`) and the CSV (`a_KEY`, `b_KEY`).
    pub key: &'static str,
    /// The page's row label.
    pub label: &'static str,
    /// The command line's row label.
    pub short: &'static str,
    /// How the page writes it.
    pub shown: Shown,
    /// True for a fleet's figure, which needs a load or a price: the text leaves its row out
    /// when neither arm has it.
    pub needs_input: bool,
    /// Which value of an arm's row it is ([`ArmFigure::of`]).
    pub figure: Figure,
}

/// Which value of an arm's row a figure is (a tag, not a function pointer: a table of
/// function pointers would weigh on the page's first load).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Figure {
    /// The recommended level.
    Level,
    /// Output tok/s per GPU there.
    TokSPerGpu,
    /// J per output token there.
    EnergyPerToken,
    /// GPUs for the scenario's load.
    GpusNeeded,
    /// Total $ per million output tokens.
    TotalCostPerMtok,
}

/// Every figure of an arm, in order.
pub const ARM_FIGURES: [ArmFigure; 5] = [
    ArmFigure {
        key: "level",
        label: "Recommended level",
        short: "level",
        shown: Shown::Level,
        needs_input: false,
        figure: Figure::Level,
    },
    ArmFigure {
        key: "tok_s_per_gpu",
        label: "Output tok/s per GPU",
        short: "output tok/s per GPU",
        shown: Shown::Significant,
        needs_input: false,
        figure: Figure::TokSPerGpu,
    },
    ArmFigure {
        key: "energy_per_token_j",
        label: "J per output token",
        short: "J/token",
        shown: Shown::Significant,
        needs_input: false,
        figure: Figure::EnergyPerToken,
    },
    ArmFigure {
        key: "gpus_needed",
        label: "GPUs for the load",
        short: "GPUs for the load",
        shown: Shown::Count,
        needs_input: true,
        figure: Figure::GpusNeeded,
    },
    ArmFigure {
        key: "total_cost_per_mtok",
        label: "$ per million output tokens",
        short: "$ per million tokens",
        shown: Shown::Money,
        needs_input: true,
        figure: Figure::TotalCostPerMtok,
    },
];

impl ArmFigure {
    /// The figure of an arm's row; `None` without a row, or when not reported or not given.
    pub fn of(&self, row: Option<&CompareRow>) -> Option<f64> {
        let row = row?;
        let rec = row.recommendation.as_ref();
        match self.figure {
            Figure::Level => rec.map(|r| r.level),
            Figure::TokSPerGpu => rec?.throughput_per_gpu_tok_s,
            Figure::EnergyPerToken => rec?.energy_per_token_j,
            Figure::GpusNeeded => row.costs.gpus_needed.map(|n| n as f64),
            Figure::TotalCostPerMtok => row.costs.total_cost_per_mtok,
        }
    }

    /// A value as the page writes it; `–` when absent.
    pub fn text(&self, value: Option<f64>) -> String {
        let Some(v) = value else {
            return "–".to_string();
        };
        match self.shown {
            Shown::Level => level(v),
            Shown::Count => grouped(v, 0),
            Shown::Money => money(v),
            Shown::Significant => significant(v, 3),
        }
    }
}

/// B/A: B's figure ÷ A's, where both are there and finite, A's is above 0 and the ratio is
/// finite; else `None`. The one place a figure's B/A is computed.
pub fn b_over_a(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    let (a, b) = (a?, b?);
    let ratio = b / a;
    (a > 0.0 && a.is_finite() && b.is_finite() && ratio.is_finite()).then_some(ratio)
}

/// One figure of both arms.
#[derive(Clone, Copy, Debug)]
pub struct ArmRow {
    /// Which figure.
    pub figure: ArmFigure,
    /// A's value.
    pub a: Option<f64>,
    /// B's value.
    pub b: Option<f64>,
}

impl ArmRow {
    /// B/A of the figure ([`b_over_a`]).
    pub fn ratio(&self) -> Option<f64> {
        b_over_a(self.a, self.b)
    }
}

/// Every figure of arms `a` and `b` (each planned on its own, `None` when it names no sweep),
/// in [`ARM_FIGURES`]' order.
pub fn arm_rows(a: Option<&CompareRow>, b: Option<&CompareRow>) -> [ArmRow; 5] {
    ARM_FIGURES.map(|figure| ArmRow {
        figure,
        a: figure.of(a),
        b: figure.of(b),
    })
}

/// A value as the command line writes it: up to four digits after the point, or "not
/// reported".
pub fn plain_text(value: Option<f64>) -> String {
    value.map_or("not reported".to_string(), |x| trimmed(x, 4))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn b_over_a_needs_both_figures_and_a_above_zero() {
        assert_eq!(b_over_a(Some(2.0), Some(3.0)), Some(1.5));
        assert_eq!(b_over_a(Some(0.0), Some(3.0)), None);
        assert_eq!(b_over_a(None, Some(3.0)), None);
        assert_eq!(b_over_a(Some(2.0), None), None);
        assert_eq!(b_over_a(Some(1e-310), Some(1e300)), None);
    }

    #[test]
    fn each_figure_is_written_by_its_kind_and_keys_are_unique() {
        let text = |key: &str, v: f64| {
            let f = ARM_FIGURES.iter().find(|f| f.key == key).unwrap();
            f.text(Some(v))
        };
        assert_eq!(text("gpus_needed", 1204.0), "1,204");
        assert_eq!(text("energy_per_token_j", 0.074234), "0.0742");
        assert_eq!(ARM_FIGURES[0].text(None), "–");
        let mut keys: Vec<&str> = ARM_FIGURES.iter().map(|f| f.key).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), ARM_FIGURES.len());
    }
}
