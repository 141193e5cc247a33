//! Attainment: the share of the requests issued at a level that meet the SLO, each request
//! judged on its own figures (its TPOT, TTFT and end-to-end latency), from the per-request
//! records some tools write (vLLM `bench serve --save-detailed`, SGLang `bench_serving`).
//! Goodput is the good requests (and their output tokens) per second.
//!
//! A request is good when it completed and:
//! - its TPOT, (end-to-end − TTFT) / (output tokens − 1), is at most the target's ms per token;
//!   a request with one output token has no TPOT and meets this part (as vLLM's `--goodput`);
//! - its TTFT is at most every TTFT limit, and its end-to-end latency at most every end-to-end
//!   limit (per request, a limit's percentile is moot).
//!
//! Failed and incomplete requests are misses: attainment = good / issued.

use crate::core::model::requests::{Request, Requests};

/// What each request must meet.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RequestSlo {
    /// Largest TPOT, ms per token (the target's).
    pub tpot_max_ms: f64,
    /// Largest TTFT, ms (the tightest TTFT limit), if any.
    pub ttft_max_ms: Option<f64>,
    /// Largest end-to-end latency, ms (the tightest end-to-end limit), if any.
    pub e2e_max_ms: Option<f64>,
}

impl RequestSlo {
    /// True when `r` meets every part (see the module documentation).
    pub fn is_met_by(&self, r: &Request) -> bool {
        r.tpot_ms().is_none_or(|tpot| tpot <= self.tpot_max_ms)
            && self.ttft_max_ms.is_none_or(|max| r.ttft_ms <= max)
            && self.e2e_max_ms.is_none_or(|max| r.e2e_ms <= max)
    }
}

/// A run's attainment under one [`RequestSlo`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Attainment {
    /// Requests that completed and met the SLO.
    pub good: u64,
    /// Requests issued.
    pub issued: u64,
    /// Requests that completed (the others are misses as failed or incomplete).
    pub completed: u64,
    /// Completed requests whose TPOT is over the target.
    pub tpot_misses: u64,
    /// Completed requests whose TTFT is over a TTFT limit.
    pub ttft_misses: u64,
    /// Completed requests whose end-to-end latency is over an end-to-end limit.
    pub e2e_misses: u64,
    /// Output tokens of the good requests.
    pub good_output_tokens: u64,
    /// Output tokens of every completed request.
    pub output_tokens: u64,
}

impl Attainment {
    /// good ÷ issued, 0 to 1; `None` when nothing was issued.
    pub fn share(&self) -> Option<f64> {
        (self.issued > 0).then(|| self.good as f64 / self.issued as f64)
    }

    /// Good requests per second over the run's duration: `throughput_tok_s` × good ÷ the
    /// output tokens of every completed request (the run's output tok/s ÷ its output tokens is
    /// 1 ÷ its duration, so this is good ÷ duration, as vLLM's `request_goodput`); `None` when
    /// no output token was counted.
    pub fn goodput_req_s(&self, throughput_tok_s: f64) -> Option<f64> {
        (self.output_tokens > 0)
            .then(|| throughput_tok_s * self.good as f64 / self.output_tokens as f64)
    }

    /// Good output tok/s: `throughput_tok_s` × the good requests' output tokens ÷ every
    /// completed request's; `None` when no output token was counted.
    pub fn goodput_tok_s(&self, throughput_tok_s: f64) -> Option<f64> {
        (self.output_tokens > 0)
            .then(|| throughput_tok_s * self.good_output_tokens as f64 / self.output_tokens as f64)
    }
}

