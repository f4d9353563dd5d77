//! The trace feed's call sites: (calling function, line) → the line row a
//! call was made from, looked up at every call of a trace.
//!
//! Real programs call from many lines: tens of sites a caller, millions in
//! a large trace. One hash table of them all missed the caches twice a
//! call (its control bytes, then its slot), its slots spread over
//! megabytes. Here each calling function has a small open-addressing table
//! of its own sites, laid out in one arena: the function's head (where its
//! table is, how large) and then one run of slots that holds all its
//! sites, so a call costs the head and usually one line of slots. A table
//! that fills is copied to a twice larger one at the arena's end; the old
//! one is left (at most as many slots again as the live ones).
//!
//! These are also the only index of a trace's call-site rows: a site's row
//! is made by the builder without its (file, line) index
//! (`ProfileBuilder::line_unindexed`), since a trace's file is its calling
//! function's name and one replay gives each name one function.

use crate::ids::{FuncId, LineId};

/// A free slot.
const FREE: (u32, LineId) = (u32::MAX, LineId(u32::MAX));

/// Where a caller's table is in the arena: its first slot and its size
/// (a power of two, 0 for none yet), and how many sites it holds.
#[derive(Clone, Copy, Debug, Default)]
struct Head {
    start: u32,
    bits: u8,
    len: u32,
}

#[derive(Clone, Debug, Default)]
pub(super) struct Sites {
    /// By calling function.
    heads: Vec<Head>,
    /// Top level's (calls with no calling function).
    top: Head,
    /// Every table's slots: (line, row); line `u32::MAX` is free.
    slots: Vec<(u32, LineId)>,
    /// Sites at line `u32::MAX` (a free slot's mark), by caller.
    odd: Vec<(Option<FuncId>, LineId)>,
}

/// The slot a line starts its probe at, in a table of `1 << bits`.
#[inline]
fn home(line: u32, bits: u8) -> usize {
    // Fibonacci hashing: lines that differ by a stride (generated code, a
    // program's call sites a few lines apart) spread over the table.
    (line.wrapping_mul(0x9E37_79B9) >> (32 - u32::from(bits))) as usize
}

impl Sites {
    fn head(&self, caller: Option<FuncId>) -> Head {
        match caller {
            Some(f) => self.heads.get(f.index()).copied().unwrap_or_default(),
            None => self.top,
        }
    }

    /// The row of a call from `line` of `caller` (`None`: at top level).
    #[inline]
    pub(super) fn get(&self, caller: Option<FuncId>, line: u32) -> Option<LineId> {
        if line == FREE.0 {
            return self.odd.iter().find(|s| s.0 == caller).map(|s| s.1);
        }
        let h = self.head(caller);
        if h.bits == 0 {
            return None;
        }
        let table = self
            .slots
            .get(h.start as usize..(h.start as usize) + (1 << h.bits))?;
        let mask = (1usize << h.bits) - 1;
        let mut i = home(line, h.bits);
        loop {
            let (l, id) = table[i];
            if l == line {
                return Some(id);
            }
            if l == FREE.0 {
                return None;
            }
            i = (i + 1) & mask;
        }
    }

    /// Whether the tables outgrew the caches (a half-megabyte of slots), so
    /// that bringing a slot in ahead (`prefetch`) pays for its cost.
    pub(super) fn spilled(&self) -> bool {
        self.slots.len() > 1 << 16
    }

    /// Brings in the slot `get(caller, line)` starts at, without waiting.
    #[inline]
    pub(super) fn prefetch(&self, caller: Option<FuncId>, line: u32) {
        let h = self.head(caller);
        if h.bits > 0 {
            let at = h.start as usize + home(line, h.bits);
            if let Some(slot) = self.slots.get(at) {
                profx_sys::prefetch::prefetch(slot);
            }
        }
    }

    /// Keeps the row of a site `get` did not find.
    pub(super) fn insert(&mut self, caller: Option<FuncId>, line: u32, id: LineId) {
        if line == FREE.0 {
            self.odd.push((caller, id));
            return;
        }
        let mut h = self.head(caller);
        // At most three quarters full, so a probe ends soon at a free slot.
        if h.bits == 0 || (h.len + 1) * 4 > (3u32 << h.bits) {
            h = self.grow(h);
        }
        place(&mut self.slots, h, line, id);
        h.len += 1;
        match caller {
            Some(f) => {
                if self.heads.len() <= f.index() {
                    self.heads.resize(f.index() + 1, Head::default());
                }
                self.heads[f.index()] = h;
            }
            None => self.top = h,
        }
    }

    /// A table twice as large at the arena's end, with `h`'s sites.
    #[cold]
    fn grow(&mut self, h: Head) -> Head {
        let bits = if h.bits == 0 { 2 } else { h.bits + 1 };
        let start = self.slots.len();
        self.slots.resize(start + (1 << bits), FREE);
        let new = Head {
            start: u32::try_from(start).unwrap_or(u32::MAX),
            bits,
            len: h.len,
        };
        if h.bits > 0 {
            let old = h.start as usize..h.start as usize + (1 << h.bits);
            for k in old {
                let (line, id) = self.slots[k];
                if line != FREE.0 {
                    place(&mut self.slots, new, line, id);
                }
            }
        }
        new
    }
}

/// Puts a site in the first free slot of its probe in table `h`.
fn place(slots: &mut [(u32, LineId)], h: Head, line: u32, id: LineId) {
    let mask = (1usize << h.bits) - 1;
    let mut i = home(line, h.bits);
    loop {
        let slot = &mut slots[h.start as usize + i];
        if slot.0 == FREE.0 {
            *slot = (line, id);
            return;
        }
        i = (i + 1) & mask;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sites of many callers, some with many lines, at top level, and at
    /// line u32::MAX, are all found again with their rows; others are not.
    #[test]
    fn every_site_kept_is_found_and_no_other() {
        let mut sites = Sites::default();
        let callers = [None, Some(FuncId(0)), Some(FuncId(3)), Some(FuncId(700))];
        let mut next = 0;
        let mut kept = Vec::new();
        for (k, caller) in callers.into_iter().enumerate() {
            // Strided lines, as generated code has them, and a run.
            let lines: Vec<u32> = (0..40 * (k as u32 + 1))
                .map(|i| i * 1000 + 7)
                .chain(500_000..500_050)
                .chain([u32::MAX])
                .collect();
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
        assert_eq!(sites.get(Some(FuncId(1)), 1), None);
        assert_eq!(sites.get(Some(FuncId(1)), u32::MAX), None);
        assert_eq!(sites.get(Some(FuncId(5000)), 1), None);
        assert_eq!(sites.get(Some(FuncId(0)), 500_050), None);
        assert_eq!(sites.get(Some(FuncId(0)), 8), None);
        assert_eq!(sites.get(None, 3_000_007), None);
    }
}
