//! SGLang `bench_serving --output-file` JSONL: one JSON object per line, with bare `Infinity`
//! (not valid JSON) where the request rate was unbounded. Level: `max_concurrency`, else the
//! request rate; latencies in ms. Its `dataset_name` is part of the sweep's identity, with
//! `random_input_len`/`random_output_len` only when the dataset is `random` (and
//! `sharegpt_output_len` when it is `sharegpt`); `backend` names the client protocol.

use super::client::{is_sglang, push_client_run, records};
use super::record::{base_name, Record};
use super::{Body, Format, FormatSpec, InputFile, Parsed, Probe};

/// This format: its names, how its files are recognised, and its reader.
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::SglangJsonl,
    label: "SGLang bench_serving JSONL",
    described: "SGLang bench_serving output",
    detect,
    parse,
    keys: &[
        "dataset_name",
        "mean_e2e_latency_ms",
        "total_output_tokens_retokenized",
        "random_input_len",
        "sharegpt_output_len",
        "request_rate",
        "max_concurrency",
        "output_throughput",
    ],
    level: "max_concurrency|request_rate",
    throughput: "output_throughput",
};

fn detect(probe: &Probe) -> bool {
    probe.is_json() && is_sglang(probe) && probe.has_any(&["max_concurrency", "request_rate"])
}

fn parse(file: &InputFile, body: Body, out: &mut Parsed) {
    let from_name = base_name(&file.name).to_string();
    for (n, obj) in records(&file.name, &file.text, body, out) {
        if out.full() {
            break;
        }
        push_client_run(
            out,
            &file.name,
            n,
            &Record(&obj),
            &["model_id", "model"],
            Some(&from_name),
            None,
        );
    }
}
