//! A server's own signals at a level: requests running and waiting, KV cache use and
//! preemptions, as the engine's metrics report them over the run (AIPerf's server-metrics
//! export, inference-perf's Prometheus report, InferenceX's digest, the CSV template's columns).
//!
//! Each figure is optional: `None` is "not reported", never 0 (a gauge a tool did not record is
//! absent, even where the tool wrote 0). Each group (running, waiting, KV use, preemptions) names
//! the metric it came from ([`SignalSource`]). Ranges: KV use is a fraction from 0 to 1; counts
//! are 0 or more; a value outside its range is not kept ([`ServerSignals::checked`] says which).

use serde::{Deserialize, Serialize};

use crate::core::model::limits::MAX_FIGURE;

/// One group of server signals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Signal {
    /// Requests in the engine's running batch (a gauge: mean and max over the run).
    Running,
    /// Requests waiting in the engine's queue (a gauge: mean and max over the run).
    Waiting,
    /// KV cache use, a fraction from 0 to 1 (a gauge: mean, and max or p99, over the run).
    KvUse,
    /// Requests preempted over the run (a count).
    Preemptions,
}

impl Signal {
    /// Every group, in the order tables show them.
    pub const ALL: [Signal; 4] = [
        Signal::Running,
        Signal::Waiting,
        Signal::KvUse,
        Signal::Preemptions,
    ];

    /// The CSV template's column: `running`, `waiting`, `kv_usage`, `preemptions`.
    pub fn column(self) -> &'static str {
        match self {
            Signal::Running => "running",
            Signal::Waiting => "waiting",
            Signal::KvUse => "kv_usage",
            Signal::Preemptions => "preemptions",
        }
    }

    /// Its name in a sentence: `requests running`, `KV cache use`.
    pub fn label(self) -> &'static str {
        match self {
            Signal::Running => "requests running",
            Signal::Waiting => "requests waiting",
            Signal::KvUse => "KV cache use",
            Signal::Preemptions => "preemptions",
        }
    }

    fn index(self) -> usize {
        match self {
            Signal::Running => 0,
            Signal::Waiting => 1,
            Signal::KvUse => 2,
            Signal::Preemptions => 3,
        }
    }
}

/// The metric a signal was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SignalSource {
    /// vLLM's own gauges and counter (`vllm:num_requests_running`, `vllm:num_requests_waiting`,
    /// `vllm:kv_cache_usage_perc`, `vllm:num_preemptions`).
    Vllm,
    /// vLLM's KV gauge before V1 (`vllm:gpu_cache_usage_perc`).
    VllmGpuCache,
    /// SGLang's gauges (`sglang:num_running_reqs`, `sglang:num_queue_reqs`,
    /// `sglang:token_usage`).
    Sglang,
    /// inference-perf's Prometheus report (`num_requests_running`, `queue_len`,
    /// `kv_cache_usage_percentage`, `num_preemptions_total`).
    InferencePerf,
    /// InferenceX's `server_metrics` digest (`kv_cache.gpu_usage_pct`: the KV gauge's maximum,
    /// a fraction despite its name).
    InferenceXDigest,
    /// The CSV template's column (`running`, `waiting`, `kv_usage`, `preemptions`).
    Csv,
}

impl SignalSource {
    /// The metric `signal` came from, named as its tool writes it: `vllm:num_requests_waiting`,
    /// `inference-perf queue_len`, the CSV column `kv_usage`.
    pub fn metric(self, signal: Signal) -> String {
        let name = match (self, signal) {
            (SignalSource::Vllm, Signal::Running) => "vllm:num_requests_running",
            (SignalSource::Vllm, Signal::Waiting) => "vllm:num_requests_waiting",
            (SignalSource::Vllm, Signal::KvUse) => "vllm:kv_cache_usage_perc",
            (SignalSource::VllmGpuCache, Signal::KvUse) => "vllm:gpu_cache_usage_perc",
            (SignalSource::Vllm | SignalSource::VllmGpuCache, Signal::Preemptions) => {
                "vllm:num_preemptions"
            }
            (SignalSource::Sglang, Signal::Running) => "sglang:num_running_reqs",
            (SignalSource::Sglang, Signal::Waiting) => "sglang:num_queue_reqs",
            (SignalSource::Sglang, Signal::KvUse) => "sglang:token_usage",
            (SignalSource::InferencePerf, Signal::Running) => "inference-perf num_requests_running",
            (SignalSource::InferencePerf, Signal::Waiting) => "inference-perf queue_len",
            (SignalSource::InferencePerf, Signal::KvUse) => {
                "inference-perf kv_cache_usage_percentage"
            }
            (SignalSource::InferencePerf, Signal::Preemptions) => {
                "inference-perf num_preemptions_total"
            }
            (SignalSource::InferenceXDigest, _) => {
                "InferenceX server_metrics.kv_cache.gpu_usage_pct"
            }
            (SignalSource::Csv, s) => return format!("the CSV column `{}`", s.column()),
            _ => "the engine's metrics",
        };
        name.to_string()
    }
}

