//! What to set an autoscaler to: the recommended level is the per-replica target.
//!
//! - Targets per replica at the recommended level: requests running (the gauge's mean, else
//!   `avg_batch_size`, else the client's concurrency), requests waiting and KV use (where
//!   measured), requests per second (the served rate, else throughput ÷ output tokens per
//!   request) and output tok/s.
//! - The metric the level kind decides: a concurrency or `max_num_seqs` level scales on the
//!   engine's running-requests gauge summed over the deployment; a request-rate level on the
//!   rate of its completed-requests counter over one minute. The engine's names: vLLM
//!   (`vllm:num_requests_running`, `vllm:request_success_total`) or SGLang
//!   (`sglang:num_running_reqs`, `sglang:num_requests_total`). Where the deployment does not
//!   state its engine, the engine whose gauges the server's signals were read from (SGLang's or
//!   vLLM's); else vLLM's, and said.
//! - Threshold (KEDA's `AverageValue`: replicas = ceil(query ÷ threshold)): the recommended
//!   level, per replica; on a `max_num_seqs` sweep the requests its batch held there
//!   (`avg_batch_size`), as the running gauge never passes the cap.
//! - Replicas: with a load over time, its trough and peak; else 1 to the fleet the demand
//!   (`users`, `rps`) needs; no maximum without a demand.

use crate::core::model::deployment::LevelKind;
use crate::core::model::signals::{KvPeak, Signal, SignalSource};
use crate::core::model::sweep::Sweep;
use crate::core::model::sweep::MODEL_NOT_STATED;
use crate::core::plan::capacity::{at_recommendation, CapacityInputs};
use crate::core::plan::period::{period, LoadProfile, Scaling};
use crate::core::plan::planner::{Plan, Slo};

/// The engine whose own gauges the sweep's server signals were read from (`sglang:…` or
/// `vllm:…`), at any level; `None` when none were (or the sources are not an engine's).
pub fn metrics_engine(sweep: &Sweep) -> Option<Engine> {
    (0..sweep.levels().len())
        .filter_map(|li| sweep.level_signals(li))
        .flat_map(|s| Signal::ALL.map(|signal| s.source(signal)))
        .find_map(|source| match source? {
            SignalSource::Sglang => Some(Engine::Sglang),
            SignalSource::Vllm | SignalSource::VllmGpuCache => Some(Engine::Vllm),
            _ => None,
        })
}

/// The serving engine whose metric names the autoscaler uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// vLLM.
    Vllm,
    /// SGLang.
    Sglang,
}

impl Engine {
    /// The engine a deployment states (`sglang` in its name: SGLang; else vLLM), and whether it
    /// is stated at all.
    pub fn of(engine: Option<&str>) -> (Engine, bool) {
        match engine {
            Some(e) if e.to_ascii_lowercase().contains("sglang") => (Engine::Sglang, true),
            Some(e) if e.to_ascii_lowercase().contains("vllm") => (Engine::Vllm, true),
            _ => (Engine::Vllm, false),
        }
    }

    /// `vLLM`, `SGLang`.
    pub fn label(self) -> &'static str {
        match self {
            Engine::Vllm => "vLLM",
            Engine::Sglang => "SGLang",
        }
    }

    /// The gauge of requests running.
    pub fn running_gauge(self) -> &'static str {
        match self {
            Engine::Vllm => "vllm:num_requests_running",
            Engine::Sglang => "sglang:num_running_reqs",
        }
    }

    /// The counter of requests completed.
    pub fn completed_counter(self) -> &'static str {
        match self {
            Engine::Vllm => "vllm:request_success_total",
            Engine::Sglang => "sglang:num_requests_total",
        }
    }
}

/// Per-replica figures at the recommended level.
#[derive(Clone, Debug, PartialEq)]
pub struct Targets {
    /// The recommended level.
    pub level: f64,
    /// Requests running, mean (the gauge, else `avg_batch_size`, else the client's concurrency).
    pub running: Option<f64>,
    /// Requests waiting, mean, where measured.
    pub waiting: Option<f64>,
    /// KV cache use at its peak (max or p99), a fraction, where measured.
    pub kv_use: Option<(f64, KvPeak)>,
    /// Requests per second one replica serves.
    pub req_s: Option<f64>,
    /// Output tok/s of one replica.
    pub output_tok_s: f64,
}

