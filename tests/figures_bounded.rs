//! Numbers no person reads (issues 46 and 47): a load step or replica lag below a second is
//! refused where it is read, with its reason, on both fronts; an amount (a price, a kWh price, a
//! carbon intensity) is 0 or from 0.0001 to 1,000,000 (a price of 1e-320 is refused and named:
//! its figures would read as $0 beside a price above 0), and every figure written from the
//! values accepted reads as a person reads it (`core::model::format`'s one rule: plain from 0.001 to below 10^15, three
//! significant digits with an exponent outside).

use llm_slo_planner::core::import::bundled::lm_arena_chat;
use llm_slo_planner::core::plan::planner::plan;
use llm_slo_planner::core::scenario::{Front, Scenario};
use llm_slo_planner::core::text::capacity_text::fleet_figures;

/// The scenario of `query` on the bundled data, and its messages on the page and the command
/// line.
fn read(query: &str) -> (Scenario, Vec<(String, String)>) {
    let (s, errors) = Scenario::from_query(query, lm_arena_chat());
    let messages = errors
        .iter()
        .map(|e| (e.message(Front::Page), e.message(Front::CommandLine)))
        .collect();
    (s, messages)
}

#[test]
fn a_step_or_lag_below_a_second_is_named() {
    let second = "must be at least a second (0.0167 minutes): a shorter time plans nothing a fleet can follow";
    let cases = [
        (
            "load=rps:1e-300:3",
            "load",
            format!("{second}, got \"1e-300\""),
        ),
        (
            "load=users:5e-324:3,4",
            "load",
            format!("{second}, got \"5e-324\""),
        ),
        (
            "load=rps:0.0166:3",
            "load",
            format!("{second}, got \"0.0166\""),
        ),
        // A lag is read beside the load it qualifies.
        (
            "load=rps:60:3&lag=1e-300",
            "lag",
            format!("{second}, got \"1e-300\""),
        ),
        (
            "load=rps:60:3&lag=5e-324",
            "lag",
            format!("{second}, got \"5e-324\""),
        ),
    ];
    for (query, option, message) in cases {
        let (s, messages) = read(&format!("tps=20&{query}"));
        let key = option;
        assert_eq!(
            messages,
            [(
                format!("`{key}` {message}"),
                format!("`--{option}` {message}")
            )],
            "{query}"
        );
        if key == "load" {
            assert_eq!(s.fleet.load, None, "{query}");
        }
        assert_eq!(s.fleet.scaling.lag_min, 0.0, "{query}");
    }
    // A second and 0 are read (a lag with the load it qualifies).
    for query in [
        "load=rps:0.016666666666666666:3",
        "load=rps:60:3&lag=0",
        "load=rps:60:3&lag=0.0167",
    ] {
        assert!(read(&format!("tps=20&{query}")).1.is_empty(), "{query}");
    }
}

#[test]
fn every_fleet_figure_of_extreme_inputs_reads_as_a_person_reads_it() {
    let source = lm_arena_chat();
    for (query, gpu_cost) in [
        // One replica at 512 streams: 1 GPU × $0.0001, the smallest price above 0.
        ("price=0.0001&users=100", "$1.00e-4 per hour"),
        ("price=0&users=100", "$0 per hour"),
        // 10^9 streams: 1,957,450 GPUs (each holds its measured average batch) × $1,000,000,
        // plain below 10^15.
        (
            "price=1000000&users=1000000000",
            "$1,957,450,000,000.00 per hour",
        ),
    ] {
        let (scenario, errors) = Scenario::from_query(
            &format!("model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1&tps=20&kwh_price=0.0001&co2=1000000&{query}"),
            source,
        );
        assert!(errors.is_empty(), "{errors:?}");
        let s = &source.sweeps[scenario.sweep_index(source).unwrap()];
        let slo = scenario.slo.clone();
        let (_, figures) =
            fleet_figures(s, &plan(s, &slo), &slo, &scenario.fleet.capacity).unwrap();
        let fleet = figures
            .iter()
            .find(|f| f.hook == "fleet-gpu-cost-per-hour")
            .unwrap();
        assert_eq!(fleet.text, gpu_cost, "{query}");
        for f in &figures {
            assert!(f.text.chars().count() <= 40, "{query}: {}", f.text);
            assert!(f.formula.chars().count() <= 200, "{query}: {}", f.formula);
        }
    }
}

#[test]
fn an_amount_above_0_and_below_a_hundredth_of_a_cent_is_named() {
    // `price=1e-320&users=100` wrote a 325-character "Fleet GPU cost" (issue 47), then "$0" per M
    // tokens beside "$1.00e-320" per hour: no price is meant, and it is refused.
    for query in [
        "price=1e-320",
        "price=5e-324",
        "kwh_price=0.00009",
        "co2=1e-300",
        "price=H100:1e-320",
    ] {
        let (s, messages) = read(&format!("tps=20&users=100&{query}"));
        let key = query.split('=').next().unwrap();
        assert_eq!(messages.len(), 1, "{query}: {messages:?}");
        assert!(
            messages[0]
                .0
                .contains("must be 0 or a number from 0.0001 to 1,000,000"),
            "{query}: {messages:?}"
        );
        assert_eq!(s.fleet.capacity.price_per_gpu_hour, None, "{query}");
        assert!(!s.to_query().contains(&format!("{key}=")), "{query}");
    }
    for query in ["price=0", "price=0.0001", "kwh_price=0.0001", "co2=0"] {
        assert!(read(&format!("tps=20&{query}")).1.is_empty(), "{query}");
    }
}
