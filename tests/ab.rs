//! Two arms compared at equal per-user speed (`plan::ab`), on real files. Every expected value
//! was computed from the files with a few lines of Python (`json.load`; speed = 1000 / the
//! statistic in ms; throughput = `output_tput_per_gpu`; between two levels, linear in (ln
//! speed, ln tok/s)), not by this code.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::too_many_lines,
    reason = "the workspace's gates are the shipped code's: a test's helper panics when the test fails"
)]

mod common;
use common::realdata;

use llm_slo_planner::core::import::{import, Import};
use llm_slo_planner::core::model::sweep::Statistic;
use llm_slo_planner::core::plan::ab::{
    AbError, AbVerdict, AbWarning, Arm, Arms, At, Comparison, Interval,
};
use llm_slo_planner::core::plan::planner::{Slo, Target};
use llm_slo_planner::core::text::ab_text::{error_text, reach_text, verdict_text};

const AGENTIC: [&str; 2] = [
    "ajith-sirra-amd-InferenceMAX_Rocm_Team__results_0603_sa_minimaxm2.5-fp4-mi355x-vllm-agentic-lmcache_results_bmk_agg_bmk__at_5988286.json",
    "ajith-sirra-amd-InferenceMAX_Rocm_Team__results_0604_minimaxm2.5-fp4-mi355x-vllm-agentic-lmcache_results_bmk_agg_bmk__at_5988286.json",
];

fn agentic() -> Import {
    import(&AGENTIC.map(realdata)).unwrap_or_else(|p| panic!("{p:?}"))
}

fn sweep_named(i: &Import, cfg: &str) -> usize {
    (0..i.source.sweeps.len())
        .find(|&s| i.source.sweep_cfg(s) == Some(cfg))
        .unwrap_or_else(|| panic!("no sweep {cfg}"))
}

fn arms(i: &Import, a: &str, b: &str) -> (usize, usize) {
    (sweep_named(i, a), sweep_named(i, b))
}

fn close(x: f64, y: f64) -> bool {
    (x - y).abs() <= 1e-9 * y.abs().max(1.0)
}

fn at(i: &Import, (a, b): (usize, usize), stat: Statistic, tps: f64) -> Comparison {
    let arm = |sweep_index| Arm {
        source: &i.source,
        sweep_index,
    };
    Arms::new(arm(a), arm(b))
        .expect("two arms")
        .compare(&Slo::new(Target::TokensPerSecond(tps), stat), 2.0)
        .expect("a comparison")
}

/// Offloading none (A) against LMCache (B), each run on two dates (two repeats), at 40 tok/s
/// per user on mean TPOT: both arms are read between concurrency 4 and 8 in each repeat.
#[test]
fn agentic_arms_at_forty_tok_s_differ_within_the_noise() {
    let i = agentic();
    let c = at(
        &i,
        arms(&i, "offload none", "offload lmcache"),
        Statistic::TpotMean,
        40.0,
    );
    let r = c.ratio.expect("a ratio");
    assert!(close(r.ratio, 0.991_689_159_134_486_4), "{r:?}");
    assert!(close(r.low, 0.983_877_121_547_861_9), "{r:?}");
    assert!(close(r.high, 0.999_562_237_272_406), "{r:?}");
    assert_eq!(c.interval, Interval::Repeats);
    assert_eq!((c.a.repeats, c.b.repeats), (2, 2));
    assert_eq!(c.verdict, AbVerdict::NoDifference);
    let a: Vec<f64> = c.a.at.iter().filter_map(|x| x.tok_s()).collect();
    assert!(
        close(a[0], 120.245_483_134_606_23) && close(a[1], 119.179_793_141_393_43),
        "{a:?}"
    );
    assert!(matches!(
        c.a.at[0],
        At::Interpolated { from_level, to_level, .. } if (from_level, to_level) == (4.0, 8.0)
    ));
    assert!(close(
        c.a.spread.expect("A's spread"),
        1.008_941_868_123_134_6
    ));
    assert!(close(
        c.b.spread.expect("B's spread"),
        1.006_938_240_104_881_4
    ));
    assert_eq!(c.differs, vec!["offload"]);
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    assert_eq!(
        verdict_text(&c),
        "B gives 0.992× the output per GPU of A at 40 tok/s per user (0.984-1.000 over 2 × 2 repeats): no difference beyond the noise"
    );
}

