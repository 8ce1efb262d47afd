//! A Rust token counter, and the same as core's [`TokenCounter`] for one call.

use std::sync::Arc;

use tool_offload_core::{OffloadError, TokenCounter};

/// A token counter: tokens in a text (plug in a real tokenizer, e.g. the feature
/// `tokenizer`'s [`token_counter`](crate::tokens::token_counter)). It must not count more
/// tokens than the text has UTF-8 bytes: text of at most a limit in bytes is taken to be
/// within it, uncounted.
pub type CountTokens = Arc<dyn Fn(&str) -> usize + Send + Sync>;

/// A token counter that may fail (a callback into another language, a tokenizer
/// service), as core's [`TokenCounter`] may: its error fails the call that asked, at once.
/// The same rule as [`CountTokens`]: never more tokens than UTF-8 bytes.
pub type TryCountTokens = Arc<dyn Fn(&str) -> Result<usize, OffloadError> + Send + Sync>;

/// `count`, which cannot fail, as a [`TryCountTokens`].
pub(crate) fn fallible(count: CountTokens) -> TryCountTokens {
    Arc::new(move |text: &str| Ok(count(text)))
}

/// `count` as core takes it.
pub(crate) fn core_counter(count: Option<&TryCountTokens>) -> Option<Box<TokenCounter<'static>>> {
    let count = count?.clone();
    Some(Box::new(move |text: &str| count(text)))
}