/// Counts the good requests of a run.
pub fn attainment(requests: &Requests, slo: &RequestSlo) -> Attainment {
    let mut counted = Attainment {
        issued: requests.issued.max(requests.completed.len() as u64),
        completed: requests.completed.len() as u64,
        ..Attainment::default()
    };
    for r in &requests.completed {
        let tokens = u64::from(r.output_tokens);
        counted.output_tokens += tokens;
        let slow = r.tpot_ms().is_some_and(|tpot| tpot > slo.tpot_max_ms);
        let waited = slo.ttft_max_ms.is_some_and(|max| r.ttft_ms > max);
        let late = slo.e2e_max_ms.is_some_and(|max| r.e2e_ms > max);
        counted.tpot_misses += u64::from(slow);
        counted.ttft_misses += u64::from(waited);
        counted.e2e_misses += u64::from(late);
        if slo.is_met_by(r) {
            counted.good += 1;
            counted.good_output_tokens += tokens;
        }
    }
    counted
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::core::model::requests::reaches;

    /// A completed request (for tests here and in `attain_plot`).
    pub(crate) fn request(ttft_ms: f64, e2e_ms: f64, output_tokens: u32) -> Request {
        Request {
            ttft_ms,
            e2e_ms,
            output_tokens,
        }
    }

    #[test]
    fn tpot_leaves_out_the_first_token_and_needs_two_tokens() {
        assert_eq!(request(100.0, 1090.0, 100).tpot_ms(), Some(10.0));
        assert_eq!(request(100.0, 100.0, 1).tpot_ms(), None);
    }

    #[test]
    fn a_request_is_good_when_it_meets_the_target_and_every_limit_and_failures_are_misses() {
        let requests = Requests {
            completed: vec![
                request(100.0, 1090.0, 100),  // TPOT 10: good
                request(100.0, 1189.0, 100),  // TPOT 11: slow decode
                request(2500.0, 3490.0, 100), // TPOT 10, TTFT 2500: long wait
                request(300.0, 300.0, 1),     // one token: no TPOT, good
            ],
            issued: 5, // one failed
        };
        let slo = RequestSlo {
            tpot_max_ms: 10.0,
            ttft_max_ms: Some(2000.0),
            e2e_max_ms: None,
        };
        let a = attainment(&requests, &slo);
        assert_eq!(
            a,
            Attainment {
                good: 2,
                issued: 5,
                completed: 4,
                tpot_misses: 1,
                ttft_misses: 1,
                e2e_misses: 0,
                good_output_tokens: 101,
                output_tokens: 301,
            }
        );
        assert_eq!(a.share(), Some(0.4));
        // 301 tokens at 602 tok/s: a run of 0.5 s; 2 good requests and 101 good tokens in it.
        assert_eq!(a.goodput_req_s(602.0), Some(4.0));
        assert_eq!(a.goodput_tok_s(602.0), Some(202.0));
        let e2e = RequestSlo {
            e2e_max_ms: Some(1000.0),
            ..slo
        };
        let late = attainment(&requests, &e2e);
        assert_eq!((late.good, late.e2e_misses), (1, 3));
    }

    #[test]
    fn the_tpot_a_share_of_requests_meets_is_read_from_the_sorted_records() {
        // TPOTs 10, 20, 30, 40 ms and one failed request: 5 issued.
        let requests = Requests::new(
            [40.0, 10.0, 30.0, 20.0]
                .iter()
                .map(|tpot| request(0.0, tpot * 9.0, 10))
                .collect(),
            5,
        );
        assert_eq!(requests.tpot_at_share(60.0), Some(30.0)); // 3 of 5
        assert_eq!(requests.tpot_at_share(61.0), Some(40.0)); // 4 of 5
        assert_eq!(requests.tpot_at_share(80.0), Some(40.0));
        assert_eq!(requests.tpot_at_share(81.0), None); // 5 of 5: one failed
                                                        // The count at the boundary: 190 of 200 is 95%, 999 of 1,000 is 99.9%.
        assert!(reaches(190, 200, 95.0) && !reaches(189, 200, 95.0));
        assert!(reaches(999, 1000, 99.9) && !reaches(998, 1000, 99.9));
        let many = Requests::new(vec![request(0.0, 9.0, 10); 200], 200);
        assert_eq!(many.tpot_at_share(95.0), Some(1.0));
    }

    #[test]
    fn nothing_issued_has_no_share() {
        let a = attainment(
            &Requests::default(),
            &RequestSlo {
                tpot_max_ms: 1.0,
                ttft_max_ms: None,
                e2e_max_ms: None,
            },
        );
        assert_eq!(a.share(), None);
        assert_eq!(Requests::default().tpot_at_share(50.0), None);
        assert_eq!(a.goodput_tok_s(100.0), None);
    }
}
