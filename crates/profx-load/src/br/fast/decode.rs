//! The worker's half of the BR loader: one chunk of records becomes its
//! closed samples and the warnings between them, in file order, as the
//! format's sampler (`rules.rs`, `Sampler` and `walk_sample`) makes them.
//!
//! Workers see only bytes: a function name becomes a small number of the
//! worker's own (no lock, no shared table), and the calling thread turns
//! those numbers, module numbers and frames into the builder's ids. A chunk
//! begins where `sync` guesses a sample begins and reads on until it stands
//! where a later chunk begins, so no sample spans two chunks: a sample
//! still open at a chunk's end is one the next record would have closed
//! anyway, and is closed here as that record would
//! (`Sampler::next_sample`). The batch says where it began and ended, for
//! the calling thread to keep only batches that follow on from the one
//! before.

use super::frame_keys::{FrameKey, FrameKeys};
use super::lines::LineNumbers;
use super::sync::{Targets, chunk_start};
use crate::br::record::{Frame, Record, Stop, measure, read, read_whole, trim_name};
use crate::br::rules::{Closed, FuncKind, RawFrame, Sampler, Sink, walk_sample};
use crate::names::{NewNames, WorkerNames};
use crate::problem::Problem;
use profx_model::intern::Bytes;
use profx_model::text::decode;
use profx_model::{FuncId, ProfileBuilder};
use rustc_hash::FxHashMap;
use std::ops::Range;
use std::sync::{Arc, Mutex};

/// A worker's function as it ships it (`Batch::new_funcs`): its kind, its
/// name's number with `FuncKind::Named` (`Batch::new_names`), its module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct NewFunc {
    pub kind: FuncKind,
    pub name: u32,
    pub module: u16,
}

/// A function as a worker first tells it: a frame's kind, name and module
/// number. A name is numbered only when its function is new, so a frame
/// costs one table lookup, not one for its name and one for its function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FuncKey<'a> {
    kind: FuncKind,
    module: u16,
    name: Bytes<'a>,
}

/// A whole sample's frame's function as its records tell it: its kind,
/// module and name as written, and the key they spell
/// (`frame_keys.rs`; `None` for a name too long). The worker's table's key
/// (`FuncKey`, the name trimmed) is made only when the spelt key misses.
#[derive(Clone, Copy)]
struct Told<'a> {
    kind: FuncKind,
    module: u16,
    name: &'a [u8],
    spelt: Option<FrameKey>,
}

impl<'a> Told<'a> {
    /// A frame `walk_sample` told, its name's bytes at `name_at` in
    /// `bytes`.
    #[inline]
    fn of(bytes: &[u8], frame: RawFrame<'a>, name_at: usize) -> Self {
        let module = frame.at.module;
        let spelt = match frame.kind {
            FuncKind::Named => FrameKey::named(bytes, name_at, frame.name.len(), module),
            kind => Some(FrameKey::unnamed(kind, module)),
        };
        Told {
            kind: frame.kind,
            module,
            name: frame.name,
            spelt,
        }
    }

    fn key(self) -> FuncKey<'a> {
        FuncKey {
            kind: self.kind,
            module: self.module,
            name: Bytes(trim_name(self.name)),
        }
    }
}

/// What `Decoder::number_whole` read of a sample besides its functions.
struct WholeSample {
    end: usize,
    ns: u64,
    timed: bool,
    line: u32,
}

impl std::hash::Hash for FuncKey<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64((self.kind as u64) << 16 | u64::from(self.module));
        self.name.hash(state);
    }
}

/// One thing the calling thread must do, in file order.
#[derive(Clone, Debug)]
pub(super) enum Op<'a> {
    Warn(u64, Problem),
    Mapping {
        at: u64,
        module: u16,
        name: &'a [u8],
    },
    /// A closed sample: its type 3's offset, where its `len` frames'
    /// function numbers (leaf first) begin in `Batch::funcs`, where the
    /// frames themselves begin in `Batch::frames` when it was read record
    /// by record (`raw`; `NO_RAW` for a sample read whole, which `reread`
    /// reads again if ever needed), its nanoseconds (and whether a time
    /// record gave them) and the worker's number for its leaf's (module,
    /// line) (`Batch::new_lines`). Places, not ranges: an op is 48 bytes,
    /// not 64, and a batch holds one a sample.
    ///
    /// When the worker knew the builder's ids of all its functions
    /// (`Given`), `raw` is `IDS`, `funcs` is where those ids begin in
    /// `Batch::ids`, root first, and `hash` is the stack's hash
    /// (`ProfileBuilder::stack_hash`): the calling thread only looks the
    /// stack up.
    Sample {
        offset: u64,
        funcs: usize,
        raw: usize,
        len: u32,
        hash: u32,
        ns: u64,
        timed: bool,
        line: u32,
    },
}

