//! A disaggregated deployment's roles as a file states them: each role's GPUs, read as whole
//! numbers and neither of them 0 (shared by every reader whose files state roles).

use super::errors::RowError;
use super::record::whole;
use crate::core::model::deployment::{Disaggregation, Role, Roles};

/// The prefill and decode GPUs (P, D) of a disaggregated row, each read under its key; `None`
/// where the file does not state it.
///
/// Errors: [`RowError::NotWhole`] for a count that is not a whole number,
/// [`RowError::RoleWithoutGpus`] for a count of 0.
pub(crate) fn role_gpus(
    prefill: (&str, Option<f64>),
    decode: (&str, Option<f64>),
) -> Result<(Option<u32>, Option<u32>), RowError> {
    let read = |(key, v): (&str, Option<f64>)| match whole(key, v)? {
        Some(0) => Err(RowError::RoleWithoutGpus { key: key.into() }),
        n => Ok(n),
    };
    Ok((read(prefill)?, read(decode)?))
}

/// A file's `disagg` flag alone: colocated, or disaggregated with no role stated.
pub(crate) fn flagged(disagg: Option<bool>) -> Option<Disaggregation> {
    disagg.map(|d| {
        if d {
            Disaggregation::Disaggregated(Roles::default())
        } else {
            Disaggregation::Colocated
        }
    })
}

/// A role with only its GPUs stated.
pub(crate) fn with_gpus(gpus: Option<u32>) -> Role {
    Role {
        gpus,
        ..Role::default()
    }
}
