//! Row orders: the canonical ones of report-json.md, by any column, and
//! the one a table opens in.

use super::columns::{
    Column, FuncColumn, LineColumn, ModuleColumn, StackColumn, ThreadColumn, ValueKind, compare,
};
use super::view::Table;
use profx_model::{FuncId, LineId, Profile, StackId};
use rayon::prelude::*;
use std::cmp::Ordering;

/// The columns a table of `C` opens sorted by, most wanted first.
///
/// One list for the app's panes and `profx report`'s table, so that a
/// script's first rows are the ones the app opens on.
pub trait DefaultOrder: Column {
    /// The columns by preference: a table opens sorted by the first some row
    /// has a value in.
    const OPENS_BY: &'static [Self];
}

impl DefaultOrder for FuncColumn {
    const OPENS_BY: &'static [Self] = &[
        FuncColumn::ElapsedIncl,
        FuncColumn::HitsTotal,
        FuncColumn::Calls,
        FuncColumn::AppIncl,
    ];
}

impl DefaultOrder for LineColumn {
    const OPENS_BY: &'static [Self] = &[LineColumn::Time, LineColumn::Hits];
}

/// The busiest thread first, as the threads list opens.
impl DefaultOrder for ThreadColumn {
    const OPENS_BY: &'static [Self] = &[ThreadColumn::BusyMs, ThreadColumn::Events];
}

/// The heaviest module first, as Functions opens: by inclusive time,
/// else (no call paths) exclusive time, else samples, else calls.
impl DefaultOrder for ModuleColumn {
    const OPENS_BY: &'static [Self] = &[
        ModuleColumn::ElapsedIncl,
        ModuleColumn::ElapsedExcl,
        ModuleColumn::HitsTotal,
        ModuleColumn::HitsSelf,
        ModuleColumn::Calls,
    ];
}

impl DefaultOrder for StackColumn {
    const OPENS_BY: &'static [Self] =
        &[StackColumn::SelfMs, StackColumn::Hits, StackColumn::ChildMs];
}

/// The order a table opens in: the heaviest first by the first of
/// `C::OPENS_BY` among `present` (the columns some row has a value in,
/// `columns::present_columns`), as `sort_by` of the canonical order;
/// `None`, the canonical order itself, when the profile has none of them.
pub fn default_sort<C: DefaultOrder>(present: &[C]) -> Option<(C, bool)> {
    let col = C::OPENS_BY.iter().copied().find(|c| present.contains(c))?;
    Some((col, col.descending_by_default()))
}

/// Rows of `C` ordered by `col`, ties by name; a stable sort, so equal rows
/// keep their previous relative order.
///
/// Each row's key is computed once (its value, or its text's name rank,
/// and its tie's rank) and the keys sorted as integers: a million rows
/// sort in tens of milliseconds. Rows whose text is no interned name
/// (packets) are compared as text, in the same order.
pub fn sort_by<C: Column>(p: &Profile, rows: &mut [C::Row], col: C, descending: bool) {
    // Keys are made and sorted half by half, each half on a core: making
    // them reads a row and two name ranks at random, and took more of a
    // re-sort of 1 M rows than the sort.
    let make =
        |range: std::ops::Range<usize>| keys(p, &rows[range.clone()], range.start, col, descending);
    match profx_model::par_sort::make_sorted(rows.len(), make, Ord::cmp) {
        Some(keys) => {
            let before = rows.to_vec();
            for (row, key) in rows.iter_mut().zip(&keys) {
                *row = before[key.2 as usize];
            }
        }
        None => rows.sort_by(|&a, &b| compare(p, col, a, b, descending)),
    }
}

type Key = (u64, u64, u32);

/// (value, tie, position) per row of `rows`, which start at position
/// `first`, ordered as `compare` orders rows (the position makes it
/// stable); `None` when some row has no ranks.
fn keys<C: Column>(
    p: &Profile,
    rows: &[C::Row],
    first: usize,
    col: C,
    descending: bool,
) -> Option<Vec<Key>> {
    rows.iter()
        .enumerate()
        .map(|(i, &r)| {
            let i = first + i;
            let (rank, tie) = col.ranks(p, r);
            let value = value_key(p, col, r, rank, descending)?;
            Some((value, tie?, u32::try_from(i).ok()?))
        })
        .collect()
}

