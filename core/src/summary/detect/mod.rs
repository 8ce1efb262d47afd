//! Which lines of a tool output are failures, and which of them most likely is the
//! root cause: the summary shows those first ([`super::summary`]).
//!
//! The rules are data ([`rules::RULES`]); a fast scan (`scan`) finds the few lines
//! that hold one of their trigger words, and only those are classified.

mod body;
mod classify;
mod detection;
mod hint;
mod levels;
pub mod rules;
mod scan;
pub use body::body;
pub(crate) use body::gutter;
pub use classify::{classify, Classified};
pub use hint::grep_pattern;
pub use rules::{Level, Rule, Shape, RULES};
pub use scan::{EXACT_TRIGGERS, TRIGGERS};

pub use detection::{detect, ranked, Detection};
