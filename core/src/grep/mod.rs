//! The grep engine: a pattern compiled once by one linear-time engine for every host
//! (`pattern`), the literals every match must contain, found first (`required`), a lazy
//! DFA for the subset it can read (`dfa`), and what a search matches rows with
//! (`matcher`). Read-back, redaction's user patterns and the Workspace's search all use it;
//! it knows nothing of artifacts or pages.

mod dfa;
pub(crate) mod matcher;
pub mod pattern;
mod required;
