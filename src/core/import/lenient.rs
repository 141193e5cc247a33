//! Lenient JSON: what Python's `json.dump` writes that a strict parser refuses, made strict on
//! the way in, for a whole text ([`lenient_text`]) or a stream read piece by piece
//! ([`Lenient`]), by one rule:
//! - the bare tokens `Infinity`, `-Infinity` and `NaN` outside strings become `null` (the value
//!   was not a finite number anyway);
//! - a `\uD800`–`\uDFFF` escape in a string that is not half of a surrogate pair becomes
//!   `\uFFFD` (the replacement character), so a text holding a lone surrogate (a model id cut in
//!   the middle of an emoji) is read with that one character replaced, as browsers and Python
//!   read it, not refused whole. An escaped backslash before `u` is text, not an escape.
//!
//! Linear in the input; a text that needs no change is borrowed, not copied.

use crate::core::model::limits::MAX_STRING_BYTES;
use std::borrow::Cow;
use std::io::{self, Read};

/// The tokens outside strings that become `null` (`-Infinity` too, by its `-` and `Infinity`).
const TOKENS: [&[u8]; 2] = [b"Infinity", b"NaN"];

/// How many bytes a stream is read in.
const CHUNK_BYTES: usize = 256 * 1024;

/// What the bytes at a backslash in a string become.
enum Escape {
    /// The first this many bytes, as they are.
    Keep(usize),
    /// A lone surrogate escape (6 bytes): `\uFFFD`.
    Lone,
}

/// The escape at the start of `rest` (which starts with a backslash); `None` when more bytes
/// are needed to tell (never at the end of the input, `eof`).
fn escape(rest: &[u8], eof: bool) -> Option<Escape> {
    let hex = |at: usize| -> Option<u32> {
        let digits = std::str::from_utf8(rest.get(at..at + 4)?).ok()?;
        u32::from_str_radix(digits, 16).ok()
    };
    let need = |bytes: usize| rest.len() < bytes && !eof;
    if need(2) {
        return None;
    }
    if rest.get(1) != Some(&b'u') {
        return Some(Escape::Keep(rest.len().min(2)));
    }
    if need(6) {
        return None;
    }
    let Some(code) = hex(2) else {
        return Some(Escape::Keep(rest.len().min(2)));
    };
    match code {
        0xD800..0xDC00 => {
            if need(12) {
                return None;
            }
            let paired = rest.get(6..8) == Some(b"\\u")
                && hex(8).is_some_and(|low| (0xDC00..0xE000).contains(&low));
            Some(if paired {
                Escape::Keep(12)
            } else {
                Escape::Lone
            })
        }
        0xDC00..0xE000 => Some(Escape::Lone),
        _ => Some(Escape::Keep(6)),
    }
}

/// Where the text made strict so far ends: inside a string or not, how long the string it ends
/// in is and where it started (bytes from the input's start), and how many bytes were used.
#[derive(Default)]
struct State {
    in_string: bool,
    string_bytes: usize,
    string_at: usize,
    used: usize,
}

/// Makes `input` strict into `out`, from `state`; returns how many bytes of `input` were used.
/// Stops early, before a token or an escape that the bytes after `input` may decide, unless
/// `eof` (nothing follows).
fn strict(state: &mut State, input: &[u8], eof: bool, out: &mut Vec<u8>) -> usize {
    // A `-` at the end may start `-Infinity`: it waits for the next bytes.
    let input = match input.split_last() {
        Some((b'-', before)) if !eof => before,
        _ => input,
    };
    let mut i = 0;
    while i < input.len() {
        let rest = &input[i..];
        let run = if state.in_string {
            memchr::memchr2(b'"', b'\\', rest)
        } else {
            memchr::memchr3(b'"', b'N', b'I', rest)
        }
        .unwrap_or(rest.len());
        out.extend_from_slice(&rest[..run]);
        i += run;
        if state.in_string {
            state.string_bytes += run;
        }
        let rest = &input[i..];
        let Some(&byte) = rest.first() else { break };
        if byte == b'"' {
            state.in_string = !state.in_string;
            state.string_bytes = 0;
            state.string_at = state.used + i;
            out.push(byte);
            i += 1;
        } else if state.in_string {
            match escape(rest, eof) {
                None => break,
                Some(Escape::Keep(n)) => {
                    out.extend_from_slice(&rest[..n]);
                    i += n;
                    state.string_bytes += n;
                }
                Some(Escape::Lone) => {
                    out.extend_from_slice(b"\\uFFFD");
                    i += 6;
                    state.string_bytes += 6;
                }
            }
        } else if let Some(token) = TOKENS.iter().find(|t| rest.starts_with(t)) {
            // `-Infinity`: its `-` was copied just before.
            if *token == b"Infinity" && out.last() == Some(&b'-') {
                out.pop();
            }
            out.extend_from_slice(b"null");
            i += token.len();
        } else if !eof && TOKENS.iter().any(|t| t.starts_with(rest)) {
            // The token waits for its next bytes, and a `-` before it waits with it.
            if i > 0 && input[i - 1] == b'-' {
                out.pop();
                i -= 1;
            }
            break;
        } else {
            out.push(byte);
            i += 1;
        }
    }
    state.used += i;
    i
}

/// A lenient JSON text made strict (see the module); borrowed when nothing changes.
pub(crate) fn lenient_text(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    if memchr::memchr3(b'N', b'I', b'\\', bytes).is_none() {
        return Cow::Borrowed(text);
    }
    let mut out = Vec::with_capacity(bytes.len());
    strict(&mut State::default(), bytes, true, &mut out);
    if out == bytes {
        return Cow::Borrowed(text);
    }
    // Only ASCII is replaced, with ASCII, between whole characters: still UTF-8.
    String::from_utf8(out).map_or(Cow::Borrowed(text), Cow::Owned)
}

