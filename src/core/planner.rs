//! How the recommendation is computed. Everything the answer panel shows comes from [`plan`].
//!
//! 1. Each level of the sweep has one latency per statistic: the worst (highest) over the rows
//!    measured at that level (see [`crate::core::sweep::Level`]).
//! 2. A level **meets** a target when its latency at the chosen statistic is at most the target:
//!    for a ms-per-token target `T`, `latency_ms <= T`; for a per-user tok/s target `S`,
//!    `1000 / latency_ms >= S`. A level with no value for the statistic does not meet.
//! 3. The **recommendation** is the largest level such that every level at or below it meets.
//!    Sweeps are not always monotonic: a higher level that meets after a lower one failed is
//!    reported as "also meets", never recommended.
//! 4. Status: `ok`; `all-meet` (every measured level meets, the true limit may be higher);
//!    `unattainable` (even the smallest level fails); `no-data` (no row has the statistic).
//! 5. Headroom is in the unit the user entered: tok/s target `S`: `(speed - S) / S`;
//!    ms target `T`: `(T - latency) / T`.

use super::sweep::{Level, Statistic, Sweep};

/// A per-user target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Target {
    /// At least this many output tokens per second for each user (URL `tps`).
    TokensPerSecond(f64),
    /// At most this many ms per output token (URL `tpot`).
    MsPerToken(f64),
}

impl Target {
    /// The target's value in the unit it was entered in.
    pub fn value(self) -> f64 {
        match self {
            Target::TokensPerSecond(v) | Target::MsPerToken(v) => v,
        }
    }

    /// The same target in ms per token: `1000 / tok/s` for a tok/s target.
    pub fn ms_per_token(self) -> f64 {
        match self {
            Target::TokensPerSecond(s) => 1000.0 / s,
            Target::MsPerToken(t) => t,
        }
    }

    /// The same target in tok/s per user: `1000 / ms` for a ms target.
    pub fn tokens_per_second(self) -> f64 {
        match self {
            Target::TokensPerSecond(s) => s,
            Target::MsPerToken(t) => 1000.0 / t,
        }
    }

    /// Whether a latency (ms per token) meets the target, compared in the target's own unit.
    pub fn is_met_by(self, latency_ms: f64) -> bool {
        match self {
            Target::TokensPerSecond(s) => 1000.0 / latency_ms >= s,
            Target::MsPerToken(t) => latency_ms <= t,
        }
    }

    /// Headroom as a fraction, in the target's own unit: `(speed - S) / S` or `(T - latency) / T`.
    pub fn headroom(self, latency_ms: f64) -> f64 {
        match self {
            Target::TokensPerSecond(s) => (1000.0 / latency_ms - s) / s,
            Target::MsPerToken(t) => (t - latency_ms) / t,
        }
    }
}

/// Outcome of planning one sweep.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    /// Some levels meet from the smallest up; a larger measured level fails.
    Ok,
    /// Every measured level meets: the true limit may lie above the largest measured.
    AllMeet,
    /// Even the smallest measured level fails.
    Unattainable,
    /// No row has a value for the statistic; `available` lists the statistics the sweep has.
    NoData {
        /// Statistics this sweep does report.
        available: Vec<Statistic>,
    },
}

impl Status {
    /// The `rec-status` hook value: `ok`, `all-meet`, `unattainable`, `no-data`.
    pub fn key(&self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::AllMeet => "all-meet",
            Status::Unattainable => "unattainable",
            Status::NoData { .. } => "no-data",
        }
    }
}

/// One level's verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// Latency at the statistic, ms per token (worst of the level's rows); `None` if unreported.
    pub latency_ms: Option<f64>,
    /// Whether the level meets the target.
    pub meets: bool,
}

/// A level above a failure that meets again (non-monotonic sweep): shown, never recommended.
#[derive(Clone, Debug, PartialEq)]
pub struct AlsoMeets {
    /// Index into `Sweep::levels()` of the level that meets.
    pub level_index: usize,
    /// Index of the nearest level below it that failed.
    pub failed_below_index: usize,
}

