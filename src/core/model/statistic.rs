//! Statistics: what a latency figure measures (ITL, TPOT, TTFT, end-to-end latency or `rate`) and how it aggregates
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
    /// Normalized time per output token: per request, end-to-end latency / output tokens (TTFT
    /// included). Tools call it TPOT (GuideLLM), normalized TPOT (inference-perf) or ITL
    /// (LLMPerf); an "end-to-end interactivity" or per-request end-to-end tok/s is its inverse.
    Ntpot,
    /// Time to first token, per request.
    Ttft,
    /// End-to-end latency, per request: from sending it to its last token (vLLM's `e2el`).
    E2e,
    /// Throughput divided by concurrency.
    Rate,
}

/// Declares [`Statistic`] from one table: each entry is a statistic's variant, its parts
/// (metric and aggregate, `None` for `rate`), URL key, menu label and column label. The table's
/// order is the menu order. Adding a statistic is adding one entry (and, for a new aggregate,
/// one entry in [`Aggregate`]'s table).
macro_rules! statistics {
    ($( $(#[$doc:meta])* $name:ident = $parts:expr, $key:literal, $label:literal, $short:literal; )*) => {
        /// A statistic a target or limit is judged on, by its URL key: ITL `p50` `p90` `p95`
        /// `p99` `itl_mean`; TPOT `tpot_mean` `tpot_p50` ... `tpot_p99`; normalized TPOT
        /// `ntpot_mean` ... `ntpot_p99`; `rate`; TTFT `ttft_mean` ... `ttft_p99` and end-to-end
        /// latency `e2e_mean` ... `e2e_p99` (limits only).
        /// ITL, TPOT and normalized TPOT are never merged: ITL is pooled over tokens, TPOT is per
        /// request without the first token's wait, normalized TPOT per request with it.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Statistic {
            $( $(#[$doc])* $name, )*
        }

        impl Statistic {
            /// Number of statistics.
            pub const COUNT: usize = [$(stringify!($name)),*].len();

            /// Every statistic, in menu order.
            pub const ALL: [Statistic; Statistic::COUNT] = [$(Statistic::$name),*];

            /// Each statistic's entry, in the order of [`Statistic::ALL`].
            const TABLE: [Entry; Statistic::COUNT] = [$(Entry {
                parts: $parts,
                key: $key,
                label: $label,
                short_label: $short,
            }),*];
        }
    };
}

/// One statistic's entry in the table.
struct Entry {
    parts: Option<(Metric, Aggregate)>,
    key: &'static str,
    label: &'static str,
    short_label: &'static str,
}

use Aggregate as A;
use Metric as M;

statistics! {
    /// Median inter-token latency (ITL), pooled over all tokens of the run.
    P50 = Some((M::Itl, A::P50)), "p50", "p50 ITL (median token gap)", "p50 ITL";
    /// 90th percentile ITL: 90% of token gaps are at most this long.
    P90 = Some((M::Itl, A::P90)), "p90", "p90 ITL (90% of token gaps at most this)", "p90 ITL";
    /// 95th percentile ITL.
    P95 = Some((M::Itl, A::P95)), "p95", "p95 ITL (95% of token gaps at most this)", "p95 ITL";
    /// 99th percentile ITL.
    P99 = Some((M::Itl, A::P99)), "p99", "p99 ITL (99% of token gaps at most this)", "p99 ITL";
    /// Mean ITL.
    ItlMean = Some((M::Itl, A::Mean)), "itl_mean", "mean ITL", "mean ITL";
    /// Mean TPOT over requests.
    TpotMean = Some((M::Tpot, A::Mean)), "tpot_mean", "mean TPOT (per request)", "mean TPOT";
    /// Median TPOT over requests.
    TpotP50 = Some((M::Tpot, A::P50)), "tpot_p50", "p50 TPOT (median request)", "p50 TPOT";
    /// 90th percentile TPOT over requests.
    TpotP90 = Some((M::Tpot, A::P90)), "tpot_p90", "p90 TPOT (90% of requests at most this)", "p90 TPOT";
    /// 95th percentile TPOT over requests.
    TpotP95 = Some((M::Tpot, A::P95)), "tpot_p95", "p95 TPOT (95% of requests at most this)", "p95 TPOT";
    /// 99th percentile TPOT over requests.
    TpotP99 = Some((M::Tpot, A::P99)), "tpot_p99", "p99 TPOT (99% of requests at most this)", "p99 TPOT";
    /// Mean normalized TPOT over requests (end-to-end latency / output tokens, TTFT included).
    NtpotMean = Some((M::Ntpot, A::Mean)), "ntpot_mean", "mean normalized TPOT (TTFT included)", "mean norm. TPOT";
    /// Median normalized TPOT over requests.
    NtpotP50 = Some((M::Ntpot, A::P50)), "ntpot_p50", "p50 normalized TPOT (TTFT included)", "p50 norm. TPOT";
    /// 90th percentile normalized TPOT over requests.
    NtpotP90 = Some((M::Ntpot, A::P90)), "ntpot_p90", "p90 normalized TPOT (TTFT included)", "p90 norm. TPOT";
    /// 95th percentile normalized TPOT over requests.
    NtpotP95 = Some((M::Ntpot, A::P95)), "ntpot_p95", "p95 normalized TPOT (TTFT included)", "p95 norm. TPOT";
    /// 99th percentile normalized TPOT over requests.
    NtpotP99 = Some((M::Ntpot, A::P99)), "ntpot_p99", "p99 normalized TPOT (TTFT included)", "p99 norm. TPOT";
    /// Throughput per request: concurrency × 1000 / output throughput, ms per token (the method
    /// of Databricks' MPT-7B table). It includes prefill and queueing, so it is not mean ITL.
    /// ML.ENERGY: `avg_batch_size`; benchmark clients: their concurrency.
    Rate = None, "rate", "rate (throughput / concurrency)", "throughput ÷ concurrency";
    /// Mean time to first token.
    TtftMean = Some((M::Ttft, A::Mean)), "ttft_mean", "mean TTFT", "mean TTFT";
    /// Median time to first token.
    TtftP50 = Some((M::Ttft, A::P50)), "ttft_p50", "p50 TTFT", "p50 TTFT";
    /// 90th percentile time to first token.
    TtftP90 = Some((M::Ttft, A::P90)), "ttft_p90", "p90 TTFT", "p90 TTFT";
    /// 95th percentile time to first token.
    TtftP95 = Some((M::Ttft, A::P95)), "ttft_p95", "p95 TTFT", "p95 TTFT";
    /// 99th percentile time to first token.
    TtftP99 = Some((M::Ttft, A::P99)), "ttft_p99", "p99 TTFT", "p99 TTFT";
    /// Mean end-to-end latency of a request.
    E2eMean = Some((M::E2e, A::Mean)), "e2e_mean", "mean end-to-end latency", "mean E2E";
    /// Median end-to-end latency.
    E2eP50 = Some((M::E2e, A::P50)), "e2e_p50", "p50 end-to-end latency", "p50 E2E";
    /// 90th percentile end-to-end latency.
    E2eP90 = Some((M::E2e, A::P90)), "e2e_p90", "p90 end-to-end latency", "p90 E2E";
    /// 95th percentile end-to-end latency.
    E2eP95 = Some((M::E2e, A::P95)), "e2e_p95", "p95 end-to-end latency", "p95 E2E";
    /// 99th percentile end-to-end latency.
    E2eP99 = Some((M::E2e, A::P99)), "e2e_p99", "p99 end-to-end latency", "p99 E2E";
}

impl Statistic {
    fn entry(self) -> &'static Entry {
        &Statistic::TABLE[self as usize]
    }

    /// Position in [`Statistic::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The latency this statistic reads.
    pub fn metric(self) -> Metric {
        self.parts().map_or(Metric::Rate, |(metric, _)| metric)
    }

    /// True when the statistic is a time per output token, so a per-user tok/s target can be
    /// judged on it (TTFT and end-to-end latency are not: they may only be limits).
    pub fn is_per_token(self) -> bool {
        self.metric().is_per_token()
    }

    /// The metric and aggregate of a latency statistic; `None` for `Rate`.
    pub fn parts(self) -> Option<(Metric, Aggregate)> {
        self.entry().parts
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
        self.entry().key
    }

    /// Parses a URL value (`median` is accepted for `p50`); `None` if unknown.
    pub fn from_key(key: &str) -> Option<Statistic> {
        if key == "median" {
            return Some(Statistic::P50);
        }
        Statistic::ALL.into_iter().find(|s| s.key() == key)
    }

    /// The URL keys of the statistics a target can be judged on, comma separated, in menu order:
    /// `p50, p90, …, rate`.
    pub fn per_token_keys() -> String {
        let keys: Vec<&str> = Statistic::ALL
            .into_iter()
            .filter(|s| s.is_per_token())
            .map(Statistic::key)
            .collect();
        keys.join(", ")
    }

    /// Menu label, honest about what a percentile means.
    pub fn label(self) -> &'static str {
        self.entry().label
    }

    /// Short column label, e.g. `p90 ITL`.
    pub fn short_label(self) -> &'static str {
        self.entry().short_label
    }

    /// The other statistics of this one's metric, nearest aggregate first (p90 TPOT -> p95,
    /// p99, p50, mean TPOT): see [`Aggregate::nearest`]. Empty for `rate`.
    pub fn same_metric_nearest(self) -> Vec<Statistic> {
        let Some((metric, aggregate)) = self.parts() else {
            return Vec::new();
        };
        aggregate
            .nearest()
            .into_iter()
            .filter_map(|a| Statistic::from_parts(metric, a))
            .collect()
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
    /// Every aggregate, mean first, with its key, its spelling in vLLM, SGLang and InferenceX
    /// keys, and its percentile (`None` for the mean): the one table of aggregates, in the
    /// order of the enum.
    const TABLE: &'static [(Aggregate, &'static str, &'static str, Option<u8>)] = &[
        (Aggregate::Mean, "mean", "mean", None),
        (Aggregate::P50, "p50", "median", Some(50)),
        (Aggregate::P90, "p90", "p90", Some(90)),
        (Aggregate::P95, "p95", "p95", Some(95)),
        (Aggregate::P99, "p99", "p99", Some(99)),
    ];

    /// Every aggregate, mean first.
    pub const ALL: [Aggregate; Aggregate::TABLE.len()] = {
        let mut all = [Aggregate::Mean; Aggregate::TABLE.len()];
        let mut i = 0;
        while i < all.len() {
            all[i] = Aggregate::TABLE[i].0;
            i += 1;
        }
        all
    };

    /// `mean`, `p50`, `p90`, `p95`, `p99` (the CSV template's spelling).
    pub fn key(self) -> &'static str {
        Aggregate::TABLE[self as usize].1
    }

    /// The spelling of vLLM, SGLang and InferenceX keys: `median` for p50, else [`Aggregate::key`].
    pub fn client_key(self) -> &'static str {
        Aggregate::TABLE[self as usize].2
    }

    /// The percentile, e.g. 90 for p90; `None` for the mean.
    pub fn percentile(self) -> Option<u8> {
        Aggregate::TABLE[self as usize].3
    }

    /// The other aggregates, nearest first: by distance between percentiles (the mean stands at
    /// the median), a percentile before the mean at equal distance, the higher first at equal
    /// distance otherwise. p90 -> p95, p99, p50, mean; mean -> p50, p90, p95, p99.
    pub fn nearest(self) -> Vec<Aggregate> {
        let at = |a: Aggregate| i32::from(a.percentile().unwrap_or(50));
        let mut others: Vec<Aggregate> =
            Aggregate::ALL.into_iter().filter(|a| *a != self).collect();
        crate::core::model::order::sort_by_key(&mut others, |a| {
            ((at(*a) - at(self)).abs(), a.percentile().is_none(), -at(*a))
        });
        others
    }
}
impl Metric {
    /// Every latency metric a tool reports (not `Rate`, which is derived).
    pub const LATENCIES: [Metric; 5] = [
        Metric::Itl,
        Metric::Tpot,
        Metric::Ntpot,
        Metric::Ttft,
        Metric::E2e,
    ];

