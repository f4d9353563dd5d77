//! The fast engine of `/T` records: workers parse chunks of lines
//! (`chunk.rs`, the common records at byte level in `bytes.rs`) and number
//! their names; this thread numbers each batch's names in the profile's
//! table, and an applier thread applies the records in file order, as one
//! pass over the lines would (`read`); stacks are resolved by name at the
//! end (`stacks.rs`). `../reference.rs` is the same rules a line at a time.

mod bytes;
mod chunk;
mod stacks;

use super::record::{self, count, number, time};
use crate::names::{NameMaps, NewNames, WorkerNames};
use crate::problem::Problem;
use crate::split::MAX_LINE;
use crate::{Input, LoadError, LoadOptions, parallel};
use chunk::{Body, Item};
use profx_model::intern::Interner;
use profx_model::{
    FuncId, FuncSummary, MetaValue, NameId, Place, ProfileBuilder, TimeValues, WarningKind,
};
use std::sync::mpsc;

/// Workers parse chunks of lines (`chunk.rs`); this thread applies their
/// records in file order, as one pass over the lines would.
pub(super) fn load(
    input: &Input,
    opts: &LoadOptions,
    b: &mut ProfileBuilder,
) -> Result<(), LoadError> {
    let start = if input.bytes().starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    let chunks = parallel::input_line_chunks(input, start, opts.chunk_bytes.unwrap_or(CHUNK));
    // The builder's name table is this thread's until the end; the
    // applier adds rows meanwhile.
    let mut table = b.take_names();
    let parsers = parallel::parsers(opts);
    let st = read(input, (parsers, &chunks), State::new(&mut *b), &mut table);
    let done = finish(st, &mut table, input.name());
    b.put_names(table);
    done
}

/// Workers parse the chunks; this thread numbers each batch's names in
/// `table` and hands the batch to an applier thread, which applies its
/// records to `st` in file order. Returns `st` with every record applied.
fn read<'b>(
    input: &Input,
    (parsers, chunks): (usize, &[std::ops::Range<usize>]),
    st: State<'b>,
    table: &mut Interner,
) -> State<'b> {
    let bytes = input.bytes();
    std::thread::scope(|s| {
        // Two batches wait at most: the applier is the slower side.
        let (tx, rx) = mpsc::sync_channel(2);
        let (spare_tx, spare_rx) = mpsc::channel();
        let applier = s.spawn(move || apply(st, rx, spare_tx));
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

/// `State::finish`, while the names, all in now, are ranked on another
/// core (resolving stacks looks no name up); the ranks are kept in `table`
/// for the profile's freeze.
fn finish(st: State<'_>, table: &mut Interner, path: &str) -> Result<(), LoadError> {
    let frames = Frames {
        no_module: table.intern(""),
        names: table.len(),
    };
    let (done, ranks) = std::thread::scope(|s| {
        let ranking = s.spawn(|| table.ranks());
        let done = st.finish(path, frames);
        let ranks = ranking.join();
        (
            done,
            ranks.unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
        )
    });
    table.keep_ranks(ranks);
    done
}

/// What resolving stack frames needs of the name table, which is busy
/// being ranked meanwhile: the id of `""` (the module of a frame no
/// function of the file matches) and how many names there are.
#[derive(Clone, Copy)]
struct Frames {
    no_module: NameId,
    names: usize,
}

/// The applier's side: `State` takes each batch's records in file order,
/// its names already numbered by the consumer (numbering names and applying
/// records are the two longest shares of the load, so each has a thread).
/// Emptied item buffers go back through `spares`.
fn apply<'b>(
    mut st: State<'b>,
    batches: mpsc::Receiver<(chunk::Batch, Vec<NameId>)>,
    spares: mpsc::Sender<Vec<(u32, Item)>>,
) -> State<'b> {
    let mut lines_before = 0;
    for (mut batch, ids) in batches {
        let names = BatchNames {
            ids: &ids,
            text: &batch.new_names,
        };
        for (at, item) in batch.items.drain(..) {
            st.item(lines_before + u64::from(at) + 1, item, &names);
        }
        lines_before += batch.lines;
        // The consumer may have stopped taking spares.
        let _ = spares.send(batch.items);
    }
    st
}

