//! What the program says: the answer on stdout, problems and notes on stderr.

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

/// Writes the answer on stdout. A reader that stops early (`| head`) ends the output quietly;
/// any other write error is said, and fails ([`Exit::BadInput`]).
pub fn write_out(text: &str) -> Result<(), Exit> {
    use std::io::Write;
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
