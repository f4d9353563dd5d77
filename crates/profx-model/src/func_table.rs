//! Every function's numbers, a column each (issue 69).
//!
//! A row of seven `Option`s spends a discriminant and its padding on every
//! value, measured or not: 120 bytes a function, most of a large listing's
//! summary. Here a value costs its own bytes and a bit saying it is there,
//! and a column no function has costs nothing: a listing that states calls
//! and two times keeps 8 bytes of each and none of the others. A row is
//! put together when read ([`Function`], the same type and meaning as
//! before), so readers see what they saw.

use super::column::Col;
use super::ids::NameId;
use super::metrics::TimeValues;
use super::profile::Function;

/// Which value of a function a column holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Which {
    ElapsedInclusive,
    ElapsedExclusive,
    ApplicationInclusive,
    ApplicationExclusive,
}

/// Every function of a profile, by `FuncId`: its identity and its numbers,
/// a column each. `get` gives a row ([`Function`]).
#[derive(Clone, Default)]
pub struct FunctionTable {
    names: Vec<NameId>,
    modules: Vec<NameId>,
    pub(crate) calls: Col<u64>,
    pub(crate) hits_self: Col<u64>,
    pub(crate) hits_total: Col<u64>,
    pub(crate) elapsed_inclusive: Col<f64>,
    pub(crate) elapsed_exclusive: Col<f64>,
    pub(crate) application_inclusive: Col<f64>,
    pub(crate) application_exclusive: Col<f64>,
}

impl FunctionTable {
    /// How many functions there are.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Gives back what growing the columns reserved past their length.
    pub(crate) fn shrink_to_fit(&mut self) {
        self.names.shrink_to_fit();
        self.modules.shrink_to_fit();
        self.calls.shrink_to_fit();
        self.hits_self.shrink_to_fit();
        self.hits_total.shrink_to_fit();
        self.elapsed_inclusive.shrink_to_fit();
        self.elapsed_exclusive.shrink_to_fit();
        self.application_inclusive.shrink_to_fit();
        self.application_exclusive.shrink_to_fit();
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Function `i`'s row. Panics past the end, as indexing a slice does.
    #[inline]
    pub fn get(&self, i: usize) -> Function {
        Function {
            name: self.names[i],
            module: self.modules[i],
            calls: self.calls.get(i),
            hits_self: self.hits_self.get(i),
            hits_total: self.hits_total.get(i),
            time: self.time(i),
        }
    }

    /// Function `i`'s name.
    #[inline]
    pub fn name(&self, i: usize) -> NameId {
        self.names[i]
    }

    /// Function `i`'s module.
    #[inline]
    pub fn module(&self, i: usize) -> NameId {
        self.modules[i]
    }

    /// Every function's name, by id.
    pub fn names(&self) -> &[NameId] {
        &self.names
    }

    /// Function `i`'s calls.
    #[inline]
    pub fn calls(&self, i: usize) -> Option<u64> {
        self.calls.get(i)
    }

    /// Function `i`'s exclusive samples.
    #[inline]
    pub fn hits_self(&self, i: usize) -> Option<u64> {
        self.hits_self.get(i)
    }

    /// Function `i`'s inclusive samples.
    #[inline]
    pub fn hits_total(&self, i: usize) -> Option<u64> {
        self.hits_total.get(i)
    }

    /// Function `i`'s four time values.
    #[inline]
    pub fn time(&self, i: usize) -> TimeValues {
        TimeValues {
            elapsed_inclusive: self.elapsed_inclusive.get(i),
            elapsed_exclusive: self.elapsed_exclusive.get(i),
            application_inclusive: self.application_inclusive.get(i),
            application_exclusive: self.application_exclusive.get(i),
        }
    }

    /// Function `i`'s elapsed inclusive time.
    #[inline]
    pub fn elapsed_inclusive(&self, i: usize) -> Option<f64> {
        self.elapsed_inclusive.get(i)
    }

    /// Function `i`'s elapsed exclusive time.
    #[inline]
    pub fn elapsed_exclusive(&self, i: usize) -> Option<f64> {
        self.elapsed_exclusive.get(i)
    }

    /// Function `i`'s application inclusive time.
    #[inline]
    pub fn application_inclusive(&self, i: usize) -> Option<f64> {
        self.application_inclusive.get(i)
    }

    /// Function `i`'s application exclusive time.
    #[inline]
    pub fn application_exclusive(&self, i: usize) -> Option<f64> {
        self.application_exclusive.get(i)
    }

    /// Every row, in id order.
    pub fn iter(&self) -> Rows<'_> {
        Rows {
            table: self,
            at: 0..self.len(),
        }
    }

