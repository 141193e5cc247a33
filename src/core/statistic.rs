//! Statistics: what a latency figure measures (ITL, TPOT, TTFT or `rate`) and how it aggregates
//! (mean, p50, p90, p95, p99), with their URL keys and the key spellings benchmark tools use.
//! One table ([`Statistic::ALL`] with [`Statistic::parts`]) serves every importer: a tool's key
//! for a statistic is built from the metric's and the aggregate's names, never listed per tool.

use std::fmt;

/// Which latency a statistic reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// Inter-token latency: gaps between streamed tokens, pooled over all tokens of the run.
    Itl,
    /// Time per output token: per request, (end-to-end − TTFT) / (output tokens − 1).
    Tpot,
    /// Time to first token, per request.
    Ttft,
    /// Throughput divided by concurrency.
    Rate,
}

/// A statistic a target or limit is judged on. URL values: ITL `p50` `p90` `p95` `p99`
/// `itl_mean`; TPOT `tpot_mean` `tpot_p50` `tpot_p90` `tpot_p95` `tpot_p99`; TTFT `ttft_mean`
/// `ttft_p50` `ttft_p90` `ttft_p95` `ttft_p99` (limits only); and `rate`. ITL and TPOT are never
/// merged: ITL is pooled over tokens, TPOT is per request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Statistic {
    /// Median inter-token latency (ITL), pooled over all tokens of the run.
    P50,
    /// 90th percentile ITL: 90% of token gaps are at most this long.
    P90,
    /// 95th percentile ITL.
    P95,
    /// 99th percentile ITL.
    P99,
    /// Mean ITL.
    ItlMean,
    /// Mean TPOT over requests.
    TpotMean,
    /// Median TPOT over requests.
    TpotP50,
    /// 90th percentile TPOT over requests.
    TpotP90,
    /// 95th percentile TPOT over requests.
    TpotP95,
    /// 99th percentile TPOT over requests.
    TpotP99,
    /// Mean time to first token.
    TtftMean,
    /// Median time to first token.
    TtftP50,
    /// 90th percentile time to first token.
    TtftP90,
    /// 95th percentile time to first token.
    TtftP95,
    /// 99th percentile time to first token.
    TtftP99,
    /// Throughput per request: concurrency × 1000 / output throughput, ms per token (the method
    /// of Databricks' MPT-7B table, seed 000). It includes prefill and queueing, so it is not mean
    /// ITL. ML.ENERGY: `avg_batch_size`; benchmark clients: their concurrency.
    Rate,
}

impl Statistic {
    /// Number of statistics.
    pub const COUNT: usize = 16;

    /// Every statistic, in menu order.
    pub const ALL: [Statistic; Statistic::COUNT] = [
        Statistic::P50,
        Statistic::P90,
        Statistic::P95,
        Statistic::P99,
        Statistic::ItlMean,
        Statistic::TpotMean,
        Statistic::TpotP50,
        Statistic::TpotP90,
        Statistic::TpotP95,
        Statistic::TpotP99,
        Statistic::Rate,
        Statistic::TtftMean,
        Statistic::TtftP50,
        Statistic::TtftP90,
        Statistic::TtftP95,
        Statistic::TtftP99,
    ];

    /// Position in [`Statistic::ALL`].
    pub fn index(self) -> usize {
        Statistic::ALL.iter().position(|s| *s == self).unwrap_or(0)
    }

    /// The latency this statistic reads.
    pub fn metric(self) -> Metric {
        use Statistic::*;
        match self {
            P50 | P90 | P95 | P99 | ItlMean => Metric::Itl,
            TpotMean | TpotP50 | TpotP90 | TpotP95 | TpotP99 => Metric::Tpot,
            TtftMean | TtftP50 | TtftP90 | TtftP95 | TtftP99 => Metric::Ttft,
            Rate => Metric::Rate,
        }
    }

