//! The per-request fold of [`crate::core::import::json`] read quickly: the `itls` value, each
//! request's gaps summed as they are read, plain numbers a buffer at a time; what stands in
//! place of a list is read past as serde_json reads it.

use std::io::BufRead;

use serde_json::Value;

use super::number::{blank, plain_number, Number};
use super::{enter, Quick, Unsure};

impl<R: BufRead> Quick<'_, R> {
    /// What a per-request fold reads in place of a list (`Gaps`, `GapSum` and `Gap` of
    /// [`crate::core::import::json`]'s `fold!`): a number parsed, a string decoded and
    /// checked, an object's keys decoded and its values skipped; none of them kept. A list is
    /// `list`'s to read.
    fn other(&mut self, depth: usize, b: u8) -> Result<Option<Number>, Unsure> {
        match b {
            b'-' | b'0'..=b'9' => return self.number().map(Some),
            b'"' => {
                self.input.consume(1);
                self.text()?;
            }
            b'{' => {
                self.input.consume(1);
                let depth = enter(depth)?;
                self.items(b'}', |q| {
                    q.key()?;
                    q.skip(depth)
                })?;
            }
            b't' => self.word(b"true")?,
            b'f' => self.word(b"false")?,
            b'n' => self.word(b"null")?,
            _ => return Err(Unsure),
        }
        Ok(None)
    }

    /// At a value that should be a list: past its `[`, the depth inside it; `None` when it is
    /// anything else (read past).
    fn open_list(&mut self, depth: usize) -> Result<Option<usize>, Unsure> {
        let b = self.peek()?;
        if b != b'[' {
            self.other(depth, b)?;
            return Ok(None);
        }
        self.input.consume(1);
        enter(depth).map(Some)
    }

    /// The `itls` value: a list of requests, each folded to the sum of its gaps (or `null`),
    /// each sum counted as a value kept; anything else is `null`.
    pub(super) fn gaps(&mut self, depth: usize) -> Result<Value, Unsure> {
        let Some(depth) = self.open_list(depth)? else {
            return Ok(Value::Null);
        };
        let mut sums = Vec::new();
        self.items(b']', |q| {
            let sum = q.gap_sum(depth)?;
            q.take(0)?;
            sums.push(sum);
            Ok(())
        })?;
        Ok(Value::Array(sums))
    }

    /// One request's gaps: the sum of its gaps when each is a latency (a number that is finite
    /// and not negative), else `null`.
    fn gap_sum(&mut self, depth: usize) -> Result<Value, Unsure> {
        let Some(depth) = self.open_list(depth)? else {
            return Ok(Value::Null);
        };
        let mut sum = Some(0.0);
        if !self.empty(b']')? {
            // Plain numbers a buffer at a time; anything else (or a number the buffer cuts)
            // one item at a time.
            while !self.plain_gaps(&mut sum)? {
                let gap = self.gap(depth)?;
                sum = sum.zip(gap).map(|(a, b)| a + b);
                if !self.more(b']')? {
                    break;
                }
            }
        }
        Ok(sum.map_or(Value::Null, Value::from))
    }

    /// At an item of a request's gaps: adds to `sum` the items that are plain numbers (each
    /// with its `,` or the closing `]`) as long as the buffer holds them whole; true once the
    /// `]` is consumed. Stops before anything else, which is read one item at a time.
    fn plain_gaps(&mut self, sum: &mut Option<f64>) -> Result<bool, Unsure> {
        let buf = self.buffer()?;
        let mut at = 0;
        let closed = loop {
            let item = at + blank(&buf[at..]);
            let Some((len, number)) = plain_number(&buf[item..]) else {
                break false;
            };
            let after = item + len + blank(&buf[item + len..]);
            let closed = match buf.get(after) {
                Some(b',') => false,
                Some(b']') => true,
                _ => break false,
            };
            let gap = Some(number.float()).filter(|v| v.is_finite() && *v >= 0.0);
            *sum = sum.zip(gap).map(|(a, b)| a + b);
            at = after + 1;
            if closed {
                break true;
            }
        };
        self.input.consume(at);
        Ok(closed)
    }

    /// One gap: its value when it is a number that is finite and not negative.
    fn gap(&mut self, depth: usize) -> Result<Option<f64>, Unsure> {
        let b = self.peek()?;
        if b == b'[' {
            self.skip(depth)?;
            return Ok(None);
        }
        Ok(self
            .other(depth, b)?
            .map(Number::float)
            .filter(|v| v.is_finite() && *v >= 0.0))
    }
}
