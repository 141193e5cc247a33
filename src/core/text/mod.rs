//! Every sentence the fronts show: the answer's headline and explanations, the rules, the fleet
//! panel's figures, the chart's words and the errors' words. Imports `model`, `plan`, `import` and `scenario`.

pub mod ab_text;
pub mod arm_figures;
pub mod attainment_text;
pub mod capacity_text;
pub mod chart_file;
pub mod chart_text;
pub mod code_spans;
pub mod cost_text;
pub mod download_name;
pub mod error_text;
pub mod explain;
pub mod headline;
pub mod period_text;
pub mod power_text;
pub mod roles_text;
pub mod rules;
pub mod scenario_text;
pub mod why_text;

/// The README as the tests that hold its sentences to the code read it.
#[cfg(test)]
pub(crate) mod readme {
    /// Text with every run of whitespace made one space, and Markdown's line breaks gone.
    pub fn flat(text: &str) -> String {
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// The README's section that starts at `heading` (up to the next `## `), [`flat`].
    pub fn section(heading: &str) -> String {
        let readme = include_str!("../../../README.md");
        let start = readme
            .find(heading)
            .unwrap_or_else(|| panic!("the README has its section {heading}"));
        let section = &readme[start..];
        flat(&section[..section[3..].find("\n## ").map_or(section.len(), |i| i + 3)])
    }

    /// Asserts that `section` states each of `items` word for word, as a list item
    /// `- **NAME**: TEXT`.
    pub fn assert_states_each(section: &str, items: &[(&str, &str)]) {
        for (name, text) in items {
            let stated = flat(&format!("- **{name}**: {text}"));
            assert!(
                section.contains(&stated),
                "README should state, word for word:\n{stated}"
            );
        }
    }
}
