//! A link's `#sweep=` payload read back into a source: unpacked, read for either version and
//! counted against the limits, then built ([`decode`]).

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

use super::v2::{basis, SharedSignals, SharedV2, SweepV2, ENERGY_BASES, POWER_PEAKS, SERVED_BASES};
use super::{v1, Header, Held, Shape, ShareError, SharedModel, VERSION};
use crate::core::import::{cap_deployment, cap_text, lenient_text};
use crate::core::model::deployment::Deployment;
use crate::core::model::limits::{
    MAX_FIGURE, MAX_LINK_BYTES, MAX_PAYLOAD_BYTES, MAX_ROWS, MAX_SWEEPS, MAX_TEXT_CHARS, MIN_FIGURE,
};
use crate::core::model::roles::RoleFigures;
use crate::core::model::row::Row;
use crate::core::model::source::{Provenance, Source};
use crate::core::model::sweep::{Model, Statistic, Sweep};

/// A level or throughput read from a link must be a number within the import's range
/// ([`MIN_FIGURE`] to [`MAX_FIGURE`]).
pub(super) fn positive(v: f64) -> Result<f64, ShareError> {
    if v.is_finite() && (MIN_FIGURE..=MAX_FIGURE).contains(&v) {
        Ok(v)
    } else {
        Err(ShareError::NotPositive)
    }
}

/// A figure read from a link, kept within the range an import keeps ([`MIN_FIGURE`] to
/// [`MAX_FIGURE`]), else absent, as an imported file's would be: a link is no way around it.
pub(super) fn figure(v: Option<f64>) -> Option<f64> {
    v.filter(|x| x.is_finite() && (MIN_FIGURE..=MAX_FIGURE).contains(x))
}

pub(super) fn latencies(mut row: Row, pairs: Vec<(String, f64)>) -> Row {
    for (key, ms) in pairs {
        if let Some(stat) = Statistic::from_key(&key) {
            row.set_latency_ms(stat, Some(ms));
        }
    }
    row
}

pub(super) fn sweep_v2(s: SweepV2) -> Result<ReadSweep, ShareError> {
    let rows = s
        .rows
        .into_iter()
        .map(|r| {
            // A run in which no request completed has no throughput.
            let throughput = match (r.c, r.t) {
                (Some(c), t) if c == 0.0 && t == 0.0 => 0.0,
                (_, t) => positive(t)?,
            };
            let mut row = Row::new(positive(r.l)?, throughput);
            row.avg_batch_size = figure(r.b);
            row.avg_output_len = figure(r.o);
            row.power_w = figure(r.p);
            row.power_peak = figure(r.pk).zip(basis(&POWER_PEAKS, r.pks));
            row.energy_per_token_j = figure(r.j);
            row.energy_basis = row.energy_per_token_j.and(basis(&ENERGY_BASES, r.jb));
            row.energy_per_request_j = figure(r.jr);
            row.served_req_s = figure(r.s);
            row.served_basis = row.served_req_s.and(basis(&SERVED_BASES, r.sb));
            row.e2e_mean_ms = figure(r.e);
            let count =
                |v: Option<f64>| v.filter(|x| x.is_finite() && *x >= 0.0 && *x <= MAX_FIGURE);
            row.completed_requests = count(r.c);
            row.failed_requests = count(r.f);
            row.avg_input_len = figure(r.i);
            row.input_tok_s = figure(r.it);
            row.roles = RoleFigures {
                prefill_power_w: figure(r.ppw),
                decode_power_w: figure(r.dpw),
                decode_energy_per_token_j: figure(r.dj),
            };
            row.signals = r.sg.and_then(SharedSignals::signals);
            Ok(latencies(row, r.ms))
        })
        .collect::<Result<_, ShareError>>()?;
    Ok((s.model, s.dep.deployment(), rows))
}

/// Reads a fragment value back into a source: unpacked ([`unpack`]), read and counted
/// ([`read_payload`]), then built ([`build_source`]).
///
/// Errors: what is wrong ([`ShareError`]: not base64, not deflate, too large, not this format).
pub fn decode(packed: &str) -> Result<Source, ShareError> {
    let json = unpack(packed)?;
    let (name, models, sweeps, rows) = read_payload(&json)?;
    if rows == 0 {
        return Err(ShareError::NoRows);
    }
    if sweeps.iter().any(|(m, _, _)| *m >= models.len()) {
        return Err(ShareError::UnknownModel);
    }
    Ok(build_source(name, models, sweeps))
}

/// The JSON a fragment value holds: its size checked, base64 decoded and inflated up to
/// [`MAX_PAYLOAD_BYTES`].
pub(super) fn unpack(packed: &str) -> Result<Vec<u8>, ShareError> {
    let length = packed.trim().len() + "#sweep=".len();
    if length > MAX_LINK_BYTES {
        return Err(ShareError::LinkTooLong {
            kb: length.div_ceil(1024),
        });
    }
    let packed = packed.trim();
    let cut_short = ShareError::CutShort {
        chars: packed.len(),
    };
    let bytes = URL_SAFE_NO_PAD.decode(packed).map_err(|e| match e {
        base64::DecodeError::InvalidByte(at, byte) => ShareError::NotBase64 {
            at: at + 1,
            character: char::from(byte),
        },
        _ => cut_short.clone(),
    })?;
    miniz_oxide::inflate::decompress_to_vec_with_limit(&bytes, MAX_PAYLOAD_BYTES).map_err(|e| {
        use miniz_oxide::inflate::TINFLStatus;
        match e.status {
            TINFLStatus::HasMoreOutput => ShareError::TooBig,
            // The data ends before the compressed stream does.
            TINFLStatus::FailedCannotMakeProgress | TINFLStatus::NeedsMoreInput => cut_short,
            _ => ShareError::NotCompressed,
        }
    })
}

