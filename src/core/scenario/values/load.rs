//! A load over time as a link writes it (`load=KIND:STEP:V1,...`), and how a replica follows
//! it (`lag`, `min_replicas`).

use super::{number, Accepts, ValueError, MIN_STEP_MIN};
use crate::core::model::format::url_number;
use crate::core::model::limits::MAX_LOAD_VALUES;
use crate::core::plan::period::{LoadKind, LoadProfile};

/// Parses a load over time (`load`): `KIND:STEP:V1,V2,...`, KIND `rps` or `users`, STEP the
/// minutes each value covers (above 0, at most 10,080), at most [`MAX_LOAD_VALUES`] values, each
/// a number from 0 to 1,000,000,000.
///
/// Errors: the first part that cannot be read ([`Accepts::LoadForm`], [`Accepts::LoadKind`],
/// [`Accepts::LoadStep`], [`Accepts::LoadValues`], [`Accepts::LoadValue`] with its position).
pub fn parse_load(text: &str) -> Result<LoadProfile, ValueError> {
    let mut parts = text.trim().splitn(3, ':');
    let (Some(kind), Some(step), Some(values)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(ValueError::not(Accepts::LoadForm, text));
    };
    let kind =
        LoadKind::from_key(kind.trim()).ok_or_else(|| ValueError::not(Accepts::LoadKind, kind))?;
    load_of_values(kind, parse_load_step(step)?, values.split(','))
}

/// Parses the minutes each value of a load covers (a link's `load`, the load field's step):
/// at least a second ([`MIN_STEP_MIN`]), at most 10,080 (a week).
///
/// Errors: [`Accepts::BelowSecond`] above 0 and under a second, else [`Accepts::LoadStep`],
/// with (a shortened copy of) the text.
// Inlined, as [`load_of_values`]: the page's first load reads a link's `load` with them.
#[inline(always)]
pub fn parse_load_step(text: &str) -> Result<f64, ValueError> {
    match number(text) {
        Some(s) if s > 0.0 && s < MIN_STEP_MIN => Err(ValueError::not(Accepts::BelowSecond, text)),
        Some(s) if s > 0.0 && s <= 10_080.0 => Ok(s),
        _ => Err(ValueError::not(Accepts::LoadStep, text)),
    }
}

/// A load of `kind`, each value covering `step_min` minutes (read by [`parse_load_step`]), from
/// its values as typed: at most [`MAX_LOAD_VALUES`], each a number from 0 to 1,000,000,000.
///
/// Errors: [`Accepts::LoadValues`] for too many, [`Accepts::LoadValue`] with its position for
/// the first that cannot be read.
#[inline(always)]
pub fn load_of_values<'a>(
    kind: LoadKind,
    step_min: f64,
    values: impl Iterator<Item = &'a str> + Clone,
) -> Result<LoadProfile, ValueError> {
    let count = values.clone().count();
    if count > MAX_LOAD_VALUES {
        return Err(ValueError::not(Accepts::LoadValues(count), ""));
    }
    let values = values
        .enumerate()
        .map(|(i, v)| {
            number(v)
                .filter(|v| (0.0..=1e9).contains(v))
                .ok_or_else(|| ValueError::not(Accepts::LoadValue(i + 1), v))
        })
        .collect::<Result<Vec<f64>, ValueError>>()?;
    Ok(LoadProfile {
        kind,
        step_min,
        values,
    })
}

/// A load over time as a link writes it (`load`), read back by [`parse_load`]:
/// `rps:60:3,2,5`.
pub fn load_text(load: &LoadProfile) -> String {
    let kind = load.kind.key();
    let values: Vec<String> = load.values.iter().map(|v| url_number(*v)).collect();
    format!("{kind}:{}:{}", url_number(load.step_min), values.join(","))
}

/// Parses the minutes a replica takes to come up (`lag`): 0, or a second ([`MIN_STEP_MIN`]) to
/// 10,080.
///
/// Errors: [`Accepts::BelowSecond`] above 0 and under a second, else [`Accepts::Lag`], with (a
/// shortened copy of) the text.
pub fn parse_lag(text: &str) -> Result<f64, ValueError> {
    match number(text) {
        Some(m) if m > 0.0 && m < MIN_STEP_MIN => Err(ValueError::not(Accepts::BelowSecond, text)),
        // `-0` is 0 (a link writes it back as 0).
        Some(m) if (0.0..=10_080.0).contains(&m) => Ok(m + 0.0),
        _ => Err(ValueError::not(Accepts::Lag, text)),
    }
}

/// Parses the floor of replicas (`min_replicas`): a whole number from 0 to 1,000,000.
///
/// Errors: [`Accepts::WholeReplicas`] with (a shortened copy of) the text.
pub fn parse_min_replicas(text: &str) -> Result<u64, ValueError> {
    match text.trim().parse::<u64>() {
        Ok(n) if n <= 1_000_000 => Ok(n),
        _ => Err(ValueError::not(Accepts::WholeReplicas, text)),
    }
}
