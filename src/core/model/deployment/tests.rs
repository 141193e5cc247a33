use super::*;

fn h100(tp: u32) -> Deployment {
    Deployment::hardware("H100", Some(tp), tp, "bfloat16")
}

#[test]
fn labels_read_as_the_field_writes_them() {
    assert_eq!(h100(1).base_label(), "1 x H100, TP1, bf16");
    assert_eq!(h100(4).base_label(), "4 x H100, TP4, bf16");
    let bare = Deployment::new(LevelKind::Concurrency);
    assert_eq!(
        bare.base_label(),
        "GPU not stated (GPU count not stated), parallelism not stated, precision not stated"
    );
    let moe = Deployment {
        tp: Some(8),
        ep: Some(8),
        attention_dp: Some(true),
        pp: Some(1),
        ..h100(8)
    };
    assert_eq!(moe.parallelism_label(), "TP8 EP8 DP-attention");
    let random = Deployment {
        dataset: Some("random".into()),
        isl: Some(1024.0),
        osl: Some(1024.0),
        ..bare.clone()
    };
    assert_eq!(random.workload_label(), "random 1024/1024");
    assert_eq!(
        Deployment {
            dataset: None,
            ..random.clone()
        }
        .workload_label(),
        "1024/1024"
    );
    assert_eq!(bare.field_label(Field::Date), "date not stated");
    assert_eq!(
        random.stated(),
        vec![("Workload", "random 1024/1024".to_string())]
    );
}

#[test]
fn dates_are_read_for_ordering_whatever_their_spelling() {
    assert_eq!(date_key("2026-03-25"), Some((2026, 3, 25)));
    assert_eq!(date_key("2026-3-5"), Some((2026, 3, 5)));
    assert_eq!(date_key("2026-05-01T10:00:00Z"), Some((2026, 5, 1)));
    assert_eq!(date_key("20260325-120000"), Some((2026, 3, 25)));
    assert_eq!(date_key("03/25/2026"), Some((2026, 3, 25)));
    assert_eq!(date_key("25/03/2026"), Some((2026, 3, 25)));
    assert_eq!(date_key("last week"), None);
    assert_eq!(date_key("2026-13-01"), None);
    let dated = |d: &str| Deployment {
        date: Some(d.into()),
        ..h100(1)
    };
    // 2026-12-01 is newer than 2026-3-5 (not as text); 03/25/2026 newer than 2026-01-10.
    assert_eq!(
        dated("2026-12-01").picker_order(&dated("2026-3-5")),
        std::cmp::Ordering::Less
    );
    assert_eq!(
        dated("03/25/2026").picker_order(&dated("2026-01-10")),
        std::cmp::Ordering::Less
    );
    // A date that cannot be read comes after the dated, before the undated.
    assert_eq!(
        dated("2020-01-01").picker_order(&dated("someday")),
        std::cmp::Ordering::Less
    );
    assert_eq!(
        dated("someday").picker_order(&h100(1)),
        std::cmp::Ordering::Less
    );
}

#[test]
fn the_identity_key_tells_apart_texts_that_run_together_and_numbers_by_their_bits() {
    let with = |engine: &str, version: &str| Deployment {
        engine: Some(engine.into()),
        engine_version: Some(version.into()),
        ..h100(1)
    };
    assert_ne!(
        with("vllm", "0.1").identity_key(),
        with("vllm0", ".1").identity_key()
    );
    assert_ne!(
        with("a:1", "b").identity_key(),
        with("a", "1:b").identity_key()
    );
    let isl = |x: f64| Deployment {
        isl: Some(x),
        ..h100(1)
    };
    assert_ne!(isl(0.0).identity_key(), isl(-0.0).identity_key());
    assert_eq!(isl(1024.0).identity_key(), isl(1024.0).identity_key());
    assert_ne!(isl(1024.0).identity_key(), h100(1).identity_key());
    // A count and a degree are not confused: GPUs 1 with TP 2 is not GPUs 2 with TP 1.
    let counts = |gpus, tp| Deployment {
        num_gpus: Some(gpus),
        tp: Some(tp),
        ..h100(1)
    };
    assert_ne!(counts(1, 2).identity_key(), counts(2, 1).identity_key());
}

#[test]
fn a_field_stated_in_one_and_absent_in_another_differs() {
    let a = h100(1);
    let b = Deployment {
        date: Some("2026-03-25".into()),
        ..h100(1)
    };
    assert_ne!(a, b);
    assert_eq!(a, h100(1));
    assert_ne!(a.identity_key(), b.identity_key());
    assert_eq!(a.identity_key(), h100(1).identity_key());
    // Newest date first, undated last.
    let c = Deployment {
        date: Some("2025-12-13".into()),
        ..h100(1)
    };
    assert_eq!(b.picker_order(&c), std::cmp::Ordering::Less);
    assert_eq!(c.picker_order(&a), std::cmp::Ordering::Less);
}