/// A batch's names: the worker's numbers → the profile's ids, and their
/// text (the profile's table is the consumer's while batches are applied).
struct BatchNames<'a> {
    ids: &'a [NameId],
    text: &'a NewNames,
}

impl BatchNames<'_> {
    fn id(&self, local: u32) -> NameId {
        self.ids[local as usize]
    }

    fn text(&self, local: u32) -> &str {
        self.text.get(local).unwrap_or_default()
    }
}

/// Bytes a worker parses at a time. A line is ~35 bytes and becomes a
/// ~48-byte record, so a batch outweighs its chunk: smaller than the trace
/// loaders' chunks, to keep the batches in flight to a few megabytes.
const CHUNK: usize = 512 << 10;

/// Numbers of a tag 6 function, before the method decides whether its
/// times are measurements.
#[derive(Default)]
struct RawFunc {
    first_line: u64,
    calls: u64,
    time: f64,
    child: f64,
}

/// The latest tag 8: how many stacks it promised and how many came.
struct Group {
    line: u64,
    declared: u64,
    seen: u64,
}

/// A tag 9 stack. Its frame names are `State::frames` from `first` to
/// the next stack's `first`: frames only ever join the newest stack, and
/// one list for all of them saves a heap block a stack.
struct RawStack {
    line: u64,
    owner: FuncId,
    owner_name: NameId,
    size: u64,
    hits: u64,
    self_ms: f64,
    child_ms: f64,
    first: usize,
}

struct State<'b> {
    b: &'b mut ProfileBuilder,
    method: Option<u64>,
    session: Option<(f64, f64)>,
    /// By `FuncId` index (ids are dense); `first_line` 0 where the file
    /// lists no such function.
    funcs: Vec<RawFunc>,
    /// The latest tag 6 function and its name.
    owner: Option<(FuncId, NameId)>,
    group: Option<Group>,
    /// The stack taking frames: the last of `stacks`, when one is open.
    open: bool,
    stacks: Vec<RawStack>,
    frames: Vec<NameId>,
    used: u64,
}

impl<'b> State<'b> {
    fn new(b: &'b mut ProfileBuilder) -> Self {
        State {
            b,
            method: None,
            session: None,
            funcs: Vec::new(),
            owner: None,
            group: None,
            open: false,
            stacks: Vec::new(),
            frames: Vec::new(),
            used: 0,
        }
    }

    /// Applies line `n`'s record; `names` maps its worker's numbers.
    fn item(&mut self, n: u64, item: Item, names: &BatchNames<'_>) {
        let (tag, body) = match item {
            Item::Record { tag, body } => (tag, Some(body)),
            Item::Short { tag, need, found } => {
                let msg = format!(
                    "tag {tag} needs {need} fields after the tag, found {found}; record skipped"
                );
                self.b.warn(Place::Line(n), WarningKind::MissingField, msg);
                (tag, None)
            }
            Item::NotATag(first) => {
                let msg = format!("first field {first} is not a PLIST format tag; line skipped");
                self.b.warn(Place::Line(n), WarningKind::NotARecord, msg);
                return;
            }
            Item::Unknown(tag) => {
                self.close_stack();
                let msg = format!("unknown format tag {tag}; record skipped");
                self.b
                    .warn(Place::Line(n), WarningKind::UnknownRecordType, msg);
                return;
            }
            Item::TooLong(len) => {
                let why = format!(
                    "a line of {len} bytes is longer than a record can be ({MAX_LINE} bytes); skipped"
                );
                self.b.warn(Place::Line(n), WarningKind::LineTooLong, why);
                return;
            }
        };
        // A record of another tag ends the stack being listed, and a function
        // or a new tag 8 ends the group of stacks, even when it is unusable.
        if tag != 10 {
            self.close_stack();
        }
        if matches!(tag, 6 | 8) {
            self.close_group();
        }
        if tag == 6 {
            self.owner = None;
        }
        let Some(body) = body else { return };
        match body.and_then(|body| self.record(n, tag, body, names)) {
            Ok(()) => self.used += 1,
            Err(why) => {
                let msg = format!("tag {tag}: {why}; record skipped");
                self.b.warn(Place::Line(n), why.kind, msg);
            }
        }
    }

