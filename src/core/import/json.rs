//! JSON values as the importers read them, from a text or from a stream of any size: lenient
//! ([`super::lenient`]), and folded as they are read, so that a file of per-request records
//! costs a few numbers per request, not its size:
//! - `itls` (each request's gaps between streamed chunks, s, as vLLM's `bench serve
//!   --save-detailed` and SGLang's `bench_serving` write them) becomes one number per request,
//!   the sum of its gaps, or `null` where an entry is not a latency (a number that is finite
//!   and not negative);
//! - `generated_texts` (each request's output text) is skipped.
//!
//! A stream is read as one JSON value or as several after one another (JSON lines), and may
//! keep at most [`MAX_STREAMED_KEPT_BYTES`] besides what is folded (each value counted at
//! [`VALUE_BYTES`] plus the bytes of its text or key), so that its memory is bounded whatever
//! its size.

use std::cell::Cell;
use std::io::{BufReader, Read};

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use super::errors::{RowError, RowErrorKind};
use super::lenient::Lenient;
use crate::core::format::bytes as bytes_text;

/// The most a streamed file may keep besides its folded per-request arrays, bytes (64 MiB).
pub const MAX_STREAMED_KEPT_BYTES: usize = 64 * 1024 * 1024;
/// What one value kept counts against [`MAX_STREAMED_KEPT_BYTES`], bytes (a `serde_json::Value`'s
/// size), besides its text.
const VALUE_BYTES: usize = 32;

/// The key whose value is folded to one sum per request.
const GAPS: &str = "itls";
/// The key whose value is skipped.
const TEXTS: &str = "generated_texts";

/// A JSON value read with the folding of the module, counting what it keeps against `left`
/// (bytes).
#[derive(Clone, Copy)]
struct Folding<'a> {
    left: &'a Cell<usize>,
}

impl Folding<'_> {
    /// One more value with `text` bytes of text, or an error once the budget is spent.
    fn take<E: serde::de::Error>(self, text: usize) -> Result<(), E> {
        match self
            .left
            .get()
            .checked_sub(VALUE_BYTES.saturating_add(text))
        {
            Some(left) => {
                self.left.set(left);
                Ok(())
            }
            None => Err(E::custom(OVER_BUDGET)),
        }
    }
}

/// The text of the error that ends a read over the budget.
const OVER_BUDGET: &str = "more values than the limit";

impl<'de> DeserializeSeed<'de> for Folding<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Folding<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<Value, E> {
        self.take(0)?;
        Ok(Value::Bool(v))
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Value, E> {
        self.take(0)?;
        Ok(Value::from(v))
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Value, E> {
        self.take(0)?;
        Ok(Value::from(v))
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Value, E> {
        self.take(0)?;
        Ok(Value::from(v))
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Value, E> {
        self.take(v.len())?;
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Value, E> {
        self.take(v.len())?;
        Ok(Value::String(v))
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Value, E> {
        self.take(0)?;
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        self.take(0)?;
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(self)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        self.take(0)?;
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            self.take(key.len())?;
            let value = match key.as_str() {
                GAPS => map.next_value_seed(Gaps { left: self.left })?,
                TEXTS => {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
                _ => map.next_value_seed(self)?,
            };
            out.insert(key, value);
        }
        Ok(Value::Object(out))
    }
}

/// An `itls` value folded: the array of requests becomes an array of sums, one per request
/// ([`GapSum`]); anything else in its place is read as `null`.
#[derive(Clone, Copy)]
struct Gaps<'a> {
    left: &'a Cell<usize>,
}

/// One request's gaps: their sum, or `null` when one is not a latency or they are not an array.
#[derive(Clone, Copy)]
struct GapSum;

/// One gap: its value where it is a number that is finite and not negative.
#[derive(Clone, Copy)]
struct Gap;

/// Serde's seed and visitor for a fold whose every value other than an array is `$other`
/// (arrays and objects inside it are skipped), and whose array is read by `$seq`.
macro_rules! fold {
    ($name:ty, $value:ty, $other:expr, |$self_:ident, $access:ident| $seq:block) => {
        impl<'de> DeserializeSeed<'de> for $name {
            type Value = $value;

            fn deserialize<D: Deserializer<'de>>(
                self,
                deserializer: D,
            ) -> Result<$value, D::Error> {
                deserializer.deserialize_any(self)
            }
        }

        impl<'de> Visitor<'de> for $name {
            type Value = $value;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("per-request gaps")
            }

            fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<$value, E> {
                Ok($other)
            }

            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<$value, E> {
                self.visit_f64(v as f64)
            }

            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<$value, E> {
                self.visit_f64(v as f64)
            }

            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<$value, E> {
                Ok(self.number(v))
            }

            fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<$value, E> {
                Ok($other)
            }

            fn visit_unit<E: serde::de::Error>(self) -> Result<$value, E> {
                Ok($other)
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<$value, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok($other)
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut $access: A) -> Result<$value, A::Error> {
                let $self_ = self;
                $seq
            }
        }
    };
}

impl Gaps<'_> {
    fn number(self, _: f64) -> Value {
        Value::Null
    }
}

impl GapSum {
    fn number(self, _: f64) -> Value {
        Value::Null
    }
}

impl Gap {
    fn number(self, v: f64) -> Option<f64> {
        Some(v).filter(|v| v.is_finite() && *v >= 0.0)
    }
}

fold!(Gaps<'_>, Value, Value::Null, |gaps, seq| {
    let mut sums = Vec::new();
    while let Some(sum) = seq.next_element_seed(GapSum)? {
        Folding { left: gaps.left }.take(0)?;
        sums.push(sum);
    }
    Ok(Value::Array(sums))
});

