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
    offsets: Vec<u64>,
    /// Each event's function index, `NO_FUNCTION` for a skipped record:
    /// 12 bytes an event in all, the file's bytes stay in the file.
    funcs: Vec<u32>,
    /// Call depth for indenting, saturated at `u16::MAX` (2 bytes an event).
    depths: Vec<u16>,
}

const NO_FUNCTION: u32 = u32::MAX;

impl TraceEvents {
    pub fn new(input: Input, decoder: Decoder) -> Self {
        TraceEvents {
            input,
            decoder,
            offsets: Vec::new(),
            funcs: Vec::new(),
            depths: Vec::new(),
        }
    }

    pub fn push(&mut self, offset: u64, step: Step) {
        self.offsets.push(offset);
        self.funcs
            .push(step.function.map_or(NO_FUNCTION, |f| f.index() as u32));
        self.depths
            .push(u16::try_from(step.depth).unwrap_or(u16::MAX));
    }
}

impl EventSource for TraceEvents {
    fn function(&self, index: usize) -> Option<FuncId> {
        let raw = *self.funcs.get(index)?;
        (raw != NO_FUNCTION).then(|| FuncId::from_index(raw as usize))
    }

    fn depth(&self, index: usize) -> Option<u32> {
        self.depths.get(index).map(|&d| u32::from(d))
    }

    fn len(&self) -> usize {
        self.offsets.len()
    }

    fn get(&self, index: usize) -> Option<Event> {
        let start = usize::try_from(*self.offsets.get(index)?).ok()?;
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
