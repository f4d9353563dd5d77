//! The fast engine of `/T` records: workers parse chunks of lines into
//! records (`chunk.rs`, the common records at byte level in `bytes.rs`)
//! and number their names; this thread numbers each batch's names in the
//! profile's table, and an applier thread feeds the records, in file
//! order, to the format's rules (`../rules.rs`), the same the reference
//! loader feeds a line at a time. Nothing here decides what a record does.

mod bytes;
mod chunk;

use super::rules::{Names, Record, Rules};
use crate::names::{NameMaps, NewNames, WorkerNames};
use crate::{Input, LoadError, LoadOptions, parallel};
use profx_model::intern::Interner;
use profx_model::{NameId, ProfileBuilder};
use std::sync::mpsc;

/// Workers parse chunks of lines (`chunk.rs`); the rules take their
/// records in file order, as one pass over the lines would.
pub(super) fn load(
    input: &Input,
    opts: &LoadOptions,
    b: &mut ProfileBuilder,
) -> Result<(), LoadError> {
    let mut engine = Engine::new();
    engine.text(input, opts, b);
    engine.finish(b, input.name())
}

/// The rules, fed a file's lines by the workers: at once, or in parts
/// (`text` again with an input of the lines that follow, as a file that
/// grows).
pub(super) struct Engine {
    rules: Rules,
    /// Lines fed so far.
    lines: u64,
}

impl Engine {
    /// An engine at the start of a file.
    pub(super) fn new() -> Engine {
        Engine {
            rules: Rules::new(),
            lines: 0,
        }
    }

    /// Feeds `input`'s whole lines, those that follow the lines fed before
    /// (the last one may lack its `\n`: it is taken as whole). A UTF-8
    /// byte-order mark before the file's first line is dropped.
    pub(super) fn text(&mut self, input: &Input, opts: &LoadOptions, b: &mut ProfileBuilder) {
        let bom = self.lines == 0 && input.bytes().starts_with(b"\xEF\xBB\xBF");
        let start = if bom { 3 } else { 0 };
        let chunks = parallel::input_line_chunks(input, start, opts.chunk_bytes.unwrap_or(CHUNK));
        // The builder's name table is this thread's until the end; the
        // applier adds rows meanwhile.
        let mut table = b.take_names();
        let parsers = parallel::parsers(opts);
        let applier = Applier {
            rules: &mut self.rules,
            b: &mut *b,
            lines: self.lines,
        };
        self.lines = read(input, (parsers, &chunks), applier, &mut table);
        b.put_names(table);
    }

    /// The end of the file `path` (`Rules::finish`). The names are ranked
    /// when the profile freezes, once the lookup tables are gone: ranking
    /// beside the rules' end (on another core) made their memory and the
    /// ranking's keys together a large listing's peak.
    pub(super) fn finish(self, b: &mut ProfileBuilder, path: &str) -> Result<(), LoadError> {
        self.rules.finish(b, path)
    }
}

/// Workers parse the chunks; this thread numbers each batch's names in
/// `table` and hands the batch to the applier's thread, which feeds its
/// records to the rules in file order. Returns the lines fed in all.
fn read(
    input: &Input,
    (parsers, chunks): (usize, &[std::ops::Range<usize>]),
    applier: Applier<'_>,
    table: &mut Interner,
) -> u64 {
    let bytes = input.bytes();
    std::thread::scope(|s| {
        // Two batches wait at most: the applier is the slower side.
        let (tx, rx) = mpsc::sync_channel(2);
        let (spare_tx, spare_rx) = mpsc::channel();
        let applier = s.spawn(move || applier.apply(rx, spare_tx));
        let mut done = 0;
        let mut maps = NameMaps::default();
        // Items go in the room of batches already read: new pages cost
        // a fault each.
        parallel::ordered_reusing(
            parsers,
            chunks,
            |_| WorkerNames::per_batch(),
            |names, range, spare| chunk::parse(&bytes[range], names, spare),
            |worker, batch| {
                let ids = maps.learn(worker, &batch.new_names, table).to_vec();
                // Lines are read once: the pages behind them go back, so
                // the mapped file is never resident whole.
                input.release(chunks[done].clone());
                done += 1;
                let go_on = tx.send((batch, ids)).is_ok();
                (go_on, spare_rx.try_recv().unwrap_or_default())
            },
        );
        drop(tx);
        applier
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// The applier's side: the rules take each batch's records in file order,
/// their names already numbered by the consumer (numbering names and
/// applying records are the two longest shares of the load, so each has a
/// thread).
struct Applier<'a> {
    rules: &'a mut Rules,
    b: &'a mut ProfileBuilder,
    /// Lines before the first batch's.
    lines: u64,
}

impl Applier<'_> {
    /// Feeds the batches; emptied item buffers go back through `spares`.
    /// Returns the lines fed in all.
    fn apply(
        self,
        batches: mpsc::Receiver<(chunk::Batch, Vec<NameId>)>,
        spares: mpsc::Sender<Vec<(u32, Record<u32>)>>,
    ) -> u64 {
        let mut lines_before = self.lines;
        for (mut batch, ids) in batches {
            let names = BatchNames {
                ids: &ids,
                text: &batch.new_names,
            };
            for (at, record) in batch.items.drain(..) {
                let n = lines_before + u64::from(at) + 1;
                self.rules.record(self.b, n, record, &names);
            }
            lines_before += batch.lines;
            // The consumer may have stopped taking spares.
            let _ = spares.send(batch.items);
        }
        lines_before
    }
}

/// A batch's names: the worker's numbers → the profile's ids, and their
/// text (the profile's table is the consumer's while batches are applied).
struct BatchNames<'a> {
    ids: &'a [NameId],
    text: &'a NewNames,
}

impl Names for BatchNames<'_> {
    type Name = u32;

    fn id(&self, local: u32) -> NameId {
        self.ids[local as usize]
    }

    fn text<'s>(&'s self, _: &'s ProfileBuilder, local: u32) -> &'s str {
        self.text.get(local).unwrap_or_default()
    }
}

/// Bytes a worker parses at a time. A line is ~35 bytes and becomes a
/// ~48-byte record, so a batch outweighs its chunk: smaller than the trace
/// loaders' chunks, to keep the batches in flight to a few megabytes.
const CHUNK: usize = 512 << 10;
