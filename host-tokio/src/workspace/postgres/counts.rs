//! How many records hold each filter field, remembered for a while: the driving field is
//! chosen by these counts, and a count a little stale only costs speed, never a result.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Fields remembered at most; past it the memory starts afresh.
const MOST: usize = 4096;

/// `(key, value)` texts → (count, when counted).
pub(super) struct Counts {
    ttl: Duration,
    seen: Mutex<HashMap<(String, String), (i64, Instant)>>,
}

impl Counts {
    pub(super) fn new(ttl: Duration) -> Self {
        Counts {
            ttl,
            seen: Mutex::default(),
        }
    }

    pub(super) fn ttl(&self) -> Duration {
        self.ttl
    }

    /// The remembered count of each field, `None` when unknown or older than the ttl.
    pub(super) fn known(&self, fields: &[(String, String)]) -> Vec<Option<i64>> {
        let seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        fields
            .iter()
            .map(|field| {
                seen.get(field)
                    .filter(|(_, at)| at.elapsed() < self.ttl)
                    .map(|(count, _)| *count)
            })
            .collect()
    }

    pub(super) fn remember(&self, field: &(String, String), count: i64) {
        if self.ttl.is_zero() {
            return;
        }
        let mut seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
        if seen.len() >= MOST {
            seen.clear();
        }
        seen.insert(field.clone(), (count, Instant::now()));
    }
}

/// The fields to count before a query: none with fewer than two (nothing to choose
/// between), else those whose count is not remembered.
pub(super) fn to_count(known: &[Option<i64>]) -> Vec<usize> {
    if known.len() < 2 {
        return Vec::new();
    }
    (0..known.len()).filter(|&i| known[i].is_none()).collect()
}

/// The field with the fewest records (the first of equals) to drive the query.
pub(super) fn rarest(counts: &[Option<i64>]) -> usize {
    (0..counts.len()).min_by_key(|&i| counts[i]).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_remembered_for_the_ttl_only() {
        let field = ("\"a\"".to_owned(), "1".to_owned());
        let other = ("\"b\"".to_owned(), "2".to_owned());
        let counts = Counts::new(Duration::from_secs(60));
        assert_eq!(counts.ttl(), Duration::from_secs(60));
        counts.remember(&field, 7);
        assert_eq!(
            counts.known(&[field.clone(), other.clone()]),
            [Some(7), None]
        );
        counts.remember(&other, 3);
        assert_eq!(
            counts.known(&[field.clone(), other]),
            [Some(7), Some(3)],
            "both"
        );
        let never = Counts::new(Duration::ZERO);
        never.remember(&field, 7);
        assert_eq!(never.known(std::slice::from_ref(&field)), [None]);
        let brief = Counts::new(Duration::from_millis(1));
        brief.remember(&field, 7);
        std::thread::sleep(Duration::from_millis(5));
        assert_eq!(brief.known(&[field]), [None]);
    }

    #[test]
    fn two_fields_or_more_are_counted_unless_remembered_and_the_rarest_drives() {
        assert!(to_count(&[]).is_empty());
        assert!(to_count(&[None]).is_empty(), "one field: nothing to choose");
        assert_eq!(to_count(&[None, Some(4), None]), [0, 2]);
        assert!(to_count(&[Some(1), Some(2)]).is_empty());
        assert_eq!(to_count(&[None, None]), [0, 1], "two fields");
        assert_eq!(rarest(&[Some(2000), Some(3), Some(40)]), 1);
        assert_eq!(rarest(&[Some(5), Some(5)]), 0, "the first of equals");
        assert_eq!(rarest(&[Some(9), Some(2000), Some(1)]), 2);
    }
}