    /// A new function with every value absent; its index.
    pub(crate) fn push(&mut self, name: NameId, module: NameId) -> usize {
        self.names.push(name);
        self.modules.push(module);
        let len = self.names.len();
        self.calls.push(len);
        self.hits_self.push(len);
        self.hits_total.push(len);
        self.elapsed_inclusive.push(len);
        self.elapsed_exclusive.push(len);
        self.application_inclusive.push(len);
        self.application_exclusive.push(len);
        len - 1
    }

    /// Writes row `i`'s numbers (its identity stays).
    pub(crate) fn set(&mut self, i: usize, f: &Function) {
        let len = self.len();
        self.calls.set(i, len, f.calls);
        self.hits_self.set(i, len, f.hits_self);
        self.hits_total.set(i, len, f.hits_total);
        self.set_time(i, f.time);
    }

    /// Writes row `i`'s time values.
    pub(crate) fn set_time(&mut self, i: usize, t: TimeValues) {
        let len = self.len();
        self.elapsed_inclusive.set(i, len, t.elapsed_inclusive);
        self.elapsed_exclusive.set(i, len, t.elapsed_exclusive);
        self.application_inclusive
            .set(i, len, t.application_inclusive);
        self.application_exclusive
            .set(i, len, t.application_exclusive);
    }

    /// Row `i` as `f` changes it.
    pub(crate) fn update(&mut self, i: usize, f: impl FnOnce(&mut Function)) {
        let mut row = self.get(i);
        f(&mut row);
        self.set(i, &row);
    }

    /// Adds `v` to row `i`'s calls.
    #[inline]
    pub(crate) fn add_calls(&mut self, i: usize, v: Option<u64>) {
        let len = self.len();
        self.calls.add(i, len, v);
    }

    /// Adds `v` to row `i`'s exclusive samples.
    #[inline]
    pub(crate) fn add_hits_self(&mut self, i: usize, v: Option<u64>) {
        let len = self.len();
        self.hits_self.add(i, len, v);
    }

    /// Adds `v` to row `i`'s inclusive samples.
    #[inline]
    pub(crate) fn add_hits_total(&mut self, i: usize, v: Option<u64>) {
        let len = self.len();
        self.hits_total.add(i, len, v);
    }

    /// Adds `v` to one of row `i`'s times.
    #[inline]
    pub(crate) fn add_time(&mut self, i: usize, which: Which, v: Option<f64>) {
        let len = self.len();
        self.time_col(which).add(i, len, v);
    }

    /// Sets `calls` of row `i`.
    pub(crate) fn set_calls(&mut self, i: usize, v: Option<u64>) {
        let len = self.len();
        self.calls.set(i, len, v);
    }

    /// The column of one of the times.
    pub(crate) fn time_col(&mut self, which: Which) -> &mut Col<f64> {
        match which {
            Which::ElapsedInclusive => &mut self.elapsed_inclusive,
            Which::ElapsedExclusive => &mut self.elapsed_exclusive,
            Which::ApplicationInclusive => &mut self.application_inclusive,
            Which::ApplicationExclusive => &mut self.application_exclusive,
        }
    }

    /// The elapsed times, summed in ns by a feed that counts in ns, in ms.
    pub(crate) fn elapsed_ns_to_ms(&mut self) {
        let ms = |ns: f64| Some(ns / 1e6);
        self.elapsed_inclusive.map_present(ms);
        self.elapsed_exclusive.map_present(ms);
    }

    /// Every row's elapsed times absent.
    pub(crate) fn forget_elapsed(&mut self) {
        self.elapsed_inclusive = Col::default();
        self.elapsed_exclusive = Col::default();
    }

    /// The rows `keep` says, in order, their ids renumbered.
    pub(crate) fn kept(&self, keep: &[bool]) -> FunctionTable {
        let pick = |v: &[NameId]| {
            v.iter()
                .zip(keep)
                .filter_map(|(&n, &k)| k.then_some(n))
                .collect()
        };
        FunctionTable {
            names: pick(&self.names),
            modules: pick(&self.modules),
            calls: self.calls.kept(keep),
            hits_self: self.hits_self.kept(keep),
            hits_total: self.hits_total.kept(keep),
            elapsed_inclusive: self.elapsed_inclusive.kept(keep),
            elapsed_exclusive: self.elapsed_exclusive.kept(keep),
            application_inclusive: self.application_inclusive.kept(keep),
            application_exclusive: self.application_exclusive.kept(keep),
        }
    }
}