/// A chunk's results.
#[derive(Debug, Default)]
pub(super) struct Batch<'a> {
    pub ops: Vec<Op<'a>>,
    /// The frames of samples read record by record (the rare case).
    pub frames: Vec<RawFrame<'a>>,
    /// Root-first function ids of the samples whose `raw` is `IDS`.
    pub ids: Vec<FuncId>,
    /// The worker's number for each frame's function (`new_funcs`): 4
    /// bytes a frame, where a frame as read takes 40. A whole sample's
    /// frames are numbered as they are read and never kept: 14.5 M
    /// samples of a 1 GiB log wrote 2 GB of frames no one read again.
    pub funcs: Vec<u32>,
    /// Names this worker numbered in this chunk (padding trimmed,
    /// decoded: `load::names`).
    pub new_names: NewNames,
    /// Likewise the functions (`NewFunc`) and the (module, line) pairs
    /// that make lines: the calling thread then finds a function or line
    /// by index, not by hashing.
    pub new_funcs: Vec<NewFunc>,
    pub new_lines: Vec<(u16, u32)>,
    /// The bytes read: from the chunk's guessed start to where a later
    /// chunk begins, or to where reading stops. `None` when no start was
    /// found (nothing was read).
    pub span: Option<Range<usize>>,
    /// Reading stopped at the span's end: the end of the file or a record
    /// that does not read.
    pub last: bool,
    /// A time record was read (the profile is timed).
    pub timed: bool,
}

/// `Op::Sample::raw` of a sample read whole.
pub(super) const NO_RAW: usize = usize::MAX;
/// `Op::Sample::raw` of a sample read whole whose functions' ids the
/// worker knew.
pub(super) const IDS: usize = usize::MAX - 1;

/// The builder's ids of one worker's function numbers, as the calling
/// thread gives them (`u32::MAX` for none yet). The worker copies them at
/// the start of a chunk when they changed, and then turns a sample's
/// numbers into ids and hashes its stack itself: work the calling thread,
/// which bounds a BR load, no longer does a sample.
#[derive(Debug, Default)]
pub(super) struct Given {
    ids: Vec<u32>,
    changes: u64,
}

impl Given {
    /// The id of the worker's function `n`.
    pub(super) fn give(&mut self, n: u32, id: FuncId) {
        let n = n as usize;
        if self.ids.len() <= n {
            self.ids.resize(n + 1, u32::MAX);
        }
        self.ids[n] = id.index() as u32;
        self.changes += 1;
    }
}

/// A sample's functions as its worker sent them (`Batch::sample`).
pub(super) enum Sent<'b, 'a> {
    /// The builder's ids, root first (`IDS`).
    Ids(&'b [FuncId]),
    /// The frames if it was read record by record (else none), and the
    /// worker's numbers of their functions, leaf first.
    Numbers(&'b [RawFrame<'a>], &'b [u32]),
}

impl<'a> Batch<'a> {
    /// A sample's functions, from its op's places (`Op::Sample`).
    pub(super) fn sample(&self, funcs: usize, raw: usize, len: u32) -> Sent<'_, 'a> {
        let len = len as usize;
        if raw == IDS {
            return Sent::Ids(self.ids.get(funcs..funcs + len).unwrap_or(&[]));
        }
        let frames = self.frames.get(raw..raw.saturating_add(len)).unwrap_or(&[]);
        let numbers = self.funcs.get(funcs..funcs + len).unwrap_or(&[]);
        Sent::Numbers(frames, numbers)
    }

