//! The words of the anomaly flags (`plan::anomalies` finds them): each flag's detail, with its
//! numbers (its `Display`), and the sweep table's line about its flags.

use std::fmt;

use crate::core::model::format::{failed_text, grouped, significant, trimmed};
use crate::core::plan::anomalies::{Anomaly, AnomalyDetail, AnomalyKind, ImplausibleSpeed};

impl fmt::Display for AnomalyDetail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnomalyDetail::NonMonotonic {
                stat,
                from_level,
                to_level,
                latency_ms,
                throughput_tok_s,
            } => {
                let latency = latency_ms.map(|(from, to)| {
                    format!("{} falls from {from:.1} to {to:.1} ms", stat.short_label())
                });
                let throughput = throughput_tok_s
                    .map(|(from, to)| format!("throughput falls from {from:.0} to {to:.0} tok/s"));
                let what: Vec<String> = latency.into_iter().chain(throughput).collect();
                write!(f, "from {from_level} to {to_level}: {}", what.join(", "))
            }
            AnomalyDetail::Duplicate { rows, level } => write!(f, "{rows} rows at {level}"),
            AnomalyDetail::LowUtilisation {
                avg_batch,
                max_num_seqs,
            } => write!(
                f,
                "avg batch {avg_batch:.1} is {:.0}% of max_num_seqs {max_num_seqs}",
                avg_batch / max_num_seqs * 100.0
            ),
            AnomalyDetail::RateMismatch {
                rate_tok_s,
                itl_tok_s,
            } => write!(
                f,
                "rate-based {rate_tok_s:.1} tok/s vs {itl_tok_s:.1} tok/s from median ITL"
            ),
            AnomalyDetail::EnergyIdentity {
                stored_j,
                identity_j,
            } => write!(
                f,
                "stored {stored_j:.4} J/token vs power / throughput {identity_j:.4}"
            ),
            AnomalyDetail::FasterThanMemoryBound {
                ms_per_token,
                bound_ms,
            } => write!(
                f,
                "{ms_per_token:.1} ms per token is below the {bound_ms:.1} ms the weights take to read"
            ),
            AnomalyDetail::ImplausibleSpeed(speed) => speed.fmt(f),
            AnomalyDetail::Saturated {
                served_req_s,
                offered_req_s,
            } => write!(
                f,
                "served {} of {} req/s",
                trimmed(*served_req_s, 2),
                trimmed(*offered_req_s, 4)
            ),
            AnomalyDetail::RateAboveOffered {
                served_req_s,
                offered_req_s,
            } => write!(
                f,
                "served {} req/s, {}x the offered {}",
                trimmed(*served_req_s, 2),
                trimmed(served_req_s / offered_req_s, 2),
                trimmed(*offered_req_s, 4)
            ),
            AnomalyDetail::FailedRequests {
                failed,
                issued,
                share,
                completed,
            } => write!(
                f,
                "{}: the figures describe its {} completed requests",
                failed_text(*failed, *issued, *share),
                grouped(*completed, 0)
            ),
        }
    }
}

/// The `implausible-speed` sentence, with the numbers of R: "1000 / 0.0374 ms (mean TPOT) =
/// 26,738 tok/s per user at concurrency 10 cannot come from 259.6 tok/s in aggregate: R = …",
/// then the other statistics flagged, if any: " (also at p50 ITL, mean ITL)".
impl fmt::Display for ImplausibleSpeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ImplausibleSpeed {
            stat,
            latency_ms,
            concurrency,
            throughput_tok_s,
            ratio,
            also_at,
        } = self;
        write!(
            f,
            "1000 / {} ms ({}) = {} tok/s per user at concurrency {} cannot come from {} tok/s in aggregate: R = {} × 1000 / {} / {} = {}, as when latencies in seconds are typed as ms or chunk gaps are pooled",
            significant(*latency_ms, 3),
            stat.short_label(),
            grouped(1000.0 / latency_ms, 0),
            trimmed(*concurrency, 3),
            grouped(*throughput_tok_s, 1),
            trimmed(*concurrency, 3),
            significant(*latency_ms, 3),
            grouped(*throughput_tok_s, 1),
            grouped(*ratio, 0),
        )?;
        if !also_at.is_empty() {
            let others: Vec<&str> = also_at.iter().map(|s| s.short_label()).collect();
            write!(f, " (also at {})", others.join(", "))?;
        }
        Ok(())
    }
}

