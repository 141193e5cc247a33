//! GPU prices as a link writes them (`price=2.5,B200:5.99`): one for every type, one per type,
//! or both, and why an entry is not used as given ([`PriceError`]).

use std::fmt;

use super::ValueError;
use crate::core::model::format::url_number;
use crate::core::model::limits::{MAX_PRICES, MAX_TEXT_CHARS};
use crate::core::plan::capacity::GpuPrices;

/// Why one entry of URL `price` is not used as given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PriceError {
    /// More entries than [`MAX_PRICES`]: the first are used.
    TooMany {
        /// How many entries were given.
        count: usize,
    },
    /// The price of a GPU type (or of every type, `gpu: None`) cannot be read.
    Price {
        /// The GPU type named, cut to [`MAX_TEXT_CHARS`] characters.
        gpu: Option<String>,
        /// Why.
        error: ValueError,
    },
    /// An entry `:PRICE` with no GPU type before its colon (or a second colon).
    NoGpu {
        /// The entry, cut to [`MAX_TEXT_CHARS`] characters.
        entry: String,
    },
    /// A GPU type (or the price of every type, `gpu: None`) given more than once: the last
    /// one is used.
    Repeated {
        /// The GPU type, upper case.
        gpu: Option<String>,
        /// How many times.
        times: usize,
    },
}

impl fmt::Display for PriceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PriceError::TooMany { count } => {
                write!(f, "has {count} entries; the first {MAX_PRICES} are used")
            }
            PriceError::Price {
                gpu: Some(gpu),
                error,
            } => write!(f, "for {gpu} {error}"),
            PriceError::Price { gpu: None, error } => write!(f, "{error}"),
            PriceError::NoGpu { entry } => write!(f, "entry \"{entry}\" names no GPU type"),
            PriceError::Repeated { gpu, times } => write!(
                f,
                "for {} is given {times} times; the last one is used",
                gpu.as_deref().unwrap_or("every GPU type")
            ),
        }
    }
}

/// Parses URL `price`: a bare number (every GPU type), `TYPE:PRICE` entries, or both, comma
/// separated (`2.5,B200:5.99`). Each price is read by `amount` (0 to 1e6); a GPU type name is
/// cut to [`MAX_TEXT_CHARS`] characters. Returns the bare number, the per-type prices, and one
/// error per malformed, repeated (the last one is used) or surplus entry (past
/// [`MAX_PRICES`]); the rest still apply.
pub fn parse_prices(
    text: &str,
    amount: impl Fn(&str) -> Result<f64, ValueError>,
) -> (Option<f64>, GpuPrices, Vec<PriceError>) {
    let (mut every, mut by_type, mut errors) = (None, GpuPrices::default(), Vec::new());
    // Entries given more than once: named once each, with how often.
    let mut repeated: Vec<(Option<String>, usize)> = Vec::new();
    let mut repeat = |name: Option<String>| match repeated.iter_mut().find(|(n, _)| *n == name) {
        Some((_, times)) => *times += 1,
        None => repeated.push((name, 2)),
    };
    let entries: Vec<&str> = text
        .split(',')
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .collect();
    if entries.len() > MAX_PRICES {
        errors.push(PriceError::TooMany {
            count: entries.len(),
        });
    }
    for entry in entries.into_iter().take(MAX_PRICES) {
        match entry.split_once(':') {
            Some((gpu, price)) if !gpu.trim().is_empty() => {
                let gpu: String = gpu.trim().chars().take(MAX_TEXT_CHARS).collect();
                match amount(price) {
                    Ok(p) => {
                        if by_type.for_gpu(&gpu, None).is_some() {
                            repeat(Some(gpu.to_ascii_uppercase()));
                        }
                        by_type.set(&gpu, Some(p));
                    }
                    Err(error) => errors.push(PriceError::Price {
                        gpu: Some(gpu),
                        error,
                    }),
                }
            }
            Some(_) => errors.push(PriceError::NoGpu {
                entry: entry.chars().take(MAX_TEXT_CHARS).collect(),
            }),
            None => match amount(entry) {
                Ok(p) => {
                    if every.is_some() {
                        repeat(None);
                    }
                    every = Some(p);
                }
                Err(error) => errors.push(PriceError::Price { gpu: None, error }),
            },
        }
    }
    errors.extend(
        repeated
            .into_iter()
            .map(|(gpu, times)| PriceError::Repeated { gpu, times }),
    );
    (every, by_type, errors)
}

/// URL `price` as [`parse_prices`] reads it: the bare number first, then each type's.
pub fn prices_text(every: Option<f64>, by_type: &GpuPrices) -> String {
    every
        .map(url_number)
        .into_iter()
        .chain(
            by_type
                .0
                .iter()
                .map(|(g, p)| format!("{g}:{}", url_number(*p))),
        )
        .collect::<Vec<_>>()
        .join(",")
}
