//! The fold of [`super::json`] read quickly: the first JSON value of a stream read by a reader of
//! its own, a buffer's slice at a time, where serde_json's reader of streams takes a call per
//! byte (a vLLM `--save-detailed` file holds a million numbers in its `itls` per 1,000 requests).
//! It gives exactly the value serde_json's fold gives, or says it is [`Unsure`]: at anything that
//! is not plain, valid JSON within the fold's budget (a syntax error, a number out of range, a
//! string that is not UTF-8, nesting deeper than [`MAX_DEPTH`], a failing read). The stream is
//! then read again from its start by serde_json, so an error is said as it always was.
//!
//! Where serde_json's fold parses a value, this parses it with the same checks (a kept or
//! judged string's escapes, surrogates and UTF-8; a number's range); where it skips one
//! (`serde::de::IgnoredAny`: `generated_texts`, the items of a gap that is a list, an object's
//! values in a fold), this checks its syntax as serde_json does, and no more.

use std::cell::Cell;
use std::io::BufRead;

use serde_json::{Map, Value};

use super::json::{GAPS, TEXTS, VALUE_BYTES};
use number::{grammar, in_number, number, Number};

mod gaps;
mod number;

/// The quick reader could not be sure of the value: read the stream again with serde_json.
#[derive(Debug, PartialEq)]
pub(crate) struct Unsure;

/// Nesting of lists and objects beyond this is left to serde_json (its limit is 128).
const MAX_DEPTH: usize = 100;

/// A number's text longer than this is left to serde_json, bytes.
const MAX_NUMBER_BYTES: usize = 1024;

/// The nesting inside a list or object opened at `depth`; unsure past [`MAX_DEPTH`].
fn enter(depth: usize) -> Result<usize, Unsure> {
    (depth < MAX_DEPTH).then_some(depth + 1).ok_or(Unsure)
}

/// The first JSON value of `input` (after white space), folded as [`super::json`] folds it,
/// counting what it keeps against `left` as that fold does; `input` is left just after it.
///
/// Errors: [`Unsure`] (see the module).
pub(crate) fn first_value<R: BufRead>(input: &mut R, left: &Cell<usize>) -> Result<Value, Unsure> {
    let mut quick = Quick {
        input,
        left,
        scratch: Vec::new(),
    };
    // A stream starts with a list or an object (`import::streams`); after a number at the
    // top, serde_json would have read one byte more.
    if !matches!(quick.peek()?, b'{' | b'[') {
        return Err(Unsure);
    }
    quick.value(0)
}

/// The reader: its input, the fold's budget left, and room for a token cut by the buffer's end.
struct Quick<'a, R> {
    input: &'a mut R,
    left: &'a Cell<usize>,
    scratch: Vec<u8>,
}

