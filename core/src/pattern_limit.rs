//! How long a grep pattern may be, and how one over the limit is shown in its error
//! message (a module of its own so that `error.rs` needs nothing of the engine).

use crate::text::utf16_len;
use crate::text::{byte_index_at, thousands};

/// Longest pattern accepted, in characters (UTF-16 code units). A search pattern a
/// model writes is a few dozen characters; 1000 leaves room for long alternations
/// while keeping parsing and the error message small.
pub const MAX_PATTERN_CHARS: usize = 1000;

/// Characters of a pattern over [`MAX_PATTERN_CHARS`] shown in its error message: the
/// message goes back to the model, which needs the start, not 60 KB of its own input.
const SHOWN_CHARS: usize = 100;

/// `pattern` for an error message: quoted, and cut when over the length limit.
pub(crate) fn shown(pattern: &str) -> String {
    let len = utf16_len(pattern);
    if len <= MAX_PATTERN_CHARS {
        return format!("{pattern:?}");
    }
    let kept = &pattern[..byte_index_at(pattern, SHOWN_CHARS)];
    format!(
        "{kept:?} …[cut: {} more characters]",
        thousands(len - utf16_len(kept))
    )
}