    /// Empties the batch, keeping its room.
    pub(super) fn clear(&mut self) {
        // Every field named, so a new one cannot be left full.
        let Batch {
            ops,
            frames,
            ids,
            funcs,
            new_names,
            new_funcs,
            new_lines,
            span,
            last,
            timed,
        } = self;
        ops.clear();
        frames.clear();
        ids.clear();
        funcs.clear();
        *new_names = NewNames::default();
        new_funcs.clear();
        new_lines.clear();
        *span = None;
        *last = false;
        *timed = false;
    }
}

/// What every worker reads: the log, cut into chunks of `size` bytes
/// (where each begins is `sync`'s guess).
#[derive(Clone, Copy, Debug)]
pub(super) struct Shared<'a> {
    pub bytes: &'a [u8],
    pub size: usize,
}

/// A worker's state across its chunks: its numbering of names, functions
/// and lines.
pub(super) struct Decoder<'a> {
    shared: Shared<'a>,
    /// Names are numbered only when their function is new, so their
    /// table is off the hot path.
    names: WorkerNames,
    funcs: FxHashMap<FuncKey<'a>, u32>,
    /// The same numbers by how a frame's records spell its function.
    spelt: FrameKeys,
    lines: LineNumbers,
    /// The calling thread's ids for this worker's functions, and the copy
    /// read at the start of the last chunk, as of `changes` changes.
    given: Arc<Mutex<Given>>,
    ids: Vec<u32>,
    changes: u64,
    /// Whether a sample is read in one go when it can be (`whole_sample`);
    /// tests turn it off to compare with reading record by record.
    whole: bool,
}

/// Where a chunk's reading ended.
enum Ended {
    /// Where a later chunk begins.
    AtChunk,
    /// At the end of the file.
    AtEnd,
    /// At a record that does not read: reading stops there.
    Stopped(Stop),
}

struct Chunk<'a> {
    batch: Batch<'a>,
    sampler: Sampler<'a>,
}

/// The sampler's results into a worker's batch.
struct Numbering<'d, 'a> {
    decoder: &'d mut Decoder<'a>,
    batch: &'d mut Batch<'a>,
}

impl<'a> Sink<'a> for Numbering<'_, 'a> {
    fn warn(&mut self, at: u64, problem: Problem) {
        self.batch.ops.push(Op::Warn(at, problem));
    }

    fn mapping(&mut self, at: u64, module: u16, name: &'a [u8]) {
        self.batch.ops.push(Op::Mapping { at, module, name });
    }

    fn sample(&mut self, closed: Closed, frames: &[RawFrame<'a>]) {
        let raw = self.batch.frames.len();
        self.batch.frames.extend_from_slice(frames);
        let (funcs, line) = self.decoder.number(self.batch, frames);
        self.batch.ops.push(Op::Sample {
            offset: closed.offset,
            funcs: funcs.start,
            raw,
            len: funcs.len() as u32,
            hash: 0,
            ns: closed.ns,
            timed: closed.timed,
            line,
        });
    }
}

impl<'a> Decoder<'a> {
    pub(super) fn new(shared: Shared<'a>, given: Arc<Mutex<Given>>) -> Self {
        Decoder {
            shared,
            names: WorkerNames::kept(),
            funcs: FxHashMap::default(),
            spelt: FrameKeys::default(),
            lines: LineNumbers::default(),
            given,
            ids: Vec::new(),
            changes: 0,
            whole: true,
        }
    }

    /// A decoder that reads every record on its own, by the nom parsers
    /// of `record::read`: tests hold the whole-sample reading to it.
    #[cfg(test)]
    pub(super) fn record_by_record(shared: Shared<'a>, given: Arc<Mutex<Given>>) -> Self {
        Decoder {
            whole: false,
            ..Decoder::new(shared, given)
        }
    }

