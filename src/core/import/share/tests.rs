use super::*;
use crate::core::import::{import, InputFile};
use crate::core::model::deployment::Deployment;
use crate::core::model::limits::MAX_PAYLOAD_BYTES;
use crate::core::model::row::{EnergyBasis, Row};
use crate::core::model::signals::SignalSource;
use crate::core::model::sweep::{Statistic, Sweep};

fn glm() -> Source {
    let files: Vec<InputFile> = [1, 2, 4, 8]
        .iter()
        .map(|c| InputFile {
            name: format!("c{c}.json"),
            text: format!(
                "{{\"backend\":\"vllm\",\"model_id\":\"m/x\",\"max_concurrency\":{c},\"output_throughput\":{},\"median_itl_ms\":{},\"p99_ttft_ms\":300.5,\"completed\":100,\"duration\":{},\"mean_e2el_ms\":900}}",
                100 * c,
                10 + c,
                50 + c
            ),
        })
        .collect();
    import(&files).unwrap().source
}

fn pack(json: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(json, 9))
}

#[test]
fn a_source_survives_the_round_trip() {
    let source = glm();
    let packed = encode(&source).unwrap();
    assert!(packed
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
    let back = decode(&packed).unwrap();
    assert_eq!(back.task_display_name, source.task_display_name);
    // Where it came from: files imported elsewhere, not in this browser.
    assert_eq!(source.provenance.publisher, "your files");
    assert_eq!(back.provenance.publisher, "files shared by link");
    assert!(back.provenance.notes[0].starts_with("Imported in another browser and shared by link"));
    assert_eq!(back.models, source.models);
    assert_eq!(back.sweeps, source.sweeps);
    assert!(back.sweeps[0].rows[0].served_req_s.is_some());
}

#[test]
fn identity_fields_and_coverage_survive_the_round_trip() {
    let files = [InputFile {
        name: "runs.csv".into(),
        text: "model,gpu,num_gpus,config,dataset,isl,osl,date,framework,concurrency,output_tok_s,p50_itl_ms,p90_itl_ms,power_w\n\
               m,H200,8,EP8,random,1024,1024,2026-03-25,sglang,16,1012.9,15.4,18.2,5756\n\
               m,H200,8,EP8,random,1024,1024,2026-03-25,sglang,16,795.8,19.5,,\n\
               m,H200,8,TP8,random,1024,1024,2026-03-25,sglang,16,800,20,,\n"
            .into(),
    }];
    let source = import(&files).unwrap().source;
    let back = decode(&encode(&source).unwrap()).unwrap();
    assert_eq!(back.sweeps, source.sweeps);
    assert_eq!(back.sweep_cfg(0), Some("EP8"));
    let level = &back.sweeps[0].levels()[0];
    assert_eq!(
        level.runs_reporting(crate::core::model::sweep::Figure::Latency(Statistic::P90)),
        1
    );
    assert_eq!(level.energy_basis, Some(EnergyBasis::PowerOverThroughput));
}

#[test]
fn links_of_version_1_still_decode() {
    let v1 = br#"{"v":1,"name":"c1.json, c2.json","models":[{"id":"m/x","nick":"m/x","arch":"architecture not stated","total":null,"active":null}],"sweeps":[{"model":0,"gpu":"GPU not stated","gpus":null,"par":[0,0,0],"prec":"precision not stated","kind":"c","cfg":"random 1024/1024","rows":[[1.0,100.0,null,null,null,null,null,[["p50",11.0],["rate",10.0]]],[2.0,200.0,null,null,null,null,null,[["p50",12.0],["rate",10.0]]]]}]}"#;
    let source = decode(&pack(v1)).unwrap();
    assert_eq!(source.sweeps.len(), 1);
    let d = &source.sweeps[0].deployment;
    assert_eq!(d.config.as_deref(), Some("random 1024/1024"));
    assert_eq!(d.tp, None);
    assert_eq!(d.level_kind, LevelKind::Concurrency);
    assert_eq!(
        source.sweeps[0].levels()[1].latency_ms(Statistic::P50),
        Some(12.0)
    );
}

#[test]
fn too_large_sources_are_refused_with_a_message() {
    let mut source = glm();
    let rows: Vec<Row> = (1..3000)
        .map(|i| {
            Row::new(f64::from(i), f64::from(i) * 1.37)
                .with(Statistic::P50, Some(f64::from(i) * 0.731))
        })
        .collect();
    source.sweeps[0] = Sweep::new(0, Deployment::hardware("X", None, 1, "p"), rows);
    let err = encode(&source).unwrap_err().to_string();
    assert!(err.contains("too large to share by link"), "{err}");
}

#[test]
fn repeated_sweeps_merge_and_unusable_latencies_are_said() {
    let two = br#"{"v":2,"name":"n","models":[{"id":"m","nick":"m","arch":"a","total":null,"active":null}],"sweeps":[{"model":0,"dep":{"gpu":"g","prec":"p","kind":"c"},"rows":[{"l":1,"t":10,"ms":[["p50",-3]]}]},{"model":0,"dep":{"gpu":"g","prec":"p","kind":"c"},"rows":[{"l":2,"t":20,"ms":[["p50",5]]}]}]}"#;
    let source = decode(&pack(two)).unwrap();
    assert_eq!(source.sweeps.len(), 1);
    assert_eq!(source.sweeps[0].levels().len(), 2);
    assert!(source
        .provenance
        .notes
        .iter()
        .any(|n| n.starts_with("1 latency value below 1e-6 ms")));
    let huge = br#"{"v":2,"name":"n","models":[{"id":"m","nick":"m","arch":"a","total":null,"active":null}],"sweeps":[{"model":0,"dep":{"gpu":"g","prec":"p","kind":"c"},"rows":[{"l":1e300,"t":10,"ms":[]}]}]}"#;
    assert!(decode(&pack(huge))
        .unwrap_err()
        .to_string()
        .contains("up to 1e9"));
}

#[test]
fn a_link_is_counted_before_it_is_built() {
    let models = vec![r#"{"id":"","nick":"","arch":""}"#; 1_500].join(",");
    let json = format!(
        r#"{{"v":2,"name":"n","models":[{models}],"sweeps":[{{"model":0,"dep":{{"gpu":"g","prec":"p","kind":"c"}},"rows":[{{"l":1,"t":2,"ms":[]}}]}}]}}"#
    );
    let message = decode(&pack(json.as_bytes())).unwrap_err().to_string();
    assert_eq!(
        message,
        "the shared sweep in this link holds 1500 models, more than the 1000 this page reads"
    );
    // A model without an id is "model not stated"; models no sweep names are left out.
    let json = r#"{"v":2,"name":"n","models":[{"id":"","nick":"","arch":""},{"id":"x","nick":"x","arch":"a"}],"sweeps":[{"model":0,"dep":{"gpu":"g","prec":"p","kind":"c"},"rows":[{"l":1,"t":2,"ms":[]}]}]}"#;
    let source = decode(&pack(json.as_bytes())).unwrap();
    assert_eq!(source.models.len(), 1);
    assert_eq!(source.models[0].model_id, MODEL_NOT_STATED);
    // A link longer than 8 KB is refused, naming the limit.
    let message = decode(&"A".repeat(9_000)).unwrap_err().to_string();
    assert!(
        message.contains("more than the 8 KB a link carries"),
        "{message}"
    );
}

#[test]
fn a_link_that_unpacks_past_the_limit_says_so() {
    let bomb = pack(&vec![b' '; MAX_PAYLOAD_BYTES + 1]);
    assert!(bomb.len() < MAX_LINK_BYTES * 2);
    let message = decode(&bomb).unwrap_err().to_string();
    assert!(message.contains("unpacks to more than 4 MB"), "{message}");
    assert!(!message.contains("damaged"));
}

#[test]
fn damaged_links_give_messages_not_panics() {
    for bad in ["", "!!!", "AAAA", "eJwrSS0uAQAEXQHB", &"A".repeat(20_000)] {
        assert!(decode(bad).is_err(), "{bad:?}");
    }
    // Valid deflate of valid JSON in the wrong shape.
    assert!(decode(&pack(b"{\"v\":1}"))
        .unwrap_err()
        .to_string()
        .contains("format"));
    assert!(decode(&pack(b"{\"v\":9}"))
        .unwrap_err()
        .to_string()
        .contains("version 9"));
    let packed = pack(
        b"{\"v\":1,\"name\":\"<img src=x onerror=alert(1)>\",\"models\":[],\"sweeps\":[{\"model\":3,\"gpu\":\"g\",\"gpus\":1,\"par\":[1,1,1],\"prec\":\"p\",\"kind\":\"c\",\"cfg\":\"\",\"rows\":[[1,2,null,null,null,null,null,[]]]}]}",
    );
    assert!(decode(&packed).unwrap_err().to_string().contains("model"));
}

#[test]
fn a_link_cut_short_says_so_and_a_stray_character_is_named() {
    let packed = encode(&glm()).unwrap();
    // Cut at any length, a link says it looks cut short and how long it is.
    for keep in [packed.len() / 2, packed.len() - 1, 5, 2] {
        let cut = &packed[..keep];
        let message = decode(cut).unwrap_err().to_string();
        assert!(message.contains("looks cut short"), "{keep}: {message}");
        assert!(
            message.contains(&format!("its {keep} characters")),
            "{message}"
        );
    }
    // Bytes that cannot begin compressed data are damaged, not cut short.
    assert!(
        decode("____").unwrap_err().to_string().contains("damaged"),
        "{}",
        decode("____").unwrap_err()
    );
    let mut stray = packed.clone();
    stray.replace_range(3..4, "!");
    assert_eq!(
        decode(&stray).unwrap_err().to_string(),
        "the shared sweep in this link is damaged: character 4 ('!') is not URL-safe base64"
    );
}

#[test]
fn a_link_keeps_figures_within_the_range_an_import_keeps() {
    // A hand-made link with a power of 1e-320 W drew "5.00e-318 J/token" and "∞ users per MW".
    let mut source = glm();
    let row = &mut source.sweeps[0].rows[1];
    row.power_w = Some(1e-320);
    row.power_peak = Some((1e-320, crate::core::model::row::PowerPeak::P99));
    row.energy_per_token_j = Some(5e-318);
    row.avg_batch_size = Some(1e10);
    let back = decode(&encode(&source).unwrap()).unwrap();
    let row = &back.sweeps[0].rows[1];
    assert_eq!(
        (
            row.power_w,
            row.power_peak,
            row.energy_per_token_j,
            row.avg_batch_size
        ),
        (None, None, None, None)
    );
    assert_eq!(back.sweeps[0].rows[0], source.sweeps[0].rows[0]);
}

#[test]
fn a_disaggregated_sweep_keeps_its_roles_and_role_figures_through_a_link() {
    let row = r#"[{"hardware":"h200","framework":"dynamo-sglang","model":"m","precision":"fp8","disagg":true,
        "prefill_tp":2,"prefill_ep":1,"prefill_dp_attention":false,"prefill_num_workers":1,
        "decode_tp":4,"decode_ep":1,"decode_dp_attention":true,"decode_num_workers":1,
        "num_prefill_gpu":2,"num_decode_gpu":4,"isl":1024,"osl":1024,"conc":16,"date":"2026-01-01",
        "metrics":{"tput_per_gpu":300,"input_tput_per_gpu":600,"output_tput_per_gpu":150,"median_tpot":0.02,
        "avg_power_w":500,"prefill_avg_power_w":600,"decode_avg_power_w":450,"joules_per_output_token":3}}]"#;
    let source = import(&[InputFile {
        name: "x.json".into(),
        text: row.into(),
    }])
    .unwrap()
    .source;
    let back = decode(&encode(&source).unwrap()).unwrap();
    assert_eq!(back.sweeps, source.sweeps);
    let l = &back.sweeps[0].levels()[0];
    assert_eq!(l.input_tok_s, Some(1200.0));
    assert_eq!(l.roles.decode_energy_per_token_j, Some(3.0));
    let roles = back.sweeps[0].deployment.roles().copied().unwrap();
    assert_eq!((roles.prefill.gpus, roles.decode.gpus), (Some(2), Some(4)));
    assert_eq!(roles.decode.attention_dp, Some(true));
}

