//! Sorting on two cores: the two halves of a long list are sorted at
//! once, then merged.
//!
//! Ranking a profile's names at the end of a load and keying a million
//! rows for a re-sort are each one sort, on one core while the other one
//! waits; halving them is faster even with the merge, one more pass.
//! A list whose items are worth making on two cores too (a re-sort's keys:
//! a value and two name ranks read at random a row) is made half by half,
//! each half on the core that sorts it ([`make_sorted`]).

use std::cmp::Ordering;
use std::ops::Range;

/// Below this many items one core sorts faster than two threads start.
const MIN_SPLIT: usize = 100_000;

/// Sorts `v` as `sort_unstable_by(cmp)` would, on two cores when `v` is
/// long and there are two.
pub fn sort_unstable_by<T, F>(v: &mut Vec<T>, cmp: F)
where
    T: Copy + Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    if !worth_halving(v.len()) {
        v.sort_unstable_by(cmp);
        return;
    }
    let mid = v.len() / 2;
    let (a, b) = v.split_at_mut(mid);
    std::thread::scope(|s| {
        s.spawn(|| a.sort_unstable_by(&cmp));
        b.sort_unstable_by(&cmp);
    });
    let (a, b) = v.split_at(mid);
    *v = merge(a, b, &cmp);
}

/// The items `make` gives for `0..len`, sorted as `sort_unstable_by(cmp)`
/// would; `None` if `make` gives none for some part. For a long list on
/// two cores, each half is made and sorted on its own core.
pub fn make_sorted<T, M, F>(len: usize, make: M, cmp: F) -> Option<Vec<T>>
where
    T: Copy + Send,
    M: Fn(Range<usize>) -> Option<Vec<T>> + Sync,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    if !worth_halving(len) {
        let mut v = make(0..len)?;
        v.sort_unstable_by(cmp);
        return Some(v);
    }
    let mid = len / 2;
    let half = |range: Range<usize>| {
        let mut v = make(range)?;
        v.sort_unstable_by(&cmp);
        Some(v)
    };
    let (a, b) = std::thread::scope(|s| {
        let first = s.spawn(|| half(0..mid));
        let second = half(mid..len);
        let first = first
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p));
        (first, second)
    });
    Some(merge(&a?, &b?, &cmp))
}

/// Whether a list this long is sorted faster on two cores, and there are
/// two.
pub fn worth_halving(len: usize) -> bool {
    len >= MIN_SPLIT && std::thread::available_parallelism().is_ok_and(|n| n.get() >= 2)
}

/// Two sorted lists as one, the first's items first among equals.
fn merge<T: Copy>(a: &[T], b: &[T], cmp: impl Fn(&T, &T) -> Ordering) -> Vec<T> {
    let mut merged = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if cmp(&a[i], &b[j]) != Ordering::Greater {
            merged.push(a[i]);
            i += 1;
        } else {
            merged.push(b[j]);
            j += 1;
        }
    }
    merged.extend_from_slice(&a[i..]);
    merged.extend_from_slice(&b[j..]);
    merged
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_and_short_lists_sort_as_one_sort_sorts_them() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for len in [0, 1, 7, MIN_SPLIT - 1, MIN_SPLIT, 3 * MIN_SPLIT + 1] {
            let v: Vec<(u8, u32)> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x as u8, (x >> 32) as u32)
                })
                .collect();
            let (mut two, mut one) = (v.clone(), v);
            // By the first part only: equal items may land in any order,
            // but the keys must come out in order.
            let made = make_sorted(len, |r| Some(one[r].to_vec()), |a, b| a.0.cmp(&b.0));
            let made = made.expect("every part made");
            sort_unstable_by(&mut two, |a, b| a.0.cmp(&b.0));
            one.sort_unstable();
            for mut v in [two, made] {
                assert!(v.windows(2).all(|w| w[0].0 <= w[1].0), "{len}");
                v.sort_unstable();
                assert_eq!(v, one, "{len}: the same items");
            }
            let none = make_sorted(len, |r| (r.start == 0).then(Vec::new), |a: &u8, b| a.cmp(b));
            assert_eq!(none.is_none(), len >= MIN_SPLIT, "{len}: a part not made");
        }
    }
}
