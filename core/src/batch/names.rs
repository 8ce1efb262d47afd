//! The file names of one batch: `tool-result-<id>.md` for an id's first offloaded
//! result, then `-1`, `-2`, …, never a name the batch has given out before.

use std::collections::{HashMap, HashSet};

use crate::path::MAX_FILE_NAME_BYTES;

pub(super) const PREFIX: &str = "tool-result-";
pub(super) const SUFFIX: &str = ".md";

/// The names a batch has given out.
#[derive(Debug, Default)]
pub(super) struct FileNames {
    used: HashSet<String>,
    /// For an id claimed more than once, the number its next name tries first.
    next_number: HashMap<String, u32>,
}

impl FileNames {
    /// The next name `tool-result-<id>[-N].md` not yet given out, or `None` if too long.
    pub(super) fn claim(&mut self, id: &str) -> Option<String> {
        // Most ids are claimed once: their plain name is tried without recording a
        // number for them (an allocation and a hash each). An id without a number
        // starts at 0 again, whose name is then taken, so the search goes on exactly
        // where it left off.
        let mut number = self.next_number.get(id).copied().unwrap_or(0);
        loop {
            let name = match number {
                0 => [PREFIX, id, SUFFIX].concat(),
                n => format!("{PREFIX}{id}-{n}{SUFFIX}"),
            };
            if name.len() > MAX_FILE_NAME_BYTES {
                return None;
            }
            if self.used.insert(name.clone()) {
                if number > 0 {
                    self.next_number.insert(id.to_owned(), number + 1);
                }
                return Some(name);
            }
            number += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_is_recorded_only_for_an_id_claimed_again() {
        let mut names = FileNames::default();
        let mut claim = |id: &str| {
            let name = names.claim(id);
            (name, names.next_number.get(id).copied())
        };
        // Claimed once: no number kept (most ids).
        assert_eq!(claim("a"), (Some("tool-result-a.md".into()), None));
        // Again: the search resumes after the last number given out.
        assert_eq!(claim("a"), (Some("tool-result-a-1.md".into()), Some(2)));
        assert_eq!(claim("a"), (Some("tool-result-a-2.md".into()), Some(3)));
        // "a-1"'s plain name was given to "a": it moves on, and remembers where.
        assert_eq!(claim("a-1"), (Some("tool-result-a-1-1.md".into()), Some(2)));
        assert_eq!(claim(&"x".repeat(250)), (None, None));
    }
}