/// One sweep as a payload holds it: its model's index, its deployment and its rows.
pub(super) type ReadSweep = (usize, Deployment, Vec<Row>);

/// A payload's name, models and sweeps, and its row count,
/// for either version; the counts are checked against the limits before anything is built.
pub(super) fn read_payload(
    json: &[u8],
) -> Result<(String, Vec<SharedModel>, Vec<ReadSweep>, usize), ShareError> {
    let not_ours = |_| ShareError::NotOurs;
    // A lone surrogate escape (a model id cut in the middle of an emoji) is one character
    // replaced, not the whole link refused.
    let text = std::str::from_utf8(json).map_err(|_| ShareError::NotOurs)?;
    let text = lenient_text(text);
    let json = text.as_bytes();
    let header: Header = serde_json::from_slice(json).map_err(not_ours)?;
    if !matches!(header.v, 1 | VERSION) {
        return Err(ShareError::Version { v: header.v });
    }
    // Counted before anything is built: a link may unpack to far more than it holds.
    let shape: Shape = serde_json::from_slice(json).map_err(not_ours)?;
    let rows: usize = shape.sweeps.iter().map(|s| s.rows.len()).sum();
    for (count, limit, what) in [
        (shape.models.len(), MAX_SWEEPS, Held::Models),
        (shape.sweeps.len(), MAX_SWEEPS, Held::Sweeps),
        (rows, MAX_ROWS, Held::Rows),
    ] {
        if count > limit {
            return Err(ShareError::TooMany { count, limit, what });
        }
    }
    let (name, models, sweeps) = match header.v {
        1 => {
            let s: v1::SharedV1 = serde_json::from_slice(json).map_err(not_ours)?;
            let sweeps: Vec<_> = s
                .sweeps
                .into_iter()
                .map(v1::sweep_v1)
                .collect::<Result<_, _>>()?;
            (s.name, s.models, sweeps)
        }
        _ => {
            let s: SharedV2 = serde_json::from_slice(json).map_err(not_ours)?;
            let sweeps: Vec<_> = s
                .sweeps
                .into_iter()
                .map(sweep_v2)
                .collect::<Result<_, _>>()?;
            (s.name, s.models, sweeps)
        }
    };
    Ok((name, models, sweeps, rows))
}

/// The source of a read payload: only the models a sweep names, texts cut to the import's
/// length, sweeps of one model and deployment merged, and notes on what was cut or not used.
pub(super) fn build_source(
    name: String,
    models: Vec<SharedModel>,
    sweeps: Vec<ReadSweep>,
) -> Source {
    // Texts are held once per model or sweep, each cut to the import's length.
    let mut cut = 0;
    // Only the models a sweep names are kept; a model without an id is "not stated".
    let mut used: Vec<Option<usize>> = vec![None; models.len()];
    let mut kept_models: Vec<Model> = Vec::new();
    let mut sweeps = sweeps;
    for (m, _, _) in &mut sweeps {
        *m = *used[*m].get_or_insert_with(|| {
            kept_models.push(Model::default());
            kept_models.len() - 1
        });
    }
    for (model, at) in models.into_iter().zip(&used) {
        if let Some(at) = at {
            kept_models[*at] = model.model();
        }
    }
    let mut models = kept_models;
    for m in &mut models {
        for text in [&mut m.model_id, &mut m.nickname, &mut m.architecture] {
            cut += usize::from(cap_text(text));
        }
    }
    // Sweeps of one model and deployment are one sweep (a link edited to repeat one).
    let mut merged: Vec<(usize, Deployment, Vec<Row>)> = Vec::new();
    let mut index: std::collections::HashMap<(usize, String), usize> = Default::default();
    for (m, mut d, rows) in sweeps.into_iter().filter(|(_, _, rows)| !rows.is_empty()) {
        cut += cap_deployment(&mut d);
        match index.get(&(m, d.identity_key())) {
            Some(&i) => merged[i].2.extend(rows),
            None => {
                index.insert((m, d.identity_key()), merged.len());
                merged.push((m, d, rows));
            }
        }
    }
    let unusable: u32 = merged
        .iter()
        .flat_map(|(_, _, rows)| rows.iter())
        .map(Row::unusable_latencies)
        .sum();
    let sweeps = merged
        .into_iter()
        .map(|(m, d, rows)| Sweep::new(m, d, rows))
        .collect();
    let mut notes = vec![
        "Imported in another browser and shared by link (the sweeps, not the files); figures as those files state them, converted to ms and output tok/s."
            .to_string(),
    ];
    if unusable > 0 {
        notes.push(format!(
            "{} below 1e-6 ms (0 or less) or over 1e9 ms shown as not reported.",
            crate::core::model::format::counted(
                usize::try_from(unusable).unwrap_or(usize::MAX),
                "latency value"
            )
        ));
    }
    if cut > 0 {
        notes.push(format!(
            "{} longer than {MAX_TEXT_CHARS} characters cut to {MAX_TEXT_CHARS}.",
            crate::core::model::format::counted(cut, "text")
        ));
    }
    Source::new(
        "import".to_string(),
        name.chars().take(MAX_TEXT_CHARS * 4).collect(),
        models,
        sweeps,
        Provenance {
            publisher: "files shared by link".to_string(),
            notes,
            ..Provenance::default()
        },
    )
}