/// A KV use figure above the mean: the gauge's maximum over the run, or its 99th percentile.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum KvPeak {
    /// The maximum.
    #[default]
    Max,
    /// The 99th percentile.
    P99,
}

impl KvPeak {
    /// `max`, `p99`.
    pub fn label(self) -> &'static str {
        match self {
            KvPeak::Max => "max",
            KvPeak::P99 => "p99",
        }
    }
}

/// A server's signals at one run (or, for a [`crate::core::model::sweep::Level`], the worst
/// over its runs). Every figure is `None` where not reported.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ServerSignals {
    /// Requests running, mean over the run.
    pub running_mean: Option<f64>,
    /// Requests running, maximum over the run.
    pub running_max: Option<f64>,
    /// Requests waiting, mean over the run.
    pub waiting_mean: Option<f64>,
    /// Requests waiting, maximum over the run.
    pub waiting_max: Option<f64>,
    /// KV cache use, fraction (0 to 1), mean over the run.
    pub kv_use_mean: Option<f64>,
    /// KV cache use, fraction (0 to 1), maximum over the run (or its p99: [`Self::kv_peak`]).
    pub kv_use_max: Option<f64>,
    /// Whether `kv_use_max` is the maximum or the 99th percentile.
    pub kv_peak: KvPeak,
    /// Requests preempted over the run, a count.
    pub preemptions: Option<f64>,
    /// The server's cap on running requests (vLLM `max_num_seqs`) where a file states it beside
    /// a client's level; on a `max_num_seqs` sweep the level is the cap.
    pub max_num_seqs: Option<f64>,
    sources: [Option<SignalSource>; 4],
}

/// A signal's mean and maximum over a run, as [`ServerSignals::with`] sets them (the maximum is
/// the count for preemptions); each `None` where not reported.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gauge {
    /// The mean over the run.
    pub mean: Option<f64>,
    /// The maximum over the run.
    pub max: Option<f64>,
}

/// A signal value outside its range, not kept ([`ServerSignals::checked`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OutOfRange {
    /// Which signal.
    pub signal: Signal,
    /// The value given.
    pub value: f64,
}

impl ServerSignals {
    /// Signals of which none is reported.
    pub fn new() -> ServerSignals {
        ServerSignals::default()
    }

    /// True when no signal is reported (the cap aside).
    pub fn is_empty(&self) -> bool {
        self.sources.iter().all(Option::is_none)
    }

    /// True when the group `signal` reports a figure.
    pub fn reports(&self, signal: Signal) -> bool {
        match signal {
            Signal::Running => self.running_mean.or(self.running_max).is_some(),
            Signal::Waiting => self.waiting_mean.or(self.waiting_max).is_some(),
            Signal::KvUse => self.kv_use_mean.or(self.kv_use_max).is_some(),
            Signal::Preemptions => self.preemptions.is_some(),
        }
    }

    /// The metric the group `signal` came from, where it reports a figure.
    pub fn source(&self, signal: Signal) -> Option<SignalSource> {
        self.sources[signal.index()].filter(|_| self.reports(signal))
    }

    /// Names the metric the group `signal` was read from.
    pub fn set_source(&mut self, signal: Signal, source: SignalSource) {
        self.sources[signal.index()] = Some(source);
    }

    /// Builder form: sets the mean and the maximum of `signal` (the maximum is the count for
    /// preemptions) and the metric they came from.
    #[must_use]
    pub fn with(mut self, signal: Signal, gauge: Gauge, source: SignalSource) -> ServerSignals {
        let Gauge { mean, max } = gauge;
        match signal {
            Signal::Running => (self.running_mean, self.running_max) = (mean, max),
            Signal::Waiting => (self.waiting_mean, self.waiting_max) = (mean, max),
            Signal::KvUse => (self.kv_use_mean, self.kv_use_max) = (mean, max),
            Signal::Preemptions => self.preemptions = max.or(mean),
        }
        self.set_source(signal, source);
        self
    }

    /// The signals with every value outside its range left out (KV use outside 0 to 1, a count
    /// below 0 or above [`MAX_FIGURE`], a value that is not finite), and those left out.
    pub fn checked(mut self) -> (ServerSignals, Vec<OutOfRange>) {
        let mut out = Vec::new();
        let mut keep = |v: &mut Option<f64>, signal: Signal, top: f64| {
            if let Some(x) = *v {
                if !(x.is_finite() && (0.0..=top).contains(&x)) {
                    out.push(OutOfRange { signal, value: x });
                    *v = None;
                }
            }
        };
        keep(&mut self.running_mean, Signal::Running, MAX_FIGURE);
        keep(&mut self.running_max, Signal::Running, MAX_FIGURE);
        keep(&mut self.waiting_mean, Signal::Waiting, MAX_FIGURE);
        keep(&mut self.waiting_max, Signal::Waiting, MAX_FIGURE);
        keep(&mut self.kv_use_mean, Signal::KvUse, 1.0);
        keep(&mut self.kv_use_max, Signal::KvUse, 1.0);
        keep(&mut self.preemptions, Signal::Preemptions, MAX_FIGURE);
        self.max_num_seqs = self
            .max_num_seqs
            .filter(|c| c.is_finite() && *c >= 1.0 && *c <= MAX_FIGURE);
        for signal in Signal::ALL {
            if !self.reports(signal) {
                self.sources[signal.index()] = None;
            }
        }
        (self, out)
    }

