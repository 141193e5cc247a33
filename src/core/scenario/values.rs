//! Values typed in a link or a field, read into numbers, limits and prices; a value that cannot
//! be read is a [`ValueError`]: what was typed and what is accepted, worded once by its
//! `Display` ("must be a finite positive number, got \"abc\"").

use std::fmt;

pub(super) use crate::core::model::format::echo;
use crate::core::model::format::{grouped, url_number};
use crate::core::model::limits::{MAX_LOAD_VALUES, MAX_VALUE};
use crate::core::model::sweep::Statistic;
use crate::core::plan::cost::ApiPrice;
use crate::core::plan::planner::Limit;

mod load;
mod prices;

pub use load::{
    load_of_values, load_text, parse_lag, parse_load, parse_load_step, parse_min_replicas,
};
pub use prices::{parse_prices, prices_text, PriceError};

/// Smallest target or limit accepted, in its unit (tok/s per user or ms per token).
pub const MIN_VALUE: f64 = 0.001;
/// Shortest load step or replica lag accepted above 0, minutes: a second. A shorter one plans
/// nothing a fleet can follow, and its figures would read as noise.
pub const MIN_STEP_MIN: f64 = 1.0 / 60.0;

/// What a value must be: each is worded once, by [`ValueError`]'s `Display`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Accepts {
    /// A finite number above 0 (a target or a limit).
    Positive,
    /// A positive number from [`MIN_VALUE`] to [`MAX_VALUE`].
    PositiveInRange,
    /// A fleet input of this kind.
    Input(InputKind),
    /// A share of requests from 50 to 100 percent (`attain`).
    Share,
    /// `STAT:MS`, a tail limit.
    LimitForm,
    /// A statistic's key, in a tail limit.
    Statistic,
    /// A whole number of GPUs.
    WholeGpus,
    /// A per-token statistic's key (`stat`); the keys accepted.
    PerTokenStatistic(String),
    /// `cost` (`y`).
    Cost,
    /// `all` (`cmp`).
    All,
    /// A column of the side-by-side table (`sort`), optionally `:reversed`; the keys accepted.
    Column(String),
    /// `KIND:STEP:V1,V2,...`, a load over time (`load`).
    LoadForm,
    /// `rps` or `users`, what a load's values count.
    LoadKind,
    /// The minutes each value of a load covers: above 0, at most a week.
    LoadStep,
    /// A load step or a replica lag above 0 but shorter than a second ([`MIN_STEP_MIN`]).
    BelowSecond,
    /// Value number N (from 1) of a load: a number from 0 to 1,000,000,000.
    LoadValue(usize),
    /// A load of this many values: more than [`MAX_LOAD_VALUES`].
    LoadValues(usize),
    /// Minutes a replica takes to come up (`lag`): 0 to a week.
    Lag,
    /// A whole number of replicas (`min_replicas`): 0 to 1,000,000.
    WholeReplicas,
    /// The comparison's tolerance (`tol`): a percentage from 0 to 50.
    Tolerance,
    /// The candidate of a comparison (`vs`): a deployment's selectors as a link writes them.
    Candidate,
    /// A power budget (`power`): from 1 W to 10 GW, with its unit, `W`, `kW`, `MW` or `GW`.
    Power,
    /// What one GPU's power is read from (`power_basis`): `measured` or `tdp`.
    PowerBasis,
    /// Watts per GPU beyond the GPU itself (`host_w`): 0, or from [`MIN_AMOUNT`] to 10,000.
    HostWatts,
    /// A hosted API's price (`api`): two or three amounts, `INPUT:OUTPUT[:CACHED]`.
    ApiPrice,
}

/// A value that could not be read: what was typed (shortened) and what is accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValueError {
    /// `got` is not what `accepts` says.
    Not {
        /// What is accepted.
        accepts: Accepts,
        /// The text as typed, shortened to 40 characters.
        got: String,
    },
    /// The bound of a tail limit (`p99:BOUND`) cannot be read.
    Bound(Box<ValueError>),
}