fold!(GapSum, Value, Value::Null, |_sum, seq| {
    let mut sum = Some(0.0);
    while let Some(gap) = seq.next_element_seed(Gap)? {
        sum = sum.zip(gap).map(|(a, b)| a + b);
    }
    Ok(sum.map_or(Value::Null, Value::from))
});

fold!(Gap, Option<f64>, None, |_gap, seq| {
    while seq.next_element::<IgnoredAny>()?.is_some() {}
    Ok(None)
});

/// A whole JSON text, lenient and folded (see the module); no budget (a text's size is limited
/// before it is read).
///
/// Errors: serde_json's, where the text is not one JSON value.
pub(crate) fn from_text(text: &str) -> Result<Value, serde_json::Error> {
    let left = Cell::new(usize::MAX);
    let mut de = serde_json::Deserializer::from_str(text);
    let value = Folding { left: &left }.deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

/// What a stream held.
pub(crate) struct Streamed {
    /// Its JSON values in order (one for a JSON file, one per line for JSON lines), folded.
    pub values: Vec<Value>,
    /// Why the read stopped before the end, if it did (the values before it are kept).
    pub error: Option<RowError>,
}

/// Reads a stream of lenient JSON values, folded (see the module), until its end or the first
/// error.
pub(crate) fn from_stream<R: Read>(reader: R) -> Streamed {
    let left = Cell::new(MAX_STREAMED_KEPT_BYTES);
    let folding = Folding { left: &left };
    let mut de = serde_json::Deserializer::from_reader(BufReader::with_capacity(
        64 * 1024,
        Lenient::new(reader),
    ));
    let mut values = Vec::new();
    let error = loop {
        if de.end().is_ok() {
            break None;
        }
        match folding.deserialize(&mut de) {
            Ok(value) => values.push(value),
            Err(e) if e.to_string().starts_with(OVER_BUDGET) => {
                break Some(RowError::with_value(
                    RowErrorKind::TooManyValues,
                    bytes_text(MAX_STREAMED_KEPT_BYTES),
                ))
            }
            Err(e) => {
                break Some(RowError::stated(
                    RowErrorKind::NotJson,
                    None,
                    Some(&e.to_string()),
                ))
            }
        }
    };
    Streamed { values, error }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn gaps_fold_to_one_sum_per_request_and_texts_are_skipped() {
        let text = r#"{"itls": [[0.5, 0.25], [], [0.1, -1], [0.1, "x"], 7, [[1]]],
                       "generated_texts": ["a", "b"], "ttfts": [1, 2], "n": NaN}"#;
        let want = json!({"itls": [0.75, 0.0, null, null, null, null], "ttfts": [1, 2], "n": null});
        assert_eq!(
            from_text(&super::super::lenient::lenient_text(text)).unwrap(),
            want
        );
        let streamed = from_stream(text.as_bytes());
        assert!(streamed.error.is_none());
        assert_eq!(streamed.values, vec![want]);
        assert_eq!(
            from_text(r#"{"itls": {"a": [1]}}"#).unwrap(),
            json!({"itls": null})
        );
    }

    #[test]
    fn a_stream_reads_json_lines_and_stops_at_the_first_error() {
        let streamed = from_stream("{\"a\":1}\n\n{\"a\":2}\n{\"a\":\n".as_bytes());
        assert_eq!(streamed.values, vec![json!({"a": 1}), json!({"a": 2})]);
        assert_eq!(streamed.error.unwrap().kind, RowErrorKind::NotJson);
        assert!(from_stream(" \n".as_bytes()).values.is_empty());
    }

    #[test]
    fn a_stream_over_the_value_budget_stops() {
        let many = format!("[{}0]", "0,".repeat(MAX_STREAMED_KEPT_BYTES / VALUE_BYTES));
        let streamed = from_stream(many.as_bytes());
        assert_eq!(streamed.error.unwrap().kind, RowErrorKind::TooManyValues);
        let long = format!("[\"{}\"]", "x".repeat(MAX_STREAMED_KEPT_BYTES));
        let error = from_stream(long.as_bytes()).error.unwrap();
        assert_eq!(
            error.to_string(),
            "read only in part: a file this large is read as a stream, and it keeps more than 64.0 MB besides its per-request arrays (vLLM's and SGLang's `itls` and `generated_texts`)"
        );
        let folded = format!("{{\"itls\": [{}[0]]}}", "[0.1,0.2],".repeat(10));
        assert!(from_stream(folded.as_bytes()).error.is_none());
    }
}