    /// True when the statistic is a time per output token, so a per-user tok/s target can be
    /// judged on it (TTFT is not: it may only be a limit).
    pub fn is_per_token(self) -> bool {
        self.metric() != Metric::Ttft
    }

    /// The metric and aggregate of a latency statistic; `None` for `Rate`.
    pub fn parts(self) -> Option<(Metric, Aggregate)> {
        use Statistic::*;
        let metric = self.metric();
        let aggregate = match self {
            P50 | TpotP50 | TtftP50 => Aggregate::P50,
            P90 | TpotP90 | TtftP90 => Aggregate::P90,
            P95 | TpotP95 | TtftP95 => Aggregate::P95,
            P99 | TpotP99 | TtftP99 => Aggregate::P99,
            ItlMean | TpotMean | TtftMean => Aggregate::Mean,
            Rate => return None,
        };
        Some((metric, aggregate))
    }

    /// The latency statistic with this metric and aggregate (`None` for `Metric::Rate`).
    pub fn from_parts(metric: Metric, aggregate: Aggregate) -> Option<Statistic> {
        Statistic::ALL
            .into_iter()
            .find(|s| s.parts() == Some((metric, aggregate)))
    }

    /// Every latency statistic with the key a tool writes for it, e.g. with
    /// `|m, a| format!("{}_{}_ms", a.client_key(), m.key())` the vLLM keys `median_itl_ms`,
    /// `p99_tpot_ms`, ...: the one table every importer reads its keys from.
    pub fn keyed(key: impl Fn(Metric, Aggregate) -> String) -> Vec<(String, Statistic)> {
        Statistic::ALL
            .into_iter()
            .filter_map(|s| s.parts().map(|(m, a)| (key(m, a), s)))
            .collect()
    }

    /// The URL value, e.g. `p90`, `tpot_p99`, `ttft_p90`.
    pub fn key(self) -> &'static str {
        use Statistic::*;
        match self {
            P50 => "p50",
            P90 => "p90",
            P95 => "p95",
            P99 => "p99",
            ItlMean => "itl_mean",
            TpotMean => "tpot_mean",
            TpotP50 => "tpot_p50",
            TpotP90 => "tpot_p90",
            TpotP95 => "tpot_p95",
            TpotP99 => "tpot_p99",
            TtftMean => "ttft_mean",
            TtftP50 => "ttft_p50",
            TtftP90 => "ttft_p90",
            TtftP95 => "ttft_p95",
            TtftP99 => "ttft_p99",
            Rate => "rate",
        }
    }

    /// Parses a URL value (`median` is accepted for `p50`); `None` if unknown.
    pub fn from_key(key: &str) -> Option<Statistic> {
        if key == "median" {
            return Some(Statistic::P50);
        }
        Statistic::ALL.into_iter().find(|s| s.key() == key)
    }

    /// Menu label, honest about what a percentile means.
    pub fn label(self) -> &'static str {
        use Statistic::*;
        match self {
            P50 => "p50 ITL (median token gap)",
            P90 => "p90 ITL (90% of token gaps at most this)",
            P95 => "p95 ITL (95% of token gaps at most this)",
            P99 => "p99 ITL (99% of token gaps at most this)",
            ItlMean => "mean ITL",
            TpotMean => "mean TPOT (per request)",
            TpotP50 => "p50 TPOT (median request)",
            TpotP90 => "p90 TPOT (90% of requests at most this)",
            TpotP95 => "p95 TPOT (95% of requests at most this)",
            TpotP99 => "p99 TPOT (99% of requests at most this)",
            TtftMean => "mean TTFT",
            TtftP50 => "p50 TTFT",
            TtftP90 => "p90 TTFT",
            TtftP95 => "p95 TTFT",
            TtftP99 => "p99 TTFT",
            Rate => "rate (throughput / concurrency)",
        }
    }

    /// Short column label, e.g. `p90 ITL`.
    pub fn short_label(self) -> &'static str {
        use Statistic::*;
        match self {
            P50 => "p50 ITL",
            P90 => "p90 ITL",
            P95 => "p95 ITL",
            P99 => "p99 ITL",
            ItlMean => "mean ITL",
            TpotMean => "mean TPOT",
            TpotP50 => "p50 TPOT",
            TpotP90 => "p90 TPOT",
            TpotP95 => "p95 TPOT",
            TpotP99 => "p99 TPOT",
            TtftMean => "mean TTFT",
            TtftP50 => "p50 TTFT",
            TtftP90 => "p90 TTFT",
            TtftP95 => "p95 TTFT",
            TtftP99 => "p99 TTFT",
            Rate => "throughput ÷ concurrency",
        }
    }
}

