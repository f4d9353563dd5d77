//! A trace packet's events, left in the file: an index of record offsets
//! (and each record's function, found while loading) over the shared input
//! bytes; a row is decoded only when a pane shows it.

use super::dbf::ColMap;
use super::deldbe::{self, Layout};
use super::index::{Entry, EventIndex};
use super::row::Row;
use crate::{Input, KeepEvents};
use profx_model::text::decode;
use profx_model::{Event, EventSource, FuncId};
use std::sync::Arc;

/// One event as the trace pane shows it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Step {
    pub function: Option<FuncId>,
    /// Calls open on the thread around the event.
    pub depth: u32,
}

/// How to decode a record at an offset.
#[derive(Clone, Debug)]
pub(super) enum Decoder {
    Deldbe(Layout),
    /// Field map and record length of a DBF table.
    Dbf(Arc<ColMap>, usize),
}

#[derive(Clone, Debug)]
pub(super) struct TraceEvents {
    input: Input,
    decoder: Decoder,
    /// Each event's offset, function (none for a skipped record) and call
    /// depth, in four bytes; the file's bytes stay in the file. `None`
    /// when only the count is kept (`KeepEvents::Counted`): no event reads
    /// back then.
    index: Option<EventIndex>,
    count: usize,
}

impl TraceEvents {
    pub(super) fn new(input: Input, decoder: Decoder, keep: KeepEvents) -> Self {
        TraceEvents {
            input,
            decoder,
            index: (keep == KeepEvents::Indexed).then(EventIndex::default),
            count: 0,
        }
    }

    /// The same events over `input`: a followed piece's bytes as they are
    /// now, which begin with the bytes the events were read from.
    pub(super) fn over(&self, input: Input) -> TraceEvents {
        TraceEvents {
            input,
            ..self.clone()
        }
    }

    /// Adds the event whose record starts at `offset` (offsets increase).
    #[inline]
    pub(super) fn push(&mut self, offset: u64, step: Step) {
        self.count += 1;
        let Some(index) = &mut self.index else { return };
        index.push(Entry {
            offset,
            function: step.function,
            depth: u8::try_from(step.depth).unwrap_or(u8::MAX),
        });
    }
}

impl EventSource for TraceEvents {
    fn function(&self, index: usize) -> Option<FuncId> {
        self.index.as_ref()?.function(index)?
    }

    fn depth(&self, index: usize) -> Option<u32> {
        self.index.as_ref()?.depth(index).map(u32::from)
    }

    fn len(&self) -> usize {
        self.count
    }

    fn get(&self, index: usize) -> Option<Event> {
        let start = usize::try_from(self.index.as_ref()?.offset(index)?).ok()?;
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
