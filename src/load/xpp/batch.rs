//! What a parsing worker hands the replay: trace events in a compact form,
//! their names numbered by the worker's own table.
//!
//! Workers never share a table (no lock on the hot path); each batch
//! carries the names its worker saw first in it, and the consumer, which
//! receives a worker's batches in the order they were made, maps the
//! worker's numbers to the profile's `NameId`s with one array lookup an
//! event.

use super::fast::Record;
use super::row::Row;
use crate::model::budget::Skips;
use crate::model::intern::Interner;
use crate::model::{NameId, Place, ProfileBuilder};

/// A trace operation (formats.md § xpp). `Other` is an op the spec does
/// not know, kept by name so the replay can warn about it once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// `i`: about to enter.
    Enter,
    /// `I`: entered (functions compiled with profiling).
    Entered,
    /// `O`: about to return.
    Leaving,
    /// `o`: returned.
    Left,
    Other(u32),
}

/// One trace record, parsed. `name` and `Op::Other` are worker numbers in
/// a batch and `NameId` indexes once [`global`] has mapped them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ev {
    /// Where the record starts in its piece (the events pane reads it
    /// again from there).
    pub offset: u64,
    /// Its place: the line's index in the chunk for text, its offset for
    /// records.
    pub at: u64,
    pub thread: u64,
    pub time: Option<f64>,
    pub line: Option<u32>,
    pub name: u32,
    pub op: Op,
}

/// One chunk's parse.
#[derive(Debug, Default)]
pub struct Batch<X> {
    pub events: Vec<Ev>,
    /// Names this worker saw first in this chunk, in number order.
    pub new_names: Vec<Box<str>>,
    /// Records that are no trace record: (place as in `Ev::at`, why), the
    /// first thousand whole and the rest counted by kind.
    pub skipped: Skips,
    /// Whether the chunk's first record has a time column (the trace is
    /// timed or not by its first record).
    pub first_timed: Option<bool>,
    /// Format-specific findings (line count, end mark, …).
    pub extra: X,
}

impl<X: Default> Batch<X> {
    /// An empty batch whose events go in `spare`'s room (a batch the
    /// consumer is done with, `parallel::ordered_reusing`).
    pub fn reusing(mut spare: Vec<Ev>) -> Self {
        spare.clear();
        Batch {
            events: spare,
            ..Batch::default()
        }
    }
}

impl<X> Batch<X> {
    /// Adds a parsed row, numbering its names in `names`.
    pub fn push(&mut self, names: &mut LocalNames, row: &Row<'_>, offset: u64, at: u64) {
        let name = names.id(&row.call, &mut self.new_names);
        let op = self.op(names, &row.op);
        self.events.push(Ev {
            offset,
            at,
            thread: row.thread.unwrap_or(0),
            time: row.time,
            line: row.line,
            name,
            op,
        });
    }

    /// The op named `text`; an unknown one keeps its name.
    fn op(&mut self, names: &mut LocalNames, text: &str) -> Op {
        match text {
            "i" => Op::Enter,
            "I" => Op::Entered,
            "O" => Op::Leaving,
            "o" => Op::Left,
            other => Op::Other(names.id(other, &mut self.new_names)),
        }
    }

    /// Adds a record of the common DELDBE shape.
    pub fn push_fast(&mut self, names: &mut LocalNames, r: &Record<'_>, offset: u64, at: u64) {
        let op = match r.op {
            b'i' => Op::Enter,
            b'I' => Op::Entered,
            b'O' => Op::Leaving,
            b'o' => Op::Left,
            other => Op::Other(names.id(
                char::from(other).encode_utf8(&mut [0; 4]),
                &mut self.new_names,
            )),
        };
        self.events.push(Ev {
            offset,
            at,
            thread: r.thread,
            time: Some(r.time),
            line: r.line,
            name: names.id_ascii(r.call, &mut self.new_names),
            op,
        });
    }
}

/// A worker's name table, kept for the whole load (a trace has thousands
/// of names, not a PLIST's hundreds of thousands).
#[derive(Debug, Default)]
pub struct LocalNames {
    table: Interner,
}

impl LocalNames {
    fn id(&mut self, name: &str, new: &mut Vec<Box<str>>) -> u32 {
        let known = self.table.len();
        let id = self.table.intern(name).0;
        if self.table.len() > known {
            new.push(name.into());
        }
        id
    }

    /// `id` of a name the fast path found to be ASCII: a known name is
    /// looked up by its bytes, and only a new one is made text.
    fn id_ascii(&mut self, name: &[u8], new: &mut Vec<Box<str>>) -> u32 {
        match self.table.find(name) {
            Some(id) => id.0,
            None => self.id(&String::from_utf8_lossy(name), new),
        }
    }
}

/// The consumer's side: per worker, its numbers → the profile's names.
#[derive(Debug, Default)]
pub struct NameMaps {
    maps: Vec<Vec<NameId>>,
}

impl NameMaps {
    /// Learns the batch's new names; returns the worker's numbers → the
    /// profile's names, which [`global`] applies to each event as it is
    /// replayed (one pass over a batch, not a pass to rewrite it first).
    pub fn learn<X>(
        &mut self,
        worker: usize,
        batch: &Batch<X>,
        b: &mut ProfileBuilder,
    ) -> &[NameId] {
        if self.maps.len() <= worker {
            self.maps.resize_with(worker + 1, Vec::new);
        }
        let map = &mut self.maps[worker];
        map.extend(batch.new_names.iter().map(|n| b.intern(n)));
        map
    }
}

/// `ev` with its names the profile's (`map`: [`NameMaps::learn`]'s).
#[inline]
pub fn global(map: &[NameId], ev: &Ev) -> Ev {
    let global = |local: u32| map.get(local as usize).map_or(u32::MAX, |id| id.0);
    let op = match ev.op {
        Op::Other(op) => Op::Other(global(op)),
        op => op,
    };
    Ev {
        name: global(ev.name),
        op,
        ..*ev
    }
}

/// Hands a batch's skipped records to the builder as warnings, `what`
/// ending each message ("line skipped", "skipped").
pub fn warn_skipped(
    b: &mut ProfileBuilder,
    skipped: Skips,
    place: impl Fn(u64) -> Place,
    what: &str,
) {
    let message = |why: &str| format!("not a trace record: {why}; {what}");
    for (at, why) in skipped.whole {
        b.warn(place(at), message(&why));
    }
    for c in skipped.counted {
        let (at, why) = &c.first;
        b.warn_counted(place(*at), message(why), c.count, place(c.last));
    }
}
