//! Sharing an imported source by link: the sweeps (not the raw files) as compact JSON, deflated
//! (`miniz_oxide`) and written URL-safe (`base64`, no padding), for the URL fragment
//! `#sweep=...`: the data never reaches a server. Links stay under [`MAX_LINK_BYTES`].

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde::{Deserialize, Serialize};

use super::import::{build_source, Measured, SweepKey};
use super::sweep::{LevelKind, Model, Row, Source, Statistic};

/// Longest link this page will make, in bytes: longer ones break in chat tools and proxies.
pub const MAX_LINK_BYTES: usize = 8 * 1024;
/// Largest decompressed payload accepted from a link (a bound against deflate bombs).
const MAX_PAYLOAD_BYTES: usize = 4 * 1024 * 1024;

#[derive(Serialize, Deserialize)]
struct Shared {
    /// Format version.
    v: u32,
    /// Display name (the imported file names).
    name: String,
    models: Vec<SharedModel>,
    sweeps: Vec<SharedSweep>,
}

#[derive(Serialize, Deserialize)]
struct SharedModel {
    id: String,
    nick: String,
    arch: String,
    total: Option<f64>,
    active: Option<f64>,
}

#[derive(Serialize, Deserialize)]
struct SharedSweep {
    model: usize,
    gpu: String,
    gpus: Option<u32>,
    par: (u32, u32, u32),
    prec: String,
    /// Level kind: `m` max_num_seqs, `c` concurrency, `r` request rate.
    kind: char,
    cfg: String,
    /// Rows: level, throughput, avg batch, avg output len, power, J/token, J/request, then
    /// (statistic key, ms) pairs.
    rows: Vec<SharedRow>,
}

#[derive(Serialize, Deserialize)]
struct SharedRow(
    f64,
    f64,
    Option<f64>,
    Option<f64>,
    Option<f64>,
    Option<f64>,
    Option<f64>,
    Vec<(String, f64)>,
);

fn kind_char(kind: LevelKind) -> char {
    match kind {
        LevelKind::MaxNumSeqs => 'm',
        LevelKind::Concurrency => 'c',
        LevelKind::RequestRate => 'r',
    }
}

/// The fragment value (after `#sweep=`) for a source.
///
/// Errors: a message when the link would be longer than [`MAX_LINK_BYTES`].
pub fn encode(source: &Source) -> Result<String, String> {
    let shared = Shared {
        v: 1,
        name: source.task_display_name.clone(),
        models: source
            .models
            .iter()
            .map(|m| SharedModel {
                id: m.model_id.clone(),
                nick: m.nickname.clone(),
                arch: m.architecture.clone(),
                total: m.total_params_b,
                active: m.activated_params_b,
            })
            .collect(),
        sweeps: source
            .sweeps
            .iter()
            .map(|s| SharedSweep {
                model: s.model_index,
                gpu: s.gpu_model.clone(),
                gpus: s.num_gpus,
                par: (s.tensor_parallel, s.expert_parallel, s.data_parallel),
                prec: s.weight_precision.clone(),
                kind: kind_char(s.level_kind),
                cfg: s.config.clone(),
                rows: s
                    .rows
                    .iter()
                    .map(|r| {
                        SharedRow(
                            r.level,
                            r.throughput_tok_s,
                            r.avg_batch_size,
                            r.avg_output_len,
                            r.power_w,
                            r.energy_per_token_j,
                            r.energy_per_request_j,
                            Statistic::ALL
                                .into_iter()
                                .filter_map(|st| Some((st.key().to_string(), r.latency_ms(st)?)))
                                .collect(),
                        )
                    })
                    .collect(),
            })
            .collect(),
    };
    let json = serde_json::to_vec(&shared).map_err(|e| e.to_string())?;
    let packed = URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(&json, 9));
    if packed.len() + "#sweep=".len() > MAX_LINK_BYTES {
        return Err(format!(
            "this sweep set is too large to share by link ({} KB compressed; links are kept under {} KB). Share the files instead.",
            packed.len().div_ceil(1024),
            MAX_LINK_BYTES / 1024
        ));
    }
    Ok(packed)
}

