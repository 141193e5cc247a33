//! One measured run at one level, and the figures derived from it: computed here, once, for
//! every format (importers store what the file states, then call [`Row::finish`]).
//!
//! Derived figures, each only where the file does not state it:
//! - `rate` (a statistic, ms per token) = concurrency × 1000 / output throughput, with
//!   concurrency = `avg_batch_size`, else the level when the level is a client concurrency;
//! - J/token = power / throughput (same run), else J per request / output tokens per request;
//! - served req/s = completed / (duration − mean end-to-end latency) (the drain of the last
//!   requests removed), else the file's request throughput, else completed / duration.

use serde::{Deserialize, Serialize};

use crate::core::model::deployment::LevelKind;
use crate::core::model::limits::{MAX_FIGURE, MIN_FIGURE};
use crate::core::model::requests::Requests;
use crate::core::model::roles::RoleFigures;
use crate::core::model::signals::ServerSignals;
use crate::core::model::statistic::Statistic;

/// Where a row's J/token comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EnergyBasis {
    /// Stored by the file.
    Stored,
    /// Derived: average power / output throughput of the same run.
    PowerOverThroughput,
    /// Derived: energy per request / output tokens per request (ML.ENERGY V2).
    PerRequestOverOutputTokens,
}

impl EnergyBasis {
    /// The formula of a derived J/token, for the page; `None` when stored.
    pub fn formula(self) -> Option<&'static str> {
        match self {
            EnergyBasis::Stored => None,
            EnergyBasis::PowerOverThroughput => Some("power ÷ output throughput"),
            EnergyBasis::PerRequestOverOutputTokens => {
                Some("energy per request ÷ output tokens per request")
            }
        }
    }
}

/// Where a row's served request rate comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ServedBasis {
    /// Stated by the file (CSV `served_req_s`).
    Stated,
    /// Completed requests / (duration − mean end-to-end latency).
    CompletedOverDrainedDuration,
    /// The file's request throughput.
    RequestThroughput,
    /// Completed requests / duration.
    CompletedOverDuration,
}

impl ServedBasis {
    /// The formula, for the page.
    pub fn formula(self) -> &'static str {
        match self {
            ServedBasis::Stated => "as stated by the file",
            ServedBasis::CompletedOverDrainedDuration => {
                "completed ÷ (duration − mean end-to-end latency)"
            }
            ServedBasis::RequestThroughput => "the file's request throughput",
            ServedBasis::CompletedOverDuration => "completed ÷ duration",
        }
    }
}

/// A power figure above the mean that a file reports per run: a percentile of the power
/// samples, or their maximum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PowerPeak {
    /// 90th percentile.
    P90,
    /// 95th percentile.
    P95,
    /// 99th percentile.
    P99,
    /// Maximum.
    Max,
}

impl PowerPeak {
    /// Every kind, lowest first, with its CSV template column and its words.
    pub const ALL: [(PowerPeak, &'static str, &'static str); 4] = [
        (PowerPeak::P90, "power_p90_w", "p90 power"),
        (PowerPeak::P95, "power_p95_w", "p95 power"),
        (PowerPeak::P99, "power_p99_w", "p99 power"),
        (PowerPeak::Max, "power_max_w", "maximum power"),
    ];

    /// `p90 power`, `maximum power`.
    pub fn label(self) -> &'static str {
        PowerPeak::ALL
            .iter()
            .find(|(k, _, _)| *k == self)
            .map_or("", |(_, _, label)| label)
    }
}

/// Counts a run states about its requests: for the served request rate and the share of
/// requests that failed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RunCounts {
    /// Requests completed.
    pub completed: Option<f64>,
    /// Requests issued that failed (errored or dropped; not a time-limited run's requests still
    /// running when it stopped).
    pub failed: Option<f64>,
    /// Benchmark duration, s.
    pub duration_s: Option<f64>,
    /// The file's request throughput, req/s.
    pub request_throughput_req_s: Option<f64>,
}