impl<R: BufRead> Quick<'_, R> {
    /// One more value kept, with `text` bytes of text ([`super::json`]'s `Folding::take`).
    fn take(&self, text: usize) -> Result<(), Unsure> {
        let left = self
            .left
            .get()
            .checked_sub(VALUE_BYTES.saturating_add(text))
            .ok_or(Unsure)?;
        self.left.set(left);
        Ok(())
    }

    fn buffer(&mut self) -> Result<&[u8], Unsure> {
        self.input.fill_buf().map_err(|_| Unsure)
    }

    /// The next byte after white space, not consumed.
    fn peek(&mut self) -> Result<u8, Unsure> {
        loop {
            let buf = self.buffer()?;
            if buf.is_empty() {
                return Err(Unsure);
            }
            match buf
                .iter()
                .position(|b| !matches!(b, b' ' | b'\n' | b'\t' | b'\r'))
            {
                Some(at) => {
                    let b = buf[at];
                    self.input.consume(at);
                    return Ok(b);
                }
                None => {
                    let n = buf.len();
                    self.input.consume(n);
                }
            }
        }
    }

    /// The next byte, consumed (white space included).
    fn next(&mut self) -> Result<u8, Unsure> {
        let b = *self.buffer()?.first().ok_or(Unsure)?;
        self.input.consume(1);
        Ok(b)
    }

    /// Consumes `word` (`true`, `false`, `null`), which must come next.
    fn word(&mut self, word: &[u8]) -> Result<(), Unsure> {
        for &b in word {
            if self.next()? != b {
                return Err(Unsure);
            }
        }
        Ok(())
    }

    /// After a list's item or an object's entry: true at a `,`, false at the end (`close`).
    fn more(&mut self, close: u8) -> Result<bool, Unsure> {
        let b = self.peek()?;
        self.input.consume(1);
        match b {
            b',' => Ok(true),
            _ if b == close => Ok(false),
            _ => Err(Unsure),
        }
    }

    /// True for an empty list or object (`close` next, consumed), after its opening byte.
    fn empty(&mut self, close: u8) -> Result<bool, Unsure> {
        let closed = self.peek()? == close;
        if closed {
            self.input.consume(1);
        }
        Ok(closed)
    }

    /// The items of a list or the entries of an object, after its opening byte: each read by
    /// `item`, up to `close` (consumed).
    fn items(
        &mut self,
        close: u8,
        mut item: impl FnMut(&mut Self) -> Result<(), Unsure>,
    ) -> Result<(), Unsure> {
        if self.empty(close)? {
            return Ok(());
        }
        loop {
            item(self)?;
            if !self.more(close)? {
                return Ok(());
            }
        }
    }

    /// Consumes `byte`, which must come next.
    fn expect(&mut self, byte: u8) -> Result<(), Unsure> {
        if self.peek()? != byte {
            return Err(Unsure);
        }
        self.input.consume(1);
        Ok(())
    }

    /// The number that comes next.
    fn number(&mut self) -> Result<Number, Unsure> {
        self.number_as(number)
    }

    /// The number that comes next, its text read whole and then by `read`.
    fn number_as<T>(&mut self, read: fn(&[u8]) -> Option<T>) -> Result<T, Unsure> {
        let buf = self.buffer()?;
        let run = buf.iter().position(|b| !in_number(*b));
        if let Some(run) = run {
            let n = read(&buf[..run]).ok_or(Unsure)?;
            self.input.consume(run);
            return Ok(n);
        }
        // Cut by the buffer's end: gathered.
        self.scratch.clear();
        loop {
            let buf = self.input.fill_buf().map_err(|_| Unsure)?;
            if buf.is_empty() {
                break;
            }
            let run = buf.iter().position(|b| !in_number(*b));
            let n = run.unwrap_or(buf.len());
            if self.scratch.len() + n > MAX_NUMBER_BYTES {
                return Err(Unsure);
            }
            self.scratch.extend_from_slice(&buf[..n]);
            self.input.consume(n);
            if run.is_some() {
                break;
            }
        }
        read(&self.scratch).ok_or(Unsure)
    }

    /// The four hex digits of a `\u` escape.
    fn hex(&mut self) -> Result<u16, Unsure> {
        let mut n = 0u16;
        for _ in 0..4 {
            let d = char::from(self.next()?).to_digit(16).ok_or(Unsure)?;
            n = n * 16 + d as u16;
        }
        Ok(n)
    }

    /// A string's text after its opening quote, to its closing one (consumed): decoded into
    /// `out` (a string kept or judged), or only checked (`None`: skipped, as serde_json's
    /// `ignore_str` checks it).
    fn string(&mut self, mut out: Option<&mut Vec<u8>>) -> Result<(), Unsure> {
        loop {
            let buf = self.buffer()?;
            if buf.is_empty() {
                return Err(Unsure);
            }
            let stop = memchr::memchr2(b'"', b'\\', buf);
            let run = &buf[..stop.unwrap_or(buf.len())];
            if run.iter().fold(false, |control, b| control | (*b < 0x20)) {
                return Err(Unsure);
            }
            if let Some(out) = out.as_deref_mut() {
                out.extend_from_slice(run);
            }
            let Some(at) = stop else {
                let n = buf.len();
                self.input.consume(n);
                continue;
            };
            let quote = buf[at] == b'"';
            self.input.consume(at + 1);
            if quote {
                return Ok(());
            }
            self.escape(out.as_deref_mut())?;
        }
    }

    /// An escape after its backslash: decoded into `out`, or checked (`None`).
    fn escape(&mut self, out: Option<&mut Vec<u8>>) -> Result<(), Unsure> {
        let byte = match self.next()? {
            b'"' => b'"',
            b'\\' => b'\\',
            b'/' => b'/',
            b'b' => 0x08,
            b'f' => 0x0c,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'u' => {
                let n = self.hex()?;
                let Some(out) = out else {
                    return Ok(());
                };
                let code = match n {
                    0xD800..=0xDBFF => {
                        self.word(b"\\u")?;
                        let low = self.hex()?;
                        if !(0xDC00..=0xDFFF).contains(&low) {
                            return Err(Unsure);
                        }
                        0x1_0000 + ((u32::from(n) - 0xD800) << 10) + (u32::from(low) - 0xDC00)
                    }
                    0xDC00..=0xDFFF => return Err(Unsure),
                    _ => u32::from(n),
                };
                let c = char::from_u32(code).ok_or(Unsure)?;
                out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                return Ok(());
            }
            _ => return Err(Unsure),
        };
        if let Some(out) = out {
            out.push(byte);
        }
        Ok(())
    }

    /// A string's text after its opening quote, decoded, checked as UTF-8.
    fn text(&mut self) -> Result<String, Unsure> {
        let mut bytes = Vec::new();
        self.string(Some(&mut bytes))?;
        String::from_utf8(bytes).map_err(|_| Unsure)
    }

    /// A value kept by the fold (serde_json's `Folding`), at `depth` lists and objects deep.
    fn value(&mut self, depth: usize) -> Result<Value, Unsure> {
        let b = self.peek()?;
        let value = match b {
            b'{' => {
                self.input.consume(1);
                self.take(0)?;
                return self.object(enter(depth)?);
            }
            b'[' => {
                self.input.consume(1);
                self.take(0)?;
                let depth = enter(depth)?;
                let mut items = Vec::new();
                self.items(b']', |q| {
                    items.push(q.value(depth)?);
                    Ok(())
                })?;
                return Ok(Value::Array(items));
            }
            b'"' => {
                self.input.consume(1);
                let text = self.text()?;
                self.take(text.len())?;
                return Ok(Value::String(text));
            }
            b'-' | b'0'..=b'9' => self.number()?.value(),
            b't' => self.word(b"true").map(|()| Value::Bool(true))?,
            b'f' => self.word(b"false").map(|()| Value::Bool(false))?,
            b'n' => self.word(b"null").map(|()| Value::Null)?,
            _ => return Err(Unsure),
        };
        self.take(0)?;
        Ok(value)
    }

    /// An object's entries after its `{` (`depth` counts it), kept by the fold: `itls` folded
    /// ([`Quick::gaps`]), `generated_texts` skipped.
    fn object(&mut self, depth: usize) -> Result<Value, Unsure> {
        let mut out = Map::new();
        self.items(b'}', |q| {
            let key = q.key()?;
            q.take(key.len())?;
            match key.as_str() {
                GAPS => {
                    let gaps = q.gaps(depth)?;
                    out.insert(key, gaps);
                }
                TEXTS => q.skip(depth)?,
                _ => {
                    let value = q.value(depth)?;
                    out.insert(key, value);
                }
            }
            Ok(())
        })?;
        Ok(Value::Object(out))
    }

    /// An object's key and its `:`.
    fn key(&mut self) -> Result<String, Unsure> {
        self.expect(b'"')?;
        let key = self.text()?;
        self.expect(b':')?;
        Ok(key)
    }

    /// A value serde_json skips (`IgnoredAny`): its syntax checked, nothing kept.
    fn skip(&mut self, depth: usize) -> Result<(), Unsure> {
        match self.peek()? {
            b'{' => {
                self.input.consume(1);
                let depth = enter(depth)?;
                self.items(b'}', |q| {
                    q.expect(b'"')?;
                    q.string(None)?;
                    q.expect(b':')?;
                    q.skip(depth)
                })
            }
            b'[' => {
                self.input.consume(1);
                let depth = enter(depth)?;
                self.items(b']', |q| q.skip(depth))
            }
            b'"' => {
                self.input.consume(1);
                self.string(None)
            }
            b'-' | b'0'..=b'9' => self.number_syntax(),
            b't' => self.word(b"true"),
            b'f' => self.word(b"false"),
            b'n' => self.word(b"null"),
            _ => Err(Unsure),
        }
    }

    /// A number skipped: its syntax checked, not its range (serde_json's `ignore_integer`).
    fn number_syntax(&mut self) -> Result<(), Unsure> {
        self.number_as(grammar).map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::super::json::{from_stream, from_stream_quick, Streamed, VALUE_BYTES};
    use super::number::plain_number;
    use super::*;
    use crate::core::import::lenient::tests::Drip;
    use crate::core::model::limits::MAX_STREAMED_KEPT_BYTES;
    use proptest::prelude::*;
    use serde_json::json;

    /// A stream's values and problems, comparable.
    fn said(streamed: &Streamed) -> (Vec<(usize, Value)>, Vec<String>) {
        let problems = streamed
            .problems
            .iter()
            .map(|(line, e)| format!("{line:?} {e}"))
            .collect();
        (streamed.values.clone(), problems)
    }

    /// Reads `bytes` quickly in reads of several sizes: where sure, what serde_json reads;
    /// sure or not whatever the sizes. Returns whether it was sure.
    fn same(bytes: &[u8]) -> bool {
        same_in(bytes, &[1, 2, 3, 7, 4096, usize::MAX])
    }

    /// [`same`] in reads of `sizes` bytes.
    fn same_in(bytes: &[u8], sizes: &[usize]) -> bool {
        let exact = said(&from_stream(bytes));
        let mut sure = None;
        for &size in sizes {
            let quick = from_stream_quick(Drip(bytes, size));
            if let Ok(quick) = &quick {
                assert_eq!(said(quick), exact, "in reads of {size}");
            }
            assert_eq!(*sure.get_or_insert(quick.is_ok()), quick.is_ok(), "{size}");
        }
        sure == Some(true)
    }

    #[test]
    fn a_per_request_file_is_read_as_serde_json_reads_it() {
        let text = r#"{"backend": "vllm", "model_id": "org/m\u00e9 \ud83d\ude00", "max_concurrency": 8,
            "duration": 12.5, "n": -3, "big": 18446744073709551616, "neg0": -0, "tiny": 5e-324,
            "e": 1E+2, "low": -9223372036854775809, "output_lens": [3, 0, 2],
            "itls": [[0.5, 0.25], [], [0.1, -1], [0.1, "x"], 7, [[1]], null, {"a": [1]},
                     [1e308, 1e308], [2, 0.5e1]],
            "generated_texts": ["a\n\"b\"\u0000", "\ud83d\ude00", "", {"x": [1, 2e999]}],
            "errors": ["", "Traceback (most recent call last):\nError\t\/", ""],
            "nested": {"itls": [[1, 2]], "generated_texts": 5, "k": [true, false, null, {}, []]}}"#;
        assert!(same(text.as_bytes()));
        let value = &from_stream_quick(text.as_bytes()).unwrap().values[0].1;
        assert_eq!(
            value["itls"],
            json!([0.75, 0.0, null, null, null, null, null, null, null, 7.0])
        );
        assert_eq!(value["model_id"], json!("org/mé 😀"));
        assert_eq!(
            value["nested"],
            json!({"itls": [3.0], "k": [true, false, null, {}, []]})
        );
        assert_eq!(value.get("generated_texts"), None);
        assert_eq!(value["low"], json!(-9223372036854775809.0));
        assert_eq!(
            value["neg0"].as_f64().map(f64::is_sign_negative),
            Some(true)
        );
        // Python's tokens, JSON lines after the first value, a text that is not UTF-8 skipped.
        assert!(same(
            b"{\"a\": NaN, \"b\": [-Infinity]}\n{\"a\":2} x\n{\"a\":3"
        ));
        assert!(same(
            b"{\"generated_texts\": [\"\xff\xfe\"], \"itls\": [[1]]}"
        ));
        assert!(same(b"[1] [2]\n[3]"));
    }

    #[test]
    fn anything_not_plain_valid_json_is_left_to_serde_json() {
        let unsure: [&[u8]; 15] = [
            b"{\"itls\": [[0.1,",
            b"{\"a\": 1e400}",
            b"{\"itls\": [[1e400]]}",
            b"{\"a\": [1,]}",
            b"{\"a\": 1,}",
            b"{\"a\": 01}",
            b"{\"a\": 1.}",
            b"{\"a\": -}",
            b"{\"a\": \"x\x01\"}",
            b"{\"a\": \"\xff\"}",
            b"{\"a\": \"\\q\"}",
            b"{\"a\": tru}",
            b"{\"a\" 1}",
            b"{1: 1}",
            b"7",
        ];
        for bytes in unsure {
            assert!(!same(bytes), "{}", String::from_utf8_lossy(bytes));
        }
        // Deeper than the quick reader goes: serde_json reads it, or says it is too deep.
        for depth in [MAX_DEPTH + 1, 130] {
            let deep = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
            assert!(!same(deep.as_bytes()));
        }
        let deep = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(same(deep.as_bytes()));
        // Over the budget of what a stream keeps: the same values counted.
        let many = format!("[{}0]", "0,".repeat(MAX_STREAMED_KEPT_BYTES / VALUE_BYTES));
        assert!(from_stream_quick(many.as_bytes()).is_err());
        let fit = format!(
            "[{}0]",
            "0,".repeat(MAX_STREAMED_KEPT_BYTES / VALUE_BYTES - 2)
        );
        assert_eq!(
            from_stream_quick(fit.as_bytes()).map(|s| s.values.len()),
            Ok(1)
        );
    }

    /// A JSON value of up to `depth` levels, its keys often the folded ones.
    fn values(depth: u32) -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            (0.0..1.0f64).prop_map(Value::from),
            ".{0,12}".prop_map(Value::from),
        ];
        leaf.prop_recursive(depth, 64, 8, |inner| {
            let key = prop_oneof![Just(GAPS.to_string()), Just(TEXTS.to_string()), ".{0,6}",];
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
                proptest::collection::vec((key, inner), 0..6)
                    .prop_map(|entries| Value::Object(entries.into_iter().collect())),
            ]
        })
    }

    /// serde_json's reading of the number `text`: its value and, for a float, its bits.
    fn serde_number(text: &str) -> Option<(Value, Option<u64>)> {
        let value: Value = serde_json::from_str(text).ok()?;
        let bits = value.as_f64().filter(|_| value.is_f64()).map(f64::to_bits);
        Some((value, bits))
    }

    /// The quick reading of the number `text` followed by `,`, as [`serde_number`].
    fn quick_number(text: &str) -> Option<(Value, Option<u64>)> {
        let (len, n) = plain_number(format!("{text},").as_bytes())?;
        assert_eq!(len, text.len(), "{text}");
        let value = n.value();
        let bits = match n {
            Number::Float(f) => Some(f.to_bits()),
            _ => None,
        };
        Some((value, bits))
    }

    #[test]
    fn numbers_are_read_to_the_bit_as_serde_json_reads_them() {
        for text in [
            "0",
            "-0",
            "0.0",
            "-0.0",
            "1",
            "-1",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "0.1",
            "0.022398100571717542",
            "9007199254740993.0",
            "9007199254740992e-22",
            "123456789012345678901234567890e-30",
            "1e22",
            "1e23",
            "1.5e-5",
            "5e-324",
            "2.4703282292062327e-324",
            "1.7976931348623157e308",
            "0.000000000000000000000000001234",
            "1E+2",
            "12.5e-1",
        ] {
            assert_eq!(quick_number(text), serde_number(text), "{text}");
        }
        for text in [
            "01", "1.", "-", ".5", "1e", "1e+", "+1", "1e400", "-1e400", "1..2",
        ] {
            assert_eq!(quick_number(text), None, "{text}");
        }
        // Not followed by anything: the buffer may cut it.
        assert!(plain_number(b"0.25").is_none());
    }

    proptest! {
        // Each case reads a document several times in small reads: fewer cases than the 256.
        #![proptest_config(ProptestConfig::with_cases(96))]

        #[test]
        fn any_number_is_read_to_the_bit_as_serde_json_reads_it(
            text in "-?(0|[1-9][0-9]{0,24})(\\.[0-9]{1,24})?([eE][+-]?[0-9]{1,3})?",
            f in any::<f64>(),
        ) {
            let quick = quick_number(&text);
            let sure = quick.is_some();
            if sure {
                prop_assert_eq!(quick, serde_number(&text));
            }
            // Unsure only of a number out of range.
            prop_assert_eq!(serde_number(&text).is_some(), sure);
            if f.is_finite() {
                for text in [format!("{f}"), format!("{f:e}"), format!("{f:?}")] {
                    prop_assert_eq!(quick_number(&text), serde_number(&text), "{}", text);
                }
            }
        }

        #[test]
        fn any_requests_gaps_are_summed_as_serde_json_sums_them(
            requests in proptest::collection::vec(proptest::collection::vec(prop_oneof![
                4 => (0.0..1.0f64).prop_map(|f| f.to_string()),
                1 => any::<f64>().prop_map(|f| f.to_string()),
                1 => any::<i64>().prop_map(|n| n.to_string()),
                1 => Just("null".to_string()),
                1 => Just("\"x\"".to_string()),
                1 => Just("[1, [2]]".to_string()),
                1 => Just("1e400".to_string()),
            ], 0..40), 0..20),
            space in prop_oneof![Just(""), Just(" "), Just("\n  ")],
        ) {
            let lists: Vec<String> = requests
                .iter()
                .map(|gaps| format!("[{}]", gaps.join(&format!(",{space}"))))
                .collect();
            let text = format!("{{\"itls\":{space}[{}]}}", lists.join(&format!(",{space}")));
            let sure = same_in(text.as_bytes(), &[3, 64, usize::MAX]);
            prop_assert_eq!(sure, !text.contains("e400"));
        }

        #[test]
        fn any_json_is_read_as_serde_json_reads_it(value in values(5), pretty in any::<bool>(), cut in any::<prop::sample::Index>()) {
            let wrapped = json!({"run": value});
            let text = if pretty {
                serde_json::to_string_pretty(&wrapped).unwrap()
            } else {
                serde_json::to_string(&wrapped).unwrap()
            };
            prop_assert!(same_in(text.as_bytes(), &[5, usize::MAX]));
            // Cut anywhere: the same where sure.
            same_in(&text.as_bytes()[..cut.index(text.len() + 1)], &[5, usize::MAX]);
        }
    }
}
