//! What the program says: the answer on stdout, problems and notes on stderr. Nothing it writes
//! holds a control character but the line ends of its own format, whatever the files hold: a
//! benchmark file cannot drive the terminal of whoever runs the command.

use crate::args::Output;
use crate::exit::Exit;
use crate::report;

/// A line on stderr, named after the program (a closed stderr is not an error worth failing on).
pub fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "llm-slo-planner: {}",
        report::clean(line)
    );
}

/// `text` in `output` with every control character escaped but the line ends the format writes:
/// text as `\u{1b}` ([`report::clean`]), JSON as `\u001b` (serde_json escapes those below
/// U+0020 in strings already; DEL and C1 stay raw there), CSV cell by cell (a line end inside a
/// quoted cell too, so a cell stays one line).
pub fn terminal_safe(text: &str, output: Output) -> String {
    let mut out = String::with_capacity(text.len());
    match output {
        Output::Text | Output::Keda => {
            escape_but_line_ends(text, &mut out, |c| c.escape_unicode().to_string())
        }
        Output::Json => {
            escape_but_line_ends(text, &mut out, |c| format!("\\u{:04x}", u32::from(c)))
        }
        Output::Csv => csv_safe(text, &mut out),
    }
    out
}

/// Pushes `text` to `out`, each control character but `\n` written by `escape`.
fn escape_but_line_ends(text: &str, out: &mut String, escape: impl Fn(char) -> String) {
    for c in text.chars() {
        if c.is_control() && c != '\n' {
            out.push_str(&escape(c));
        } else {
            out.push(c);
        }
    }
}

/// Pushes a CSV text to `out` with its cells' control characters written as `\u{1b}`: its
/// leading comment lines (`# scenario: …`) as text, then the records, where a `\n` outside a
/// quoted cell ends a record and every other control character is a cell's.
fn csv_safe(text: &str, out: &mut String) {
    let mut rest = text;
    while rest.starts_with('#') {
        let end = rest.find('\n').map_or(rest.len(), |i| i + 1);
        escape_but_line_ends(&rest[..end], out, |c| c.escape_unicode().to_string());
        rest = &rest[end..];
    }
    let mut quoted = false;
    for c in rest.chars() {
        if c == '"' {
            quoted = !quoted;
        }
        if c.is_control() && (quoted || c != '\n') {
            out.push_str(&c.escape_unicode().to_string());
        } else {
            out.push(c);
        }
    }
}

/// Writes the answer on stdout, made safe for a terminal ([`terminal_safe`]). A reader that
/// stops early (`| head`) ends the output quietly; any other write error is said, and fails
/// ([`Exit::BadInput`]).
pub fn write_out(text: &str, output: Output) -> Result<(), Exit> {
    use std::io::Write;
    let text = terminal_safe(text, output);
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => {
            say(&format!("cannot write the answer: {e}"));
            Err(Exit::BadInput)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_escapes_control_characters_but_its_own_line_ends() {
        let odd = "m\u{1b}[31m\u{7}\r\nx\u{9b}";
        assert_eq!(
            terminal_safe(&format!("{odd}\nnext\n"), Output::Text),
            "m\\u{1b}[31m\\u{7}\\u{d}\nx\\u{9b}\nnext\n"
        );
        let json = format!("{}\n", serde_json::json!({ "m": odd }));
        assert_eq!(
            terminal_safe(&json, Output::Json),
            "{\"m\":\"m\\u001b[31m\\u0007\\r\\nx\\u009b\"}\n"
        );
        let csv = format!("# scenario: u\u{7}\nmodel,n\n\"{odd}\",1\nplain,2\n");
        assert_eq!(
            terminal_safe(&csv, Output::Csv),
            "# scenario: u\\u{7}\nmodel,n\n\"m\\u{1b}[31m\\u{7}\\u{d}\\u{a}x\\u{9b}\",1\nplain,2\n"
        );
    }
}
