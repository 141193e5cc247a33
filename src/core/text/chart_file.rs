//! The trade-off chart as a file that reads on its own (the SVG download): the chart's markup as
//! the page draws it, under its title (wrapped to the chart's width), a legend of every series
//! and of the frontier, target line and feasible area it draws, and what the chart leaves out;
//! without what only the page needs (focus, roles, ARIA and test hooks, the page's own `<title>`).

use crate::core::text::chart_text::EXPORT_STYLE;

/// What the file is made of.
pub struct ChartFile<'a> {
    /// The chart's `<svg>` element as the page shows it (serialised markup).
    pub markup: &'a str,
    /// The chart's width and height, px.
    pub size: (f64, f64),
    /// The title: what is plotted against what, and the target.
    pub title: &'a str,
    /// Each series drawn: its deployment's label and colour class (`s0`…).
    pub legend: &'a [(String, &'a str)],
    /// What the chart leaves out (deployments not drawn, unpriced ones on the cost axis).
    pub notes: &'a [String],
}

/// Title lines: 13 px bold, at most about 8 px a character.
const TITLE_CHAR_PX: f64 = 8.0;
/// Note lines: 11 px, about 6 px a character.
const NOTE_CHAR_PX: f64 = 6.0;

/// `<`, `>` and `&` escaped, for text in the file.
fn escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// `text` in lines of at most `max` characters, broken between words (a longer word is a line
/// of its own).
fn wrapped(text: &str, max: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= max => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// An element's attribute only the page needs: focus, roles, ARIA, test hooks, handlers, and a
/// namespace (the file's root gives SVG's).
fn page_only(name: &str) -> bool {
    matches!(name, "tabindex" | "role" | "xmlns" | "focusable")
        || ["aria-", "data-", "on", "xmlns:"]
            .iter()
            .any(|p| name.starts_with(p))
}

/// A tag (`<…>`, as an XML serialiser writes it: values in double quotes, escaped) without its
/// page-only attributes.
fn tag_for_file(tag: &str) -> String {
    let body = tag.trim_start_matches('<').trim_end_matches('>');
    let (body, closing) = match body.strip_suffix('/') {
        Some(b) => (b, "/>"),
        None => (body, ">"),
    };
    let name_end = body.find(char::is_whitespace).unwrap_or(body.len());
    let mut out = format!("<{}", &body[..name_end]);
    let mut rest = &body[name_end..];
    while let Some(eq) = rest.find("=\"") {
        let name = rest[..eq].trim();
        let Some(len) = rest[eq + 2..].find('"') else {
            break;
        };
        let value = &rest[eq + 2..eq + 2 + len];
        if !page_only(name) {
            out.push_str(&format!(" {name}=\"{value}\""));
        }
        rest = &rest[eq + 2 + len + 1..];
    }
    out.push_str(closing);
    out
}

/// The chart's inner markup for the file: each tag without page-only attributes, and the page's
/// `<title>` elements left out (the file has its own).
fn inner_for_file(inner: &str) -> String {
    let mut out = String::with_capacity(inner.len());
    let mut rest = inner;
    let mut skipping_title = false;
    while let Some(lt) = rest.find('<') {
        if !skipping_title {
            out.push_str(&rest[..lt]);
        }
        let Some(gt) = rest[lt..].find('>') else {
            break;
        };
        let tag = &rest[lt..=lt + gt];
        let name = tag[1..]
            .split(|c: char| c.is_whitespace() || c == '>' || c == '/')
            .next()
            .unwrap_or_default();
        if name == "title" {
            skipping_title = !tag.ends_with("/>");
        } else if tag.starts_with("</title") {
            skipping_title = false;
        } else if !skipping_title {
            out.push_str(&tag_for_file(tag));
        }
        rest = &rest[lt + gt + 1..];
    }
    if !skipping_title {
        out.push_str(rest);
    }
    out
}

/// The file: `None` if the markup is not an `<svg>` element. Text is escaped.
pub fn standalone_svg(f: &ChartFile) -> Option<String> {
    let (width, chart_height) = f.size;
    let inner_start = f.markup.find('>')? + 1;
    let inner_end = f.markup.rfind("</svg>")?;
    let inner = inner_for_file(f.markup.get(inner_start..inner_end)?);
    let mut head = String::new();
    let mut y = 0.0;
    let title_chars = ((width - 8.0) / TITLE_CHAR_PX).max(20.0) as usize;
    for line in wrapped(f.title, title_chars) {
        y += 16.0;
        head.push_str(&format!(
            "<text class=\"title\" x=\"4\" y=\"{y}\">{}</text>",
            escape(&line)
        ));
    }
    y += 4.0;
    let mut row = |mark: String, label: &str, y: &mut f64| {
        head.push_str(&format!(
            "{mark}<text class=\"legend-text\" x=\"24\" y=\"{}\">{}</text>",
            *y + 12.0,
            escape(label)
        ));
        *y += 16.0;
    };
    for (label, class) in f.legend {
        let cy = y + 8.0;
        row(
            format!("<circle class=\"point {class}\" cx=\"10\" cy=\"{cy}\" r=\"5\"/>"),
            label,
            &mut y,
        );
    }
    let marks = [
        (
            "frontier",
            "Pareto frontier (no other level is better on both axes)",
        ),
        ("target", "the per-user target"),
        ("feasible", "meets the per-user target"),
    ];
    for (class, label) in marks {
        if !inner.contains(&format!("class=\"{class}\"")) {
            continue;
        }
        let cy = y + 8.0;
        let mark = if class == "feasible" {
            format!(
                "<rect class=\"feasible\" x=\"2\" y=\"{}\" width=\"16\" height=\"10\"/>",
                cy - 5.0
            )
        } else {
            format!("<line class=\"{class}\" x1=\"2\" x2=\"18\" y1=\"{cy}\" y2=\"{cy}\"/>")
        };
        row(mark, label, &mut y);
    }
    let note_chars = ((width - 8.0) / NOTE_CHAR_PX).max(20.0) as usize;
    for line in f.notes.iter().flat_map(|n| wrapped(n, note_chars)) {
        y += 14.0;
        head.push_str(&format!(
            "<text class=\"tick\" x=\"4\" y=\"{y}\">{}</text>",
            escape(&line)
        ));
    }
    let header = y + 8.0;
    let height = chart_height + header;
    Some(format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\">\
         <title>{}</title>{EXPORT_STYLE}{head}<g transform=\"translate(0 {header})\">{inner}</g></svg>",
        escape(f.title),
    ))
}

#[cfg(test)]
mod tests;