/// One measured run of a deployment at one level. Fields the source did not report are `None`
/// ("not reported"), never a guess; the default is a level 0 at 0 tok/s with nothing else
/// reported (what [`Row::new`] starts from).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The sweep variable: vLLM `max_num_seqs`, client concurrency or request rate (see
    /// [`LevelKind`]).
    pub level: f64,
    /// `avg_batch_size`: requests the run actually held on average, where measured.
    pub avg_batch_size: Option<f64>,
    /// Average output tokens per request.
    pub avg_output_len: Option<f64>,
    /// Average input (prompt) tokens per request, where measured.
    #[serde(default)]
    pub avg_input_len: Option<f64>,
    /// Output tok/s summed over all GPUs of the deployment.
    pub throughput_tok_s: f64,
    /// Input tok/s summed over all GPUs of the deployment (its prefill GPUs when
    /// disaggregated), where reported.
    #[serde(default)]
    pub input_tok_s: Option<f64>,
    /// Average power, W, summed over all GPUs of the deployment.
    pub power_w: Option<f64>,
    /// The highest power percentile or maximum the file reports for the run, W, summed over all
    /// GPUs, with which it is; `None` when it reports none.
    pub power_peak: Option<(f64, PowerPeak)>,
    /// J per output token (stored, or derived: see [`Row::energy_basis`]).
    pub energy_per_token_j: Option<f64>,
    /// Where `energy_per_token_j` comes from; `None` when it is not reported.
    pub energy_basis: Option<EnergyBasis>,
    /// J per request as stored by the source.
    pub energy_per_request_j: Option<f64>,
    /// Requests served per second (see [`Row::served_basis`]).
    pub served_req_s: Option<f64>,
    /// Where `served_req_s` comes from.
    pub served_basis: Option<ServedBasis>,
    /// Mean end-to-end request latency, ms: the statistic `e2e_mean` ([`Row::latency_ms`] reads
    /// and writes it here).
    pub e2e_mean_ms: Option<f64>,
    /// Requests that completed, where the file counts them.
    pub completed_requests: Option<f64>,
    /// Requests issued that failed (errored or dropped; a time-limited run's requests still
    /// running when it stopped are not failures), where the file counts them.
    pub failed_requests: Option<f64>,
    /// Each request's own figures, where the file writes them (judged by
    /// [`crate::core::plan::attainment`]).
    pub requests: Option<Requests>,
    /// What the run reports of each role of a disaggregated deployment.
    #[serde(default)]
    pub roles: RoleFigures,
    /// The server's own signals over the run (running, waiting, KV use, preemptions), where a
    /// file beside the run or its own columns report them; `None` when none is reported.
    pub signals: Option<Box<ServerSignals>>,
    latency_ms: [Option<f64>; Statistic::COUNT],
    /// Latencies out of range given to [`Row::set_latency_ms`], stored as absent (not kept
    /// with the data; an importer reports them).
    #[serde(skip)]
    unusable_latencies: u32,
}

/// A figure as a run keeps it: a finite value from [`MIN_FIGURE`] to [`MAX_FIGURE`], else
/// absent ("not reported").
pub fn in_range(v: Option<f64>) -> Option<f64> {
    v.filter(|x| x.is_finite() && (MIN_FIGURE..=MAX_FIGURE).contains(x))
}

/// The share of the requests issued that failed: failed ÷ (completed + failed), 1 when none
/// completed; `None` when the file does not count both.
pub fn failed_share(completed: Option<f64>, failed: Option<f64>) -> Option<f64> {
    if completed == Some(0.0) {
        return Some(1.0);
    }
    let (completed, failed) = (completed?, failed?);
    (completed + failed > 0.0).then(|| failed / (completed + failed))
}

impl Row {
    /// A row with only a level and its aggregate output tok/s; every other field unreported.
    pub fn new(level: f64, throughput_tok_s: f64) -> Row {
        Row {
            level,
            throughput_tok_s,
            ..Row::default()
        }
    }

    /// A run at `level` in which no request completed: no throughput and no latency, only the
    /// requests that failed (`None` when the file does not count them).
    pub fn all_failed(level: f64, failed: Option<f64>) -> Row {
        let mut row = Row::new(level, 0.0);
        row.completed_requests = Some(0.0);
        row.failed_requests = failed;
        row
    }

    /// True when no request of the run completed (its throughput is 0).
    pub fn is_all_failed(&self) -> bool {
        self.completed_requests == Some(0.0)
    }