/// At 20 tok/s per user A is read between concurrency 8 and 16, where it collapses, and B holds:
/// better beyond the noise; the same files swapped are worse.
#[test]
fn agentic_lmcache_is_better_at_twenty_tok_s_and_swapped_worse() {
    let i = agentic();
    let (a, b) = arms(&i, "offload none", "offload lmcache");
    let c = at(&i, (a, b), Statistic::TpotMean, 20.0);
    let r = c.ratio.expect("a ratio");
    assert!(close(r.ratio, 1.113_595_270_771_179_8), "{r:?}");
    assert!(close(r.low, 1.109_767_557_318_393_6), "{r:?}");
    assert!(close(r.high, 1.117_433_821_596_501_6), "{r:?}");
    assert_eq!(c.verdict, AbVerdict::Better);
    let swapped = at(&i, (b, a), Statistic::TpotMean, 20.0);
    assert_eq!(swapped.verdict, AbVerdict::Worse);
    assert!(close(swapped.ratio.expect("a ratio").high, 1.0 / r.low));
}

/// Along the range both arms reach (11.74 to 98.17 tok/s per user: B's second repeat is never
/// slower than 11.74, A's first never faster than 98.91), the median ratio crosses 1 five
/// times; only A reaches 5.46-11.74 and 98.17-98.91.
#[test]
fn agentic_crossovers_and_one_arm_ranges() {
    let i = agentic();
    let c = at(
        &i,
        arms(&i, "offload none", "offload lmcache"),
        Statistic::TpotMean,
        40.0,
    );
    let expected = [
        25.605_528_652_769_73,
        69.480_020_795_175_59,
        88.202_304_887_330_58,
        88.874_344_691_872_47,
        89.504_947_173_329_2,
    ];
    assert_eq!(
        c.crossover_tok_s.len(),
        expected.len(),
        "{:?}",
        c.crossover_tok_s
    );
    for (x, y) in c.crossover_tok_s.iter().zip(expected) {
        assert!(close(*x, y), "{x} against {y}");
    }
    assert_eq!(c.curve.len(), 18);
    assert_eq!(c.only_a.len(), 2);
    assert!(
        close(c.only_a[0].0, 5.462_530_004_363_531) && close(c.only_a[0].1, 11.740_017_393_711_287)
    );
    assert!(
        close(c.only_a[1].0, 98.171_662_203_390_07) && close(c.only_a[1].1, 98.914_576_427_840_63)
    );
    assert!(c.only_b.is_empty());
}

/// `vllm bench sweep`: two serve combinations (max_num_seqs 4 and 8), each one level with two
/// runs (`run=0`, `run=1`). One level measures one speed per run: a target between them is
/// never extrapolated, and the comparison says which arm is not measured that slow.
#[test]
fn vllm_bench_sweep_runs_are_repeats_and_nothing_is_extrapolated() {
    let dir = "er0080-vllm-benchmarking__fixtures__vllm_bench_sweep_v0.25.1";
    let files = [
        "SERVE--max_num_seqs=4-BENCH--max_concurrency=2-num_prompts=8/run=0.json",
        "SERVE--max_num_seqs=4-BENCH--max_concurrency=2-num_prompts=8/run=1.json",
        "SERVE--max_num_seqs=8-BENCH--max_concurrency=2-num_prompts=8/run=0.json",
        "SERVE--max_num_seqs=8-BENCH--max_concurrency=2-num_prompts=8/run=1.json",
    ]
    .map(|f| realdata(&format!("{dir}/{f}")));
    let i = import(&files).unwrap_or_else(|p| panic!("{p:?}"));
    let c = at(
        &i,
        arms(&i, "max_num_seqs=4", "max_num_seqs=8"),
        Statistic::TpotMean,
        100.0,
    );
    assert_eq!((c.a.repeats, c.b.repeats), (2, 2));
    assert_eq!(c.verdict, AbVerdict::CannotJudge);
    assert_eq!(c.differs, vec!["max_num_seqs"]);
    assert_eq!(c.warnings, vec![AbWarning::PerReplica]);
    // run=0 of max_num_seqs=4: mean TPOT 8.2046 ms, 121.9 tok/s per user.
    assert_eq!(
        reach_text(&c),
        vec![
            "A is not measured that slow (its slowest level gives 122), in 2 of its 2 repeats",
            "B is not measured that slow (its slowest level gives 126), in 2 of its 2 repeats",
        ]
    );
    // At 122.9 tok/s per user, max_num_seqs=4's first run (121.9) cannot reach it.
    let faster = at(
        &i,
        arms(&i, "max_num_seqs=4", "max_num_seqs=8"),
        Statistic::TpotMean,
        122.9,
    );
    assert!(matches!(faster.a.at[0], At::TooFast { .. }));
}

