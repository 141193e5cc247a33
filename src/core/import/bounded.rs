//! Reading an input whose size is not known before it is read (standard input, a device such
//! as `/dev/zero`, a pipe): never more than a limit, and going on past it is named
//! ([`RowError::PastLimit`](crate::core::import::RowError::PastLimit)), so an endless input ends
//! at its limit instead of filling memory.

use std::io::{self, Read};

/// The reason of the read error [`Bounded`] gives past its limit (matched to name it).
pub(crate) const PAST_LIMIT: &str = "more bytes than the limit";

/// Up to `n` bytes of `reader` (fewer where it ends first).
///
/// Errors: the reader's.
pub fn read_up_to(reader: &mut impl Read, n: usize) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader
        .take(u64::try_from(n).unwrap_or(u64::MAX))
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// `bytes` as a text, invalid UTF-8 replaced as a browser reads a file's text; held once, not
/// copied, when they are valid.
pub fn text_of(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// A reader that fails with [`PAST_LIMIT`] where its input goes on past `left` bytes; an
/// input of exactly `left` bytes ends as it ends.
pub(crate) struct Bounded<R> {
    inner: R,
    left: usize,
}

impl<R: Read> Bounded<R> {
    /// `inner`, read up to `limit` bytes.
    pub(crate) fn new(inner: R, limit: usize) -> Bounded<R> {
        Bounded { inner, left: limit }
    }
}

impl<R: Read> Read for Bounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.left == 0 {
            let mut one = [0u8; 1];
            return match self.inner.read(&mut one)? {
                0 => Ok(0),
                _ => Err(io::Error::other(PAST_LIMIT)),
            };
        }
        let n = buf.len().min(self.left);
        let read = self.inner.read(&mut buf[..n])?;
        self.left -= read;
        Ok(read)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_endless_input_ends_at_the_limit_with_its_reason() {
        let mut endless = Bounded::new(io::repeat(b'y'), 10);
        let mut out = Vec::new();
        let e = endless.read_to_end(&mut out).unwrap_err();
        assert_eq!(e.to_string(), PAST_LIMIT);
        assert_eq!(out, b"yyyyyyyyyy");
        let mut exact = Bounded::new(&b"0123456789"[..], 10);
        out.clear();
        assert_eq!(exact.read_to_end(&mut out).unwrap(), 10);
        assert_eq!(read_up_to(&mut io::repeat(0), 7).unwrap(), vec![0; 7]);
        assert_eq!(read_up_to(&mut &b"ab"[..], 7).unwrap(), b"ab");
    }

    #[test]
    fn a_stream_read_past_its_limit_is_named_for_its_size() {
        use crate::core::import::RowErrorKind;
        // An endless JSON value (`[1,1111…`), read up to 1 MB.
        let endless = io::Cursor::new(b"[1,".to_vec()).chain(io::repeat(b'1'));
        let read = crate::core::import::json::from_stream(Bounded::new(endless, 1 << 20));
        assert!(read.values.is_empty());
        let kinds: Vec<RowErrorKind> = read.problems.iter().map(|(_, e)| e.kind()).collect();
        assert_eq!(kinds, [RowErrorKind::PastLimit]);
    }
}