    /// The share of the requests issued that failed (see [`failed_share`]).
    pub fn failed_share(&self) -> Option<f64> {
        failed_share(self.completed_requests, self.failed_requests)
    }

    /// Latency in ms at `stat`, or `None` if the row does not report it. For `Rate` this is
    /// concurrency × 1000 / output throughput (see [`Statistic::Rate`]).
    pub fn latency_ms(&self, stat: Statistic) -> Option<f64> {
        match stat {
            Statistic::E2eMean => self.e2e_mean_ms,
            _ => self.latency_ms[stat.index()],
        }
    }

    /// Sets (or clears) the latency at `stat`, ms. A value below [`MIN_FIGURE`] (0 and `-0.0`
    /// among them), above [`MAX_FIGURE`] or not finite is stored as absent ("not reported");
    /// those out of that range are counted (see [`Row::unusable_latencies`]), a NaN or infinity
    /// being how benchmark tools write "no value".
    pub fn set_latency_ms(&mut self, stat: Statistic, ms: Option<f64>) {
        if ms.is_some_and(|v| v < MIN_FIGURE || (v.is_finite() && v > MAX_FIGURE)) {
            self.unusable_latencies += 1;
        }
        match stat {
            Statistic::E2eMean => self.e2e_mean_ms = in_range(ms),
            _ => self.latency_ms[stat.index()] = in_range(ms),
        }
    }

    /// How many latencies given to this row were below [`MIN_FIGURE`] or above [`MAX_FIGURE`], and so
    /// are shown as "not reported".
    pub fn unusable_latencies(&self) -> u32 {
        self.unusable_latencies
    }

    /// Builder form of [`Row::set_latency_ms`].
    pub fn with(mut self, stat: Statistic, ms: Option<f64>) -> Row {
        self.set_latency_ms(stat, ms);
        self
    }

    /// Sets a stored J/token (absent stays absent).
    pub fn set_energy_per_token_j(&mut self, j: Option<f64>) {
        self.energy_per_token_j = j;
        self.energy_basis = j.map(|_| EnergyBasis::Stored);
    }

    /// Rate-based per-user tok/s: `1000 / latency_ms(Rate)` = throughput / concurrency.
    pub fn rate_user_tps(&self) -> Option<f64> {
        self.latency_ms(Statistic::Rate).map(|ms| 1000.0 / ms)
    }

    /// The run's concurrency: `avg_batch_size`, else the level when the level is a client
    /// concurrency, else (request-rate sweeps) served req/s × mean end-to-end latency (Little's
    /// law); `None` when none of these is known.
    pub fn concurrency(&self, kind: LevelKind) -> Option<f64> {
        self.avg_batch_size
            .or((kind != LevelKind::RequestRate).then_some(self.level))
            .or_else(|| Some(self.served_req_s? * self.e2e_mean_ms? / 1000.0))
    }