impl ValueError {
    pub(super) fn not(accepts: Accepts, text: &str) -> ValueError {
        ValueError::Not {
            accepts,
            got: echo(text),
        }
    }
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (accepts, got) = match self {
            ValueError::Bound(inner) => return write!(f, "bound {inner}"),
            ValueError::Not { accepts, got } => (accepts, got),
        };
        let must = match accepts {
            Accepts::Positive => "a finite positive number",
            Accepts::PositiveInRange => "between 0.001 and 1,000,000",
            Accepts::Input(InputKind::Users) => "a whole number of streams from 1 to 1,000,000,000",
            Accepts::Input(InputKind::Rate) => "a request rate from 0.001 to 1,000,000,000",
            Accepts::Input(InputKind::Amount) => "0 or a number from 0.0001 to 1,000,000",
            Accepts::Input(InputKind::Pue) => "a number from 1 (GPUs only) to 10",
            Accepts::Input(InputKind::Share) => "a share from 0 to 1 (of the input tokens the API serves from its cache)",
            Accepts::Share => "a percentage from 50 to 100 (the share of requests that must each meet the SLO)",
            Accepts::LimitForm => return write!(f, "must look like p99:150 (statistic:ms), got \"{got}\""),
            Accepts::Statistic => return write!(f, "names an unknown statistic \"{got}\""),
            Accepts::WholeGpus => "a whole number of GPUs",
            Accepts::PerTokenStatistic(keys) => {
                return write!(f, "must be a per-token statistic ({keys}); got \"{got}\"")
            }
            Accepts::Cost => "`cost` (the chart's y axis as total $ per million tokens)",
            Accepts::All => "`all` (the side-by-side table lists every model's deployments that meet)",
            Accepts::Column(keys) => {
                return write!(
                    f,
                    "must be a column of the side-by-side table ({keys}), optionally followed by `:reversed`; got \"{got}\""
                )
            }
            Accepts::LoadForm => {
                return write!(
                    f,
                    "must look like rps:60:3,2,5 (rps or users, the minutes each value covers, the values), got \"{got}\""
                )
            }
            Accepts::LoadKind => return write!(f, "must start with rps or users, got \"{got}\""),
            Accepts::LoadStep => "the minutes each value covers, above 0 and at most 10,080 (a week)",
            Accepts::LoadValue(n) => {
                return write!(f, "value {n} must be a number from 0 to 1,000,000,000, got \"{got}\"")
            }
            Accepts::LoadValues(n) => {
                return write!(
                    f,
                    "holds {} values, more than the {} read (a week by the minute)",
                    grouped(*n as f64, 0),
                    grouped(MAX_LOAD_VALUES as f64, 0)
                )
            }
            Accepts::Lag => "minutes from 0 to 10,080 (a week)",
            Accepts::BelowSecond => {
                return write!(
                    f,
                    "must be at least a second (0.0167 minutes): a shorter time plans nothing a fleet can follow, got \"{got}\""
                )
            }
            Accepts::WholeReplicas => "a whole number of replicas from 0 to 1,000,000",
            Accepts::Tolerance => "a percentage from 0 to 50 (the comparison's tolerance)",
            Accepts::Power => "a power from 1 W to 10 GW with its unit, W, kW, MW or GW (e.g. 1MW, 400kW)",
            Accepts::PowerBasis => "measured or tdp",
            Accepts::HostWatts => "watts per GPU, 0 or from 0.0001 to 10,000",
            Accepts::ApiPrice => {
                return write!(
                    f,
                    "must be two or three prices, $ per million input, output and cached input tokens, each 0 or from 0.0001 to 1,000,000 (e.g. 1.25:10 or 1.25:10:0.125), got \"{got}\""
                )
            }
            Accepts::Candidate => {
                return write!(
                    f,
                    "must name the deployment to compare with as one encoded query of `gpu`, `gpus`, `cfg`, `src` (e.g. gpu%3DB200%26gpus%3D1), got \"{got}\""
                )
            }
        };
        write!(f, "must be {must}, got \"{got}\"")
    }
}

impl std::error::Error for ValueError {}

/// A number as typed in a link or a field (surrounding spaces ignored), correctly rounded to
/// the nearest f64; `None` when the text is not a decimal number. Read with `lexical` in its
/// compact form: the same grammar and values as `str::parse::<f64>` (a native test compares
/// them), without the standard library's 10 KB table of powers of five on the page.
pub fn number(text: &str) -> Option<f64> {
    <f64 as lexical_parse_float::FromLexical>::from_lexical(text.trim().as_bytes()).ok()
}

/// The largest power budget accepted, W (10 GW: the largest campuses planned).
pub const MAX_POWER_W: f64 = 1e10;

