//! A trace packet's events, left in the file: an index of record offsets
//! (and each record's function, found while loading) over the shared input
//! bytes; a row is decoded only when a pane shows it.

use super::dbf::ColMap;
use super::deldbe::{self, Layout};
use super::replay::Step;
use super::row::Row;
use crate::load::Input;
use crate::model::{Event, EventSource, FuncId};
use crate::text::decode;
use std::sync::Arc;

/// How to decode a record at an offset.
#[derive(Debug)]
pub enum Decoder {
    Deldbe(Layout),
    /// Field map and record length of a DBF table.
    Dbf(Arc<ColMap>, usize),
}

#[derive(Debug)]
pub struct TraceEvents {
    input: Input,
    decoder: Decoder,
    offsets: OffsetIndex,
    /// Each event's function, none for a skipped record.
    funcs: Functions,
    /// Call depth for indenting, saturated at 255: deeper than that no
    /// screen shows the indent anyway. With the offsets, 5 bytes an event
    /// (7 past 65,534 functions); the file's bytes stay in the file.
    depths: Vec<u8>,
}

/// Each event's function: two bytes while the profile has fewer than
/// 65,535 functions (traces name thousands), four from the first event of
/// a function past that on.
#[derive(Debug)]
enum Functions {
    Narrow(Vec<u16>),
    Wide(Vec<u32>),
}

impl Functions {
    fn push(&mut self, f: Option<FuncId>) {
        let raw = f.map_or(u32::MAX, |f| f.index() as u32);
        if let Functions::Narrow(v) = self {
            match f.map(|_| u16::try_from(raw)) {
                None => return v.push(u16::MAX),
                Some(Ok(n)) if n != u16::MAX => return v.push(n),
                Some(_) => {
                    let wide = v.iter().map(|&n| widen(n)).collect();
                    *self = Functions::Wide(wide);
                }
            }
        }
        if let Functions::Wide(v) = self {
            v.push(raw);
        }
    }

    fn get(&self, index: usize) -> Option<Option<FuncId>> {
        let raw = match self {
            Functions::Narrow(v) => widen(*v.get(index)?),
            Functions::Wide(v) => *v.get(index)?,
        };
        Some((raw != u32::MAX).then(|| FuncId::from_index(raw as usize)))
    }
}

fn widen(n: u16) -> u32 {
    if n == u16::MAX {
        u32::MAX
    } else {
        u32::from(n)
    }
}

impl TraceEvents {
    pub fn new(input: Input, decoder: Decoder) -> Self {
        TraceEvents {
            input,
            decoder,
            offsets: OffsetIndex::default(),
            funcs: Functions::Narrow(Vec::new()),
            depths: Vec::new(),
        }
    }

    /// Adds the event whose record starts at `offset` (offsets increase).
    pub fn push(&mut self, offset: u64, step: Step) {
        self.offsets.push(offset);
        self.funcs.push(step.function);
        self.depths
            .push(u8::try_from(step.depth).unwrap_or(u8::MAX));
    }
}

/// Record offsets in two bytes an event: every `ANCHOR`th offset in full,
/// the others as the distance from the previous record (records are short
/// and follow each other); a distance that does not fit two bytes is kept
/// in full aside. An offset costs at most `ANCHOR` additions to find, done
/// only for the rows a pane shows.
#[derive(Debug, Default)]
struct OffsetIndex {
    anchors: Vec<u64>,
    steps: Vec<u16>,
    /// (event index, offset) where the step did not fit; in index order.
    far: Vec<(u64, u64)>,
    last: u64,
}

const ANCHOR: usize = 64;

impl OffsetIndex {
    fn push(&mut self, offset: u64) {
        let i = self.steps.len();
        let step = offset
            .checked_sub(self.last)
            .and_then(|d| u16::try_from(d).ok());
        match step {
            _ if i.is_multiple_of(ANCHOR) => {
                self.anchors.push(offset);
                self.steps.push(0);
            }
            Some(d) if d > 0 => self.steps.push(d),
            _ => {
                self.steps.push(0);
                self.far.push((i as u64, offset));
            }
        }
        self.last = offset;
    }

    fn len(&self) -> usize {
        self.steps.len()
    }

    fn get(&self, index: usize) -> Option<u64> {
        let block = index / ANCHOR;
        let mut at = *self.anchors.get(block)?;
        for i in block * ANCHOR + 1..=index {
            at = match *self.steps.get(i)? {
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

impl EventSource for TraceEvents {
    fn function(&self, index: usize) -> Option<FuncId> {
        self.funcs.get(index)?
    }

    fn depth(&self, index: usize) -> Option<u32> {
        self.depths.get(index).map(|&d| u32::from(d))
    }

    fn len(&self) -> usize {
        self.offsets.len()
    }

    fn get(&self, index: usize) -> Option<Event> {
        let start = usize::try_from(self.offsets.get(index)?).ok()?;
        let bytes = self.input.bytes().get(start..)?;
        match &self.decoder {
            Decoder::Deldbe(layout) => {
                let end = bytes
                    .iter()
                    .position(|&b| b == b'\n')
                    .unwrap_or(bytes.len());
                let line = bytes[..end].strip_suffix(b"\r").unwrap_or(&bytes[..end]);
                let text = decode(line);
                let mut fields = Vec::new();
                deldbe::split(&text, &mut fields);
                let row = deldbe::row(&text, &fields, layout).ok()?;
                Some(event(&row, self.function(index)))
            }
            Decoder::Dbf(map, record_len) => {
                let record = bytes.get(..*record_len)?;
                let mut e = event(&map.row(record).ok()?, self.function(index));
                // Fields that are no trace column are kept for the trace pane.
                if let Some(others) = map.others(record) {
                    e.params = Some(match e.params {
                        Some(p) => format!("{p}; {others}"),
                        None => others,
                    });
                }
                Some(e)
            }
        }
    }
}

fn event(row: &Row<'_>, function: Option<FuncId>) -> Event {
    Event {
        thread: row.thread,
        time_ms: row.time,
        op: row.op.to_string(),
        function,
        line: row.line,
        params: row.params.as_ref().map(|p| p.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_come_back_whatever_the_distances() {
        let mut index = OffsetIndex::default();
        let mut offsets = Vec::new();
        let mut at = 3u64;
        for i in 0..1000u64 {
            offsets.push(at);
            index.push(at);
            // Mostly short steps, now and then one past two bytes.
            at += if i % 97 == 0 { 70_000 + i } else { 1 + i % 40 };
        }
        assert_eq!(index.len(), 1000);
        for (i, &o) in offsets.iter().enumerate() {
            assert_eq!(index.get(i), Some(o), "event {i}");
        }
        assert_eq!(index.get(1000), None);
    }

    #[test]
    fn functions_widen_past_two_bytes_and_keep_what_came_before() {
        let f = |i: usize| Some(FuncId::from_index(i));
        let mut funcs = Functions::Narrow(Vec::new());
        for x in [f(0), None, f(65_534)] {
            funcs.push(x);
        }
        assert!(matches!(funcs, Functions::Narrow(_)));
        funcs.push(f(65_535));
        funcs.push(None);
        funcs.push(f(3));
        assert!(matches!(funcs, Functions::Wide(_)));
        let got: Vec<_> = (0..7).map(|i| funcs.get(i)).collect();
        let want = [f(0), None, f(65_534), f(65_535), None, f(3)].map(Some);
        assert_eq!(got[..6], want);
        assert_eq!(got[6], None);
    }
}
