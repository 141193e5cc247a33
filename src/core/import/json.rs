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
use std::convert::Infallible;
use std::io::{self, BufRead, BufReader, Read};

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use super::bounded::PAST_LIMIT;
use super::errors::RowError;
use super::json_quick::{self, Unsure};
use super::lenient::{string_at, Lenient, STRING_TOO_LONG};
use crate::core::model::limits::{MAX_STREAMED_BYTES, MAX_STREAMED_KEPT_BYTES, MAX_STRING_BYTES};

/// What one value kept counts against [`MAX_STREAMED_KEPT_BYTES`], bytes (a `serde_json::Value`'s
/// size), besides its text.
pub(super) const VALUE_BYTES: usize = 32;

/// The key whose value is folded to one sum per request.
pub(super) const GAPS: &str = "itls";
/// The key whose value is skipped.
pub(super) const TEXTS: &str = "generated_texts";

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
    /// Its JSON values in order, folded, each with its line (1 for a JSON file; JSON lines have
    /// one a line).
    pub values: Vec<(usize, Value)>,
    /// What could not be read, with its line where it is one line of JSON lines (that line is
    /// left out and the next ones are read); without a line, the read stopped there.
    pub problems: Vec<(Option<usize>, RowError)>,
}

/// A stream that could not be read from its start: its problem, as a failing read is named.
pub(crate) fn unread(e: io::Error) -> Streamed {
    Streamed {
        values: Vec::new(),
        problems: vec![(None, problem(&serde_json::Error::io(e)).0)],
    }
}

/// A serde_json error as a problem, and whether the read must stop (over the budget, a string
/// too long, the reader failing) or can go on at the next line (a line that is not JSON).
fn problem(e: &serde_json::Error) -> (RowError, bool) {
    let text = e.to_string();
    if text.contains(PAST_LIMIT) {
        return (
            RowError::PastLimit {
                limit: MAX_STREAMED_BYTES,
            },
            true,
        );
    }
    if text.starts_with(OVER_BUDGET) || text.contains(STRING_TOO_LONG) {
        let text_at = string_at(&text);
        let limit = match text_at {
            Some(_) => MAX_STRING_BYTES,
            None => MAX_STREAMED_KEPT_BYTES,
        };
        return (RowError::TooManyValues { limit, text_at }, true);
    }
    let error = RowError::NotJson { reason: text };
    (error, e.is_io())
}

/// The bytes of one line of `input` (up to, not including, its `\n`): a reader that ends there.
struct Line<'a, R> {
    input: &'a mut R,
}

impl<R: BufRead> Read for Line<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let available = self.input.fill_buf()?;
        let end = memchr::memchr(b'\n', available).unwrap_or(available.len());
        let n = end.min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        self.input.consume(n);
        Ok(n)
    }
}

/// Consumes white space, counting the line ends; false at the end of `input`.
fn skip_blank(input: &mut impl BufRead, lines: &mut usize) -> io::Result<bool> {
    loop {
        let available = input.fill_buf()?;
        if available.is_empty() {
            return Ok(false);
        }
        let blank = available
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(available.len());
        *lines += available[..blank].iter().filter(|b| **b == b'\n').count();
        let more = blank < available.len();
        input.consume(blank);
        if more {
            return Ok(true);
        }
    }
}

/// Consumes the rest of the line, its `\n` included; true when it held only white space.
fn end_of_line(input: &mut impl BufRead) -> io::Result<bool> {
    let mut blank = true;
    loop {
        let available = input.fill_buf()?;
        if available.is_empty() {
            return Ok(blank);
        }
        let end = memchr::memchr(b'\n', available);
        let upto = end.map_or(available.len(), |i| i + 1);
        blank &= available[..upto].iter().all(u8::is_ascii_whitespace);
        input.consume(upto);
        if end.is_some() {
            return Ok(blank);
        }
    }
}