/// Tables are equal when their rows are, however their columns are kept.
impl PartialEq for FunctionTable {
    fn eq(&self, other: &FunctionTable) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl std::fmt::Debug for FunctionTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The rows of a [`FunctionTable`], in id order.
#[derive(Clone, Debug)]
pub struct Rows<'a> {
    table: &'a FunctionTable,
    at: std::ops::Range<usize>,
}

impl Iterator for Rows<'_> {
    type Item = Function;

    fn next(&mut self) -> Option<Function> {
        self.at.next().map(|i| self.table.get(i))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.at.size_hint()
    }

    fn nth(&mut self, n: usize) -> Option<Function> {
        self.at.nth(n).map(|i| self.table.get(i))
    }
}

impl DoubleEndedIterator for Rows<'_> {
    fn next_back(&mut self) -> Option<Function> {
        self.at.next_back().map(|i| self.table.get(i))
    }
}

impl ExactSizeIterator for Rows<'_> {}

impl<'a> IntoIterator for &'a FunctionTable {
    type Item = Function;
    type IntoIter = Rows<'a>;

    fn into_iter(self) -> Rows<'a> {
        self.iter()
    }
}

/// The table of these rows, in order (tests, and a row type's property
/// test against the columns).
impl FromIterator<Function> for FunctionTable {
    fn from_iter<I: IntoIterator<Item = Function>>(rows: I) -> FunctionTable {
        let mut t = FunctionTable::default();
        for f in rows {
            let i = t.push(f.name, f.module);
            t.set(i, &f);
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(seed: u64) -> Function {
        let pick = |k: u64| (seed >> k) & 1 == 1;
        let x = seed as f64 / 7.0;
        Function {
            name: NameId::from_index((seed % 97) as usize),
            module: NameId::from_index((seed % 13) as usize),
            calls: pick(0).then_some(seed),
            hits_self: pick(1).then_some(seed / 3),
            hits_total: pick(2).then_some(seed * 5),
            time: TimeValues {
                elapsed_inclusive: pick(3).then_some(x),
                elapsed_exclusive: pick(4).then_some(-x),
                application_inclusive: pick(5).then_some(x * 2.0),
                application_exclusive: pick(6).then_some(0.0),
            },
        }
    }

    /// The columns give back every row as the old row type held it,
    /// whichever values are there, and a row changed in place reads as
    /// changed.
    #[test]
    fn the_columns_hold_the_rows() {
        let rows: Vec<Function> = (0..300u64).map(|i| row(i * 0x9E37_79B9 % 1000)).collect();
        let mut t: FunctionTable = rows.iter().cloned().collect();
        assert_eq!(t.len(), rows.len());
        for (i, r) in rows.iter().enumerate() {
            assert_eq!(&t.get(i), r);
        }
        let mut changed = rows.clone();
        for i in (0..rows.len()).step_by(7) {
            let other = row(i as u64 + 5);
            changed[i].calls = other.calls;
            changed[i].time = other.time;
            t.update(i, |f| {
                f.calls = other.calls;
                f.time = other.time;
            });
        }
        assert!(t.iter().eq(changed.iter().cloned()));
        let keep: Vec<bool> = (0..rows.len()).map(|i| i % 3 != 1).collect();
        let kept = t.kept(&keep);
        let want: Vec<Function> = changed
            .iter()
            .zip(&keep)
            .filter(|&(_, &k)| k)
            .map(|(f, _)| f.clone())
            .collect();
        assert!(kept.iter().eq(want.into_iter()));
    }

    /// Adding is the row's `add_count` / `add_opt`: absent only when both
    /// are; a column nobody fills stays unallocated.
    #[test]
    fn sums_are_the_rows_sums() {
        let mut t = FunctionTable::default();
        let (a, b) = (NameId::from_index(1), NameId::from_index(2));
        t.push(a, b);
        t.push(b, a);
        t.add_calls(1, None);
        assert_eq!(t.calls(1), None);
        t.add_calls(1, Some(3));
        t.add_calls(1, Some(u64::MAX));
        assert_eq!(t.calls(1), Some(u64::MAX));
        t.add_time(0, Which::ElapsedExclusive, Some(1.5));
        t.add_time(0, Which::ElapsedExclusive, Some(2.0));
        assert_eq!(t.elapsed_exclusive(0), Some(3.5));
        assert_eq!(t.calls(0), None);
        t.push(a, a);
        assert_eq!(t.elapsed_exclusive(2), None);
        assert!(t.hits_self.is_unfilled());
        assert!(t.application_inclusive.is_unfilled());
    }
}