#[test]
fn a_runs_server_signals_travel_and_a_link_made_before_them_still_reads() {
    use crate::core::model::signals::Signal;
    let files = [InputFile {
        name: "runs.csv".into(),
        text: "model,concurrency,output_tok_s,p50_itl_ms,running,waiting,kv_usage,preemptions\n\
               m,8,800,10,7.9,0,0.42,0\n\
               m,16,1400,14,15.2,3.5,,2\n"
            .into(),
    }];
    let source = import(&files).unwrap().source;
    let back = decode(&encode(&source).unwrap()).unwrap();
    assert_eq!(back.sweeps, source.sweeps);
    let s = back.sweeps[0].level_signals(1).unwrap();
    assert_eq!(
        (s.running_mean, s.waiting_mean, s.kv_use_max, s.preemptions),
        (Some(15.2), Some(3.5), None, Some(2.0))
    );
    assert_eq!(s.source(Signal::Waiting), Some(SignalSource::Csv));
    // A version 2 link made before signals were carried (no `sg`): read, with none.
    let before = br#"{"v":2,"name":"runs.csv","models":[{"id":"m","nick":"m","arch":"","total":null,"active":null}],"sweeps":[{"model":0,"dep":{"gpu":"GPU not stated","prec":"precision not stated","kind":"c"},"rows":[{"l":8.0,"t":800.0,"ms":[["p50",10.0]]}]}]}"#;
    let old = decode(&pack(before)).unwrap();
    assert_eq!(old.sweeps[0].rows[0].signals, None);
    // A KV use past 1 in a hand-made link is not kept, as an import's would not be.
    let bad = br#"{"v":2,"name":"x","models":[{"id":"m","nick":"m","arch":"","total":null,"active":null}],"sweeps":[{"model":0,"dep":{"gpu":"g","prec":"p","kind":"c"},"rows":[{"l":8.0,"t":800.0,"ms":[],"sg":{"kx":1.5,"wm":2.0,"src":"cccc"}}]}]}"#;
    let s = decode(&pack(bad)).unwrap().sweeps[0]
        .level_signals(0)
        .unwrap();
    assert_eq!((s.kv_use_max, s.waiting_mean), (None, Some(2.0)));
}