    fn record(
        &mut self,
        n: u64,
        tag: u32,
        body: Body,
        names: &BatchNames<'_>,
    ) -> Result<(), Problem> {
        let name = |local: u32| names.id(local);
        match body {
            Body::Global(fields) => self.global(tag, &fields)?,
            Body::Function {
                module,
                name: f,
                calls,
                time,
                child,
            } => {
                let id = (name(f), name(module));
                let text = (names.text(f), names.text(module));
                self.function(n, id, text, calls, (time, child));
            }
            Body::Line { file, line, hits } => {
                let id = self.b.line(name(file), line, None);
                self.b.line_summary(id, Some(hits), None);
            }
            Body::Group { declared } => self.stack_group(n, declared)?,
            Body::Stack {
                size,
                hits,
                self_ms,
                child_ms,
            } => self.stack(n, size, hits, (self_ms, child_ms))?,
            Body::Frame { name: f } => self.frame(name(f))?,
        }
        Ok(())
    }

    /// Tags 0 to 5: the session's meta and totals.
    fn global(&mut self, tag: u32, f: &[String]) -> Result<(), Problem> {
        let get = |i: usize| f.get(i).map_or("", String::as_str);
        match tag {
            0 => {
                self.b.set_meta("plist_version", record::meta(get(0)));
                self.b.set_meta("banner", text(get(1)));
            }
            1 => {
                let code = number(get(0), "method", count)?;
                self.method = Some(code);
                self.b.set_meta("method_code", int(code));
                self.b.set_meta("method", text(get(1)));
            }
            2 => {
                let total = number(get(0), "total time", time)?;
                let outside = number(get(1), "outside time", time)?;
                let depth = number(get(2), "call depth", count)?;
                self.session = Some((total, outside));
                self.b.set_meta("call_depth", int(depth));
            }
            3 => {
                let keys = ["total_hits", "units_marked", "units_hit"];
                let values = [0, 1, 2].map(|i| number(get(i), keys[i], count));
                for (key, value) in keys.iter().zip(values) {
                    self.b.set_meta(key, int(value?));
                }
            }
            4 => {
                self.b.set_meta("date", text(get(0)));
                self.b.set_meta("command_line", text(get(1)));
            }
            _ => self.b.set_meta("start_function", text(get(0))),
        }
        Ok(())
    }

    /// A tag 6 function; `id` is (name, module), `text` their text.
    fn function(
        &mut self,
        n: u64,
        id: (NameId, NameId),
        text: (&str, &str),
        calls: u64,
        (t, child): (f64, f64),
    ) {
        let (name, module) = id;
        let id = self.b.function(name, module);
        if self.funcs.len() <= id.index() {
            self.funcs.resize_with(id.index() + 1, RawFunc::default);
        }
        let raw = &mut self.funcs[id.index()];
        if raw.first_line == 0 {
            raw.first_line = n;
        } else {
            let msg = format!(
                "function {:?} ({}) listed again after line {}; merged by summing",
                profx_model::text::visible(text.0),
                profx_model::text::visible(text.1),
                raw.first_line
            );
            self.b.warn(Place::Line(n), WarningKind::ListedAgain, msg);
        }
        if child < t {
            let msg = format!(
                "func+child time {child} is below func time {t}; both kept as the file states them"
            );
            self.b
                .warn(Place::Line(n), WarningKind::ImpossibleValue, msg);
        }
        for (what, v) in [("func time", t), ("func+child time", child)] {
            if v < 0.0 {
                let msg = format!("{what} {v} is negative; kept as the file states it");
                self.b
                    .warn(Place::Line(n), WarningKind::ImpossibleValue, msg);
            }
        }
        let raw = &mut self.funcs[id.index()];
        raw.calls = raw.calls.saturating_add(calls);
        raw.time += t;
        raw.child += child;
        self.owner = Some((id, name));
    }

