use super::*;

fn file<'a>(markup: &'a str, title: &'a str, legend: &'a [(String, &'a str)]) -> ChartFile<'a> {
    ChartFile {
        markup,
        size: (400.0, 300.0),
        title,
        legend,
        notes: &[],
    }
}

#[test]
fn text_is_escaped_and_a_long_title_wraps_to_the_width() {
    let legend = [("<i>".to_string(), "s0")];
    let svg = standalone_svg(&file("<svg a=\"1\"><g/></svg>", "<b>&", &legend)).unwrap();
    assert!(svg.contains("<title>&lt;b&gt;&amp;</title>"));
    assert!(svg.contains("&lt;i&gt;"));
    assert!(svg.contains("<g/>"));
    assert!(!svg.contains("<b>"));
    assert!(standalone_svg(&file("no markup", "t", &[])).is_none());
    // 400 px: lines of at most 49 characters.
    let title = "Llama 4 Maverick 17B 128E Instruct FP8: per-user tok/s at p50 ITL vs total $ per M output tokens (target 20 tok/s per user)";
    let svg = standalone_svg(&file("<svg><g/></svg>", title, &[])).unwrap();
    let lines: Vec<&str> = svg
        .split("<text class=\"title\"")
        .skip(1)
        .map(|t| &t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()])
        .collect();
    assert!(lines.len() >= 3, "{lines:?}");
    assert!(lines.iter().all(|l| l.chars().count() <= 49), "{lines:?}");
    assert_eq!(lines.join(" "), escape(title));
}

#[test]
fn what_only_the_page_needs_is_left_out_and_the_marks_drawn_are_in_the_legend() {
    let markup = "<svg xmlns=\"http://www.w3.org/2000/svg\" data-testid=\"tradeoff-chart\" role=\"group\" aria-labelledby=\"x\">\
        <title xmlns=\"http://www.w3.org/1999/xhtml\" id=\"chart-svg-title\">Per-user tok/s against output tok/s per GPU</title>\
        <rect class=\"feasible\" x=\"1\" y=\"2\" width=\"3\" height=\"4\"/>\
        <line class=\"target\" x1=\"5\" x2=\"5\" y1=\"0\" y2=\"9\"/>\
        <circle class=\"point s0\" cx=\"1\" cy=\"2\" r=\"4\" tabindex=\"0\" role=\"button\" aria-label=\"a &gt; b\" data-level=\"8\"/>\
        <text class=\"tick\" x=\"1\" y=\"2\">role=\"x\" 9</text></svg>";
    let svg = standalone_svg(&ChartFile {
        markup,
        size: (640.0, 360.0),
        title: "Chart",
        legend: &[("1 x H100".to_string(), "s0")],
        notes: &["2 more deployments of this model are not drawn.".to_string()],
    })
    .unwrap();
    for gone in [
        "tabindex",
        "role=\"",
        "aria-",
        "data-",
        "1999/xhtml",
        "chart-svg-title",
        "output tok/s per GPU",
    ] {
        assert!(
            !svg.replace(">role=\"x\" 9<", "><").contains(gone),
            "{gone} in {svg}"
        );
    }
    // Text keeps what it says, even when it reads like an attribute.
    assert!(svg.contains(">role=\"x\" 9</text>"));
    assert!(svg.contains("<circle class=\"point s0\" cx=\"1\" cy=\"2\" r=\"4\"/>"));
    assert!(svg.contains("the per-user target"));
    assert!(svg.contains("meets the per-user target"));
    assert!(!svg.contains("Pareto frontier"));
    assert!(svg.contains("2 more deployments of this model are not drawn."));
    assert_eq!(svg.matches("<title>").count(), 1);
}