/// The text of the error a [`Lenient`] stream ends with at a string longer than
/// [`MAX_STRING_BYTES`], followed by where the string starts, bytes ([`string_at`] reads it).
pub(crate) const STRING_TOO_LONG: &str = "a string longer than the limit, at byte ";

/// Where the string too long starts, bytes, from the text of a [`Lenient`] stream's error.
pub(crate) fn string_at(error: &str) -> Option<usize> {
    let (_, at) = error.split_once(STRING_TOO_LONG)?;
    at.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
}

/// A stream of lenient JSON read as strict JSON (see the module), with a byte order mark at
/// its start dropped; a string longer than [`MAX_STRING_BYTES`] ends it with an error
/// ([`STRING_TOO_LONG`]).
pub(crate) struct Lenient<R> {
    inner: R,
    /// Bytes read and not yet made strict (a token or escape cut by the end of a read).
    pending: Vec<u8>,
    /// Strict bytes not yet handed out, from `at`.
    out: Vec<u8>,
    at: usize,
    state: State,
    started: bool,
    /// The bytes of a byte order mark dropped at the start (0 or 3).
    bom: u8,
    done: bool,
}

impl<R: Read> Lenient<R> {
    /// Reads `inner` leniently.
    pub fn new(inner: R) -> Lenient<R> {
        Lenient {
            inner,
            pending: Vec::with_capacity(CHUNK_BYTES + 16),
            out: Vec::with_capacity(CHUNK_BYTES + 64),
            at: 0,
            state: State::default(),
            started: false,
            bom: 0,
            done: false,
        }
    }

    /// Reads the next piece of `inner` into `out` (empty at the end).
    fn fill(&mut self) -> io::Result<()> {
        self.out.clear();
        self.at = 0;
        while self.out.is_empty() && !self.done {
            let have = self.pending.len();
            self.pending.resize(have + CHUNK_BYTES, 0);
            let got = loop {
                match self.inner.read(&mut self.pending[have..]) {
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        self.pending.truncate(have);
                        return Err(e);
                    }
                    Ok(got) => break got,
                }
            };
            self.pending.truncate(have + got);
            let eof = got == 0;
            if !self.started {
                const BOM: &[u8] = b"\xEF\xBB\xBF";
                if self.pending.len() < BOM.len() && !eof {
                    continue;
                }
                if self.pending.starts_with(BOM) {
                    self.pending.drain(..BOM.len());
                    self.bom = 3;
                }
                self.started = true;
            }
            let used = strict(&mut self.state, &self.pending, eof, &mut self.out);
            self.pending.drain(..used);
            self.done = eof;
            if self.state.in_string && self.state.string_bytes > MAX_STRING_BYTES {
                self.out.clear();
                self.done = true;
                // Counted from the file's start, its byte order mark included.
                let at = self.state.string_at + usize::from(self.bom);
                return Err(io::Error::other(format!("{STRING_TOO_LONG}{at}")));
            }
        }
        Ok(())
    }
}

impl<R: Read> Read for Lenient<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at == self.out.len() {
            self.fill()?;
        }
        let n = buf.len().min(self.out.len() - self.at);
        buf[..n].copy_from_slice(&self.out[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// `bytes` read `size` bytes at a time (also the readers' tests of a stream cut anywhere).
    pub(in crate::core::import) struct Drip<'a>(pub &'a [u8], pub usize);

    impl Read for Drip<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.1.min(buf.len()).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    /// Reads `text` through [`Lenient`] in reads of `size` bytes.
    fn streamed(text: &str, size: usize) -> String {
        let mut out = String::new();
        Lenient::new(Drip(text.as_bytes(), size))
            .read_to_string(&mut out)
            .unwrap();
        out
    }

    #[test]
    fn tokens_outside_strings_become_null_and_lone_surrogates_are_replaced() {
        let cases = [
            (
                r#"{"a": NaN, "b": "NaN", "c": -Infinity, "d": [Infinity, -1]}"#,
                r#"{"a": null, "b": "NaN", "c": null, "d": [null, -1]}"#,
            ),
            (r#"{"m":"a\uD800b"}"#, r#"{"m":"a\uFFFDb"}"#),
            (r#"{"m":"\udfff"}"#, r#"{"m":"\uFFFD"}"#),
            (r#"{"m":"\uD83D\uDE00"}"#, r#"{"m":"\uD83D\uDE00"}"#),
            (r#"{"m":"\\uD800"}"#, r#"{"m":"\\uD800"}"#),
            (r#"{"m":"\"NaN\uD800"}"#, r#"{"m":"\"NaN\uFFFD"}"#),
            (r#"{"m":"\uD800"#, r#"{"m":"\uFFFD"#),
            ("[-In", "[-In"),
            ("[1,-", "[1,-"),
            ("[-2,-Infinity,- NaN]", "[-2,null,- null]"),
        ];
        for (text, strict) in cases {
            assert_eq!(lenient_text(text), strict, "{text}");
            for size in [1, 2, 3, 5, 7, 64] {
                assert_eq!(streamed(text, size), strict, "{text} in reads of {size}");
            }
        }
        assert!(matches!(
            lenient_text(r#"{"m":"plain","n":1}"#),
            Cow::Borrowed(_)
        ));
        assert_eq!(streamed("\u{feff}{\"a\":1}", 1), "{\"a\":1}");
    }
}