    /// Computes the derived figures (see the module documentation) where the file did not
    /// state them, and drops stored figures that are not positive (a batch of 0 is not a
    /// measurement). Every importer calls this once per row.
    pub fn finish(mut self, kind: LevelKind, counts: RunCounts) -> Row {
        self.avg_batch_size = in_range(self.avg_batch_size);
        self.avg_output_len = in_range(self.avg_output_len);
        self.avg_input_len = in_range(self.avg_input_len);
        self.input_tok_s = in_range(self.input_tok_s);
        self.roles = RoleFigures {
            prefill_power_w: in_range(self.roles.prefill_power_w),
            decode_power_w: in_range(self.roles.decode_power_w),
            decode_energy_per_token_j: in_range(self.roles.decode_energy_per_token_j),
        };
        self.power_w = in_range(self.power_w);
        self.power_peak = self
            .power_peak
            .filter(|(w, _)| in_range(Some(*w)).is_some());
        self.energy_per_request_j = in_range(self.energy_per_request_j);
        self.e2e_mean_ms = in_range(self.e2e_mean_ms);
        let count = |v: Option<f64>| v.filter(|x| x.is_finite() && *x >= 0.0 && *x <= MAX_FIGURE);
        self.completed_requests = count(counts.completed).or(count(self.completed_requests));
        self.failed_requests = count(counts.failed).or(count(self.failed_requests));
        if self.is_all_failed() || self.throughput_tok_s.is_nan() || self.throughput_tok_s <= 0.0 {
            // Nothing was served: no figure is derived from a throughput of 0.
            return self;
        }
        if in_range(self.energy_per_token_j).is_none() {
            self.energy_per_token_j = None;
            self.energy_basis = None;
        }
        if self.latency_ms(Statistic::Rate).is_none() {
            let concurrency = self
                .avg_batch_size
                .or((kind == LevelKind::Concurrency).then_some(self.level));
            self.latency_ms[Statistic::Rate.index()] =
                concurrency.map(|c| c * 1000.0 / self.throughput_tok_s);
        }
        if self.energy_per_token_j.is_none() {
            let derived = self
                .power_w
                .map(|w| (w / self.throughput_tok_s, EnergyBasis::PowerOverThroughput))
                .or_else(|| {
                    Some((
                        self.energy_per_request_j? / self.avg_output_len?,
                        EnergyBasis::PerRequestOverOutputTokens,
                    ))
                });
            // Held to the range a stated J/token is (a power of 2e-6 W read 1.11e-12 J/token).
            let derived = derived.filter(|d| in_range(Some(d.0)).is_some());
            self.energy_per_token_j = derived.map(|d| d.0);
            self.energy_basis = derived.map(|d| d.1);
        }
        if in_range(self.served_req_s).is_some() {
            self.served_basis = Some(ServedBasis::Stated);
        } else {
            let completed = in_range(counts.completed);
            let duration = in_range(counts.duration_s);
            let drained = duration
                .zip(self.e2e_mean_ms)
                .map(|(d, e2e)| d - e2e / 1000.0)
                .filter(|d| *d > 0.0);
            let served = completed
                .zip(drained)
                .map(|(c, d)| (c / d, ServedBasis::CompletedOverDrainedDuration))
                .or_else(|| {
                    in_range(counts.request_throughput_req_s)
                        .map(|r| (r, ServedBasis::RequestThroughput))
                })
                .or_else(|| Some((completed? / duration?, ServedBasis::CompletedOverDuration)));
            self.served_req_s = served.map(|s| s.0);
            self.served_basis = served.map(|s| s.1);
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_finite_or_non_positive_latencies_are_stored_as_absent() {
        let r = Row::new(1.0, 10.0)
            .with(Statistic::P50, Some(f64::NAN))
            .with(Statistic::P90, Some(f64::INFINITY))
            .with(Statistic::P95, Some(0.0))
            .with(Statistic::P99, Some(-3.0))
            .with(Statistic::TpotP50, Some(-0.0))
            .with(Statistic::TpotP90, Some(1e300))
            .with(Statistic::TpotMean, Some(12.5));
        assert_eq!(r.latency_ms(Statistic::P50), None);
        assert_eq!(r.latency_ms(Statistic::P90), None);
        assert_eq!(r.latency_ms(Statistic::P95), None);
        assert_eq!(r.latency_ms(Statistic::P99), None);
        assert_eq!(r.latency_ms(Statistic::TpotP50), None);
        assert_eq!(r.latency_ms(Statistic::TpotP90), None);
        assert_eq!(r.latency_ms(Statistic::TpotMean), Some(12.5));
        // The 0, the -3, the -0.0 and the 1e300 are counted; NaN and infinity mean "no value".
        assert_eq!(r.unusable_latencies(), 4);
    }

    #[test]
    fn rate_comes_from_the_batch_else_the_client_concurrency() {
        let mut batch = Row::new(64.0, 3200.0);
        batch.avg_batch_size = Some(60.0);
        let batch = batch.finish(LevelKind::MaxNumSeqs, RunCounts::default());
        assert_eq!(
            batch.latency_ms(Statistic::Rate),
            Some(60.0 * 1000.0 / 3200.0)
        );
        let client = Row::new(8.0, 400.0).finish(LevelKind::Concurrency, RunCounts::default());
        assert_eq!(client.latency_ms(Statistic::Rate), Some(20.0));
        // A cap without a measured batch, or a request rate, is no concurrency.
        let cap = Row::new(8.0, 400.0).finish(LevelKind::MaxNumSeqs, RunCounts::default());
        assert_eq!(cap.latency_ms(Statistic::Rate), None);
        let rate = Row::new(8.0, 400.0).finish(LevelKind::RequestRate, RunCounts::default());
        assert_eq!(rate.latency_ms(Statistic::Rate), None);
        // A batch of 0 is not a measurement.
        let mut zero = Row::new(8.0, 400.0);
        zero.avg_batch_size = Some(0.0);
        let zero = zero.finish(LevelKind::MaxNumSeqs, RunCounts::default());
        assert_eq!(
            (zero.avg_batch_size, zero.latency_ms(Statistic::Rate)),
            (None, None)
        );
    }

    #[test]
    fn energy_per_token_is_stored_else_derived_from_the_same_run() {
        let mut stored = Row::new(16.0, 1000.0);
        stored.power_w = Some(500.0);
        stored.set_energy_per_token_j(Some(0.6));
        let stored = stored.finish(LevelKind::Concurrency, RunCounts::default());
        assert_eq!(stored.energy_per_token_j, Some(0.6));
        assert_eq!(stored.energy_basis, Some(EnergyBasis::Stored));
        // cases/partial-reports: 5756 W / 1012.9 tok/s.
        let mut power = Row::new(16.0, 1012.9);
        power.power_w = Some(5756.0);
        let power = power.finish(LevelKind::Concurrency, RunCounts::default());
        assert_eq!(power.energy_per_token_j, Some(5756.0 / 1012.9));
        assert_eq!(power.energy_basis, Some(EnergyBasis::PowerOverThroughput));
        // ML.ENERGY V2: J per request / output tokens per request.
        let mut v2 = Row::new(16.0, 1000.0);
        v2.energy_per_request_j = Some(300.0);
        v2.avg_output_len = Some(250.0);
        let v2 = v2.finish(LevelKind::MaxNumSeqs, RunCounts::default());
        assert_eq!(v2.energy_per_token_j, Some(1.2));
        assert_eq!(
            v2.energy_basis,
            Some(EnergyBasis::PerRequestOverOutputTokens)
        );
        let none = Row::new(16.0, 1000.0).finish(LevelKind::Concurrency, RunCounts::default());
        assert_eq!((none.energy_per_token_j, none.energy_basis), (None, None));
    }

    #[test]
    fn served_rate_removes_the_drain_where_the_file_allows() {
        // cases/saturation, rate 8: 996 / (262.11 - 2.07512) s.
        let mut r = Row::new(8.0, 832.68);
        r.e2e_mean_ms = Some(2075.12);
        let counts = RunCounts {
            completed: Some(996.0),
            failed: None,
            duration_s: Some(262.11),
            request_throughput_req_s: Some(3.8),
        };
        let r = r.finish(LevelKind::RequestRate, counts);
        assert_eq!(r.served_req_s, Some(996.0 / (262.11 - 2.07512)));
        assert_eq!(
            r.served_basis,
            Some(ServedBasis::CompletedOverDrainedDuration)
        );
        let through = Row::new(8.0, 800.0).finish(
            LevelKind::RequestRate,
            RunCounts {
                request_throughput_req_s: Some(3.8),
                ..counts
            },
        );
        assert_eq!(through.served_req_s, Some(3.8));
        assert_eq!(through.served_basis, Some(ServedBasis::RequestThroughput));
        let plain = Row::new(8.0, 800.0).finish(
            LevelKind::RequestRate,
            RunCounts {
                request_throughput_req_s: None,
                ..counts
            },
        );
        assert_eq!(plain.served_req_s, Some(996.0 / 262.11));
        let mut stated = Row::new(8.0, 800.0);
        stated.served_req_s = Some(7.5);
        let stated = stated.finish(LevelKind::RequestRate, counts);
        assert_eq!(stated.served_req_s, Some(7.5));
        assert_eq!(stated.served_basis, Some(ServedBasis::Stated));
        // Little's law for a request-rate run's concurrency: 3.8 req/s x 2 s.
        let mut little = Row::new(4.0, 800.0);
        little.served_req_s = Some(3.8);
        little.e2e_mean_ms = Some(2000.0);
        assert_eq!(little.concurrency(LevelKind::RequestRate), Some(7.6));
    }
}
