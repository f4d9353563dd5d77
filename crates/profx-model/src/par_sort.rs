//! Sorting on every core (rayon), for the sorts a large profile waits on.
//!
//! Ranking a profile's names at the end of a load and keying a million
//! rows for a re-sort are each one sort, on one core while the others
//! wait. A list whose items are worth making on every core too (a
//! re-sort's keys: a value and two name ranks read at random a row) is
//! made part by part on the pool's threads ([`make_sorted`]), then sorted
//! there.

use rayon::prelude::*;
use std::cmp::Ordering;
use std::ops::Range;

/// Below this many items one core sorts faster than the pool's threads
/// are woken.
const MIN_SPLIT: usize = 100_000;

/// How many items a part of [`make_sorted`] makes: enough to pay for
/// handing it to a thread, few enough that every core gets some.
const PART: usize = 1 << 16;

/// Sorts `v` as `sort_unstable_by(cmp)` would, on every core when `v` is
/// long.
pub fn sort_unstable_by<T, F>(v: &mut [T], cmp: F)
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    if worth_splitting(v.len()) {
        v.par_sort_unstable_by(cmp);
    } else {
        v.sort_unstable_by(cmp);
    }
}

/// The items `make` gives for `0..len`, sorted as `sort_unstable_by(cmp)`
/// would; `None` if `make` gives none for some part. For a long list the
/// parts are made on every core.
pub fn make_sorted<T, M, F>(len: usize, make: M, cmp: F) -> Option<Vec<T>>
where
    T: Copy + Send,
    M: Fn(Range<usize>) -> Option<Vec<T>> + Sync,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    if !worth_splitting(len) {
        let mut v = make(0..len)?;
        v.sort_unstable_by(cmp);
        return Some(v);
    }
    let parts: Vec<Vec<T>> = (0..len.div_ceil(PART))
        .into_par_iter()
        .map(|i| make(i * PART..((i + 1) * PART).min(len)))
        .collect::<Option<_>>()?;
    let mut v = parts.concat();
    v.par_sort_unstable_by(cmp);
    Some(v)
}

/// Whether a list this long is sorted faster on every core, and there is
/// more than one.
pub fn worth_splitting(len: usize) -> bool {
    len >= MIN_SPLIT && rayon::current_num_threads() >= 2
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
