//! Per-request records, as measured: each completed request's TTFT, end-to-end latency and
//! output tokens, and how many requests were issued at the level (completed, failed and
//! incomplete). What judging them against an SLO gives is in `plan::attainment`.

use serde::{Deserialize, Serialize};

/// One completed request, as judging needs it. Crosses to the page as a tuple (the smallest
/// decoder).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "(f64, f64, u32)", into = "(f64, f64, u32)")]
pub struct Request {
    /// Time to first token, ms.
    pub ttft_ms: f64,
    /// End-to-end latency, ms (TTFT included).
    pub e2e_ms: f64,
    /// Output tokens.
    pub output_tokens: u32,
}

impl From<(f64, f64, u32)> for Request {
    fn from(stored: (f64, f64, u32)) -> Request {
        let (ttft_ms, e2e_ms, output_tokens) = stored;
        Request {
            ttft_ms,
            e2e_ms,
            output_tokens,
        }
    }
}

impl From<Request> for (f64, f64, u32) {
    fn from(r: Request) -> (f64, f64, u32) {
        (r.ttft_ms, r.e2e_ms, r.output_tokens)
    }
}

impl Request {
    /// A request as measured: `None` when its times are not latencies (not finite, negative, or
    /// an end before its first token), so that such a request counts as a miss, never as a
    /// request that met (a negative gap would give a negative TPOT).
    pub fn measured(ttft_ms: f64, e2e_ms: f64, output_tokens: u32) -> Option<Request> {
        let latency = |ms: f64| ms.is_finite() && ms >= 0.0;
        (latency(ttft_ms) && latency(e2e_ms) && e2e_ms >= ttft_ms).then_some(Request {
            ttft_ms,
            e2e_ms,
            output_tokens,
        })
    }

    /// TPOT, ms per token: (end-to-end − TTFT) / (output tokens − 1); `None` with fewer than
    /// two output tokens.
    pub fn tpot_ms(&self) -> Option<f64> {
        (self.output_tokens >= 2)
            .then(|| (self.e2e_ms - self.ttft_ms) / f64::from(self.output_tokens - 1))
    }
}

/// The per-request records of one run: the requests that completed, and how many were issued
/// (completed, failed and incomplete). Crosses to the page as a tuple.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(from = "(Vec<Request>, u64)", into = "(Vec<Request>, u64)")]
pub struct Requests {
    /// Each completed request.
    pub completed: Vec<Request>,
    /// Requests issued at the level (at least `completed.len()`).
    pub issued: u64,
}

impl From<(Vec<Request>, u64)> for Requests {
    fn from(stored: (Vec<Request>, u64)) -> Requests {
        let (completed, issued) = stored;
        Requests { completed, issued }
    }
}

impl From<Requests> for (Vec<Request>, u64) {
    fn from(r: Requests) -> (Vec<Request>, u64) {
        (r.completed, r.issued)
    }
}

impl Requests {
    /// The records of a run: its completed requests (kept sorted by TPOT, a request without one
    /// first) and the requests issued (at least those completed).
    pub fn new(mut completed: Vec<Request>, issued: u64) -> Requests {
        completed.sort_by(|a, b| tpot_or_zero(a).total_cmp(&tpot_or_zero(b)));
        Requests {
            issued: issued.max(completed.len() as u64),
            completed,
        }
    }

    /// The TPOT, ms per token, that `percent` of the issued requests completed at or under:
    /// the k-th smallest TPOT of the completed requests, k the least count that is `percent`
    /// of those issued ([`reaches`]; a request with one output token counts as 0 ms). A target
    /// at least this meets `percent` on TPOT alone. `None` when fewer than k requests completed.
    pub fn tpot_at_share(&self, percent: f64) -> Option<f64> {
        if self.issued == 0 {
            return None;
        }
        let mut k = (percent / 100.0 * self.issued as f64).ceil().max(0.0) as u64;
        while k > 0 && reaches(k - 1, self.issued, percent) {
            k -= 1;
        }
        while !reaches(k, self.issued, percent) && k <= self.completed.len() as u64 {
            k += 1;
        }
        let k = usize::try_from(k).ok()?;
        match k {
            0 => Some(0.0),
            k => self.completed.get(k - 1).map(tpot_or_zero),
        }
    }
}

/// True when `good` of `issued` requests is at least `percent` of them: good × 100 ≥ percent ×
/// issued (so 190 of 200 is 95%, with no rounding of a share in between).
pub fn reaches(good: u64, issued: u64, percent: f64) -> bool {
    good as f64 * 100.0 >= percent * issued as f64
}

/// A request's TPOT, 0 for a request with one output token.
fn tpot_or_zero(r: &Request) -> f64 {
    r.tpot_ms().unwrap_or(0.0)
}
