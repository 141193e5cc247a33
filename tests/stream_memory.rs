//! A file read as a stream is never held whole: a vLLM `--save-detailed` result of 40 MB,
//! generated as it is read (so the test holds none of it either), is imported and judged per
//! request while the bytes held stay a small fraction of its size. Measured with a counting
//! allocator (its own test binary: nothing else allocates while it runs).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::too_many_lines,
    reason = "the workspace's gates are the shipped code's: a test's helper panics when the test fails"
)]

mod counting;
use counting::{peak_of, Counting};

use std::io::Read;

use llm_slo_planner::core::import::{
    read_stream, read_stream_quick, read_with_streams, ImportOptions, StreamedFile,
};
use llm_slo_planner::core::model::sweep::Statistic;
use llm_slo_planner::core::plan::planner::{plan, Slo, Target};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Requests in the generated file, and gaps per request.
const REQUESTS: usize = 1000;
const GAPS: usize = 2000;

/// The generated file, written a request at a time as it is read: every 10th request streams
/// its tokens 30 ms apart, the others 10 ms apart.
struct Generated {
    next: usize,
    pending: Vec<u8>,
    at: usize,
    bytes: usize,
}

impl Generated {
    fn new() -> Generated {
        let list = |v: &str| vec![v; REQUESTS].join(",");
        let head = format!(
            r#"{{"backend":"vllm","model_id":"org/streamed","max_concurrency":8,"completed":{REQUESTS},"output_throughput":800,"output_lens":[{}],"ttfts":[{}],"errors":[{}],"generated_texts":[{}],"itls":["#,
            list(&(GAPS + 1).to_string()),
            list("0.1"),
            list("\"\""),
            list("\"some text\""),
        );
        Generated {
            next: 0,
            pending: head.into_bytes(),
            at: 0,
            bytes: 0,
        }
    }
}

impl Read for Generated {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.at == self.pending.len() {
            self.pending.clear();
            self.at = 0;
            if self.next > REQUESTS {
                return Ok(0);
            }
            if self.next == REQUESTS {
                self.pending.extend_from_slice(b"]}");
            } else {
                let gap = if self.next.is_multiple_of(10) {
                    "0.030000000000000002"
                } else {
                    "0.010000000000000002"
                };
                let gaps = vec![gap; GAPS].join(",");
                let sep = if self.next == 0 { "" } else { "," };
                self.pending
                    .extend_from_slice(format!("{sep}[{gaps}]").as_bytes());
            }
            self.next += 1;
        }
        let n = buf.len().min(self.pending.len() - self.at);
        buf[..n].copy_from_slice(&self.pending[self.at..self.at + n]);
        self.at += n;
        self.bytes += n;
        Ok(n)
    }
}

/// One test (the allocator counts every thread's allocations): read by serde_json, then by the
/// quick reader (`read_stream_quick`).
#[test]
fn a_streamed_file_is_judged_per_request_holding_a_small_fraction_of_its_size() {
    judged_holding_a_small_fraction(|file| read_stream("big.json".to_string(), file));
    judged_holding_a_small_fraction(|file| {
        read_stream_quick("big.json".to_string(), file).expect("plain valid JSON")
    });
}

/// The generated file read by `read` and imported, its memory and its per-request verdicts.
fn judged_holding_a_small_fraction(read: impl FnOnce(&mut Generated) -> StreamedFile) {
    let mut file = Generated::new();
    let ((_, imported), peak) = peak_of(|| {
        let streamed = read(&mut file);
        read_with_streams(&[], vec![streamed], &ImportOptions::default())
    });
    let size = file.bytes;
    assert!(size > 40_000_000, "{size}");
    // The stream's buffers (256 + 64 KB), the values kept (a few numbers per request) and the
    // sweep: under 4 MB, a tenth of the file.
    assert!(peak < 4 << 20, "peak {peak} bytes for a file of {size}");
    let source = imported.unwrap_or_else(|p| panic!("{p:?}")).source;
    let sweep = &source.sweeps[0];
    let slo = Slo::new(Target::MsPerToken(20.0), Statistic::TpotP50).with_attain(Some(90.0));
    let judged = plan(sweep, &slo);
    let a = judged.verdicts[0].attainment.unwrap();
    // TPOT = the sum of 2,000 gaps ÷ 2,000: 10 ms, and 30 ms for every 10th request.
    assert_eq!((a.good, a.issued, a.tpot_misses), (900, 1000, 100));
}
