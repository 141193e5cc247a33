//! Reading a link's query and fragment apart from its scenario: its `src`, the query without
//! some parameters, and a shared sweep's `#sweep=` payload.

/// The `src` of a query string, if any (empty counts as absent).
pub fn src_of(query: &str) -> Option<String> {
    let query = query.strip_prefix('?').unwrap_or(query);
    form_urlencoded::parse(query.as_bytes())
        .find(|(k, _)| k == "src")
        .map(|(_, v)| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// The query without its `src` parameter (for falling back to the default source while keeping
/// the rest of the link).
pub fn without_src(query: &str) -> String {
    without(query, &["src"])
}

/// The query without these parameters, the others kept in order.
pub fn without(query: &str, keys: &[&str]) -> String {
    let query = query.strip_prefix('?').unwrap_or(query);
    let mut out = form_urlencoded::Serializer::new(String::new());
    for (k, v) in
        form_urlencoded::parse(query.as_bytes()).filter(|(k, _)| !keys.contains(&k.as_ref()))
    {
        out.append_pair(&k, &v);
    }
    out.finish()
}

/// The `#sweep=` payload of a fragment, if any.
pub fn shared_payload(fragment: &str) -> Option<&str> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    fragment
        .split('&')
        .find_map(|part| part.strip_prefix("sweep="))
        .filter(|p| !p.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn src_and_fragment_are_read() {
        assert_eq!(src_of("?src=gpqa&tps=20"), Some("gpqa".into()));
        assert_eq!(src_of("src=&tps=20"), None);
        assert_eq!(src_of(""), None);
        assert_eq!(
            without_src("?src=x&tps=25&model=a%2Fb"),
            "tps=25&model=a%2Fb"
        );
        assert_eq!(shared_payload("#sweep=abc_-"), Some("abc_-"));
        assert_eq!(shared_payload("#notes&sweep=x"), Some("x"));
        assert_eq!(shared_payload("#sweep="), None);
        assert_eq!(shared_payload(""), None);
    }
}
