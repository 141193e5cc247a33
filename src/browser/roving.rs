//! One Tab stop for a chart's marks (a roving tab index): the marks are numbered `data-n` 0, 1,
//! …; the one last focused has `tabindex="0"`, the others `-1`; arrow keys, Home and End move
//! focus among them.

use wasm_bindgen::JsCast;

/// The mark `key` moves to from mark `n` of `count`: the next (→, ↓), the previous (←, ↑), the
/// first (Home) or the last (End); `None` for any other key.
fn stepped(key: &str, n: usize, count: usize) -> Option<usize> {
    let last = count.checked_sub(1)?;
    match key {
        "ArrowRight" | "ArrowDown" => Some((n + 1).min(last)),
        "ArrowLeft" | "ArrowUp" => Some(n.saturating_sub(1)),
        "Home" => Some(0),
        "End" => Some(last),
        _ => None,
    }
}

/// The element an event's target or current target is, if it is one.
fn element(target: Option<web_sys::EventTarget>) -> Option<web_sys::Element> {
    target?.dyn_into::<web_sys::Element>().ok()
}

/// On a key pressed in a chart of `count` marks (the listener on the chart): moves focus to the
/// mark the key names; `true` when it did (the key's default is then to be prevented).
pub fn move_focus(ev: &web_sys::KeyboardEvent, count: usize) -> bool {
    let (Some(chart), Some(from)) = (element(ev.current_target()), element(ev.target())) else {
        return false;
    };
    let Some(to) = from
        .get_attribute("data-n")
        .and_then(|n| n.parse().ok())
        .and_then(|n| stepped(&ev.key(), n, count))
    else {
        return false;
    };
    let mark = chart
        .query_selector(&format!("[data-n=\"{to}\"]"))
        .ok()
        .flatten();
    match mark.and_then(|m| m.dyn_into::<web_sys::SvgElement>().ok()) {
        Some(mark) => mark.focus().is_ok(),
        None => false,
    }
}

/// On focus coming to a mark of a chart (the listener on the chart): the mark becomes the chart's
/// one Tab stop.
pub fn take_tab_stop(ev: &web_sys::FocusEvent) {
    let (Some(chart), Some(to)) = (element(ev.current_target()), element(ev.target())) else {
        return;
    };
    if !to.has_attribute("data-n") {
        return;
    }
    if let Ok(Some(from)) = chart.query_selector("[data-n][tabindex=\"0\"]") {
        let _ = from.set_attribute("tabindex", "-1");
    }
    let _ = to.set_attribute("tabindex", "0");
}

#[cfg(test)]
mod tests {
    use super::stepped;

    #[test]
    fn arrows_step_to_a_neighbour_and_stop_at_the_ends_home_and_end_jump() {
        assert_eq!(stepped("ArrowRight", 2, 5), Some(3));
        assert_eq!(stepped("ArrowDown", 4, 5), Some(4));
        assert_eq!(stepped("ArrowLeft", 2, 5), Some(1));
        assert_eq!(stepped("ArrowUp", 0, 5), Some(0));
        assert_eq!(stepped("Home", 3, 5), Some(0));
        assert_eq!(stepped("End", 1, 5), Some(4));
        assert_eq!(stepped("Enter", 1, 5), None);
        assert_eq!(stepped("End", 0, 0), None);
    }
}