    /// `itl`, `tpot`, `ntpot`, `ttft`, `e2e`, `rate`: the metric's name in tools' keys (vLLM
    /// spells end-to-end `e2el`, SGLang `e2e_latency`: their reader asks those too).
    pub fn key(self) -> &'static str {
        match self {
            Metric::Itl => "itl",
            Metric::Tpot => "tpot",
            Metric::Ntpot => "ntpot",
            Metric::Ttft => "ttft",
            Metric::E2e => "e2e",
            Metric::Rate => "rate",
        }
    }

    /// True for a time per output token (not TTFT or end-to-end latency, which are per
    /// request: limits only).
    pub fn is_per_token(self) -> bool {
        !matches!(self, Metric::Ttft | Metric::E2e)
    }

    /// True for a latency of a whole request (TTFT, end-to-end latency): under attainment, a
    /// limit on it is judged on each request's own figure.
    pub fn is_per_request(self) -> bool {
        matches!(self, Metric::Ttft | Metric::E2e)
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
        assert!(!Statistic::E2eP99.is_per_token());
        assert_eq!(Statistic::from_key("e2e_p90"), Some(Statistic::E2eP90));
        assert_eq!(Statistic::TpotMean.metric(), Metric::Tpot);
        assert_eq!(Statistic::Rate.parts(), None);
    }

    #[test]
    fn each_aggregate_is_its_own_table_entry() {
        for (i, a) in Aggregate::ALL.into_iter().enumerate() {
            assert_eq!(a as usize, i);
        }
        for (i, s) in Statistic::ALL.into_iter().enumerate() {
            assert_eq!(Statistic::ALL[s.index()], s);
            assert_eq!(s.index(), i);
        }
    }

    #[test]
    fn nearest_aggregates_keep_the_order_the_picker_used() {
        use Aggregate::*;
        assert_eq!(P90.nearest(), [P95, P99, P50, Mean]);
        assert_eq!(P95.nearest(), [P99, P90, P50, Mean]);
        assert_eq!(P99.nearest(), [P95, P90, P50, Mean]);
        assert_eq!(P50.nearest(), [Mean, P90, P95, P99]);
        assert_eq!(Mean.nearest(), [P50, P90, P95, P99]);
        assert_eq!(
            Statistic::TpotP90.same_metric_nearest(),
            [
                Statistic::TpotP95,
                Statistic::TpotP99,
                Statistic::TpotP50,
                Statistic::TpotMean
            ]
        );
        assert!(Statistic::Rate.same_metric_nearest().is_empty());
        assert_eq!(
            Statistic::per_token_keys(),
            "p50, p90, p95, p99, itl_mean, tpot_mean, tpot_p50, tpot_p90, tpot_p95, tpot_p99, ntpot_mean, ntpot_p50, ntpot_p90, ntpot_p95, ntpot_p99, rate"
        );
    }

    #[test]
    fn one_table_gives_every_tools_keys() {
        let vllm = Statistic::keyed(|m, a| format!("{}_{}_ms", a.client_key(), m.key()));
        assert_eq!(vllm.len(), 25);
        assert!(vllm.contains(&("median_itl_ms".to_string(), Statistic::P50)));
        assert!(vllm.contains(&("p95_ttft_ms".to_string(), Statistic::TtftP95)));
        let csv = Statistic::keyed(|m, a| format!("{}_{}_ms", a.key(), m.key()));
        assert!(csv.contains(&("p95_tpot_ms".to_string(), Statistic::TpotP95)));
        assert!(csv.contains(&("mean_itl_ms".to_string(), Statistic::ItlMean)));
    }
}
