//! The identity fields two deployments differ in, by name: what a comparison of two arms says
//! differs between them.

use crate::core::model::deployment::{Deployment, Role};

/// The disaggregation of a deployment as compared: whether it is disaggregated, and each role's
/// workers and parallelism (the roles' GPUs are named on their own).
fn disaggregation_kind(d: &Deployment) -> Option<(bool, Option<(Role, Role)>)> {
    let strip = |r: &Role| Role { gpus: None, ..*r };
    d.disaggregation.as_ref().map(|x| match x.roles() {
        Some(r) => (true, Some((strip(&r.prefill), strip(&r.decode)))),
        None => (false, None),
    })
}

/// The identity fields that differ between `a` and `b`, by name: hardware, parallelism,
/// precision, then each field beyond them; a configuration of `key=value` pairs is named by its
/// keys that differ.
pub fn differs(a: &Deployment, b: &Deployment) -> Vec<String> {
    let fields = [
        ("GPU", a.gpu != b.gpu),
        ("GPU count", a.num_gpus != b.num_gpus),
        (
            "parallelism",
            (a.tp, a.pp, a.ep, a.dp, a.attention_dp) != (b.tp, b.pp, b.ep, b.dp, b.attention_dp),
        ),
        ("precision", a.precision != b.precision),
        ("engine", a.engine != b.engine),
        ("engine version", a.engine_version != b.engine_version),
        ("speculative decoding", a.spec_decoding != b.spec_decoding),
        (
            "disaggregation",
            disaggregation_kind(a) != disaggregation_kind(b),
        ),
        ("prefill GPUs", role_gpus(a).0 != role_gpus(b).0),
        ("decode GPUs", role_gpus(a).1 != role_gpus(b).1),
        ("dataset", a.dataset != b.dataset),
        ("input length", a.isl != b.isl),
        ("output length", a.osl != b.osl),
        ("burstiness", a.burstiness != b.burstiness),
        ("request rate", a.offered_rate != b.offered_rate),
    ];
    let mut out: Vec<String> = fields
        .iter()
        .filter(|(_, differ)| *differ)
        .map(|(name, _)| (*name).to_string())
        .collect();
    if a.config != b.config {
        out.extend(config_keys_differ(a.config.as_deref(), b.config.as_deref()));
    }
    for (name, differ) in [
        ("date", a.date != b.date),
        ("level", a.level_kind != b.level_kind),
    ] {
        if differ {
            out.push(name.to_string());
        }
    }
    out
}

/// A deployment's prefill and decode GPUs, where it is disaggregated and states them.
fn role_gpus(d: &Deployment) -> (Option<u32>, Option<u32>) {
    d.roles()
        .map_or((None, None), |r| (r.prefill.gpus, r.decode.gpus))
}

/// The keys of two configuration labels' `key=value` pairs that differ; `configuration` when
/// either label is not such pairs.
fn config_keys_differ(a: Option<&str>, b: Option<&str>) -> Vec<String> {
    let (Some(pa), Some(pb)) = (a.and_then(pairs), b.and_then(pairs)) else {
        // `offload none` against `offload lmcache`: the word both start with.
        let first = |l: Option<&str>| {
            l.and_then(|l| l.split_once(' '))
                .map(|(k, _)| k.to_string())
        };
        return match (first(a), first(b)) {
            (Some(ka), Some(kb)) if ka == kb && !ka.contains('=') => vec![ka],
            _ => vec!["configuration".to_string()],
        };
    };
    let mut keys: Vec<String> = Vec::new();
    for (k, v) in pa.iter().chain(&pb) {
        let other = if pa.contains(&(k.clone(), v.clone())) {
            &pb
        } else {
            &pa
        };
        if !other.iter().any(|(ok, ov)| ok == k && ov == v) && !keys.contains(k) {
            keys.push(k.clone());
        }
    }
    if keys.is_empty() {
        keys.push("configuration".to_string());
    }
    keys
}

/// A label's `key=value` pairs, joined by `-`, `,`, `;`, `&` or spaces (`vllm bench sweep`
/// names `max_num_seqs=4-max_num_batched_tokens=2048`); a key starts with a letter or `_` and
/// holds letters, digits, `_` and `.`. `None` when the label does not start with a pair.
fn pairs(label: &str) -> Option<Vec<(String, String)>> {
    let is_key = |s: &str| {
        let mut c = s.chars();
        c.next()
            .is_some_and(|f| f.is_ascii_alphabetic() || f == '_')
            && c.all(|ch| ch.is_ascii_alphanumeric() || ch == '_' || ch == '.')
    };
    // Starts of pairs: a key followed by '=', at the start or after a separator.
    let bytes = label.as_bytes();
    let mut starts: Vec<usize> = Vec::new();
    for (i, _) in label.char_indices() {
        let at_sep = i == 0 || matches!(bytes[i - 1], b'-' | b',' | b';' | b'&' | b' ');
        if !at_sep {
            continue;
        }
        if let Some(eq) = label[i..].find('=') {
            if is_key(&label[i..i + eq]) {
                starts.push(i);
            }
        }
    }
    if starts.first() != Some(&0) {
        return None;
    }
    let mut out = Vec::new();
    for (n, &s) in starts.iter().enumerate() {
        let end = starts.get(n + 1).map_or(label.len(), |&e| e - 1);
        let pair = label.get(s..end)?;
        let (k, v) = pair.split_once('=')?;
        out.push((k.to_string(), v.to_string()));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::deployment::LevelKind;

    #[test]
    fn a_configurations_pairs_are_named_by_the_keys_that_differ() {
        let mut a = Deployment::new(LevelKind::Concurrency);
        let mut b = a.clone();
        a.config = Some("max_num_seqs=256-max_num_batched_tokens=2048".into());
        b.config = Some("max_num_seqs=256-max_num_batched_tokens=8192".into());
        b.date = Some("2026-06-04".into());
        assert_eq!(differs(&a, &b), vec!["max_num_batched_tokens", "date"]);
        b.config = Some("fp8-kv".into());
        assert_eq!(differs(&a, &b), vec!["configuration", "date"]);
        a.config = Some("offload none".into());
        b.config = Some("offload lmcache".into());
        assert_eq!(differs(&a, &b), vec!["offload", "date"]);
        assert_eq!(
            pairs("kv_cache_dtype=fp8-e4m3,tp=2"),
            Some(vec![
                ("kv_cache_dtype".into(), "fp8-e4m3".into()),
                ("tp".into(), "2".into())
            ])
        );
        assert_eq!(pairs("fp8-kv"), None);
    }
}