/// A row's value in `col` as an integer in the column's order (`rank`:
/// its text's name rank, from `Column::ranks`); `None` for text that is
/// no interned name.
pub(super) fn value_key<C: Column>(
    p: &Profile,
    col: C,
    row: C::Row,
    rank: Option<u32>,
    descending: bool,
) -> Option<u64> {
    let flip = |k: u64| if descending { !k } else { k };
    match col.value_kind() {
        ValueKind::Text => Some(flip(u64::from(rank?))),
        ValueKind::Number => Some(
            col.value(p, row)
                .number()
                .map_or(ABSENT, |x| flip(ordered(x))),
        ),
    }
}

/// Absent numbers sort last in either direction.
const ABSENT: u64 = u64::MAX;

/// An f64 as a u64 in `total_cmp` order, kept clear of both ends so that
/// a flipped key never reaches `ABSENT`.
fn ordered(x: f64) -> u64 {
    total_key(x).clamp(1, ABSENT - 1)
}

/// An f64 as a u64 that compares as `f64::total_cmp` does: a sort key
/// made once, where a comparison would read the value again each time.
pub fn total_key(x: f64) -> u64 {
    let bits = x.to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | 1 << 63
    }
}

/// Descending with absent values last.
fn desc<T: PartialOrd>(a: Option<T>, b: Option<T>) -> Ordering {
    match (a, b) {
        (Some(x), Some(y)) => y.partial_cmp(&x).unwrap_or(Ordering::Equal),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

/// Every row of a table as its index, in canonical order (packets keep
/// their input order, threads their ids' order (`query::thread_rows`),
/// modules their names' order).
pub fn canonical_rows(p: &Profile, table: Table) -> Vec<u32> {
    fn indices<T: profx_model::ids::RowId>(ids: Vec<T>) -> Vec<u32> {
        ids.into_iter().map(|r| r.index() as u32).collect()
    }
    match table {
        Table::Functions => indices(canonical_functions(p)),
        Table::Lines => indices(canonical_lines(p)),
        Table::Stacks => indices(canonical_stacks(p)),
        Table::Packets => (0..p.packets().len() as u32).collect(),
        Table::Threads => (0..p.threads().len() as u32).collect(),
        // Made in the order of their names (`module_rows`).
        Table::Modules => (0..crate::modules::module_rows(p).len() as u32).collect(),
    }
}

/// report-json.md: elapsed inclusive, then hits_total, then calls (all
/// descending, absent last), then name; module last so the order is total.
///
/// Each function's place is computed once as integers (names as their
/// ranks, which order as the strings do), and the keys sorted: a summary
/// with 200 k functions no longer compares options and strings 3 million
/// times. The id ends the key, as the stable sort kept equal rows.
pub fn canonical_functions(p: &Profile) -> Vec<FuncId> {
    first_functions(p, usize::MAX)
}

/// The first `n` of `canonical_functions`, the rest left unsorted (a
/// report's `--top` of 200 k functions sorted them all first).
pub fn first_functions(p: &Profile, n: usize) -> Vec<FuncId> {
    let keys = p.function_ids().map(|id| {
        let f = p.function(id);
        (
            down_time(f.time.elapsed_inclusive),
            down_count(f.hits_total),
            down_count(f.calls),
            p.name_rank(f.name),
            p.name_rank(f.module),
            id,
        )
    });
    let first = first_by(keys, n, Ord::cmp);
    first.into_iter().map(|k| k.5).collect()
}

/// The first `n` functions of the canonical order sorted by `col` (as a
/// pane shows them before any key: `sort_by` of `canonical_functions`),
/// found in one pass over the functions without sorting them all: the
/// pane's order is `col`'s value, then the name ranks, then the place in
/// the canonical order, whose key ends this one.
pub fn first_functions_by(p: &Profile, col: FuncColumn, descending: bool, n: usize) -> Vec<FuncId> {
    let key = |id: FuncId| -> FirstKey {
        let f = p.function(id);
        let (rank, tie) = col.ranks(p, id);
        (
            value_key(p, col, id, rank, descending),
            tie,
            down_time(f.time.elapsed_inclusive),
            down_count(f.hits_total),
            down_count(f.calls),
            (p.name_rank(f.name), p.name_rank(f.module), id),
        )
    };
    // A row whose value alone comes after the n-th kept row's is passed
    // by on its value: the rest of its key reads the name ranks, a
    // lookup each in a table far larger than the cache.
    let quick = |id: FuncId| {
        let rank = matches!(col.value_kind(), ValueKind::Text).then(|| col.ranks(p, id).0);
        value_key(p, col, id, rank.flatten(), descending)
    };
    let part = |range: std::ops::Range<usize>| {
        if n > FEW {
            return first_by(range.map(|i| key(FuncId::from_index(i))), n, Ord::cmp);
        }
        let bar = std::cell::Cell::new(None);
        let rows = range
            .map(FuncId::from_index)
            .filter_map(|id| match bar.get() {
                Some(b) if quick(id) > b => None,
                _ => Some(key(id)),
            });
        few_first_barred(rows, n, Ord::cmp, |last: &FirstKey| bar.set(Some(last.0)))
    };
    let len = p.functions().len();
    // Each part's first n on a core of its own, then the first n of them
    // all: the first frame of a large profile waits for this pass. A part
    // a thread, as each part's bar starts open.
    let first = if n <= FEW && profx_model::par_sort::worth_splitting(len) {
        let per = len.div_ceil(rayon::current_num_threads());
        let parts: Vec<Vec<FirstKey>> = (0..len.div_ceil(per))
            .into_par_iter()
            .map(|i| part(i * per..((i + 1) * per).min(len)))
            .collect();
        first_by(parts.concat().into_iter(), n, Ord::cmp)
    } else {
        part(0..len)
    };
    first.into_iter().map(|k| k.5.2).collect()
}

/// The first `n` of `rows` in the order `cmp` gives, which must be total
/// (no two rows equal), so that selecting them before sorting gives the
/// rows a full sort would. A few are kept in order as the rows go by,
/// never all of them at once (the keys of 200 k functions are 13 MB of
/// new pages); more are selected from all of them.
fn first_by<T>(
    rows: impl ExactSizeIterator<Item = T>,
    n: usize,
    mut cmp: impl FnMut(&T, &T) -> Ordering,
) -> Vec<T> {
    if n <= FEW && n < rows.len() {
        return few_first(rows, n, cmp);
    }
    let mut rows: Vec<T> = rows.collect();
    if n < rows.len() {
        rows.select_nth_unstable_by(n, &mut cmp);
        rows.truncate(n);
    }
    rows.sort_unstable_by(cmp);
    rows
}

/// A function's place in a pane's first order (`first_functions_by`):
/// its value's key, its tie rank, its default keys, then its names' ranks
/// and its id.
type FirstKey = (
    Option<u64>,
    Option<u64>,
    (bool, u64),
    (bool, u64),
    (bool, u64),
    (u32, u32, FuncId),
);

/// At most this many first rows are kept as the rows go by.
const FEW: usize = 1000;

/// The first `n` of `rows`, in at most `2 n` places: when they fill, the
/// best `n` are selected and the last of those bars any later row that
/// does not come before it. Every row costs a comparison or a move, and
/// each selection `2 n` steps for `n` rows gone by, whatever the rows'
/// order (keeping them sorted cost a shift of the list for every row, and
/// rows that come in reverse order each came first).
fn few_first<T>(
    rows: impl Iterator<Item = T>,
    n: usize,
    cmp: impl FnMut(&T, &T) -> Ordering,
) -> Vec<T> {
    few_first_barred(rows, n, cmp, |_| {})
}

/// `few_first`, telling `barred_by` each row that bars later ones, so
/// that the rows can be passed by before their whole key is made.
fn few_first_barred<T>(
    rows: impl Iterator<Item = T>,
    n: usize,
    mut cmp: impl FnMut(&T, &T) -> Ordering,
    mut barred_by: impl FnMut(&T),
) -> Vec<T> {
    let Some(last) = n.checked_sub(1) else {
        return Vec::new();
    };
    let mut kept: Vec<T> = Vec::with_capacity(2 * n);
    let mut barred = false;
    for row in rows {
        if barred && cmp(&row, &kept[last]).is_ge() {
            continue;
        }
        kept.push(row);
        if kept.len() == 2 * n {
            kept.select_nth_unstable_by(last, &mut cmp);
            kept.truncate(n);
            barred = true;
            barred_by(&kept[last]);
        }
    }
    if kept.len() > n {
        kept.select_nth_unstable_by(last, &mut cmp);
        kept.truncate(n);
    }
    kept.sort_unstable_by(cmp);
    kept
}

/// A count's key, descending with absent last.
fn down_count(x: Option<u64>) -> (bool, u64) {
    x.map_or((true, 0), |v| (false, u64::MAX - v))
}

/// A time's key, descending with absent last; -0 and 0 are equal, as
/// `desc` compares them.
fn down_time(x: Option<f64>) -> (bool, u64) {
    x.map_or((true, 0), |v| {
        let v = if v == 0.0 { 0.0 } else { v };
        (false, u64::MAX - ordered(v))
    })
}

/// report-json.md: hits descending, then frames (root first, by name then module).
pub fn canonical_stacks(p: &Profile) -> Vec<StackId> {
    first_stacks(p, usize::MAX)
}

/// The first `n` of `canonical_stacks`.
pub fn first_stacks(p: &Profile, n: usize) -> Vec<StackId> {
    // Paths compare, root first, as their nodes' places in a walk of the
    // tree with children by (name, module): one integer a stack, however
    // deep its path. Total: no two stacks have the same path.
    let order = super::tree::path_ranks(p);
    let key = |s: StackId| order[p.stack_node(s).index()];
    let cmp = |&a: &StackId, &b: &StackId| {
        desc(p.stack(a).hits, p.stack(b).hits).then_with(|| key(a).cmp(&key(b)))
    };
    if n <= FEW && n < p.stacks().len() {
        return first_by(p.stack_ids(), n, cmp);
    }
    // Made and sorted half by half, each half on a core. `make` gives
    // every part, so `make_sorted` gives them all.
    let make = |range: std::ops::Range<usize>| {
        Some(
            range
                .map(|i| {
                    let s = StackId::from_index(i);
                    (down_count(p.stack(s).hits), key(s), s)
                })
                .collect(),
        )
    };
    let keys: Vec<((bool, u64), u32, StackId)> =
        profx_model::par_sort::make_sorted(p.stacks().len(), make, Ord::cmp).unwrap_or_default();
    let mut rows: Vec<StackId> = keys.into_iter().map(|k| k.2).collect();
    rows.truncate(n);
    rows
}

/// report-json.md: file, then line.
pub fn canonical_lines(p: &Profile) -> Vec<LineId> {
    first_lines(p, usize::MAX)
}

/// The first `n` of `canonical_lines`.
pub fn first_lines(p: &Profile, n: usize) -> Vec<LineId> {
    // Total: a line is identified by its file and number.
    first_by(p.line_ids(), n, |&a, &b| {
        let (la, lb) = (p.line(a), p.line(b));
        p.name(la.file)
            .cmp(p.name(lb.file))
            .then(la.line.cmp(&lb.line))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::{FuncColumn, LineColumn, StackColumn};

    /// The stacks' canonical order, sorted by keys, is report-json.md's
    /// (hits descending with absent last, then frames root first by name
    /// then module), compared here as strings: with hits tied, stacks
    /// sharing the frames their keys hold and more, and stacks that are
    /// prefixes of others.
    #[test]
    fn stacks_sorted_by_keys_are_in_the_canonical_order() {
        let mut b = profx_model::ProfileBuilder::new("test");
        // Names in the reverse of the ids' order, two functions one name.
        let (m1, m2) = (b.intern("m1"), b.intern("m2"));
        let funcs: Vec<FuncId> = [("c", m1), ("b", m2), ("b", m1)]
            .iter()
            .map(|&(n, m)| {
                let n = b.intern(n);
                b.function(n, m)
            })
            .collect();
        let mut i = 0u64;
        for depth in 1..=6u32 {
            for code in 0..3u32.pow(depth) {
                let frames: Vec<FuncId> = (0..depth)
                    .map(|d| funcs[(code / 3u32.pow(d) % 3) as usize])
                    .collect();
                let s = b.stack(&frames);
                let hits = (!i.is_multiple_of(4)).then_some(i % 2);
                b.stack_summary(s, hits, None, None);
                i += 1;
            }
        }
        // Stacks longer than the frames a key packs (96 of 3 functions),
        // alike in those: only the frame-by-frame comparison orders them.
        let prefix: Vec<FuncId> = (0..96).map(|d| funcs[d % 3]).collect();
        for tail in 0..=2u32 {
            for code in 0..3u32.pow(tail) {
                let mut frames = prefix.clone();
                frames.extend((0..tail).map(|d| funcs[(code / 3u32.pow(d) % 3) as usize]));
                let s = b.stack(&frames);
                b.stack_summary(s, Some(5), None, None);
            }
        }
        let p = b.finish();
        let name = |f: &FuncId| (p.function_name(*f), p.function_module(*f));
        let mut want: Vec<StackId> = p.stack_ids().collect();
        want.sort_by(|&a, &b| {
            desc(p.stack(a).hits, p.stack(b).hits).then_with(|| {
                p.frames(a)
                    .iter()
                    .map(name)
                    .cmp(p.frames(b).iter().map(name))
            })
        });
        assert_eq!(want.len(), 1092 + 13);
        assert_eq!(canonical_stacks(&p), want);
        assert_eq!(first_stacks(&p, 7), want[..7]);
        assert_eq!(first_stacks(&p, 2000), want);
    }

    /// The keyed sort orders rows exactly as the row comparator does, on
    /// every column, both ways, from a scrambled start (ties keep it).
    fn same_as_comparator<C: Column>(p: &Profile, ids: Vec<C::Row>)
    where
        C::Row: PartialEq + std::fmt::Debug,
    {
        let mut start = ids;
        let n = start.len();
        for i in 0..n {
            start.swap(i, (i * 7919 + 13) % n);
        }
        for &col in C::ALL {
            for descending in [false, true] {
                let mut keyed = start.clone();
                sort_by(p, &mut keyed, col, descending);
                let mut slow = start.clone();
                slow.sort_by(|&a, &b| compare(p, col, a, b, descending));
                assert!(keyed == slow, "{col:?} descending={descending}");
            }
        }
    }

    /// The canonical function order by keys equals report-json.md's rule
    /// as a comparator, with ties and absent values among the rows.
    /// 60 functions with ties and absent values among their numbers.
    fn tied_profile() -> Profile {
        use profx_model::{FuncSummary, TimeValues};
        let mut b = profx_model::ProfileBuilder::new("test");
        let times = [
            Some(3.0),
            None,
            Some(-0.0),
            Some(0.0),
            Some(3.0),
            Some(1e300),
        ];
        // Names repeat across the two modules; each function is summed once.
        for i in 0..60u64 {
            let name = b.intern(&format!("f{}", i % 30));
            let module = b.intern(&format!("m{}", i / 30));
            let f = b.function(name, module);
            let time = TimeValues {
                elapsed_inclusive: times[(i % 6) as usize],
                ..TimeValues::default()
            };
            let summary = FuncSummary {
                calls: (i % 5 != 0).then_some(i % 2),
                hits_total: (i % 4 != 0).then_some(i % 3),
                time,
                ..FuncSummary::default()
            };
            b.summary(f, summary);
        }
        b.finish()
    }

    #[test]
    fn canonical_functions_follow_the_rule() {
        let p = tied_profile();
        let mut slow: Vec<FuncId> = p.function_ids().collect();
        slow.sort_by(|&a, &b| {
            let (fa, fb) = (p.function(a), p.function(b));
            desc(fa.time.elapsed_inclusive, fb.time.elapsed_inclusive)
                .then_with(|| desc(fa.hits_total, fb.hits_total))
                .then_with(|| desc(fa.calls, fb.calls))
                .then_with(|| p.function_name(a).cmp(p.function_name(b)))
                .then_with(|| p.function_module(a).cmp(p.function_module(b)))
        });
        assert_eq!(canonical_functions(&p), slow);
        assert_eq!(p.functions().len(), 60);
    }

    /// A table opens on the first of its columns to open by that the
    /// profile has, heaviest first: lines without times by their hits,
    /// functions with calls alone by them; with none, in canonical order.
    #[test]
    fn a_table_opens_on_the_first_present_column_it_opens_by() {
        use LineColumn::{File, Hits, Line, Time};
        assert_eq!(default_sort(&[File, Line, Hits, Time]), Some((Time, true)));
        assert_eq!(default_sort(&[File, Line, Hits]), Some((Hits, true)));
        assert_eq!(default_sort(&[File, Line]), None);
        let f = [FuncColumn::Name, FuncColumn::Calls, FuncColumn::AppIncl];
        assert_eq!(default_sort(&f), Some((FuncColumn::Calls, true)));
        let s = [StackColumn::Leaf, StackColumn::ChildMs];
        assert_eq!(default_sort(&s), Some((StackColumn::ChildMs, true)));
    }

    /// The first n rows, kept as they go by or selected from all, are the
    /// first n of the canonical orders, for every n around the two ways.
    #[test]
    fn first_rows_are_the_first_of_the_canonical_orders() {
        let p = profx_fixtures::large::profile(3000);
        let (funcs, lines, stacks) = (
            canonical_functions(&p),
            canonical_lines(&p),
            canonical_stacks(&p),
        );
        for n in [0, 1, 5, FEW - 1, FEW, FEW + 1, 2999, 3000, 3001, 10_000] {
            let upto = |len: usize| n.min(len);
            assert_eq!(first_functions(&p, n), funcs[..upto(funcs.len())], "{n}");
            assert_eq!(first_lines(&p, n), lines[..upto(lines.len())], "{n}");
            assert_eq!(first_stacks(&p, n), stacks[..upto(stacks.len())], "{n}");
        }
        // Ties: many functions share their numbers and differ by name only.
        let tied = tied_profile();
        let all = canonical_functions(&tied);
        for n in [1, 7, 59, 60] {
            assert_eq!(first_functions(&tied, n), all[..n], "{n}");
        }
    }

    /// A pane's first rows, found without sorting, are the first rows of
    /// the canonical order sorted by any column, either way: on generated
    /// numbers and on functions tied in everything but their names.
    #[test]
    fn a_panes_first_rows_are_its_sorted_rows_first() {
        for p in [profx_fixtures::large::profile(3000), tied_profile()] {
            let all = canonical_functions(&p);
            for &col in FuncColumn::ALL {
                for descending in [false, true] {
                    let mut sorted = all.clone();
                    sort_by(&p, &mut sorted, col, descending);
                    for n in [1, 10, 59, 200, 5000] {
                        let got = first_functions_by(&p, col, descending, n);
                        assert_eq!(got, sorted[..n.min(all.len())], "{col:?} {descending} {n}");
                    }
                }
            }
        }
        // Enough functions for a half on each core.
        let p = profx_fixtures::large::profile(120_000);
        let all = canonical_functions(&p);
        for col in [FuncColumn::Calls, FuncColumn::Name] {
            let mut sorted = all.clone();
            sort_by(&p, &mut sorted, col, true);
            assert_eq!(
                first_functions_by(&p, col, true, 50),
                sorted[..50],
                "{col:?}"
            );
        }
    }

    /// The few first rows come out right whatever order the rows come in:
    /// in order, reversed (each new row the first so far) or shuffled.
    #[test]
    fn few_first_rows_do_not_depend_on_the_rows_order() {
        let ascending: Vec<u32> = (0..10_000).collect();
        let mut orders = vec![ascending.clone(), ascending.iter().rev().copied().collect()];
        orders.push(
            ascending
                .iter()
                .map(|&i| i.wrapping_mul(7919) % 10_000)
                .collect(),
        );
        for rows in orders {
            for n in [0, 1, 2, 7, FEW] {
                let first = few_first(rows.iter().copied(), n, Ord::cmp);
                assert_eq!(first, ascending[..n], "{n}");
            }
        }
    }

    /// Enough rows to be keyed and sorted on every core sort as the row
    /// comparator sorts them, ties keeping their order.
    #[test]
    fn rows_keyed_on_two_cores_sort_as_the_comparator_does() {
        let p = profx_fixtures::large::profile(120_000);
        let mut start: Vec<FuncId> = p.function_ids().collect();
        start.reverse();
        for col in [FuncColumn::Calls, FuncColumn::Module] {
            let mut keyed = start.clone();
            sort_by(&p, &mut keyed, col, true);
            let mut slow = start.clone();
            slow.sort_by(|&a, &b| compare(&p, col, a, b, true));
            assert!(keyed == slow, "{col:?}");
        }
    }

    #[test]
    fn keyed_sort_equals_comparator_sort() {
        let p = profx_fixtures::large::profile(3000);
        same_as_comparator::<FuncColumn>(&p, p.function_ids().collect());
        same_as_comparator::<LineColumn>(&p, p.line_ids().collect());
        same_as_comparator::<StackColumn>(&p, p.stack_ids().collect());
        let demo = profx_load::load_inputs(
            &[profx_load::Input::from_static(
                profx_fixtures::demo::NAME,
                profx_fixtures::demo::BYTES,
            )],
            &profx_load::LoadOptions::default(),
        )
        .expect("the demo loads");
        same_as_comparator::<FuncColumn>(&demo, demo.function_ids().collect());
        same_as_comparator::<LineColumn>(&demo, demo.line_ids().collect());
        same_as_comparator::<StackColumn>(&demo, demo.stack_ids().collect());
    }
}
