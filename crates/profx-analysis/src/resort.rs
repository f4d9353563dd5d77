//! Re-sorting one table's rows again and again, as a pane does at each
//! key press: the order of `sort::sort_by`, with the part of each key that
//! never changes made once.
//!
//! `sort_by` orders rows by (value, tie, place in the order they came in).
//! A pane always sorts its base order (the canonical one, or a part of it
//! in the same order), and the tie (a row's name ranks) is the same for
//! every column, so the last two parts are one fixed rank a row: its place
//! in the base order sorted by (tie, place). A re-sort then keys each row
//! by (value, that rank), twelve bytes, which are unique, and maps the
//! sorted ranks back to rows. When the whole table is sorted, the rows are
//! keyed in id order, where their data lie one after another in memory:
//! keyed in the base order, every row of a million was a cache miss, and
//! that took more of a re-sort than the sort.

use super::columns::{Column, ValueKind};
use super::sort::value_key;
use profx_model::Profile;
use profx_model::ids::RowId;
use profx_model::par_sort::make_sorted;

/// A table's rows by (tie, place in a base order), and each row's place
/// in that order.
#[derive(Debug)]
pub struct TieOrder {
    /// Rows (as indices) by (tie, place in the base).
    order: Vec<u32>,
    /// Row index → its place in `order`; `NOT_IN_BASE` for the rest.
    rank: Vec<u32>,
}

const NOT_IN_BASE: u32 = u32::MAX;

impl TieOrder {
    /// The tie order of `base` (row indices of `C`'s table, each once);
    /// `None` when some row's tie is no interned name (packets), whose
    /// sorts compare text.
    pub fn new<C: Column>(p: &Profile, base: &[u32], rows_in_table: usize) -> Option<TieOrder>
    where
        C::Row: RowId,
    {
        // Each row's place in the base first, so rows are keyed in id order
        // (where their data lie in turn), not in the base's.
        let mut rank = vec![NOT_IN_BASE; rows_in_table];
        for (place, &r) in base.iter().enumerate() {
            *rank.get_mut(r as usize)? = u32::try_from(place).ok()?;
        }
        let tie = |i: usize| C::ALL.first()?.ranks(p, C::Row::from_index(i)).1;
        let make = |range: std::ops::Range<usize>| {
            let placed = range.filter(|&i| rank[i] != NOT_IN_BASE);
            placed
                .map(|i| Some((tie(i)?, rank[i])))
                .collect::<Option<Vec<(u64, u32)>>>()
        };
        let sorted = make_sorted(rows_in_table, make, Ord::cmp)?;
        let order: Vec<u32> = sorted
            .iter()
            .map(|&(_, place)| base[place as usize])
            .collect();
        for (place, &r) in order.iter().enumerate() {
            rank[r as usize] = u32::try_from(place).ok()?;
        }
        Some(TieOrder { order, rank })
    }

    /// `rows` (a part of the base, in the base's order) ordered as
    /// `sort_by` orders them: by `col`, then tie, then place. `None` when
    /// some row's text in `col` is no interned name, or a row is not in
    /// the base.
    pub fn sort<C: Column>(
        &self,
        p: &Profile,
        rows: &[u32],
        col: C,
        descending: bool,
    ) -> Option<Vec<u32>>
    where
        C::Row: RowId,
    {
        // A number column needs no name rank: reading two at random a row
        // cost more than reading its value.
        let text = col.value_kind() == ValueKind::Text;
        let key = |r: u32| {
            let row = C::Row::from_index(r as usize);
            let rank = if text { col.ranks(p, row).0 } else { None };
            let value = value_key(p, col, row, rank, descending)?;
            let rank = *self.rank.get(r as usize).filter(|&&k| k != NOT_IN_BASE)?;
            Some((value, rank))
        };
        let whole = rows.len() == self.order.len();
        let make = |range: std::ops::Range<usize>| -> Option<Vec<(u64, u32)>> {
            if whole {
                // Every row of the base: keyed in id order, skipping rows
                // not in it (the base of a table is all of it).
                let ids = range.filter(|&i| self.rank[i] != NOT_IN_BASE);
                ids.map(|i| key(i as u32)).collect()
            } else {
                rows[range].iter().map(|&r| key(r)).collect()
            }
        };
        let len = if whole { self.rank.len() } else { rows.len() };
        let sorted = make_sorted(len, make, Ord::cmp)?;
        Some(
            sorted
                .iter()
                .map(|&(_, k)| self.order[k as usize])
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::{FuncColumn, LineColumn, StackColumn};
    use crate::sort::{canonical_rows, sort_by};
    use crate::view::Table;

    /// Every column in both directions, over the whole base and over a
    /// part of it, in the order `sort_by` gives the same rows.
    fn same_as_sort_by<C: Column>(p: &Profile, table: Table)
    where
        C::Row: RowId,
    {
        let base = canonical_rows(p, table);
        let n = base.len();
        let ties = TieOrder::new::<C>(p, &base, n).expect("names are interned");
        let part: Vec<u32> = base.iter().copied().filter(|r| r % 3 != 1).collect();
        for &col in C::ALL {
            for descending in [false, true] {
                for rows in [&base, &part] {
                    let mut want: Vec<C::Row> = rows
                        .iter()
                        .map(|&r| C::Row::from_index(r as usize))
                        .collect();
                    sort_by(p, &mut want, col, descending);
                    let want: Vec<u32> = want.iter().map(|r| r.index() as u32).collect();
                    let got = ties.sort(p, rows, col, descending);
                    assert_eq!(got, Some(want), "{col:?} descending {descending}");
                }
            }
        }
    }

    /// A generated profile has many equal values (counts, absent times),
    /// so ties decide much of each order.
    #[test]
    fn orders_equal_sort_by_for_every_column() {
        let p = profx_fixtures::large::profile(3_000);
        same_as_sort_by::<FuncColumn>(&p, Table::Functions);
        same_as_sort_by::<LineColumn>(&p, Table::Lines);
        same_as_sort_by::<StackColumn>(&p, Table::Stacks);
    }

    /// Rows on every core: the parts are keyed apart, then sorted.
    #[test]
    fn large_tables_sort_as_sort_by() {
        let p = profx_fixtures::large::profile(120_000);
        let base = canonical_rows(&p, Table::Functions);
        let ties = TieOrder::new::<FuncColumn>(&p, &base, base.len()).expect("interned");
        for col in [FuncColumn::Calls, FuncColumn::Name] {
            let mut want: Vec<_> = base
                .iter()
                .map(|&r| RowId::from_index(r as usize))
                .collect();
            sort_by(&p, &mut want, col, true);
            let want: Vec<u32> = want.iter().map(|r: &profx_model::FuncId| r.raw()).collect();
            assert_eq!(ties.sort(&p, &base, col, true), Some(want), "{col:?}");
        }
    }

    #[test]
    fn a_row_outside_the_base_is_refused() {
        let p = profx_fixtures::large::profile(50);
        let base = canonical_rows(&p, Table::Functions);
        let ties = TieOrder::new::<FuncColumn>(&p, &base[1..], base.len()).expect("interned");
        assert!(ties.sort(&p, &base[..3], FuncColumn::Calls, true).is_none());
        let mut rest = base[1..].to_vec();
        rest.sort_unstable();
        assert!(ties.sort(&p, &rest, FuncColumn::Calls, true).is_some());
    }
}
