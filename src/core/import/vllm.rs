//! vLLM benchmark results: `bench serve --save-result` JSON (one file per level), the same
//! records as JSON lines (one result per line, as scripts append them), a `vllm bench sweep`
//! folder (`run=N.json` files and a `summary.json` array of the same runs, each run counted
//! once), and the multi-turn benchmark's output (level `multi_turn_concurrency`; its ITL and
//! TPOT are both kept). Latencies are in ms. The configuration label of a run is the serve
//! combination `vllm bench sweep` names its folder by (`SERVE--<serve>-BENCH--<bench>`, the
//! combination `key=value` pairs or a name the user gave it, e.g. `SERVE--fp8-kv-BENCH--c032`),
//! else the server's `max_num_seqs` where recorded: two serve combinations are two sweeps; `backend` names the client protocol, not the engine, and the
//! run's `date` and `run_number` are per run, so none of them splits a sweep.

use super::client::{is_sglang, push_client_run, records};
use super::record::Record;
use super::{Body, Format, FormatSpec, InputFile, Parsed, Probe};

/// This format: its names, how its files are recognised, and its reader.
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::VllmBench,
    label: "vLLM bench serve JSON",
    described: "a vLLM bench serve result",
    detect,
    parse,
    keys: &[
        "backend",
        "model_id",
        "request_rate",
        "max_concurrency",
        "multi_turn_concurrency",
        "output_throughput",
        "median_itl_ms",
        "mean_tpot_ms",
        "completed",
        "duration",
        "burstiness",
        "num_prompts",
    ],
    level: "max_concurrency|request_rate|multi_turn_concurrency",
    throughput: "output_throughput",
};

/// A benchmark-client record that is not SGLang's (see `client::is_sglang`).
fn detect(probe: &Probe) -> bool {
    probe.is_json()
        && (probe.has("backend") || probe.has("output_throughput"))
        && probe.has_any(&["max_concurrency", "request_rate", "multi_turn_concurrency"])
        && !is_sglang(probe)
}

fn parse(file: &InputFile, body: Body, out: &mut Parsed) {
    let serve = serve_combination(&file.name);
    for (n, obj) in records(&file.name, &file.text, body, out) {
        if out.full() {
            break;
        }
        // A sweep folder holds each run twice (run=N.json and summary.json): count it once.
        if !out.first_time(serde_json::Value::Object(obj.clone()).to_string()) {
            continue;
        }
        push_client_run(
            out,
            &file.name,
            n,
            &Record(&obj),
            &["model_id"],
            None,
            serve,
        );
    }
}

/// The serve combination of a `vllm bench sweep` folder in `path`: the text between `SERVE--`
/// and `-BENCH--` of the innermost folder named so (`SERVE--max_num_seqs=4-BENCH--…` gives
/// `max_num_seqs=4`); `None` when no folder is named so or the combination is empty.
pub(crate) fn serve_combination(path: &str) -> Option<&str> {
    path.rsplit(['/', '\\'])
        .filter_map(|part| part.strip_prefix("SERVE--"))
        .find_map(|rest| rest.find("-BENCH--").map(|end| &rest[..end]))
        .filter(|serve| !serve.is_empty())
}
