//! A BR worker's numbers for (module, line) pairs: one per sample, looked
//! up for its leaf's line.
//!
//! A hash table of them (12-byte slots and their control bytes, a few
//! hundred kilobytes for 16 modules of 2,000 lines) missed the worker's
//! caches at most samples: a lookup touched two random lines of it while
//! the log streamed through. Lines of a program are small numbers, so each
//! module has an array by line number, four bytes a line, one read a
//! lookup. A line past `DIRECT`, or any once the arrays hold `BUDGET`
//! cells, goes to a table instead, which bounds their memory whatever the
//! log holds.

use profx_sys::prefetch::prefetch;
use rustc_hash::FxHashMap;

/// Lines below this are kept in a module's array.
const DIRECT: u32 = 1 << 16;

/// Cells all arrays together may hold (16 MB).
const BUDGET: usize = 1 << 22;

const NONE: u32 = u32::MAX;

#[derive(Debug, Default)]
pub(super) struct LineNumbers {
    /// By module: by line, its number or `NONE`.
    direct: Vec<Vec<u32>>,
    cells: usize,
    rest: FxHashMap<(u16, u32), u32>,
    count: u32,
}

impl LineNumbers {
    /// The number of (module, line), and whether it is new (numbered now,
    /// in order from 0).
    #[inline]
    pub(super) fn number(&mut self, module: u16, line: u32) -> (u32, bool) {
        let cell = self
            .direct
            .get(usize::from(module))
            .and_then(|m| m.get(line as usize));
        match cell {
            Some(&n) if n != NONE => (n, false),
            _ => self.slow(module, line),
        }
    }

    /// Asks for the cell `number` reads for (module, line), ahead of it.
    #[inline(always)]
    pub(super) fn prefetch(&self, module: u16, line: u32) {
        let cell = self
            .direct
            .get(usize::from(module))
            .and_then(|m| m.get(line as usize));
        if let Some(cell) = cell {
            prefetch(cell);
        }
    }

    #[cold]
    fn slow(&mut self, module: u16, line: u32) -> (u32, bool) {
        if let Some(&n) = self.rest.get(&(module, line)) {
            return (n, false);
        }
        // Numbers wrap as the table's `len() as u32` did: 2^32 distinct
        // lines would take a log of hundreds of gigabytes, and must not
        // panic.
        let n = self.count;
        self.count = self.count.wrapping_add(1);
        match self.cell(module, line) {
            Some(cell) => *cell = n,
            None => {
                self.rest.insert((module, line), n);
            }
        }
        (n, true)
    }

    /// The array cell of (module, line), grown to it if the budget allows.
    fn cell(&mut self, module: u16, line: u32) -> Option<&mut u32> {
        if line >= DIRECT {
            return None;
        }
        let (m, l) = (usize::from(module), line as usize);
        if self.direct.len() <= m {
            self.direct.resize_with(m + 1, Vec::new);
        }
        let cells = &mut self.direct[m];
        if cells.len() <= l {
            // Doubling, so a module read line by line grows its array a few
            // times; within the budget only.
            let want = (l + 1).max(cells.len() * 2).min(DIRECT as usize);
            if self.cells + (want - cells.len()) > BUDGET {
                return None;
            }
            self.cells += want - cells.len();
            cells.resize(want, NONE);
        }
        cells.get_mut(l)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pair gets the number of its first sight, whether it is kept
    /// in an array or the table (past `DIRECT`, past the budget).
    #[test]
    fn pairs_are_numbered_in_order_of_first_sight() {
        let mut lines = LineNumbers::default();
        let pairs: Vec<(u16, u32)> = (0..40_000u32)
            .map(|i| {
                (
                    (i % 7) as u16 * 300,
                    i.wrapping_mul(2_654_435_761) % 200_000,
                )
            })
            .chain([(0, DIRECT), (0, u32::MAX), (u16::MAX, 0)])
            .collect();
        let mut first = FxHashMap::default();
        for &(m, l) in pairs.iter().chain(&pairs) {
            let next = first.len() as u32;
            let want = *first.entry((m, l)).or_insert(next);
            assert_eq!(lines.number(m, l), (want, want == next), "{m} {l}");
        }
        assert!(!lines.rest.is_empty(), "some pairs went to the table");
        assert!(lines.cells <= BUDGET);
    }

    #[test]
    fn arrays_stop_growing_at_the_budget() {
        let mut lines = LineNumbers::default();
        let modules = (BUDGET / DIRECT as usize) as u16 + 2;
        for m in 0..modules {
            assert_eq!(lines.number(m, DIRECT - 1), (u32::from(m), true));
        }
        assert!(lines.cells <= BUDGET);
        assert_eq!(lines.rest.len(), 2, "the last two modules' lines");
        assert_eq!(
            lines.number(modules - 1, DIRECT - 1),
            (u32::from(modules - 1), false)
        );
    }
}