/// Two serve combinations a user named (`SERVE--fp8-kv-BENCH--c032`) in one folder are two
/// sweeps, named by their combination; never pooled.
#[test]
fn named_serve_combinations_are_two_sweeps() {
    let dir = "er0080-vllm-benchmarking__fixtures__vllm_bench_sweep_v0.25.1";
    let run = |serve: &str, from: &str| {
        let f = realdata(&format!("{dir}/{from}/run=0.json"));
        llm_slo_planner::core::import::InputFile {
            name: format!("sweep/SERVE--{serve}-BENCH--c002/run=0.json"),
            text: f.text,
        }
    };
    let i = import(&[
        run(
            "fp8-kv",
            "SERVE--max_num_seqs=4-BENCH--max_concurrency=2-num_prompts=8",
        ),
        run(
            "bf16-kv",
            "SERVE--max_num_seqs=8-BENCH--max_concurrency=2-num_prompts=8",
        ),
    ])
    .unwrap_or_else(|p| panic!("{p:?}"));
    assert_eq!(i.source.sweeps.len(), 2);
    let (a, b) = arms(&i, "fp8-kv", "bf16-kv");
    assert_eq!(
        at(&i, (a, b), Statistic::TpotMean, 100.0).differs,
        vec!["configuration"]
    );
}

/// With one run per arm and per-request records, a seeded bootstrap: the Scicom `--save-detailed`
/// sweep against itself under another serve name gives the ratio 1 and an interval around it,
/// the same on every run.
#[test]
fn one_run_per_arm_with_records_is_bootstrapped_with_a_fixed_seed() {
    let names = [
        "tm-l40sx2_qwen27b_PP2_in4096_out128_p50_c1_d48e1d.json",
        "tm-l40sx2_qwen27b_PP2_in4096_out128_p200_c10_5bfafa.json",
    ];
    let mut files = Vec::new();
    for serve in ["a", "b"] {
        for n in names {
            let f = realdata(&format!("scicom-vllm-detailed/{n}"));
            // A copy of a run is read once: B's copies say another label.
            let label = format!("\"label\": \"{serve}\"");
            files.push(llm_slo_planner::core::import::InputFile {
                name: format!("SERVE--{serve}-BENCH--x/{n}"),
                text: f.text.replacen("\"label\": null", &label, 1),
            });
        }
    }
    let i = import(&files).unwrap_or_else(|p| panic!("{p:?}"));
    let ab = arms(&i, "a", "b");
    let levels: Vec<f64> = i.source.sweeps[ab.0]
        .levels()
        .iter()
        .map(|l| l.level)
        .collect();
    assert_eq!(levels, vec![1.0, 10.0]);
    let first = i.source.sweeps[ab.0].levels()[0]
        .latency_ms(Statistic::TpotP50)
        .expect("p50");
    let last = i.source.sweeps[ab.0].levels()[1]
        .latency_ms(Statistic::TpotP50)
        .expect("p50");
    // A speed between the two levels' median TPOT speeds.
    let s = (1000.0 / first * 1000.0 / last).sqrt();
    let c = at(&i, ab, Statistic::TpotP50, s);
    assert_eq!(c.interval, Interval::Bootstrap);
    let r = c.ratio.expect("a ratio");
    assert_eq!(r.ratio, 1.0);
    assert!(r.low < 1.0 && r.high > 1.0, "{r:?}");
    assert_eq!(c.verdict, AbVerdict::NoDifference);
    assert_eq!(at(&i, ab, Statistic::TpotP50, s).ratio, c.ratio);
    // ITL cannot be computed from per-request records: no interval, said so.
    let itl = at(
        &i,
        ab,
        Statistic::P50,
        1000.0
            / i.source.sweeps[ab.0].levels()[0]
                .latency_ms(Statistic::P50)
                .expect("p50 ITL"),
    );
    assert_eq!(itl.interval, Interval::None);
    assert!(
        verdict_text(&itl).contains("one run per arm: no noise measured"),
        "{}",
        verdict_text(&itl)
    );
}