/// The answer for one sweep, one target and one statistic.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// See [`Status`].
    pub status: Status,
    /// One verdict per level of the sweep, same order as `Sweep::levels()`.
    pub verdicts: Vec<Verdict>,
    /// Index into `Sweep::levels()` of the recommended level (`ok` and `all-meet` only).
    pub recommended: Option<usize>,
    /// Levels above the first failure that meet again.
    pub also_meets: Vec<AlsoMeets>,
    /// For `unattainable`: the level with the lowest latency at the statistic.
    pub best: Option<usize>,
}

/// Plans one sweep: see the module documentation for the rule.
pub fn plan(sweep: &Sweep, target: Target, stat: Statistic) -> Plan {
    plan_levels(sweep.levels(), target, stat)
}

/// [`plan`] over levels sorted ascending (as `Sweep::levels()` returns them).
pub fn plan_levels(levels: &[Level], target: Target, stat: Statistic) -> Plan {
    let verdicts: Vec<Verdict> = levels
        .iter()
        .map(|l| {
            let latency_ms = l.latency_ms(stat);
            Verdict {
                latency_ms,
                meets: latency_ms.is_some_and(|ms| target.is_met_by(ms)),
            }
        })
        .collect();

    if verdicts.iter().all(|v| v.latency_ms.is_none()) {
        let mut available: Vec<Statistic> = Statistic::ALL
            .into_iter()
            .filter(|s| levels.iter().any(|l| l.latency_ms(*s).is_some()))
            .collect();
        available.retain(|s| *s != stat);
        return Plan {
            status: Status::NoData { available },
            verdicts,
            recommended: None,
            also_meets: Vec::new(),
            best: None,
        };
    }

    let run = verdicts.iter().take_while(|v| v.meets).count();
    let recommended = run.checked_sub(1);
    let status = if run == verdicts.len() {
        Status::AllMeet
    } else if run == 0 {
        Status::Unattainable
    } else {
        Status::Ok
    };

    let mut also_meets = Vec::new();
    let mut last_failed = None;
    for (i, v) in verdicts.iter().enumerate().skip(run) {
        if v.meets {
            if let Some(failed_below_index) = last_failed {
                also_meets.push(AlsoMeets {
                    level_index: i,
                    failed_below_index,
                });
            }
        } else {
            last_failed = Some(i);
        }
    }

    let best = if status == Status::Unattainable {
        verdicts
            .iter()
            .enumerate()
            .filter_map(|(i, v)| v.latency_ms.map(|ms| (i, ms)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i)
    } else {
        None
    };

    Plan {
        status,
        verdicts,
        recommended,
        also_meets,
        best,
    }
}

/// The figures shown in large type for the recommended level.
#[derive(Clone, Debug, PartialEq)]
pub struct Recommendation {
    /// The recommended level (`max_num_seqs`).
    pub level: f64,
    /// `avg_batch_size` the run reached (worst of the level's rows).
    pub avg_batch_size: f64,
    /// Aggregate output tok/s of one deployment (all its GPUs).
    pub throughput_tok_s: f64,
    /// `throughput_tok_s / num_gpus`.
    pub throughput_per_gpu_tok_s: f64,
    /// J/token as stored (`energy_per_token_joules`), `None` if not reported.
    pub energy_per_token_j: Option<f64>,
    /// Average power of the whole deployment, W, `None` if not reported.
    pub power_w: Option<f64>,
    /// Per-user tok/s at the statistic: `1000 / latency_ms`.
    pub user_tps: f64,
    /// Latency at the statistic, ms per token.
    pub latency_ms: f64,
    /// See [`Target::headroom`].
    pub headroom: f64,
}

impl Plan {
    /// The figures at the recommended level, if there is one.
    pub fn recommendation(&self, sweep: &Sweep, target: Target) -> Option<Recommendation> {
        let i = self.recommended?;
        let level = sweep.levels().get(i)?;
        let latency_ms = self.verdicts.get(i)?.latency_ms?;
        Some(Recommendation {
            level: level.level,
            avg_batch_size: level.avg_batch_size,
            throughput_tok_s: level.throughput_tok_s,
            throughput_per_gpu_tok_s: level.throughput_tok_s / f64::from(sweep.num_gpus),
            energy_per_token_j: level.energy_per_token_j,
            power_w: level.power_w,
            user_tps: 1000.0 / latency_ms,
            latency_ms,
            headroom: target.headroom(latency_ms),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::sweep::Row;

    fn sweep_of(points: &[(f64, f64)]) -> Sweep {
        let rows = points
            .iter()
            .map(|&(level, p50)| Row {
                level,
                avg_batch_size: level,
                avg_output_len: None,
                p50_itl_ms: Some(p50),
                p90_itl_ms: Some(p50 * 2.0),
                p95_itl_ms: None,
                p99_itl_ms: None,
                throughput_tok_s: level * 1000.0 / (p50 * 1.25),
                power_w: Some(700.0),
                energy_per_token_j: Some(700.0 / (level * 1000.0 / (p50 * 1.25))),
                energy_per_request_j: None,
            })
            .collect();
        Sweep::new(0, "H100".into(), 2, (2, 1, 1), "bfloat16".into(), rows)
    }

    #[test]
    fn ok_recommends_last_level_of_the_meeting_run() {
        let s = sweep_of(&[(8.0, 10.0), (16.0, 20.0), (32.0, 40.0), (64.0, 80.0)]);
        // 30 tok/s = 33.3 ms: 8 and 16 meet, 32 fails.
        let p = plan(&s, Target::TokensPerSecond(30.0), Statistic::P50);
        assert_eq!(p.status, Status::Ok);
        assert_eq!(p.recommended, Some(1));
        assert_eq!(
            p.verdicts.iter().map(|v| v.meets).collect::<Vec<_>>(),
            vec![true, true, false, false]
        );
        let r = p.recommendation(&s, Target::TokensPerSecond(30.0)).unwrap();
        assert_eq!(r.level, 16.0);
        assert_eq!(r.latency_ms, 20.0);
        assert_eq!(r.user_tps, 50.0);
        // throughput = 16 * 1000 / 25 = 640 tok/s, on 2 GPUs.
        assert_eq!(r.throughput_tok_s, 640.0);
        assert_eq!(r.throughput_per_gpu_tok_s, 320.0);
        assert_eq!(r.power_w, Some(700.0));
        assert_eq!(r.energy_per_token_j, Some(700.0 / 640.0));
        // headroom in tok/s: (50 - 30) / 30.
        assert_eq!(r.headroom, (50.0 - 30.0) / 30.0);
        assert!(p.also_meets.is_empty());
        assert_eq!(p.best, None);
    }

    #[test]
    fn ms_target_headroom_is_in_ms() {
        let s = sweep_of(&[(8.0, 10.0), (16.0, 20.0), (32.0, 40.0)]);
        let p = plan(&s, Target::MsPerToken(25.0), Statistic::P50);
        let r = p.recommendation(&s, Target::MsPerToken(25.0)).unwrap();
        assert_eq!(r.level, 16.0);
        assert_eq!(r.headroom, (25.0 - 20.0) / 25.0);
    }

    #[test]
    fn boundary_is_inclusive_in_both_units() {
        let s = sweep_of(&[(8.0, 10.0), (16.0, 20.0), (32.0, 40.0)]);
        assert_eq!(
            plan(&s, Target::MsPerToken(20.0), Statistic::P50).recommended,
            Some(1)
        );
        assert_eq!(
            plan(&s, Target::TokensPerSecond(50.0), Statistic::P50).recommended,
            Some(1)
        );
        assert_eq!(
            plan(&s, Target::TokensPerSecond(50.000001), Statistic::P50).recommended,
            Some(0)
        );
    }

    #[test]
    fn all_meet_recommends_largest_measured() {
        let s = sweep_of(&[(8.0, 10.0), (16.0, 20.0)]);
        let p = plan(&s, Target::MsPerToken(100.0), Statistic::P50);
        assert_eq!(p.status, Status::AllMeet);
        assert_eq!(p.recommended, Some(1));
    }

    #[test]
    fn unattainable_reports_best_level() {
        // Non-monotonic: the fastest level is 16, not 8.
        let s = sweep_of(&[(8.0, 12.0), (16.0, 11.0), (32.0, 40.0)]);
        let p = plan(&s, Target::TokensPerSecond(100.0), Statistic::P50);
        assert_eq!(p.status, Status::Unattainable);
        assert_eq!(p.recommended, None);
        assert_eq!(p.best, Some(1));
        assert_eq!(p.recommendation(&s, Target::TokensPerSecond(100.0)), None);
    }

    #[test]
    fn non_monotonic_meet_above_a_failure_is_also_meets_not_recommended() {
        let s = sweep_of(&[
            (8.0, 10.0),
            (16.0, 30.0),
            (32.0, 50.0),
            (64.0, 25.0),
            (128.0, 60.0),
            (256.0, 20.0),
        ]);
        let p = plan(&s, Target::MsPerToken(30.0), Statistic::P50);
        assert_eq!(p.status, Status::Ok);
        assert_eq!(p.recommended, Some(1));
        assert_eq!(
            p.also_meets,
            vec![
                AlsoMeets {
                    level_index: 3,
                    failed_below_index: 2
                },
                AlsoMeets {
                    level_index: 5,
                    failed_below_index: 4
                },
            ]
        );
    }

    #[test]
    fn unattainable_can_still_have_also_meets() {
        let s = sweep_of(&[(8.0, 40.0), (16.0, 20.0)]);
        let p = plan(&s, Target::MsPerToken(30.0), Statistic::P50);
        assert_eq!(p.status, Status::Unattainable);
        assert_eq!(p.best, Some(1));
        assert_eq!(
            p.also_meets,
            vec![AlsoMeets {
                level_index: 1,
                failed_below_index: 0
            }]
        );
    }

    #[test]
    fn no_data_names_the_statistics_the_sweep_has() {
        let s = sweep_of(&[(8.0, 10.0), (16.0, 20.0)]);
        let p = plan(&s, Target::MsPerToken(30.0), Statistic::P99);
        assert_eq!(
            p.status,
            Status::NoData {
                available: vec![Statistic::P50, Statistic::P90, Statistic::Rate]
            }
        );
        assert_eq!(p.status.key(), "no-data");
        assert_eq!(p.recommended, None);
    }

    #[test]
    fn every_statistic_reads_its_own_column() {
        let s = sweep_of(&[(8.0, 10.0), (16.0, 20.0)]);
        // p90 is twice p50: 20 and 40 ms; a 30 ms target keeps only 8.
        let p = plan(&s, Target::MsPerToken(30.0), Statistic::P90);
        assert_eq!(p.recommended, Some(0));
        assert_eq!(p.verdicts[1].latency_ms, Some(40.0));
        // rate = batch * 1000 / throughput = 1.25 * p50: 12.5 and 25 ms.
        let p = plan(&s, Target::MsPerToken(24.0), Statistic::Rate);
        assert_eq!(p.recommended, Some(0));
        assert_eq!(p.verdicts[1].latency_ms, Some(25.0));
    }

    #[test]
    fn missing_value_at_a_level_fails_that_level() {
        let mut s = sweep_of(&[(8.0, 10.0), (16.0, 20.0), (32.0, 25.0)]);
        s.rows[1].p50_itl_ms = None;
        let s = Sweep::new(0, "H100".into(), 1, (1, 1, 1), "fp8".into(), s.rows);
        let p = plan(&s, Target::MsPerToken(30.0), Statistic::P50);
        assert_eq!(p.recommended, Some(0));
        assert!(!p.verdicts[1].meets);
        assert_eq!(p.also_meets.len(), 1);
    }

    #[test]
    fn target_conversions() {
        assert_eq!(Target::TokensPerSecond(25.0).ms_per_token(), 40.0);
        assert_eq!(Target::MsPerToken(40.0).tokens_per_second(), 25.0);
        assert_eq!(Target::MsPerToken(40.0).value(), 40.0);
    }
}