    /// Decodes the chunk whose nominal bytes are `range` into `spare` (an
    /// emptied batch, whose room is reused).
    pub(super) fn chunk(&mut self, range: Range<usize>, spare: Batch<'a>) -> Batch<'a> {
        let Shared { bytes, size } = self.shared;
        let k = range.start / size.max(1);
        let mut c = Chunk {
            batch: spare,
            sampler: Sampler::default(),
        };
        let Some(start) = chunk_start(bytes, size, k) else {
            c.batch.new_names = self.names.take();
            return c.batch;
        };
        self.copy_given();
        let (end, ended) = self.read_on(&mut c, start, Targets::after(bytes, size, k));
        let mut sink = Numbering {
            decoder: self,
            batch: &mut c.batch,
        };
        match ended {
            Ended::AtChunk => c.sampler.next_sample(end as u64, &mut sink),
            Ended::AtEnd => c.sampler.stop(end as u64, None, &mut sink),
            Ended::Stopped(why) => {
                let left = (bytes.len() - end) as u64;
                c.sampler.stop(end as u64, Some((why, left)), &mut sink);
            }
        }
        c.batch.timed |= c.sampler.timed();
        c.batch.span = Some(start..end);
        c.batch.last = !matches!(ended, Ended::AtChunk);
        c.batch.new_names = self.names.take();
        c.batch
    }

    /// Reads records from `pos` until one stands where a later chunk
    /// begins, or the file ends, or a record does not read; says where and
    /// which.
    fn read_on(&mut self, c: &mut Chunk<'a>, mut pos: usize, mut later: Targets) -> (usize, Ended) {
        let bytes = self.shared.bytes;
        loop {
            if later.reached(pos) {
                return (pos, Ended::AtChunk);
            }
            if pos >= bytes.len() {
                return (pos, Ended::AtEnd);
            }
            // A type 3 that reads closes the sample before it, as the
            // sampler would, whether this one reads whole or not.
            if bytes[pos] == 3 && self.whole && measure(&bytes[pos..]).is_ok() {
                let mut sink = Numbering {
                    decoder: self,
                    batch: &mut c.batch,
                };
                c.sampler.next_sample(pos as u64, &mut sink);
                if let Some(end) = self.whole_sample(c, pos) {
                    pos = end;
                    continue;
                }
            }
            let rest = &bytes[pos..];
            let quick = if self.whole { read_whole(rest) } else { None };
            let (rec, len) = match quick {
                Some(whole) => whole,
                None => match read(rest) {
                    Ok(careful) => careful,
                    Err(why) => return (pos, Ended::Stopped(why)),
                },
            };
            let mut sink = Numbering {
                decoder: self,
                batch: &mut c.batch,
            };
            c.sampler.record(pos as u64, rec, &mut sink);
            pos += len;
        }
    }

    /// Reads the sample whose type 3 is at `start` in one go, when it lies
    /// whole in the file and holds only the records samples are made of:
    /// the common case, without asking at each record whether a later
    /// chunk begins there (chunks begin at a type 3, and a sample holds
    /// one) or whether a sample is open. Where it ends, or `None`, having
    /// pushed nothing, at anything else (a mapping inside the sample,
    /// damage, the end of the file): reading record by record takes it.
    fn whole_sample(&mut self, c: &mut Chunk<'a>, start: usize) -> Option<usize> {
        let first = c.batch.funcs.len();
        let Some(read) = self.number_whole(&mut c.batch, start) else {
            c.batch.funcs.truncate(first);
            return None;
        };
        c.batch.timed |= read.timed;
        let funcs = first..c.batch.funcs.len();
        let len = funcs.len() as u32;
        let (funcs, raw, hash) = self.sent_as(&mut c.batch, funcs);
        c.batch.ops.push(Op::Sample {
            offset: start as u64,
            funcs,
            raw,
            len,
            hash,
            ns: read.ns,
            timed: read.timed,
            line: read.line,
        });
        Some(read.end)
    }

    /// Reads the sample whose type 3 is at `start` (`walk_sample`),
    /// numbering each frame's function onto the batch's `funcs` as soon as
    /// `walk_sample` tells it: one pass, with no frame kept. `None` where
    /// `walk_sample` says `None`; functions numbered by then stay numbered
    /// (reading record by record numbers them alike), and the caller drops
    /// what was pushed.
    fn number_whole(&mut self, batch: &mut Batch<'a>, start: usize) -> Option<WholeSample> {
        let bytes = self.shared.bytes;
        let Some((Record::Current(leaf), _)) = bytes.get(start..).and_then(read_whole) else {
            return None;
        };
        // Its line's cell is looked up when the sample ends: asked for now,
        // it has come by then.
        self.lines.prefetch(leaf.module, leaf.line);
        let walked = walk_sample(bytes, start, |frame, name_at| {
            let n = self.told_number(batch, Told::of(bytes, frame, name_at));
            batch.funcs.push(n);
        });
        let (end, ns, timed) = walked?;
        let line = self.line_number(batch, leaf);
        Some(WholeSample {
            end,
            ns,
            timed,
            line,
        })
    }

    /// Takes the calling thread's ids for this worker's functions, if they
    /// changed since the last chunk.
    fn copy_given(&mut self) {
        let Ok(given) = self.given.lock() else {
            return;
        };
        if given.changes != self.changes {
            self.ids.clone_from(&given.ids);
            self.changes = given.changes;
        }
    }

    /// How a whole sample whose functions are numbered at `numbers` in
    /// the batch is sent, as an op's `funcs`, `raw` and `hash`: as ids
    /// (its numbers dropped) when all have one, else as numbers.
    fn sent_as(&self, batch: &mut Batch<'a>, numbers: Range<usize>) -> (usize, usize, u32) {
        match self.ids_of(batch, numbers.clone()) {
            Some((ids, hash)) => {
                batch.funcs.truncate(numbers.start);
                (ids, IDS, hash)
            }
            None => (numbers.start, NO_RAW, 0),
        }
    }

    /// The ids of the functions numbered at `numbers` in the batch, root
    /// first onto `Batch::ids`, and their stack's hash; `None` (and
    /// nothing pushed) if one has no id yet.
    fn ids_of(&self, batch: &mut Batch<'a>, numbers: Range<usize>) -> Option<(usize, u32)> {
        let start = batch.ids.len();
        for &n in batch.funcs.get(numbers)?.iter().rev() {
            match self.ids.get(n as usize) {
                Some(&id) if id != u32::MAX => batch.ids.push(FuncId::from_index(id as usize)),
                _ => {
                    batch.ids.truncate(start);
                    return None;
                }
            }
        }
        Some((start, ProfileBuilder::stack_hash(&batch.ids[start..])))
    }

    /// Numbers the functions of a sample's frames (leaf first, never
    /// empty) onto the batch's `funcs`: where they stand there, and the
    /// number of the leaf's line.
    fn number(&mut self, batch: &mut Batch<'a>, frames: &[RawFrame<'a>]) -> (Range<usize>, u32) {
        let start = batch.funcs.len();
        for f in frames {
            let key = FuncKey {
                kind: f.kind,
                module: f.at.module,
                name: Bytes(f.name),
            };
            let n = self.func_number(batch, key);
            batch.funcs.push(n);
        }
        let funcs = start..batch.funcs.len();
        // A sample opens with its type 3's frame: `frames` has a leaf.
        let line = frames.first().map_or(0, |f| self.line_number(batch, f.at));
        (funcs, line)
    }