#[test]
fn bad_arms_are_named() {
    let i = agentic();
    let (a, b) = arms(&i, "offload none", "offload lmcache");
    let arm = |sweep_index| Arm {
        source: &i.source,
        sweep_index,
    };
    assert_eq!(Arms::new(arm(a), arm(a)).err(), Some(AbError::SameArm));
    assert_eq!(Arms::new(arm(a), arm(99)).err(), Some(AbError::NoSweep));
    let again = agentic();
    let same = Arm {
        source: &again.source,
        sweep_index: a,
    };
    assert_eq!(Arms::new(arm(a), same).err(), Some(AbError::SameArm));
    let slo = Slo::new(Target::TokensPerSecond(20.0), Statistic::TpotMean);
    let arms = Arms::new(arm(a), arm(b)).expect("two arms");
    assert_eq!(
        arms.compare(&slo, 50.5).err(),
        Some(AbError::Tolerance(50.5))
    );
    assert_eq!(
        error_text(&AbError::Tolerance(-1.0)),
        "tol -1 is not a percentage from 0 to 50"
    );
}

/// Under `attain`, a level's speed is the TPOT that P% of its requests reach while meeting the
/// TTFT limit (Scicom: 90% of 50 at concurrency 1 reach 72.457 ms; of 200 at 10, 154.376 ms
/// within a 5 s TTFT; within 2 s too few meet, which ends the curve).
#[test]
fn under_attain_a_levels_speed_counts_requests_missing_a_ttft_limit_as_misses() {
    use llm_slo_planner::core::plan::ab::curve;
    use llm_slo_planner::core::plan::planner::Limit;
    let i = import(&[
        realdata("scicom-vllm-detailed/tm-l40sx2_qwen27b_PP2_in4096_out128_p50_c1_d48e1d.json"),
        realdata("scicom-vllm-detailed/tm-l40sx2_qwen27b_PP2_in4096_out128_p200_c10_5bfafa.json"),
    ])
    .unwrap_or_else(|p| panic!("{p:?}"));
    let slo = |ttft: f64| {
        Slo::new(Target::TokensPerSecond(10.0), Statistic::TpotP50)
            .with_limits(vec![Limit {
                stat: Statistic::TtftP99,
                max_ms: ttft,
            }])
            .with_attain(Some(90.0))
    };
    let sweep = &i.source.sweeps[0];
    let c = curve(sweep, &slo(5000.0), false);
    let points: Vec<(f64, f64, f64)> = c
        .points
        .iter()
        .map(|p| (p.level, p.speed_tok_s, p.tok_s))
        .collect();
    assert_eq!(points.len(), 2);
    assert!(close(points[0].1, 13.801_353_238_372_169), "{points:?}");
    assert!(close(points[1].1, 6.477_702_148_278_567), "{points:?}");
    assert!(close(points[1].2, 60.661_376_485_841_046), "{points:?}");
    let tight = curve(sweep, &slo(2000.0), false);
    assert_eq!(tight.points.len(), 1);
    assert_eq!(tight.ended_at, Some(10.0));
}