/// The smallest power budget accepted, W: below a watt nothing fits and its shares read as ∞.
pub const MIN_POWER_W: f64 = 1.0;

/// Parses a power budget (`power`): from [`MIN_POWER_W`] to [`MAX_POWER_W`], with its unit, `W`, `kW`, `MW` or `GW`
/// (case of the `k`, `M` and `G` as written, spaces allowed: `1MW`, `400 kW`, `850W`, `1GW`), in W.
///
/// Errors: [`Accepts::Power`] with (a shortened copy of) the text, for a missing or unknown
/// unit, a number that is not one, or one outside that range.
pub fn parse_power(text: &str) -> Result<f64, ValueError> {
    let t = text.trim();
    let (digits, scale) = [("GW", 1e9), ("MW", 1e6), ("kW", 1e3), ("W", 1.0)]
        .into_iter()
        .find_map(|(unit, scale)| t.strip_suffix(unit).map(|d| (d, scale)))
        .ok_or_else(|| ValueError::not(Accepts::Power, text))?;
    number(digits)
        .map(|v| v * scale)
        .filter(|w| w.is_finite() && (MIN_POWER_W..=MAX_POWER_W).contains(w))
        .ok_or_else(|| ValueError::not(Accepts::Power, text))
}

/// A power budget as a link writes it: in GW, MW, kW or W, whichever reads as a plain number
/// (`2GW`, `1MW`, `400kW`, `850W`).
pub fn power_text(w: f64) -> String {
    if w >= 1e9 && (w / 1e9 * 1e3).fract() == 0.0 {
        format!("{}GW", url_number(w / 1e9))
    } else if w >= 1e6 && (w / 1e6 * 1e3).fract() == 0.0 {
        format!("{}MW", url_number(w / 1e6))
    } else if w >= 1e3 && (w / 1e3 * 1e3).fract() == 0.0 {
        format!("{}kW", url_number(w / 1e3))
    } else {
        format!("{}W", url_number(w))
    }
}

/// Parses the basis of one GPU's power (`power_basis`): `measured` or `tdp`.
///
/// Errors: [`Accepts::PowerBasis`] with (a shortened copy of) the text.
pub fn parse_power_basis(text: &str) -> Result<crate::core::plan::power::PowerBasis, ValueError> {
    crate::core::plan::power::PowerBasis::from_key(text.trim())
        .ok_or_else(|| ValueError::not(Accepts::PowerBasis, text))
}

/// Parses the watts per GPU beyond the GPU itself (`host_w`): 0, or from [`MIN_AMOUNT`] to
/// 10,000 (below 0.0001 W no host is meant).
///
/// Errors: [`Accepts::HostWatts`] with (a shortened copy of) the text.
pub fn parse_host_w(text: &str) -> Result<f64, ValueError> {
    number(text)
        .filter(|w| *w == 0.0 || (MIN_AMOUNT..=10_000.0).contains(w))
        .map(|w| w + 0.0)
        .ok_or_else(|| ValueError::not(Accepts::HostWatts, text))
}

/// Parses a share of requests typed by a user or a link (`attain`): a percentage from 50 to 100.
///
/// Errors: [`Accepts::Share`] with (a shortened copy of) the text.
pub fn parse_attain(text: &str) -> Result<f64, ValueError> {
    number(text)
        .filter(|p| (50.0..=100.0).contains(p))
        .ok_or_else(|| ValueError::not(Accepts::Share, text))
}

/// Parses a target or limit typed by a user (`"25"`, `" 12.5 "`): a finite positive number
/// from [`MIN_VALUE`] to [`MAX_VALUE`].
///
/// Errors: [`Accepts::Positive`], or [`Accepts::PositiveInRange`] for a number out of range.
pub fn parse_positive(text: &str) -> Result<f64, ValueError> {
    match number(text) {
        Some(v) if v.is_finite() && v > 0.0 => {
            if (MIN_VALUE..=MAX_VALUE).contains(&v) {
                Ok(v)
            } else {
                Err(ValueError::not(Accepts::PositiveInRange, text))
            }
        }
        _ => Err(ValueError::not(Accepts::Positive, text)),
    }
}