    /// `func_number` of a frame's function, found first by how its
    /// records spell it when they spell it shortly. The found case is
    /// inlined into the sample loop, which runs it for every frame.
    #[inline(always)]
    fn told_number(&mut self, batch: &mut Batch<'a>, told: Told<'a>) -> u32 {
        match told.spelt.and_then(|k| self.spelt.get(k)) {
            Some(n) => n,
            None => self.number_and_spell(batch, told),
        }
    }

    #[inline(never)]
    fn number_and_spell(&mut self, batch: &mut Batch<'a>, told: Told<'a>) -> u32 {
        let n = self.func_number(batch, told.key());
        if let Some(spelt) = told.spelt {
            self.spelt.insert(spelt, n);
        }
        n
    }

    /// The worker's number of a frame's function, numbered now if new.
    #[inline]
    fn func_number(&mut self, batch: &mut Batch<'a>, key: FuncKey<'a>) -> u32 {
        if let Some(&n) = self.funcs.get(&key) {
            return n;
        }
        let n = self.funcs.len() as u32;
        self.funcs.insert(key, n);
        let name = match key.kind {
            FuncKind::Named => self.names.id(&decode(key.name.0)),
            _ => 0,
        };
        batch.new_funcs.push(NewFunc {
            kind: key.kind,
            name,
            module: key.module,
        });
        n
    }

    /// The worker's number of a leaf's (module, line).
    fn line_number(&mut self, batch: &mut Batch<'a>, leaf: Frame) -> u32 {
        let (n, new) = self.lines.number(leaf.module, leaf.line);
        if new {
            batch.new_lines.push((leaf.module, leaf.line));
        }
        n
    }
}
