//! The per-request arrays vLLM's `bench serve --save-detailed` and SGLang's `bench_serving`
//! write beside a run's summary: `ttfts` (s), `itls` (each request's gaps between streamed
//! chunks, s), `output_lens` and `errors`, one entry per request issued. They become the run's
//! [`Requests`] for attainment.
//!
//! Per request: its TTFT is `ttfts[i]`; its end-to-end latency is TTFT + the sum of its ITLs
//! (neither tool writes a per-request latency; the sum of a request's chunk gaps divided by
//! output tokens − 1 reproduces the files' `median_tpot_ms`). The sums are made as the file is
//! read (`super::json`), so `itls` holds one per request here. A request with an error, or
//! that produced no output token, did not complete. A request whose TTFT or gaps are not
//! latencies (a NaN, a negative gap: its sum is `null`) counts as a miss, and is counted in a
//! note ([`RowError::RequestsNotMeasured`]).

use serde_json::Value;

use super::errors::RowError;
use super::record::Record;
use crate::core::model::requests::{Request, Requests};

/// The keys of the arrays read.
const ARRAYS: &str = "ttfts, itls, output_lens";

/// A number of seconds that is a latency: finite and not negative, in ms.
fn seconds_ms(v: &Value) -> Option<f64> {
    v.as_f64()
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(|s| s * 1000.0)
}

/// The run's per-request records, where its record has the arrays; `Ok(None)` without them.
/// Requests whose times are not latencies count as misses, and are counted in `notes`.
///
/// Errors: the arrays cannot be read as one request per entry (lengths that differ, or an
/// entry that is not a token count): the records are left out, named with the first entry
/// that could not be read.
pub(crate) fn client_requests(
    rec: &Record,
    notes: &mut Vec<RowError>,
) -> Result<Option<Requests>, RowError> {
    let array = |key: &str| rec.0.get(key).and_then(Value::as_array);
    let (Some(ttfts), Some(itls), Some(lens)) =
        (array("ttfts"), array("itls"), array("output_lens"))
    else {
        return Ok(None);
    };
    let errors = array("errors");
    // The reason is this program's words with counts and indices: kept whole.
    let left_out = |why: String| RowError::LeftOut {
        what: "the per-request records".into(),
        why,
    };
    if ttfts.len() != itls.len()
        || ttfts.len() != lens.len()
        || errors.is_some_and(|e| e.len() != ttfts.len())
    {
        return Err(left_out(format!(
            "{ARRAYS} and errors hold {}, {}, {} and {} entries, not one per request",
            ttfts.len(),
            itls.len(),
            lens.len(),
            errors.map_or(ttfts.len(), Vec::len)
        )));
    }
    let mut completed = Vec::with_capacity(ttfts.len());
    let mut not_measured = 0;
    for i in 0..ttfts.len() {
        let failed = errors
            .and_then(|e| e[i].as_str())
            .is_some_and(|e| !e.trim().is_empty());
        let output_tokens = lens[i]
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| left_out(format!("output_lens[{i}] is not a token count")))?;
        if failed || output_tokens == 0 {
            continue;
        }
        // Each request's gaps arrive summed as they were read (`super::json`).
        let request =
            seconds_ms(&ttfts[i])
                .zip(seconds_ms(&itls[i]))
                .and_then(|(ttft_ms, decode_ms)| {
                    Request::measured(ttft_ms, ttft_ms + decode_ms, output_tokens)
                });
        match request {
            Some(request) => completed.push(request),
            None => not_measured += 1,
        }
    }
    let issued = ttfts.len() as u64;
    if not_measured > 0 {
        notes.push(RowError::RequestsNotMeasured {
            count: not_measured,
            issued,
        });
    }
    Ok(Some(Requests::new(completed, issued)))
}