/// What a fleet input accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// Concurrent streams: more than 0, at most 1e9.
    Users,
    /// A request rate: more than 0, at most 1e9 req/s.
    Rate,
    /// A price or a carbon intensity: 0, or from [`MIN_AMOUNT`] to 1e6.
    Amount,
    /// Power usage effectiveness: from 1 (GPUs only) to 10.
    Pue,
    /// A share: from 0 to 1.
    Share,
}

/// The smallest price or carbon intensity above 0 accepted (`price`, `kwh_price`, ...): a
/// hundredth of a cent per GPU-hour or kWh; a smaller one would be planned on as $0.
pub const MIN_AMOUNT: f64 = 1e-4;

/// Parses a fleet input typed by a user (`users`, `rps`, `price`, `kwh_price`, `co2`, `pue`).
///
/// Errors: [`Accepts::Input`] of `kind`.
pub fn parse_input(kind: InputKind, text: &str) -> Result<f64, ValueError> {
    let value = number(text).filter(|v| v.is_finite());
    let ok = value.is_some_and(|v| match kind {
        // Users are streams: whole ones.
        InputKind::Users => (1.0..=1e9).contains(&v) && v.fract() == 0.0,
        InputKind::Rate => (0.001..=1e9).contains(&v),
        // Below a hundredth of a cent no price is meant, and its figures would round to $0.
        InputKind::Amount => v == 0.0 || (MIN_AMOUNT..=1e6).contains(&v),
        InputKind::Pue => (1.0..=10.0).contains(&v),
        InputKind::Share => (0.0..=1.0).contains(&v),
    });
    match value {
        // `-0` is 0 (a link writes it back as 0).
        Some(v) if ok => Ok(v + 0.0),
        _ => Err(ValueError::not(Accepts::Input(kind), text)),
    }
}

/// Parses a hosted API's price (`api`): `INPUT:OUTPUT` or `INPUT:OUTPUT:CACHED`, $ per million
/// tokens, each an amount as [`InputKind::Amount`] reads it.
///
/// Errors: [`Accepts::ApiPrice`] for any other count of parts or a part that is not an amount.
pub fn parse_api(text: &str) -> Result<ApiPrice, ValueError> {
    let refused = || ValueError::not(Accepts::ApiPrice, text);
    let amount = |part: &str| parse_input(InputKind::Amount, part).map_err(|_| refused());
    let parts: Vec<&str> = text.split(':').collect();
    match parts[..] {
        [input, output] => Ok(ApiPrice {
            input: amount(input)?,
            output: amount(output)?,
            cached_input: None,
        }),
        [input, output, cached] => Ok(ApiPrice {
            input: amount(input)?,
            output: amount(output)?,
            cached_input: Some(amount(cached)?),
        }),
        _ => Err(refused()),
    }
}

/// An API's price as a link writes it: `1.25:10`, `1.25:10:0.125`.
pub fn api_text(api: &ApiPrice) -> String {
    let mut parts = vec![url_number(api.input), url_number(api.output)];
    parts.extend(api.cached_input.map(url_number));
    parts.join(":")
}

/// Parses a tail limit `STAT:MS`, e.g. `p99:150`.
///
/// Errors: [`Accepts::LimitForm`] without a colon, [`Accepts::Statistic`] for an unknown
/// statistic, [`ValueError::Bound`] for a bound [`parse_positive`] refuses.
pub fn parse_limit(text: &str) -> Result<Limit, ValueError> {
    let (stat, ms) = text
        .split_once(':')
        .ok_or_else(|| ValueError::not(Accepts::LimitForm, text))?;
    let stat = Statistic::from_key(&stat.trim().to_ascii_lowercase())
        .ok_or_else(|| ValueError::not(Accepts::Statistic, stat.trim()))?;
    let max_ms = parse_positive(ms).map_err(|e| ValueError::Bound(Box::new(e)))?;
    Ok(Limit { stat, max_ms })
}

/// Parses a whole number of GPUs (`gpus`), at least 1.
///
/// Errors: [`Accepts::WholeGpus`].
pub fn parse_gpus(text: &str) -> Result<u32, ValueError> {
    match text.trim().parse::<u32>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(ValueError::not(Accepts::WholeGpus, text)),
    }
}

