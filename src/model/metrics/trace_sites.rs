//! The trace feed's call sites: (calling function, line) → the line row a
//! call was made from, looked up at every call of a trace.
//!
//! A hash table of them, with a path's rows streaming through every cache
//! as a large trace replays, missed the caches at most calls: its slots
//! are spread over half a megabyte, each reached rarely. A function calls
//! from a few lines, so here each calling function has a row of its first
//! `WAYS` sites, by its id: one small read, in an array a third the size,
//! whose rows are read often enough to stay near. Further sites (and calls
//! at top level, which have no calling function) go to the table.

use crate::model::ids::{FuncId, LineId};
use rustc_hash::FxHashMap;

/// Sites a function's row holds.
const WAYS: usize = 4;

/// A free place in a row.
const FREE: (u32, LineId) = (u32::MAX, LineId(u32::MAX));

#[derive(Debug, Default)]
pub struct Sites {
    /// By calling function: (line, row) of its first sites.
    rows: Vec<[(u32, LineId); WAYS]>,
    /// (calling function or `u32::MAX` at top level, line) → row, for the
    /// sites no function's row has room for.
    rest: FxHashMap<(u32, u32), LineId>,
}

impl Sites {
    /// The row of a call from `line` of `caller` (`None`: at top level).
    pub fn get(&self, caller: Option<FuncId>, line: u32) -> Option<LineId> {
        let row = caller
            .filter(|_| line != FREE.0)
            .and_then(|f| self.rows.get(f.index()));
        if let Some(row) = row {
            for &(l, id) in row {
                if l == line {
                    return Some(id);
                }
                if l == FREE.0 {
                    return None;
                }
            }
        }
        self.rest.get(&rest_key(caller, line)).copied()
    }

    /// Keeps the row of a site `get` did not find.
    pub fn insert(&mut self, caller: Option<FuncId>, line: u32, id: LineId) {
        // Line u32::MAX is a free place's mark, so it always goes to the
        // table: `get` would stop at it.
        if let Some(f) = caller.filter(|_| line != FREE.0) {
            if self.rows.len() <= f.index() {
                self.rows.resize(f.index() + 1, [FREE; WAYS]);
            }
            if let Some(free) = self.rows[f.index()].iter_mut().find(|s| s.0 == FREE.0) {
                *free = (line, id);
                return;
            }
        }
        self.rest.insert(rest_key(caller, line), id);
    }
}

/// A site's key in the table: `u32::MAX` stands for top level.
fn rest_key(caller: Option<FuncId>, line: u32) -> (u32, u32) {
    (caller.map_or(u32::MAX, |f| f.0), line)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sites of many callers, some with more lines than a row holds, at
    /// top level, and at line u32::MAX, are all found again with their
    /// rows; others are not.
    #[test]
    fn every_site_kept_is_found_and_no_other() {
        let mut sites = Sites::default();
        let callers = [None, Some(FuncId(0)), Some(FuncId(3)), Some(FuncId(700))];
        // u32::MAX first, while each row is free: a free place's mark.
        let lines = [u32::MAX, 1, 2, 3, 4, 5, 6, 7, 0];
        let mut next = 0;
        let mut kept = Vec::new();
        for caller in callers {
            for line in lines {
                assert_eq!(sites.get(caller, line), None, "{caller:?} {line}");
                sites.insert(caller, line, LineId(next));
                kept.push((caller, line, LineId(next)));
                next += 1;
            }
        }
        for (caller, line, id) in kept {
            assert_eq!(sites.get(caller, line), Some(id), "{caller:?} {line}");
        }
        assert!(!sites.rest.is_empty(), "rows overflowed into the table");
        assert_eq!(sites.get(Some(FuncId(1)), 1), None);
        assert_eq!(sites.get(Some(FuncId(1)), u32::MAX), None);
        assert_eq!(sites.get(Some(FuncId(5000)), 1), None);
        assert_eq!(sites.get(Some(FuncId(0)), 8), None);
    }
}