    fn stack_group(&mut self, n: u64, declared: u64) -> Result<(), Problem> {
        if self.owner.is_none() {
            return Err(record::out_of_place("stacks before any tag 6 function"));
        }
        self.group = Some(Group {
            line: n,
            declared,
            seen: 0,
        });
        Ok(())
    }

    fn stack(&mut self, n: u64, size: u64, hits: u64, ms: (f64, f64)) -> Result<(), Problem> {
        let (owner, owner_name) = self
            .owner
            .ok_or_else(|| record::out_of_place("stack before any tag 6 function"))?;
        if let Some(g) = &mut self.group {
            g.seen += 1;
        }
        self.stacks.push(RawStack {
            line: n,
            owner,
            owner_name,
            size,
            hits,
            self_ms: ms.0,
            child_ms: ms.1,
            first: self.frames.len(),
        });
        self.open = true;
        Ok(())
    }

    /// The open stack, if any.
    fn open_stack(&self) -> Option<&RawStack> {
        self.stacks.last().filter(|_| self.open)
    }

    fn frame(&mut self, name: NameId) -> Result<(), Problem> {
        match self.open_stack() {
            Some(s) if ((self.frames.len() - s.first) as u64) < s.size => {
                self.frames.push(name);
                Ok(())
            }
            Some(s) => Err(record::frame_beyond(s.size)),
            None => Err(record::out_of_place("stack frame with no tag 9 stack open")),
        }
    }

    fn close_stack(&mut self) {
        let Some(s) = self.open_stack() else { return };
        let have = (self.frames.len() - s.first) as u64;
        if have < s.size {
            let msg = format!(
                "stack declares {} frames but {have} follow; kept the {have}",
                s.size
            );
            self.b
                .warn(Place::Line(s.line), WarningKind::CountMismatch, msg);
        }
        self.open = false;
    }

    fn close_group(&mut self) {
        let Some(g) = self.group.take() else { return };
        if g.seen != g.declared {
            let msg = format!("declares {} stacks but {} follow", g.declared, g.seen);
            self.b
                .warn(Place::Line(g.line), WarningKind::CountMismatch, msg);
        }
    }

    fn finish(mut self, path: &str, frames: Frames) -> Result<(), LoadError> {
        self.close_stack();
        self.close_group();
        if self.used == 0 {
            return Err(record::nothing_usable(path));
        }
        let timed = record::measures_time(self.method);
        let measured = |t: f64| timed.then_some(t);
        for (id, raw) in listed(&self.funcs) {
            let time = TimeValues {
                elapsed_inclusive: measured(raw.child),
                elapsed_exclusive: measured(raw.time),
                ..Default::default()
            };
            let summary = FuncSummary {
                calls: Some(raw.calls),
                time,
                ..Default::default()
            };
            self.b.summary(id, summary);
        }
        self.emit_stacks(timed, frames);
        if let (true, Some((total, outside))) = (timed, self.session) {
            let totals = self.b.totals_mut();
            totals.elapsed_inclusive_ms = (total > 0.0).then_some(total);
            totals.outside_ms = Some(outside);
        }
        Ok(())
    }
}

/// The functions the file lists, with their numbers.
fn listed(funcs: &[RawFunc]) -> impl Iterator<Item = (FuncId, &RawFunc)> {
    let ids = (0..funcs.len()).map(FuncId::from_index);
    ids.zip(funcs).filter(|(_, raw)| raw.first_line != 0)
}

fn text(s: &str) -> MetaValue {
    MetaValue::Text(s.to_string())
}

fn int(n: u64) -> MetaValue {
    i64::try_from(n).map_or_else(|_| MetaValue::Float(n as f64), MetaValue::Int)
}
