//! Runs into sweeps ([`group`]: one per model and deployment), and the texts of a run cut to
//! [`MAX_TEXT_CHARS`].

use std::collections::HashMap;

use crate::core::import::Measured;
use crate::core::model::deployment::Deployment;
use crate::core::model::limits::MAX_TEXT_CHARS;
use crate::core::model::row::Row;
use crate::core::model::sweep::{Model, Sweep};

/// Groups measured runs into sweeps: one per model and deployment (every identity field
/// equal), models and sweeps in first-seen order.
pub(crate) fn group(rows: Vec<Measured>) -> (Vec<Model>, Vec<Sweep>) {
    let (models, sweeps, _) = group_at_most(rows, usize::MAX);
    (models, sweeps)
}

/// [`group`], keeping at most `max_sweeps` sweeps; also returns how many runs of further
/// sweeps were left out. Linear in the runs (sweeps found by the hash of their identity).
pub(super) fn group_at_most(
    rows: Vec<Measured>,
    max_sweeps: usize,
) -> (Vec<Model>, Vec<Sweep>, usize) {
    let mut models: Vec<Model> = Vec::new();
    let mut model_index: HashMap<String, usize> = HashMap::new();
    let mut keys: Vec<(usize, Deployment)> = Vec::new();
    let mut sweep_index: HashMap<(usize, String), usize> = HashMap::new();
    let mut groups: Vec<Vec<Row>> = Vec::new();
    let mut left_out = 0;
    for m in rows {
        let mi = match model_index.get(&m.model_id) {
            Some(&i) => i,
            None => {
                models.push(m.model.clone().unwrap_or_else(|| Model {
                    model_id: m.model_id.clone(),
                    nickname: m.model_id.clone(),
                    architecture: "architecture not stated".to_string(),
                    total_params_b: None,
                    activated_params_b: None,
                }));
                model_index.insert(m.model_id.clone(), models.len() - 1);
                models.len() - 1
            }
        };
        let key = (mi, m.deployment.identity_key());
        match sweep_index.get(&key) {
            Some(&i) => groups[i].push(m.row),
            None if keys.len() >= max_sweeps => left_out += 1,
            None => {
                sweep_index.insert(key, keys.len());
                keys.push((mi, m.deployment));
                groups.push(vec![m.row]);
            }
        }
    }
    let sweeps = keys
        .into_iter()
        .zip(groups)
        .map(|((model_index, deployment), rows)| Sweep::new(model_index, deployment, rows))
        .collect();
    (models, sweeps, left_out)
}

/// A copy of a text read from a file, cut to [`MAX_TEXT_CHARS`] characters and `…` where it is
/// longer: the one way a reader copies a text into a run, so that a text stated once (a 1 MB
/// model id at the top of a file) is cut where it is read, never copied whole into each run.
/// [`cap_texts`] cuts the rest as each run is kept.
pub(crate) fn capped(text: &str) -> String {
    match text.char_indices().nth(MAX_TEXT_CHARS) {
        Some((at, _)) => {
            let mut out = String::with_capacity(at + '…'.len_utf8());
            out.push_str(&text[..at]);
            out.push('…');
            out
        }
        None => text.to_string(),
    }
}

/// Cuts a text to [`MAX_TEXT_CHARS`]; true when it was longer (a text cut by [`capped`] is one
/// character longer, its `…`, so it is counted here again as cut, and stays as it is).
pub(crate) fn cap_text(text: &mut String) -> bool {
    match text.char_indices().nth(MAX_TEXT_CHARS) {
        Some((at, _)) => {
            text.truncate(at);
            text.push('…');
            // Truncating keeps the allocation: give the long text's memory back.
            text.shrink_to_fit();
            true
        }
        None => false,
    }
}

/// Cuts a deployment's texts to [`MAX_TEXT_CHARS`]; how many were cut.
pub(crate) fn cap_deployment(d: &mut Deployment) -> usize {
    let mut texts: Vec<&mut String> = vec![&mut d.gpu, &mut d.precision];
    for field in [
        &mut d.engine,
        &mut d.engine_version,
        &mut d.spec_decoding,
        &mut d.dataset,
        &mut d.config,
        &mut d.date,
    ] {
        texts.extend(field.as_mut());
    }
    texts.into_iter().map(cap_text).filter(|cut| *cut).count()
}

/// Cuts a run's texts (model, identity fields) to [`MAX_TEXT_CHARS`]; how many were cut.
pub(super) fn cap_texts(m: &mut Measured) -> usize {
    let mut cut = usize::from(cap_text(&mut m.model_id)) + cap_deployment(&mut m.deployment);
    if let Some(model) = m.model.as_mut() {
        for text in [
            &mut model.model_id,
            &mut model.nickname,
            &mut model.architecture,
        ] {
            cut += usize::from(cap_text(text));
        }
    }
    cut
}