/// The autoscaler's settings at the recommended level.
#[derive(Clone, Debug, PartialEq)]
pub struct Autoscaler {
    /// The engine whose metric names are used, and whether the deployment states it.
    pub engine: (Engine, bool),
    /// What the level is.
    pub kind: LevelKind,
    /// The metric scaled on.
    pub metric: &'static str,
    /// The Prometheus query: the metric summed over the deployment's replicas.
    pub query: String,
    /// The per-replica target of the query's value.
    pub threshold: f64,
    /// The fewest replicas.
    pub min_replicas: u64,
    /// The most replicas; `None` without a demand to size the fleet.
    pub max_replicas: Option<u64>,
    /// Whether the replicas come from a load over time (its trough and peak).
    pub from_load: bool,
    /// The targets per replica.
    pub targets: Targets,
}

/// A text as a PromQL string (double quotes, `\` and `"` escaped, line ends as spaces).
fn promql_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The autoscaler of a planned sweep of model `model_id`, sized by `inputs` and a load over time
/// (see the module's docs); `None` without a recommended level.
pub fn autoscaler(
    sweep: &Sweep,
    plan: &Plan,
    slo: &Slo,
    model_id: &str,
    inputs: &CapacityInputs,
    load: Option<(&LoadProfile, Scaling)>,
) -> Option<Autoscaler> {
    let rec = plan.recommendation(sweep, slo)?;
    let li = plan.recommended?;
    let level = sweep.levels().get(li)?;
    let kind = sweep.level_kind();
    let signals = sweep.level_signals(li);
    let signals = signals.as_ref();
    let engine = match Engine::of(sweep.deployment.engine.as_deref()) {
        (_, false) => metrics_engine(sweep).map_or((Engine::Vllm, false), |e| (e, true)),
        stated => stated,
    };
    // A model the data does not name has no `model_name` to select: every model is summed.
    let label = if model_id == MODEL_NOT_STATED {
        String::new()
    } else {
        format!("{{model_name={}}}", promql_string(model_id))
    };
    let (metric, query, threshold) = match kind {
        LevelKind::RequestRate => {
            let m = engine.0.completed_counter();
            (m, format!("sum(rate({m}{label}[1m]))"), rec.level)
        }
        LevelKind::Concurrency | LevelKind::MaxNumSeqs => {
            let m = engine.0.running_gauge();
            let threshold = match kind {
                LevelKind::MaxNumSeqs => rec.avg_batch_size.unwrap_or(rec.level),
                _ => rec.level,
            };
            (m, format!("sum({m}{label})"), threshold)
        }
    };
    let req_s = level.served_req_s.or_else(|| {
        rec.output_tokens_per_request
            .filter(|t| *t > 0.0)
            .map(|t| rec.throughput_tok_s / t)
    });
    let targets = Targets {
        level: rec.level,
        running: signals.and_then(|s| s.running_mean).or(rec.streams),
        waiting: signals.and_then(|s| s.waiting_mean),
        kv_use: signals.and_then(|s| Some((s.kv_use_max?, s.kv_peak))),
        req_s,
        output_tok_s: rec.throughput_tok_s,
    };
    let (min_replicas, max_replicas, from_load) = match load {
        Some((profile, scaling)) => {
            let p = period(&rec, sweep.deployment.num_gpus, profile, scaling, inputs);
            let trough = p.replicas.iter().copied().min().unwrap_or(1).max(1);
            // A load of zeros (a floor of 0 replicas) peaks at 0: the ceiling is the floor of 1.
            (trough, p.peak_replicas.map(|peak| peak.max(trough)), true)
        }
        None => {
            let fleet = at_recommendation(sweep, plan, slo, inputs).and_then(|c| c.replicas);
            (1, fleet.map(|r| r.max(1)), false)
        }
    };
    Some(Autoscaler {
        engine,
        kind,
        metric,
        query,
        threshold,
        min_replicas,
        max_replicas,
        from_load,
        targets,
    })
}

