//! Exact token counts (feature `tokenizer`): OpenAI's vocabularies through GitHub's
//! `bpe-openai`, for [`Workspace::with_token_counter`](crate::workspace::Workspace::with_token_counter).
//! Without it the Workspace uses core's estimate, which is 11 times as fast and rarely
//! undercounts (docs/tokens.md); a counter is asked only for results longer in UTF-8
//! bytes than the threshold, since no token is shorter than a byte.

use std::sync::Arc;

use crate::count::CountTokens;

/// An OpenAI vocabulary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Vocabulary {
    /// `o200k_base`: GPT-4o, GPT-4.1, GPT-5 and the o-series.
    O200kBase,
    /// `cl100k_base`: GPT-4, GPT-3.5 and OpenAI's embedding models.
    Cl100kBase,
}

/// A counter of exact tokens in `vocabulary` (the counts of tiktoken's
/// `encode_ordinary`: special tokens are plain text). The vocabulary is loaded on first
/// use, in about 50 ms.
///
/// ```
/// use tool_offload::{token_counter, Vocabulary, Workspace};
/// let count = token_counter(Vocabulary::O200kBase);
/// assert_eq!(count("hello world"), 2);
/// assert_eq!(count("src/main.rs:42:    let x = 1;"), 13);
/// let ws = Workspace::in_dir("/var/lib/agent").unwrap().with_token_counter(count);
/// # let _ = ws;
/// ```
pub fn token_counter(vocabulary: Vocabulary) -> CountTokens {
    match vocabulary {
        Vocabulary::O200kBase => Arc::new(|text: &str| bpe_openai::o200k_base().count(text)),
        Vocabulary::Cl100kBase => Arc::new(|text: &str| bpe_openai::cl100k_base().count(text)),
    }
}