    /// Adds `other`'s figures where these have none (a companion file beside a run's own).
    pub fn fill_from(&mut self, other: &ServerSignals) {
        for signal in Signal::ALL {
            if !self.reports(signal) && other.reports(signal) {
                match signal {
                    Signal::Running => {
                        (self.running_mean, self.running_max) =
                            (other.running_mean, other.running_max)
                    }
                    Signal::Waiting => {
                        (self.waiting_mean, self.waiting_max) =
                            (other.waiting_mean, other.waiting_max)
                    }
                    Signal::KvUse => {
                        (self.kv_use_mean, self.kv_use_max, self.kv_peak) =
                            (other.kv_use_mean, other.kv_use_max, other.kv_peak)
                    }
                    Signal::Preemptions => self.preemptions = other.preemptions,
                }
                self.sources[signal.index()] = other.sources[signal.index()];
            }
        }
        self.max_num_seqs = self.max_num_seqs.or(other.max_num_seqs);
    }

    /// The worst of two runs' signals at one level: the lowest running mean (as the lowest
    /// `avg_batch_size`), the highest of every other figure; each from the runs that report it.
    pub fn worst(&mut self, other: &ServerSignals) {
        let high = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(x), Some(y)) => Some(x.max(y)),
            (x, y) => x.or(y),
        };
        let low = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, y) => x.or(y),
        };
        self.running_mean = low(self.running_mean, other.running_mean);
        self.running_max = high(self.running_max, other.running_max);
        self.waiting_mean = high(self.waiting_mean, other.waiting_mean);
        self.waiting_max = high(self.waiting_max, other.waiting_max);
        self.kv_use_mean = high(self.kv_use_mean, other.kv_use_mean);
        if other.kv_use_max > self.kv_use_max {
            self.kv_peak = other.kv_peak;
        }
        self.kv_use_max = high(self.kv_use_max, other.kv_use_max);
        self.preemptions = high(self.preemptions, other.preemptions);
        self.max_num_seqs = low(self.max_num_seqs, other.max_num_seqs);
        for (mine, theirs) in self.sources.iter_mut().zip(other.sources) {
            *mine = mine.or(theirs);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_out_of_range_are_left_out_and_named() {
        let s = ServerSignals::new()
            .with(
                Signal::KvUse,
                Gauge {
                    mean: Some(0.4),
                    max: Some(1.2),
                },
                SignalSource::Vllm,
            )
            .with(
                Signal::Waiting,
                Gauge {
                    mean: Some(-1.0),
                    max: Some(3.0),
                },
                SignalSource::Vllm,
            )
            .with(
                Signal::Preemptions,
                Gauge {
                    mean: None,
                    max: Some(f64::NAN),
                },
                SignalSource::Vllm,
            );
        let (s, out) = s.checked();
        assert_eq!((s.kv_use_mean, s.kv_use_max), (Some(0.4), None));
        assert_eq!((s.waiting_mean, s.waiting_max), (None, Some(3.0)));
        assert_eq!(s.preemptions, None);
        assert_eq!(s.source(Signal::Preemptions), None);
        assert_eq!(
            out.iter().map(|o| o.signal).collect::<Vec<_>>(),
            [Signal::Waiting, Signal::KvUse, Signal::Preemptions]
        );
        assert_eq!(out[1].value, 1.2);
    }

    #[test]
    fn the_worst_of_two_runs_takes_the_lowest_running_and_the_highest_of_the_rest() {
        let mut a = ServerSignals::new()
            .with(
                Signal::Running,
                Gauge {
                    mean: Some(60.0),
                    max: Some(64.0),
                },
                SignalSource::Vllm,
            )
            .with(
                Signal::Waiting,
                Gauge {
                    mean: Some(2.0),
                    max: Some(9.0),
                },
                SignalSource::Vllm,
            );
        let b = ServerSignals::new()
            .with(
                Signal::Running,
                Gauge {
                    mean: Some(58.0),
                    max: Some(64.0),
                },
                SignalSource::Vllm,
            )
            .with(
                Signal::KvUse,
                Gauge {
                    mean: Some(0.5),
                    max: Some(0.93),
                },
                SignalSource::Vllm,
            );
        a.worst(&b);
        assert_eq!(a.running_mean, Some(58.0));
        assert_eq!(a.waiting_mean, Some(2.0));
        assert_eq!(a.kv_use_max, Some(0.93));
        assert_eq!(a.source(Signal::KvUse), Some(SignalSource::Vllm));
        assert_eq!(
            SignalSource::Vllm.metric(Signal::Waiting),
            "vllm:num_requests_waiting"
        );
        assert_eq!(
            SignalSource::Csv.metric(Signal::KvUse),
            "the CSV column `kv_usage`"
        );
    }
}