/// Reads a stream of lenient JSON, folded (see the module): one JSON value, or JSON lines, one
/// value a line, where a line that is not JSON is named and left out and the next ones are read
/// (as for a text). A stream that does not start with a JSON value, or that keeps more than the
/// budget, stops there, with what came before kept.
pub(crate) fn from_stream<R: Read>(reader: R) -> Streamed {
    let Ok(streamed) = stream::<_, Infallible>(reader, |input, left| {
        Ok(Folding { left }.deserialize(&mut serde_json::Deserializer::from_reader(input)))
    });
    streamed
}

/// [`from_stream`] with its first value (a JSON file's only one) read by [`json_quick`], many
/// times faster: the same values and problems, or [`Unsure`] where that reader cannot be sure
/// of them, and the stream is to be read again from its start with [`from_stream`].
pub(crate) fn from_stream_quick<R: Read>(reader: R) -> Result<Streamed, Unsure> {
    stream(reader, |input, left| {
        json_quick::first_value(input, left).map(Ok)
    })
}

/// The input a stream's values are read from.
type Input<R> = BufReader<Lenient<R>>;

/// [`from_stream`], its first value read by `first` (given the input just before it and the
/// budget left): the value or serde_json's error, or `U` to stop without a result.
fn stream<R: Read, U>(
    reader: R,
    first: impl FnOnce(&mut Input<R>, &Cell<usize>) -> Result<Result<Value, serde_json::Error>, U>,
) -> Result<Streamed, U> {
    let left = Cell::new(MAX_STREAMED_KEPT_BYTES);
    let folding = Folding { left: &left };
    let mut input = BufReader::with_capacity(64 * 1024, Lenient::new(reader));
    let mut out = Streamed {
        values: Vec::new(),
        problems: Vec::new(),
    };
    let mut line = 1;
    let stop = |out: &mut Streamed, e: io::Error| {
        let e = serde_json::Error::io(e);
        out.problems.push((None, problem(&e).0));
    };
    match skip_blank(&mut input, &mut line) {
        Ok(true) => {}
        Ok(false) => return Ok(out),
        Err(e) => {
            stop(&mut out, e);
            return Ok(out);
        }
    }
    // The first value, over as many lines as it takes (a JSON file, or JSON lines' first).
    match first(&mut input, &left)? {
        Ok(value) => out.values.push((line, value)),
        Err(e) => {
            out.problems.push((None, problem(&e).0));
            return Ok(out);
        }
    }
    // Whatever follows it: JSON lines. A line that was read must hold nothing after its value.
    let mut read = true;
    loop {
        match end_of_line(&mut input) {
            Ok(blank) if blank || !read => {}
            Ok(_) => out.problems.push((
                Some(line),
                RowError::NotJson {
                    reason: "more after its value".into(),
                },
            )),
            Err(e) => {
                stop(&mut out, e);
                return Ok(out);
            }
        }
        line += 1;
        match skip_blank(&mut input, &mut line) {
            Ok(true) => {}
            Ok(false) => return Ok(out),
            Err(e) => {
                stop(&mut out, e);
                return Ok(out);
            }
        }
        let one = BufReader::with_capacity(64 * 1024, Line { input: &mut input });
        let mut de = serde_json::Deserializer::from_reader(one);
        match folding
            .deserialize(&mut de)
            .and_then(|v| de.end().map(|()| v))
        {
            Ok(value) => {
                out.values.push((line, value));
                read = true;
            }
            Err(e) => {
                let (mut error, fatal) = problem(&e);
                // Its position within the line, which the problem names.
                if let RowError::NotJson { reason } = &mut error {
                    if let Some(at) = reason.rfind(" at line ") {
                        reason.replace_range(at.., &format!(" at column {}", e.column()));
                    }
                }
                out.problems.push(((!fatal).then_some(line), error));
                if fatal {
                    return Ok(out);
                }
                read = false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::import::RowErrorKind;
    use serde_json::json;

    /// The kinds of a stream's problems, with their lines.
    fn kinds(streamed: &Streamed) -> Vec<(Option<usize>, RowErrorKind)> {
        streamed
            .problems
            .iter()
            .map(|(l, e)| (*l, e.kind()))
            .collect()
    }

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
        assert!(streamed.problems.is_empty());
        assert_eq!(streamed.values, vec![(1, want)]);
        assert_eq!(
            from_text(r#"{"itls": {"a": [1]}}"#).unwrap(),
            json!({"itls": null})
        );
    }

    #[test]
    fn json_lines_are_read_line_by_line_and_a_bad_line_is_left_out() {
        // Line 4 is cut short (it would swallow line 5 as a list's item if read across lines),
        // line 6 has more after its value.
        let text = "\n{\"a\":1}\n\n{\"a\":2}  \n{\"a\":[1,\n{\"a\":3}\n{\"a\":4} x\n{\"a\":5}";
        let streamed = from_stream(text.as_bytes());
        assert_eq!(
            streamed.values,
            vec![
                (2, json!({"a": 1})),
                (4, json!({"a": 2})),
                (6, json!({"a": 3})),
                (8, json!({"a": 5}))
            ]
        );
        assert_eq!(
            kinds(&streamed),
            vec![
                (Some(5), RowErrorKind::NotJson),
                (Some(7), RowErrorKind::NotJson)
            ]
        );
        assert_eq!(
            streamed.problems[0].1.to_string(),
            "not valid JSON: EOF while parsing a value at column 8"
        );
        // A pretty-printed object is one value over many lines.
        let pretty = from_stream("{\n  \"a\": [\n    1\n  ]\n}\n".as_bytes());
        assert_eq!(pretty.values, vec![(1, json!({"a": [1]}))]);
        assert!(from_stream(" \n".as_bytes()).values.is_empty());
        let not_json = from_stream("{\"a\" 1}\n{\"a\":2}".as_bytes());
        assert!(not_json.values.is_empty());
        assert_eq!(kinds(&not_json), vec![(None, RowErrorKind::NotJson)]);
    }

    #[test]
    fn a_stream_over_the_budget_stops_and_a_huge_string_is_never_held() {
        let many = format!("[{}0]", "0,".repeat(MAX_STREAMED_KEPT_BYTES / VALUE_BYTES));
        let streamed = from_stream(many.as_bytes());
        assert_eq!(kinds(&streamed), vec![(None, RowErrorKind::TooManyValues)]);
        let long = format!("[\"{}\"]", "x".repeat(MAX_STREAMED_KEPT_BYTES));
        let streamed = from_stream(long.as_bytes());
        assert_eq!(
            streamed.problems[0].1.to_string(),
            "read only in part: a file this large is read as a stream, and it keeps more than 64.0 MB besides its per-request arrays (vLLM's and SGLang's `itls` and `generated_texts`)"
        );
        // Longer than a string may be: ended by the reader, as a key too.
        let key = format!("{{\"{}\": 1}}", "k".repeat(MAX_STREAMED_KEPT_BYTES + 1));
        assert_eq!(
            kinds(&from_stream(key.as_bytes())),
            vec![(None, RowErrorKind::TooManyValues)]
        );
        // One generated text over the limit: the message names it by where it starts.
        let text = format!(
            "\u{feff}{{\"generated_texts\": [\"{}\"]}}",
            "x".repeat(MAX_STRING_BYTES + (1 << 20))
        );
        assert_eq!(
            from_stream(text.as_bytes()).problems[0].1.to_string(),
            "read only in part: the text starting at byte 24 is longer than 64.0 MB, the longest text read (a request's generated text, a model id), so the file is read up to it"
        );
        let folded = format!("{{\"itls\": [{}[0]]}}", "[0.1,0.2],".repeat(10));
        assert!(from_stream(folded.as_bytes()).problems.is_empty());
    }
}
