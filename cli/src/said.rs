//! What the command says about its input: a problem or a note, with the file and row it is
//! about ([`Said`]).

use llm_slo_planner::core::import::Problem;

/// A problem or a note, with the file and row it is about: stderr says it located, the JSON
/// carries its parts.
#[derive(Clone, Debug, PartialEq)]
pub struct Said {
    /// The file it is about; `None` for the import or the command as a whole.
    pub file: Option<String>,
    /// The row, record or line it is about.
    pub row: Option<usize>,
    /// The anomaly flag it counts (`implausible-speed`, …), for an import's warning about rows.
    pub flag: Option<String>,
    /// What it says.
    pub text: String,
}

impl Said {
    /// A note of the command as a whole.
    pub fn command(text: String) -> Said {
        Said {
            file: None,
            row: None,
            flag: None,
            text,
        }
    }

    /// A problem of the file `name`.
    pub(crate) fn of_file(name: &str, text: String) -> Said {
        Said {
            file: Some(name.to_string()),
            ..Said::command(text)
        }
    }

    /// The file `name` cannot be read.
    pub(crate) fn unreadable(name: &str, e: &std::io::Error) -> Said {
        Said::of_file(name, format!("cannot be read ({e})"))
    }

    /// "a.csv, row 3: why", "a.csv: why", or the text alone, as stderr says it.
    pub fn located(&self) -> String {
        match (&self.file, self.row) {
            (None, _) => self.text.clone(),
            (Some(file), Some(row)) => format!("{file}, row {row}: {}", self.text),
            (Some(file), None) => format!("{file}: {}", self.text),
        }
    }

    /// As the JSON carries it: `{"file", "row", "flag", "text"}` (absent parts `null`).
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "file": self.file,
            "row": self.row,
            "flag": self.flag,
            "text": self.text,
        })
    }
}

impl From<&Problem> for Said {
    fn from(p: &Problem) -> Said {
        Said {
            file: (p.file != "(import)").then(|| p.file.clone()),
            row: p.row,
            flag: None,
            text: p.message(),
        }
    }
}
