//! A trace's events as the panes need them without the file: where each
//! record starts, its function and its call depth, in four bytes an event.
//!
//! A gigabyte trace has tens of millions of events, so a byte an event is
//! tens of megabytes of the memory budget. A row packs the distance from
//! the previous record (10 bits: records are tens of bytes), the function
//! (14 bits) and the depth (8 bits, saturated: no screen shows a deeper
//! indent). Every `ANCHOR`th offset is kept in full, and so is an offset
//! whose distance does not fit its row; finding an offset then costs at
//! most `ANCHOR` additions, done only for the rows a pane shows. A
//! profile with 16,383 functions or more (traces name thousands) turns the
//! rows into eight-byte ones, once.

use profx_model::FuncId;

const ANCHOR: usize = 64;
const STEP_BITS: u32 = 10;
const FUNC_BITS: u32 = 14;
/// The packed function field of an event with no function.
const NO_FUNC: u32 = (1 << FUNC_BITS) - 1;

/// One event, as its loader saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Entry {
    pub offset: u64,
    pub function: Option<FuncId>,
    pub depth: u8,
}

#[derive(Clone, Debug)]
enum Rows {
    Packed(Vec<u32>),
    Wide(Vec<Wide>),
}

#[derive(Clone, Copy, Debug)]
struct Wide {
    func: u32,
    step: u16,
    depth: u8,
}

#[derive(Clone, Debug)]
pub(super) struct EventIndex {
    rows: Rows,
    anchors: Vec<u64>,
    /// (event index, offset) of each row whose step is 0 and that is no
    /// anchor; in index order.
    far: Vec<(u64, u64)>,
    last: u64,
}

impl Default for EventIndex {
    fn default() -> Self {
        EventIndex {
            rows: Rows::Packed(Vec::new()),
            anchors: Vec::new(),
            far: Vec::new(),
            last: 0,
        }
    }
}

impl EventIndex {
    /// Adds an event; offsets increase.
    pub(super) fn push(&mut self, e: Entry) {
        let func = e.function.map_or(u32::MAX, |f| f.index() as u32);
        if let Rows::Packed(v) = &self.rows
            && func != u32::MAX
            && func >= NO_FUNC
        {
            let wide = v.iter().map(|&w| unpack(w)).collect();
            self.rows = Rows::Wide(wide);
        }
        let max_step = match self.rows {
            Rows::Packed(_) => (1 << STEP_BITS) - 1,
            Rows::Wide(_) => u64::from(u16::MAX),
        };
        let step = self.step(e.offset, max_step);
        match &mut self.rows {
            Rows::Packed(v) => {
                let f = func.min(NO_FUNC);
                v.push(step | f << STEP_BITS | u32::from(e.depth) << (STEP_BITS + FUNC_BITS));
            }
            Rows::Wide(v) => v.push(Wide {
                func,
                step: step as u16,
                depth: e.depth,
            }),
        }
    }

    /// The step the next row keeps: 0 for an anchor or an offset kept aside.
    fn step(&mut self, offset: u64, max_step: u64) -> u32 {
        let i = self.len();
        let d = offset
            .checked_sub(self.last)
            .filter(|&d| d > 0 && d <= max_step);
        self.last = offset;
        if i.is_multiple_of(ANCHOR) {
            self.anchors.push(offset);
            return 0;
        }
        match d {
            Some(d) => d as u32,
            None => {
                self.far.push((i as u64, offset));
                0
            }
        }
    }

    pub(super) fn len(&self) -> usize {
        match &self.rows {
            Rows::Packed(v) => v.len(),
            Rows::Wide(v) => v.len(),
        }
    }

    fn row(&self, index: usize) -> Option<Wide> {
        match &self.rows {
            Rows::Packed(v) => v.get(index).map(|&w| unpack(w)),
            Rows::Wide(v) => v.get(index).copied(),
        }
    }

    pub(super) fn function(&self, index: usize) -> Option<Option<FuncId>> {
        let f = self.row(index)?.func;
        Some((f != u32::MAX).then(|| FuncId::from_index(f as usize)))
    }

    pub(super) fn depth(&self, index: usize) -> Option<u8> {
        Some(self.row(index)?.depth)
    }

    pub(super) fn offset(&self, index: usize) -> Option<u64> {
        let block = index / ANCHOR;
        let mut at = *self.anchors.get(block)?;
        for i in block * ANCHOR + 1..=index {
            at = match self.row(i)?.step {
                0 => {
                    let k = self.far.binary_search_by_key(&(i as u64), |f| f.0).ok()?;
                    self.far[k].1
                }
                d => at + u64::from(d),
            };
        }
        Some(at)
    }
}

fn unpack(w: u32) -> Wide {
    let func = (w >> STEP_BITS) & NO_FUNC;
    Wide {
        func: if func == NO_FUNC { u32::MAX } else { func },
        step: (w & ((1 << STEP_BITS) - 1)) as u16,
        depth: (w >> (STEP_BITS + FUNC_BITS)) as u8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(offset: u64, f: Option<usize>, depth: u8) -> Entry {
        Entry {
            offset,
            function: f.map(FuncId::from_index),
            depth,
        }
    }

    #[test]
    fn offsets_come_back_whatever_the_distances() {
        let mut index = EventIndex::default();
        let mut offsets = Vec::new();
        let mut at = 3u64;
        for i in 0..1000u64 {
            offsets.push(at);
            index.push(entry(at, Some(i as usize % 7), (i % 300).min(255) as u8));
            // Mostly short steps, now and then one past ten bits or two
            // bytes.
            at += match i % 97 {
                0 => 70_000 + i,
                1 => 1_024,
                2 => 1_023,
                _ => 1 + i % 40,
            };
        }
        assert_eq!(index.len(), 1000);
        for (i, &o) in offsets.iter().enumerate() {
            assert_eq!(index.offset(i), Some(o), "event {i}");
            assert_eq!(index.function(i), Some(Some(FuncId::from_index(i % 7))));
            assert_eq!(index.depth(i), Some((i % 300).min(255) as u8));
        }
        assert_eq!(index.offset(1000), None);
        assert!(matches!(index.rows, Rows::Packed(_)));
    }

    #[test]
    fn rows_widen_past_fourteen_bits_and_keep_what_came_before() {
        let mut index = EventIndex::default();
        let funcs = [Some(0), None, Some(16_382), Some(16_383), None, Some(3)];
        for (i, &f) in funcs.iter().enumerate() {
            if i == 3 {
                assert!(matches!(index.rows, Rows::Packed(_)));
            }
            index.push(entry(10 * i as u64 + 2_000 * (i == 4) as u64, f, i as u8));
        }
        assert!(matches!(index.rows, Rows::Wide(_)));
        for (i, &f) in funcs.iter().enumerate() {
            assert_eq!(index.function(i), Some(f.map(FuncId::from_index)));
            assert_eq!(index.depth(i), Some(i as u8));
            let offset = 10 * i as u64 + 2_000 * (i == 4) as u64;
            assert_eq!(index.offset(i), Some(offset), "event {i}");
        }
        assert_eq!(index.function(6), None);
    }
}
