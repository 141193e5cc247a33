//! SGLang `bench_serving --output-file` JSONL: one JSON object per line, with bare `Infinity`
//! (not valid JSON) where the request rate was unbounded. Level: `max_concurrency`, else the
//! request rate; the same keys as vLLM's client, in ms.

use super::record::Record;
use super::vllm::client_row;
use super::{InputFile, Measured, Parsed, SweepKey};

/// Replaces the bare tokens `Infinity`, `-Infinity` and `NaN` outside strings with `null`, so a
/// standard JSON parser reads the line (the value was not a finite number anyway).
pub(crate) fn sanitize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            rest = &rest[c.len_utf8()..];
            continue;
        }
        if c == '"' {
            in_string = true;
        }
        if let Some(token) = ["-Infinity", "Infinity", "NaN"]
            .iter()
            .find(|t| rest.starts_with(**t))
        {
            out.push_str("null");
            rest = &rest[token.len()..];
            continue;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

pub(crate) fn parse(file: &InputFile, out: &mut Parsed) {
    let model_from_name = file
        .name
        .rsplit('/')
        .next()
        .unwrap_or(&file.name)
        .to_string();
    for (i, line) in file.text.lines().enumerate() {
        let row_no = Some(i + 1);
        if line.trim().is_empty() {
            continue;
        }
        let Some(value) = out.json(&file.name, row_no, &sanitize(line)) else {
            continue;
        };
        let Some(obj) = value.as_object() else {
            out.problem(&file.name, row_no, "not a JSON object");
            continue;
        };
        let rec = Record(obj);
        match client_row(&rec) {
            Ok((row, kind)) => {
                let model = rec
                    .text("model_id")
                    .or_else(|| rec.text("model"))
                    .map_or_else(|| model_from_name.clone(), str::to_string);
                let mut key = SweepKey::new(&model, kind);
                if let (Some(isl), Some(osl)) = (
                    rec.num("random_input_len").ok().flatten(),
                    rec.num("random_output_len").ok().flatten(),
                ) {
                    key.config = format!("random {isl}/{osl}");
                }
                out.rows.push(Measured::new(key, row));
            }
            Err(message) => out.problem(&file.name, row_no, message),
        }
    }
}