/// Reads `text` as the one `word` a parameter accepts (surrounding spaces ignored), e.g.
/// `cost` for `y`.
///
/// Errors: `accepts` with (a shortened copy of) the text.
pub fn parse_word(text: &str, word: &str, accepts: Accepts) -> Result<(), ValueError> {
    if text.trim() == word {
        Ok(())
    } else {
        Err(ValueError::not(accepts, text))
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_power_budget_has_its_unit() {
        assert_eq!(parse_power("1MW"), Ok(1e6));
        assert_eq!(parse_power(" 400 kW "), Ok(4e5));
        assert_eq!(parse_power("850W"), Ok(850.0));
        assert_eq!(parse_power("0.5MW"), Ok(5e5));
        assert_eq!(parse_power("1GW"), Ok(1e9));
        assert_eq!(parse_power("10 GW"), Ok(1e10));
        for bad in [
            "1", "1mw", "1gw", "0MW", "-1kW", "MW", "2e4MW", "11GW", "NaNW", "1e-320W", "0.5W",
        ] {
            assert_eq!(
                parse_power(bad).unwrap_err().to_string(),
                format!(
                    "must be a power from 1 W to 10 GW with its unit, W, kW, MW or GW (e.g. 1MW, 400kW), got \"{bad}\""
                ),
                "{bad}"
            );
        }
        for w in [1e6, 4e5, 850.0, 1.5e6, 1234.5, 1e9, 2.5e9] {
            assert_eq!(parse_power(&power_text(w)), Ok(w), "{w}");
        }
        assert_eq!(power_text(1e6), "1MW");
        assert_eq!(power_text(4e5), "400kW");
        assert_eq!(power_text(2e9), "2GW");
        assert_eq!(parse_host_w("150"), Ok(150.0));
        assert!(parse_host_w("-1").is_err() && parse_host_w("20000").is_err());
        assert!(parse_host_w("1e-320").is_err() && parse_host_w("0.00009").is_err());
        assert_eq!(parse_host_w("-0"), Ok(0.0));
        assert_eq!(parse_power("1W"), Ok(1.0));
        assert!(parse_power_basis("tdp").is_ok() && parse_power_basis("peak").is_err());
    }

    use super::*;
    use crate::core::model::limits::{MAX_PRICES, MAX_TEXT_CHARS};

    #[test]
    fn a_price_per_gpu_type_with_one_for_every_other_type() {
        let amount = |t: &str| parse_input(InputKind::Amount, t);
        let (every, by_type, errors) = parse_prices("2.5,b200:5.99,H100:2.49,x:abc,:3", amount);
        assert_eq!(every, Some(2.5));
        assert_eq!(by_type.for_gpu("B200", every), Some(5.99));
        assert_eq!(by_type.for_gpu("h100", every), Some(2.49));
        assert_eq!(by_type.for_gpu("A100", every), Some(2.5));
        assert_eq!(by_type.for_gpu("GPU not stated", every), Some(2.5));
        assert_eq!(errors.len(), 2);
        assert_eq!(prices_text(every, &by_type), "2.5,b200:5.99,H100:2.49");
        // A second colon is no GPU name; a repeated entry is named and the last one used.
        let (_, by_type, errors) = parse_prices("H100:1:2", amount);
        assert_eq!((by_type.0.len(), errors.len()), (0, 1));
        let (every, by_type, errors) = parse_prices("2,3,H100:2.49,h100:7", amount);
        assert_eq!(
            (every, by_type.for_gpu("H100", None)),
            (Some(3.0), Some(7.0))
        );
        assert_eq!(errors.len(), 2, "{errors:?}");
        // At most MAX_PRICES entries, each name cut to MAX_TEXT_CHARS characters.
        let many: Vec<String> = (0..100).map(|i| format!("g{i}:1")).collect();
        let (_, by_type, errors) = parse_prices(&many.join(","), amount);
        assert_eq!(by_type.0.len(), MAX_PRICES);
        assert_eq!(errors, [PriceError::TooMany { count: 100 }]);
        assert_eq!(
            errors[0].to_string(),
            "has 100 entries; the first 64 are used"
        );
        let long = format!("{}:1", "G".repeat(3000));
        let (_, by_type, _) = parse_prices(&long, amount);
        assert_eq!(by_type.0[0].0.chars().count(), MAX_TEXT_CHARS);
        // Without a bare number a type not named has no price, never another type's.
        let (every, by_type, _) = parse_prices("H100:2.49", amount);
        assert_eq!(every, None);
        assert_eq!(by_type.for_gpu("B200", every), None);
        assert_eq!(by_type.for_gpu("GPU not stated", every), None);
    }
}
