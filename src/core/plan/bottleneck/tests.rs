use super::*;
use crate::core::model::deployment::Deployment;
use crate::core::model::row::Row;
use crate::core::model::signals::{Gauge, Signal, SignalSource};

fn sweep(kind: LevelKind, rows: Vec<Row>) -> Sweep {
    Sweep::new(0, Deployment::new(kind), rows)
}

fn gauges(row: Row, running: f64, waiting: f64, kv: Option<f64>) -> Row {
    let mut row = row;
    let mut s = ServerSignals::new()
        .with(
            Signal::Running,
            Gauge {
                mean: Some(running),
                max: None,
            },
            SignalSource::Vllm,
        )
        .with(
            Signal::Waiting,
            Gauge {
                mean: Some(waiting),
                max: None,
            },
            SignalSource::Vllm,
        );
    if kv.is_some() {
        s = s.with(
            Signal::KvUse,
            Gauge {
                mean: None,
                max: kv,
            },
            SignalSource::Vllm,
        );
    }
    row.signals = Some(Box::new(s));
    row
}

fn keys(sweep: &Sweep) -> Vec<Vec<&'static str>> {
    verdicts(sweep).iter().map(LevelVerdict::keys).collect()
}

#[test]
fn each_rule_fires_on_its_numbers_and_two_rules_name_both() {
    let s = sweep(
        LevelKind::Concurrency,
        vec![
            // 8: 7.9 running of 8, nothing waits, KV 0.42: headroom.
            gauges(Row::new(8.0, 800.0), 7.9, 0.0, Some(0.42)),
            // 16: KV 0.93 at its max: kv-bound (and not queueing: KV is the bound).
            gauges(Row::new(16.0, 1400.0), 15.9, 3.0, Some(0.93)),
            // 32: 2 waiting, KV 0.2: queueing, compute-bound.
            gauges(Row::new(32.0, 1500.0), 31.0, 2.0, Some(0.2)),
            // 64: 40 running of 64 (0.625 < 0.85), 1.5 waiting, KV not reported: queueing and
            // not-filled.
            gauges(Row::new(64.0, 1520.0), 40.0, 1.5, None),
        ],
    );
    assert_eq!(
        keys(&s),
        [
            vec!["headroom"],
            vec!["kv-bound"],
            vec!["queueing"],
            vec!["queueing", "not-filled"]
        ]
    );
    let v = verdict(&s, 3).unwrap();
    assert_eq!(
        v.fired[1],
        Fired::NotFilled {
            running_mean: 40.0,
            basis: RunningBasis::Gauge,
            of: 64.0,
            of_cap: false
        }
    );
    assert_eq!(v.lever(), Lever::ReplicaOrBatchedTokens);
    assert_eq!(verdict(&s, 1).unwrap().lever(), Lever::MoreKvMemory);
}

#[test]
fn the_cap_binds_where_it_is_stated_and_requests_wait() {
    let mut row = gauges(Row::new(256.0, 5000.0), 250.0, 0.5, Some(0.6));
    // A client's concurrency of 256 against a server cap of 256 stated beside it.
    if let Some(s) = row.signals.as_deref_mut() {
        s.max_num_seqs = Some(256.0);
    }
    let s = sweep(LevelKind::Concurrency, vec![row]);
    let v = verdict(&s, 0).unwrap();
    assert_eq!(v.keys(), ["capped"]);
    assert_eq!(v.lever(), Lever::HigherMaxNumSeqs);
    // Preemptions alone make a level kv-bound.
    let mut row = Row::new(4.0, 100.0);
    row.signals = Some(Box::new(ServerSignals::new().with(
        Signal::Preemptions,
        Gauge {
            mean: None,
            max: Some(3.0),
        },
        SignalSource::Vllm,
    )));
    assert_eq!(
        keys(&sweep(LevelKind::Concurrency, vec![row])),
        [vec!["kv-bound"]]
    );
}

#[test]
fn an_mlenergy_batch_below_85_percent_of_its_cap_is_not_filled() {
    let mut full = Row::new(64.0, 3000.0);
    full.avg_batch_size = Some(60.0);
    let mut thin = Row::new(128.0, 3100.0);
    thin.avg_batch_size = Some(100.0);
    let s = sweep(LevelKind::MaxNumSeqs, vec![full, thin]);
    assert_eq!(keys(&s), [vec!["headroom"], vec!["not-filled"]]);
    assert_eq!(
        fill_ratio(&s.levels()[0], LevelKind::MaxNumSeqs),
        Some(60.0 / 64.0)
    );
    assert_eq!(
        fill_ratio(&s.levels()[1], LevelKind::MaxNumSeqs),
        Some(100.0 / 128.0)
    );
}

#[test]
fn a_request_rate_served_below_95_percent_is_overloaded() {
    let mut ok = Row::new(4.0, 400.0);
    ok.served_req_s = Some(3.9);
    let mut over = Row::new(8.0, 600.0);
    over.served_req_s = Some(7.5);
    let s = sweep(LevelKind::RequestRate, vec![ok, over]);
    assert_eq!(keys(&s), [vec!["headroom"], vec!["overloaded"]]);
}

#[test]
fn without_signals_a_climbing_ttft_over_flat_throughput_is_queueing_from_latency() {
    let row = |level: f64, tput: f64, ttft: f64| {
        Row::new(level, tput).with(Statistic::TtftP50, Some(ttft))
    };
    let s = sweep(
        LevelKind::Concurrency,
        vec![
            row(1.0, 100.0, 30.0),
            row(8.0, 500.0, 60.0),
            // TTFT 85 < 3 x 30: not yet.
            row(16.0, 510.0, 85.0),
            // TTFT 11,800 ms ≥ 90 while tok/s rises 520 / 510 - 1 = 1.96% < 5%.
            row(32.0, 520.0, 11_800.0),
        ],
    );
    assert_eq!(
        keys(&s),
        [
            vec!["headroom"],
            vec!["headroom"],
            vec!["headroom"],
            vec!["queueing-from-latency"]
        ]
    );
    assert_eq!(
        verdict(&s, 3).unwrap().fired[0],
        Fired::QueueingFromLatency {
            ttft_ms: 11_800.0,
            lowest: (30.0, 1.0),
            rise: ((520.0 - 510.0) / 510.0, 16.0)
        }
    );
}
