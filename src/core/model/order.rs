//! One stable sort for the whole crate. Each `slice::sort_by` with its own closure compiles its
//! own copy of the standard library's sort (about 3.7 KB of WASM each, nine of them on the
//! page); [`sort_by`] sorts a permutation of indices with the one compiled copy in
//! [`stable_order`] and then applies it in place. The lists sorted here are short (at most a
//! few thousand rows), so the indirect comparison costs nothing that shows.

use std::cmp::Ordering;

/// Indices `0..n` in the order `cmp` gives (stable: equal items keep their order).
fn stable_order(n: usize, cmp: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| cmp(a, b));
    order
}

/// Sorts `items` by `cmp`, stably, like `slice::sort_by`.
pub fn sort_by<T>(items: &mut [T], cmp: impl Fn(&T, &T) -> Ordering) {
    let mut order = stable_order(items.len(), &|a, b| cmp(&items[a], &items[b]));
    // Position j takes the item at order[j]: follow each cycle of the permutation with swaps,
    // marking each position done.
    for start in 0..order.len() {
        if order[start] == usize::MAX {
            continue;
        }
        let mut j = start;
        loop {
            let k = order[j];
            order[j] = usize::MAX;
            if k == start {
                break;
            }
            items.swap(j, k);
            j = k;
        }
    }
}

/// Sorts `items` by the key `key` gives, stably, like `slice::sort_by_key`.
pub fn sort_by_key<T, K: Ord>(items: &mut [T], key: impl Fn(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn sorts_like_the_standard_stable_sort(items in proptest::collection::vec((0u8..6, any::<u16>()), 0..200)) {
            let mut ours = items.clone();
            sort_by_key(&mut ours, |x| x.0);
            let mut std_sorted = items;
            std_sorted.sort_by_key(|x| x.0);
            prop_assert_eq!(ours, std_sorted);
        }
    }

    #[test]
    fn sorts_descending_by_a_comparison() {
        let mut v = vec![3.0, 1.0, 2.0, 5.0];
        sort_by(&mut v, |a: &f64, b| b.total_cmp(a));
        assert_eq!(v, [5.0, 3.0, 2.0, 1.0]);
    }
}
