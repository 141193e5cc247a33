//! SGLang `bench_serving --output-file` JSONL: one JSON object per line, with bare `Infinity`
//! (not valid JSON) where the request rate was unbounded. Level: `max_concurrency`, else the
//! request rate; latencies in ms. Its `dataset_name` is part of the sweep's identity, with
//! `random_input_len`/`random_output_len` only when the dataset is `random` (and
//! `sharegpt_output_len` when it is `sharegpt`); `backend` names the client protocol.

use super::client::{is_sglang, push_client_run, records};
use super::record::{base_name, Record};
use super::{Body, InputFile, Parsed, Probe};

pub(crate) fn detect(probe: &Probe) -> bool {
    probe.is_json() && is_sglang(probe) && probe.has_any(&["max_concurrency", "request_rate"])
}

pub(crate) fn parse(file: &InputFile, body: Body, out: &mut Parsed) {
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
        );
    }
}
