//! Which models are precision variants of one another, and the model the page opens with. No
//! dependencies: `build.rs` includes this file too (`#[path]`), to compile the default model's
//! family into the page apart from the rest of the bundled data (`core::import::bundled`).

/// The model shown when a link names none (the bundled data's Llama 3.1 8B).
pub const DEFAULT_MODEL: &str = "meta-llama/Llama-3.1-8B-Instruct";

/// What a model's precision variants share: its id with a trailing `-FP8` (any case) removed,
/// lowercased; e.g. `Qwen/Qwen3-235B-A22B-Instruct-2507` and its `-FP8` sibling.
pub fn family_key(model_id: &str) -> String {
    let lower = model_id.to_ascii_lowercase();
    lower.strip_suffix("-fp8").unwrap_or(&lower).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precision_variants_share_a_key() {
        assert_eq!(
            family_key("Qwen/Qwen3-235B-A22B-Instruct-2507-FP8"),
            family_key("Qwen/Qwen3-235B-A22B-Instruct-2507")
        );
        assert_ne!(
            family_key("meta-llama/Llama-3.1-405B-Instruct"),
            family_key("meta-llama/Llama-3.1-70B-Instruct")
        );
    }
}