/// An autoscaler for tests of its texts: vLLM's gauge, one replica at the least and no
/// ceiling, a threshold of `threshold` at a level `threshold` of `kind`, nothing measured but
/// 700 output tok/s.
#[cfg(test)]
pub(crate) fn example(kind: LevelKind, threshold: f64) -> Autoscaler {
    Autoscaler {
        engine: (Engine::Vllm, false),
        kind,
        metric: "vllm:num_requests_running",
        query: String::new(),
        threshold,
        min_replicas: 1,
        max_replicas: None,
        from_load: false,
        targets: Targets {
            level: threshold,
            running: None,
            waiting: None,
            kv_use: None,
            req_s: None,
            output_tok_s: 700.0,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::deployment::Deployment;
    use crate::core::model::row::{Row, RunCounts};
    use crate::core::model::signals::ServerSignals;
    use crate::core::model::statistic::Statistic;
    use crate::core::plan::planner::{plan, Target};

    #[test]
    fn a_concurrency_level_scales_on_running_requests_and_a_rate_on_completions() {
        let rows =
            [(4.0, 400.0, 20.0), (8.0, 700.0, 30.0), (16.0, 900.0, 60.0)].map(|(l, t, ms)| {
                let mut r = Row::new(l, t).with(Statistic::P50, Some(ms));
                r.avg_output_len = Some(200.0);
                r.finish(LevelKind::Concurrency, RunCounts::default())
            });
        let mut d = Deployment::new(LevelKind::Concurrency);
        d.engine = Some("sglang".into());
        let sweep = Sweep::new(0, d, rows.to_vec());
        let slo = Slo::new(Target::MsPerToken(40.0), Statistic::P50);
        let p = plan(&sweep, &slo);
        let inputs = CapacityInputs {
            users: Some(100.0),
            ..CapacityInputs::default()
        };
        let a = autoscaler(&sweep, &p, &slo, "org/m\"x", &inputs, None).unwrap();
        // A load of zeros with a floor of 0 replicas: the range is 1 to 1, never 1 to 0.
        let zeros = LoadProfile {
            kind: crate::core::plan::period::LoadKind::Rps,
            step_min: 60.0,
            values: vec![0.0, 0.0],
        };
        let floor = Scaling {
            lag_min: 0.0,
            min_replicas: 0,
        };
        let idle = autoscaler(&sweep, &p, &slo, "m", &inputs, Some((&zeros, floor))).unwrap();
        assert_eq!((idle.min_replicas, idle.max_replicas), (1, Some(1)));
        assert_eq!(a.metric, "sglang:num_running_reqs");
        assert_eq!(
            a.query,
            "sum(sglang:num_running_reqs{model_name=\"org/m\\\"x\"})"
        );
        // Concurrency 8 per replica; 100 users need ceil(100 / 8) = 13 replicas.
        assert_eq!(
            (a.threshold, a.min_replicas, a.max_replicas),
            (8.0, 1, Some(13))
        );
        // 700 tok/s ÷ 200 tokens per request = 3.5 req/s per replica.
        assert_eq!(a.targets.req_s, Some(3.5));
        assert_eq!(a.targets.running, Some(8.0));

        let rows = [(2.0, 400.0, 20.0), (4.0, 700.0, 50.0)].map(|(l, t, ms)| {
            let mut r = Row::new(l, t).with(Statistic::P50, Some(ms));
            r.served_req_s = Some(l);
            r.finish(LevelKind::RequestRate, RunCounts::default())
        });
        let sweep = Sweep::new(0, Deployment::new(LevelKind::RequestRate), rows.to_vec());
        let p = plan(&sweep, &slo);
        let a = autoscaler(&sweep, &p, &slo, "m", &CapacityInputs::default(), None).unwrap();
        assert_eq!(a.engine, (Engine::Vllm, false));
        assert_eq!(
            a.query,
            "sum(rate(vllm:request_success_total{model_name=\"m\"}[1m]))"
        );
        assert_eq!((a.threshold, a.max_replicas), (2.0, None));
    }

    #[test]
    fn an_engine_not_stated_is_the_one_whose_gauges_the_signals_came_from() {
        let rows = [(4.0, 400.0, 20.0), (8.0, 700.0, 60.0)].map(|(l, t, ms)| {
            let mut r = Row::new(l, t).with(Statistic::P50, Some(ms));
            let mut signals = ServerSignals::default();
            signals.running_mean = Some(l - 0.5);
            signals.set_source(Signal::Running, SignalSource::Sglang);
            r.signals = Some(Box::new(signals));
            r.finish(LevelKind::Concurrency, RunCounts::default())
        });
        let sweep = Sweep::new(0, Deployment::new(LevelKind::Concurrency), rows.to_vec());
        assert_eq!(metrics_engine(&sweep), Some(Engine::Sglang));
        let slo = Slo::new(Target::MsPerToken(40.0), Statistic::P50);
        let p = plan(&sweep, &slo);
        let a = autoscaler(
            &sweep,
            &p,
            &slo,
            MODEL_NOT_STATED,
            &CapacityInputs::default(),
            None,
        )
        .unwrap();
        assert_eq!(a.engine, (Engine::Sglang, true));
        // A model the data does not name selects none.
        assert_eq!(a.query, "sum(sglang:num_running_reqs)");
        assert_eq!(a.targets.running, Some(3.5));
    }
}
