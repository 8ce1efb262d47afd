//! A Rust token counter, and the same as core's [`TokenCounter`] for one call.

use std::sync::Arc;

use tool_offload_core::TokenCounter;

/// A token counter: tokens in a text (plug in a real tokenizer, e.g. the feature
/// `tokenizer`'s [`token_counter`](crate::tokens::token_counter)). It must not count more
/// tokens than the text has UTF-8 bytes: text of at most a limit in bytes is taken to be
/// within it, uncounted.
pub type CountTokens = Arc<dyn Fn(&str) -> usize + Send + Sync>;

/// `count` as core takes it (it cannot fail).
pub(crate) fn core_counter(count: Option<&CountTokens>) -> Option<Box<TokenCounter<'static>>> {
    let count = count?.clone();
    Some(Box::new(move |text: &str| Ok(count(text))))
}
