//! One sort for every list core orders.
//!
//! Each `sort_unstable_by` on a different element type compiles its own copy of the
//! standard library's quicksort (about 2 KB of wasm each); every list core sorts is short
//! (object keys, one namespace's records, one directory's files), so they all share one
//! copy that sorts positions through a `dyn` comparison and then moves the items.

use std::cmp::Ordering;

/// Sorts `items` by `compare`. Every caller's order is total (ties cannot happen), so
/// stability does not matter.
pub(crate) fn sort_by<T>(items: &mut Vec<T>, compare: impl Fn(&T, &T) -> Ordering) {
    let mut order: Vec<usize> = (0..items.len()).collect();
    sort_positions(&mut order, &|a, b| match (items.get(a), items.get(b)) {
        (Some(a), Some(b)) => compare(a, b),
        _ => Ordering::Equal,
    });
    let mut slots: Vec<Option<T>> = items.drain(..).map(Some).collect();
    items.extend(
        order
            .into_iter()
            .filter_map(|i| slots.get_mut(i).and_then(Option::take)),
    );
}

/// The one instantiation of the standard sort.
fn sort_positions(order: &mut [usize], compare: &dyn Fn(usize, usize) -> Ordering) {
    order.sort_unstable_by(|&a, &b| compare(a, b));
}

#[cfg(test)]
mod tests {
    use super::sort_by;

    #[test]
    fn sorts_and_keeps_every_item() {
        let mut items: Vec<String> = ["d", "a", "c", "b", "e", "a2"].map(String::from).to_vec();
        sort_by(&mut items, |a, b| a.cmp(b));
        assert_eq!(items, ["a", "a2", "b", "c", "d", "e"]);
        let mut reversed: Vec<u32> = (0..100).collect();
        sort_by(&mut reversed, |a, b| b.cmp(a));
        assert_eq!(reversed, (0..100).rev().collect::<Vec<_>>());
        let mut empty: Vec<u8> = Vec::new();
        sort_by(&mut empty, |a, b| a.cmp(b));
        assert!(empty.is_empty());
    }
}