impl fmt::Display for Statistic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// How a latency figure aggregates the samples of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aggregate {
    /// Arithmetic mean.
    Mean,
    /// Median.
    P50,
    /// 90th percentile.
    P90,
    /// 95th percentile.
    P95,
    /// 99th percentile.
    P99,
}

impl Aggregate {
    /// Every aggregate, mean first.
    pub const ALL: [Aggregate; 5] = [
        Aggregate::Mean,
        Aggregate::P50,
        Aggregate::P90,
        Aggregate::P95,
        Aggregate::P99,
    ];

    /// `mean`, `p50`, `p90`, `p95`, `p99` (the CSV template's spelling).
    pub fn key(self) -> &'static str {
        match self {
            Aggregate::Mean => "mean",
            Aggregate::P50 => "p50",
            Aggregate::P90 => "p90",
            Aggregate::P95 => "p95",
            Aggregate::P99 => "p99",
        }
    }

    /// The spelling of vLLM, SGLang and InferenceX keys: `median` for p50, else [`Aggregate::key`].
    pub fn client_key(self) -> &'static str {
        match self {
            Aggregate::P50 => "median",
            other => other.key(),
        }
    }
}

impl Metric {
    /// Every latency metric a tool reports (not `Rate`, which is derived).
    pub const LATENCIES: [Metric; 3] = [Metric::Itl, Metric::Tpot, Metric::Ttft];

    /// `itl`, `tpot`, `ttft`, `rate`: the metric's name in tools' keys.
    pub fn key(self) -> &'static str {
        match self {
            Metric::Itl => "itl",
            Metric::Tpot => "tpot",
            Metric::Ttft => "ttft",
            Metric::Rate => "rate",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statistic_keys_round_trip_and_classify() {
        for (i, s) in Statistic::ALL.into_iter().enumerate() {
            assert_eq!(Statistic::from_key(s.key()), Some(s));
            assert_eq!(s.index(), i);
            if let Some((m, a)) = s.parts() {
                assert_eq!(Statistic::from_parts(m, a), Some(s));
            }
        }
        assert_eq!(Statistic::from_key("median"), Some(Statistic::P50));
        assert_eq!(Statistic::from_key("P50"), None);
        assert!(Statistic::TpotP99.is_per_token());
        assert!(!Statistic::TtftP90.is_per_token());
        assert_eq!(Statistic::TpotMean.metric(), Metric::Tpot);
        assert_eq!(Statistic::Rate.parts(), None);
    }

    #[test]
    fn one_table_gives_every_tools_keys() {
        let vllm = Statistic::keyed(|m, a| format!("{}_{}_ms", a.client_key(), m.key()));
        assert_eq!(vllm.len(), 15);
        assert!(vllm.contains(&("median_itl_ms".to_string(), Statistic::P50)));
        assert!(vllm.contains(&("p95_ttft_ms".to_string(), Statistic::TtftP95)));
        let csv = Statistic::keyed(|m, a| format!("{}_{}_ms", a.key(), m.key()));
        assert!(csv.contains(&("p95_tpot_ms".to_string(), Statistic::TpotP95)));
        assert!(csv.contains(&("mean_itl_ms".to_string(), Statistic::ItlMean)));
    }
}