/// The sweep table's line about its flags: "No anomaly flags on this sweep." or "Flags (rows
/// marked; hover a flag for its numbers): 2 duplicate, 1 non-monotonic. duplicate: …; …."
pub fn flag_summary(flags: &[Anomaly]) -> String {
    let counted: Vec<(String, String)> = AnomalyKind::ALL
        .iter()
        .filter_map(|k| {
            let n = flags.iter().filter(|a| a.kind == *k).count();
            (n > 0).then(|| {
                (
                    format!("{} {}", n, k.key()),
                    format!("{}: {}", k.key(), k.meaning()),
                )
            })
        })
        .collect();
    if counted.is_empty() {
        return "No anomaly flags on this sweep.".to_string();
    }
    let (counts, meanings): (Vec<String>, Vec<String>) = counted.into_iter().unzip();
    format!(
        "Flags (rows marked; hover a flag for its numbers): {}. {}.",
        counts.join(", "),
        meanings.join("; ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flag_summary_counts_each_kind_and_says_what_it_means() {
        assert_eq!(flag_summary(&[]), "No anomaly flags on this sweep.");
        let flag = |detail: AnomalyDetail, row_index| Anomaly {
            kind: detail.kind(),
            row_index,
            detail,
        };
        let duplicate = AnomalyDetail::Duplicate {
            rows: 2,
            level: 1.0,
        };
        let falls = AnomalyDetail::NonMonotonic {
            stat: crate::core::model::sweep::Statistic::P50,
            from_level: 1.0,
            to_level: 2.0,
            latency_ms: Some((20.0, 10.0)),
            throughput_tok_s: None,
        };
        let flags = [
            flag(duplicate.clone(), 0),
            flag(duplicate, 1),
            flag(falls, 2),
        ];
        let (d, n) = (AnomalyKind::Duplicate, AnomalyKind::NonMonotonic);
        let (first, second) = if AnomalyKind::ALL.iter().position(|k| *k == d)
            < AnomalyKind::ALL.iter().position(|k| *k == n)
        {
            (("2", d), ("1", n))
        } else {
            (("1", n), ("2", d))
        };
        assert_eq!(
            flag_summary(&flags),
            format!(
                "Flags (rows marked; hover a flag for its numbers): {} {}, {} {}. {}: {}; {}: {}.",
                first.0,
                first.1.key(),
                second.0,
                second.1.key(),
                first.1.key(),
                first.1.meaning(),
                second.1.key(),
                second.1.meaning()
            )
        );
    }

    #[test]
    fn each_detail_is_worded_with_its_numbers() {
        use crate::core::model::sweep::Statistic;
        use crate::core::plan::anomalies::ImplausibleSpeed;
        let falls = |latency_ms, throughput_tok_s| AnomalyDetail::NonMonotonic {
            stat: Statistic::P50,
            from_level: 8.0,
            to_level: 16.0,
            latency_ms,
            throughput_tok_s,
        };
        let speed = ImplausibleSpeed {
            stat: Statistic::P50,
            latency_ms: 0.05,
            concurrency: 16.0,
            throughput_tok_s: 800.0,
            ratio: 400.0,
            also_at: vec![Statistic::P90, Statistic::ItlMean],
        };
        let cases = [
            (
                falls(Some((12.34, 11.0)), Some((1600.4, 1500.6))),
                "from 8 to 16: p50 ITL falls from 12.3 to 11.0 ms, throughput falls from 1600 to 1501 tok/s",
            ),
            (
                falls(None, Some((1600.4, 1500.6))),
                "from 8 to 16: throughput falls from 1600 to 1501 tok/s",
            ),
            (
                AnomalyDetail::Duplicate {
                    rows: 2,
                    level: 64.0,
                },
                "2 rows at 64",
            ),
            (
                AnomalyDetail::LowUtilisation {
                    avg_batch: 12.0,
                    max_num_seqs: 16.0,
                },
                "avg batch 12.0 is 75% of max_num_seqs 16",
            ),
            (
                AnomalyDetail::EnergyIdentity {
                    stored_j: 0.5,
                    identity_j: 0.25,
                },
                "stored 0.5000 J/token vs power / throughput 0.2500",
            ),
            (
                AnomalyDetail::FasterThanMemoryBound {
                    ms_per_token: 20.0,
                    bound_ms: 20.895,
                },
                "20.0 ms per token is below the 20.9 ms the weights take to read",
            ),
            (
                AnomalyDetail::ImplausibleSpeed(speed),
                "1000 / 0.0500 ms (p50 ITL) = 20,000 tok/s per user at concurrency 16 cannot come from 800.0 tok/s in aggregate: R = 16 × 1000 / 0.0500 / 800.0 = 400, as when latencies in seconds are typed as ms or chunk gaps are pooled (also at p90 ITL, mean ITL)",
            ),
            (
                AnomalyDetail::Saturated {
                    served_req_s: 3.83,
                    offered_req_s: 8.0,
                },
                "served 3.8 of 8 req/s",
            ),
        ];
        for (detail, words) in cases {
            assert_eq!(detail.to_string(), words);
        }
    }
}
