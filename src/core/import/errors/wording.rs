//! Each [`RowError`]'s message, worded once.

use std::fmt;

use super::RowError;
use crate::core::model::format::{bytes as bytes_text, short_number};

impl fmt::Display for RowError {
    #[allow(
        clippy::too_many_lines,
        reason = "one arm per error kind, each its message; splitting it would scatter the table"
    )]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RowError::NotJson { reason } => write!(f, "not valid JSON: {reason}"),
            RowError::NotAnObject => write!(f, "not a JSON object"),
            RowError::NumberOutOfRange { key, number } => write!(
                f,
                "`{key}` holds a number out of range ({number}): it does not fit a 64-bit float"
            ),
            RowError::Missing { key } => {
                write!(f, "`{key}` has no value (absent, empty, NaN or infinite)")
            }
            RowError::NoLevel { keys } => {
                write!(f, "no level: `{keys}` is missing or not a finite number")
            }
            RowError::NotANumber { key, text: Some(v) } => {
                write!(f, "`{key}` is not a number (\"{v}\")")
            }
            RowError::NotANumber { key, text: None } => write!(f, "`{key}` is not a number"),
            RowError::NotPositive { key, value } => {
                write!(f, "`{key}` must be positive, got {value}")
            }
            RowError::AllRequestsFailed { key } => write!(f, "all requests failed (`{key}` is 0)"),
            RowError::NotATimeUnit { metric, unit } => {
                write!(f, "`{metric}` has unit \"{unit}\", not a time")
            }
            RowError::UnknownColumn { column, meant } => {
                write!(
                    f,
                    "column `{column}` is not one this planner reads; its values are ignored"
                )?;
                match meant {
                    Some(ms) => write!(
                        f,
                        " (did you mean `{ms}`? the template's latencies are in ms)"
                    ),
                    None => Ok(()),
                }
            }
            RowError::NoDataRows => write!(f, "no data rows: the file has a header only"),
            RowError::UnreadableCsv { reason } => match reason {
                Some(reason) => write!(f, "unreadable CSV: {reason}"),
                None => write!(f, "unreadable CSV"),
            },
            RowError::NotRecognised { keys } => write!(
                f,
                "format not recognised: no format this planner reads has keys like {keys} (see the README for the formats)"
            ),
            RowError::NoKeys { found } => write!(
                f,
                "format not recognised: the file holds {found}, not runs or requests with named fields (a JSON object each, or a CSV with a header row; see the README for the formats)"
            ),
            RowError::LooksLikeButNoLevel { format, key } => write!(
                f,
                "looks like {format}, but has no `{key}`: cannot place it on a level"
            ),
            RowError::LooksLikeButNoThroughput { format, key } => write!(
                f,
                "looks like {format}, but has no `{key}`: no output throughput to plan with"
            ),
            RowError::PercentilesWithoutSummary => write!(
                f,
                "an EvalScope percentile file without its benchmark_summary.json (import both files of the run together, from the same folder)"
            ),
            RowError::PercentilesAmbiguous { summaries } => write!(
                f,
                "an EvalScope percentile file not read: {summaries} summaries of this import have no folder to tell which is its run (import the output folder whole, or each run's two files on their own)"
            ),
            RowError::OutOfRange {
                level,
                throughput_tok_s,
            } => write!(
                f,
                "a level of {} with {} tok/s is out of range (1e-6 to 1e9) and was left out",
                short_number(*level),
                short_number(*throughput_tok_s)
            ),
            RowError::TooManyRows { limit } => write!(
                f,
                "only the first {} rows are read",
                crate::core::model::format::grouped(*limit as f64, 0)
            ),
            RowError::UnusableLatencies { count } => write!(
                f,
                "{} below 1e-6 ms (0 or less) or over 1e9 ms {} shown as not reported",
                crate::core::model::format::counted(*count as usize, "latency value"),
                crate::core::model::format::for_count(*count as usize, "is", "are")
            ),
            RowError::NoFile => write!(f, "no file was given"),
            RowError::FileTooLarge { bytes, limit } => write!(
                f,
                "not read: the file is {}, more than the {} one imported file may have",
                bytes_text(*bytes),
                bytes_text(*limit)
            ),
            RowError::PastLimit { limit } => write!(
                f,
                "not read: it goes on past the {} one imported file may have (its size is not known before it is read)",
                bytes_text(*limit)
            ),
            RowError::ImportTooLarge { bytes, limit } => write!(
                f,
                "not read: with it the files come to {}, more than the {} one import may have",
                bytes_text(*bytes),
                bytes_text(*limit)
            ),
            RowError::TooManySweeps { limit } => write!(
                f,
                "only the first {} sweeps are kept; runs of further sweeps were left out",
                crate::core::model::format::grouped(*limit as f64, 0)
            ),
            RowError::TextCut { rows, limit } => write!(
                f,
                "{} with a text longer than {limit} characters (a model, GPU or label): cut to {limit}",
                crate::core::model::format::counted(*rows, "row")
            ),
            RowError::MoreLikeThese { example, count } => {
                write!(
                    f,
                    "and {} more like these ({example})",
                    crate::core::model::format::grouped(*count as f64, 0)
                )
            }
            RowError::NotText => write!(
                f,
                "not a text file (a benchmark result is JSON, JSON lines or CSV)"
            ),
            RowError::Unreadable { reason } => write!(
                f,
                "could not be read ({reason}): moved, deleted or changed since it was picked"
            ),
            RowError::Empty => write!(f, "empty: there is nothing to read"),
            RowError::Skipped { what, why } => write!(f, "{what}: not read as a level, {why}"),
            RowError::LeftOut { what, why } => write!(f, "{what} not read: {why}"),
            RowError::SignalsWithoutLevel { what } => write!(
                f,
                "server signals without a level: {what}; they are kept out (import the run's files together, from the same folder)"
            ),
            RowError::SignalOutOfRange { signal, value } => write!(
                f,
                "{signal} of {} is outside its range (KV use is a fraction from 0 to 1, counts are 0 or more): not used",
                short_number(*value)
            ),
            RowError::SignalUnit { metric, unit } => write!(
                f,
                "`{metric}` in unit `{unit}`, not a ratio (0 to 1) nor a percent: not used"
            ),
            RowError::RequestsNotMeasured { count, issued } => write!(
                f,
                "{} of {} hold a time that is not a latency (NaN, a negative TTFT or gap, or an end before the first token): counted as {}",
                crate::core::model::format::grouped(*count as f64, 0),
                crate::core::model::format::counted(
                    usize::try_from(*issued).unwrap_or(usize::MAX),
                    "request",
                ),
                crate::core::model::format::for_count(*count, "a miss", "misses")
            ),
            RowError::UnsupportedVersion { tool, versions } => write!(f, "{tool} {versions}"),
            RowError::ResponsesWithoutSummary { run } => write!(
                f,
                "LLMPerf individual responses without their summary (`{run}_summary.json` from the same run): import both files together; the summary places the run on a level"
            ),
            RowError::GuideLlmCsv => write!(
                f,
                "a GuideLLM CSV: this planner reads the same benchmarks from the JSON report GuideLLM writes with it (benchmarks.json, --outputs json)"
            ),
            RowError::NulByte { column } => write!(
                f,
                "a NUL byte (\\0) in column `{column}`: the row is not read (the rest of the file is)"
            ),
            RowError::ToolGoodput { tool, figures } => write!(f, "{tool}'s own goodput: {figures}"),
            RowError::Yaml => write!(
                f,
                "a YAML file, not read: a run's settings (config.yaml, manifests) are no report, and the tools that write a YAML report write the same as JSON, which this planner reads (GuideLLM's benchmarks.json, inference-perf's stage_N_lifecycle_metrics.json)"
            ),
            RowError::YamlTwin { tool, json } => write!(
                f,
                "{tool}'s YAML twin of its report, not read: {tool} writes the same report as JSON ({json}), which this planner reads"
            ),
            RowError::TooManyValues {
                limit,
                text_at: Some(at),
            } => write!(
                f,
                "read only in part: the text starting at byte {} is longer than {}, the longest text read (a request's generated text, a model id), so the file is read up to it",
                crate::core::model::format::grouped(*at as f64, 0),
                bytes_text(*limit)
            ),
            RowError::TooManyValues { limit, .. } => write!(
                f,
                "read only in part: a file this large is read as a stream, and it keeps more than {} besides its per-request arrays (vLLM's and SGLang's `itls` and `generated_texts`)",
                bytes_text(*limit)
            ),
            RowError::NotWhole { key, value } => {
                write!(f, "`{key}` must be a whole number, got {value}")
            }
            RowError::RoleWithoutGpus { key } => write!(
                f,
                "`{key}` is 0 in a disaggregated row: a role without GPUs cannot be counted, so the row is not read"
            ),
            RowError::RolesDoNotAddUp {
                total_tok_s,
                by_role_tok_s,
                prefill_gpus,
                decode_gpus,
            } => write!(
                f,
                "its per-GPU throughputs do not add up by role: tput_per_gpu × (P + D) = {} tok/s, but input_tput_per_gpu × P + output_tput_per_gpu × D = {} tok/s (P = {prefill_gpus}, D = {decode_gpus}); which GPUs each figure divides by is not known, so the row is not read",
                crate::core::model::format::grouped(*total_tok_s, 1),
                crate::core::model::format::grouped(*by_role_tok_s, 1)
            ),
            RowError::GpusDoNotAddUp {
                num_gpus,
                prefill_gpus,
                decode_gpus,
            } => match num_gpus {
                Some(n) => write!(
                    f,
                    "`num_gpus` ({n}) is not prefill_gpus + decode_gpus ({prefill_gpus} + {decode_gpus} = {}): the row is not read",
                    u64::from(*prefill_gpus) + u64::from(*decode_gpus)
                ),
                None => write!(
                    f,
                    "prefill_gpus + decode_gpus ({prefill_gpus} + {decode_gpus}) is more GPUs than a count holds: the row is not read"
                ),
            },
            RowError::DecodeRoleEnergy { key, j } => write!(
                f,
                "`{key}` ({} J) is the decode role's alone (no power_metric_schema_version 2): shown as the decode role's; the whole deployment's J per output token is avg_power_w × (P + D) ÷ output tok/s",
                crate::core::model::format::trimmed(*j, 4)
            ),
            RowError::UnreadableDate { date } => write!(
                f,
                "date \"{date}\" is not one this planner reads (e.g. 2026-03-25): its sweep is listed after the dated ones"
            ),
        }
    }
}