/// Reads a fragment value back into a source.
///
/// Errors: a message naming what is wrong (not base64, not deflate, too large, not this format).
pub fn decode(packed: &str) -> Result<Source, String> {
    if packed.len() > MAX_LINK_BYTES * 2 {
        return Err("the shared sweep in this link is too long".into());
    }
    let bytes = URL_SAFE_NO_PAD.decode(packed.trim()).map_err(|_| {
        "the shared sweep in this link is damaged (not URL-safe base64)".to_string()
    })?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&bytes, MAX_PAYLOAD_BYTES)
        .map_err(|_| {
            "the shared sweep in this link is damaged (not compressed data)".to_string()
        })?;
    let shared: Shared = serde_json::from_slice(&json).map_err(|_| {
        "the shared sweep in this link is not in a format this page reads".to_string()
    })?;
    if shared.v != 1 {
        return Err(format!(
            "the shared sweep uses format version {}, this page reads 1",
            shared.v
        ));
    }
    let mut rows = Vec::new();
    let total: usize = shared.sweeps.iter().map(|s| s.rows.len()).sum();
    if total > super::import::MAX_ROWS {
        return Err(format!(
            "the shared sweep in this link holds {total} rows, more than the {} this page reads",
            super::import::MAX_ROWS
        ));
    }
    for s in shared.sweeps {
        let Some(m) = shared.models.get(s.model) else {
            return Err("the shared sweep names a model it does not hold".into());
        };
        let kind = match s.kind {
            'm' => LevelKind::MaxNumSeqs,
            'c' => LevelKind::Concurrency,
            _ => LevelKind::RequestRate,
        };
        for r in s.rows {
            let finite_positive = |v: f64| v.is_finite() && v > 0.0;
            if !finite_positive(r.0) || !finite_positive(r.1) {
                return Err(
                    "the shared sweep holds a level or throughput that is not a positive number"
                        .into(),
                );
            }
            let mut row = Row::new(r.0, r.1);
            row.avg_batch_size = r.2.filter(|v| finite_positive(*v));
            row.avg_output_len = r.3.filter(|v| finite_positive(*v));
            row.power_w = r.4.filter(|v| finite_positive(*v));
            row.energy_per_token_j = r.5.filter(|v| finite_positive(*v));
            row.energy_per_request_j = r.6.filter(|v| finite_positive(*v));
            for (key, ms) in r.7 {
                if let Some(stat) = Statistic::from_key(&key) {
                    row.set_latency_ms(stat, Some(ms));
                }
            }
            rows.push(Measured {
                key: SweepKey {
                    model_id: m.id.clone(),
                    gpu: s.gpu.clone(),
                    num_gpus: s.gpus.filter(|n| *n > 0),
                    parallelism: s.par,
                    precision: s.prec.clone(),
                    level_kind: kind,
                    config: s.cfg.clone(),
                },
                row,
                model: Some(Model {
                    model_id: m.id.clone(),
                    nickname: m.nick.clone(),
                    architecture: m.arch.clone(),
                    total_params_b: m.total,
                    activated_params_b: m.active,
                }),
            });
        }
    }
    if rows.is_empty() {
        return Err("the shared sweep in this link holds no rows".into());
    }
    let mut source = build_source(&[], rows);
    source.task_display_name = shared.name;
    source.provenance.publisher = "files shared by link".to_string();
    source.provenance.notes = vec![
        "Imported in another browser and shared by link (the sweeps, not the files); figures as those files state them, converted to ms and output tok/s."
            .to_string(),
    ];
    Ok(source)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::import::{import, InputFile};

    fn glm() -> Source {
        let files: Vec<InputFile> = [1, 2, 4, 8]
            .iter()
            .map(|c| InputFile {
                name: format!("c{c}.json"),
                text: format!(
                    "{{\"backend\":\"vllm\",\"model_id\":\"m/x\",\"max_concurrency\":{c},\"output_throughput\":{},\"median_itl_ms\":{},\"p99_ttft_ms\":300.5}}",
                    100 * c,
                    10 + c
                ),
            })
            .collect();
        import(&files).unwrap().source
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
        source.sweeps[0] =
            crate::core::sweep::Sweep::new(0, "X".into(), None, (1, 1, 1), "p".into(), rows);
        let err = encode(&source).unwrap_err();
        assert!(err.contains("too large to share by link"), "{err}");
    }

    #[test]
    fn damaged_links_give_messages_not_panics() {
        for bad in ["", "!!!", "AAAA", "eJwrSS0uAQAEXQHB", &"A".repeat(20_000)] {
            assert!(decode(bad).is_err(), "{bad:?}");
        }
        // Valid deflate of valid JSON in the wrong shape.
        let packed = URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(b"{\"v\":1}", 9));
        assert!(decode(&packed).unwrap_err().contains("format"));
        let packed = URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(
            b"{\"v\":1,\"name\":\"<img src=x onerror=alert(1)>\",\"models\":[],\"sweeps\":[{\"model\":3,\"gpu\":\"g\",\"gpus\":1,\"par\":[1,1,1],\"prec\":\"p\",\"kind\":\"c\",\"cfg\":\"\",\"rows\":[]}]}",
            9,
        ));
        assert!(decode(&packed).unwrap_err().contains("model"));
    }
}
