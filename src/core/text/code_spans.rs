//! A message's `code` spans: the parts of a sentence between backticks, which the page shows as
//! code rather than with the backticks as typed. Text only: a part is never read as HTML.

/// The parts of `text`, each with whether it stood between a pair of backticks (the backticks
/// themselves dropped). A lone backtick with no partner is kept as text.
pub fn code_spans(text: &str) -> Vec<(bool, &str)> {
    let mut parts = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('`') {
        let Some(len) = rest[open + 1..].find('`') else {
            break;
        };
        if open > 0 {
            parts.push((false, &rest[..open]));
        }
        parts.push((true, &rest[open + 1..open + 1 + len]));
        rest = &rest[open + 2 + len..];
    }
    if !rest.is_empty() {
        parts.push((false, rest));
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::code_spans;

    #[test]
    fn backticked_parts_are_code_and_the_rest_text() {
        assert_eq!(
            code_spans("column `p50_itl_s` is not one this planner reads"),
            vec![
                (false, "column "),
                (true, "p50_itl_s"),
                (false, " is not one this planner reads")
            ]
        );
        assert_eq!(
            code_spans("`src` \"x\": see `#sweep=`"),
            vec![(true, "src"), (false, " \"x\": see "), (true, "#sweep=")]
        );
    }

    #[test]
    fn a_lone_backtick_and_markup_stay_text() {
        assert_eq!(code_spans("a ` b"), vec![(false, "a ` b")]);
        assert_eq!(
            code_spans("`<b>x</b>` and `"),
            vec![(true, "<b>x</b>"), (false, " and `")]
        );
        assert_eq!(code_spans("``"), vec![(true, "")]);
        assert!(code_spans("").is_empty());
    }
}
