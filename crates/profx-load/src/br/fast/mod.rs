//! The fast engine: large logs are decoded on every core (`decode.rs`,
//! `load::parallel`): each worker guesses where a sample begins near its
//! chunk's start (`sync.rs`) and runs the format's sampler on its chunk,
//! and this thread feeds the samples of the batches that follow on from
//! each other to the format's rules (`../rules.rs`) in file order, so ids,
//! sums and warnings come out as a single reading would make them. Nothing
//! here decides what a record does: it keeps the workers' numbers' ids
//! (caches of what the rules resolved), and asks the rules only for what
//! they have not resolved yet. Once this thread
//! has given a function an id, it tells the worker that numbered it
//! (`decode::Given`), and that worker sends later samples as ids with
//! their stack's hash, which leaves this thread, the one that bounds a
//! load, only the lookup. What a sample may need from later in the file
//! (a module mapped after its first use, whether a time record comes at
//! all) is read ahead only when a sample needs it (`Later`).

mod decode;
mod frame_keys;
mod lines;
mod sync;

use super::record::{Record, measure, read};
use super::rules::{Ahead, RawFrame, ReadAhead, Rules, SampleFrames, reread};
use crate::names::NameMaps;
use crate::{Input, KeepEvents, LoadError, LoadOptions, parallel};
use decode::{Batch, Decoder, Given, NewFunc, Op, Sent, Shared};
use profx_model::ids::RowId;
use profx_model::metrics::HashedSample;
use profx_model::{FuncId, LineId, Place, ProfileBuilder};
use profx_sys::prefetch::prefetch;
use std::marker::PhantomData;
use std::ops::Range;
use std::sync::{Arc, Mutex};

/// Workers decode chunks from where each guesses a sample begins; this
/// thread feeds the batches that follow on from each other.
pub(super) fn load(
    input: &Input,
    opts: &LoadOptions,
    b: &mut ProfileBuilder,
) -> Result<(), LoadError> {
    let bytes = input.bytes();
    let size = opts.chunk_bytes.unwrap_or(parallel::CHUNK).max(1);
    let chunks: Vec<Range<usize>> = (0..bytes.len().div_ceil(size))
        .map(|k| k * size..bytes.len().min((k + 1) * size))
        .collect();
    let shared = Shared { bytes, size };
    // One a parser: the worker threads and, when it parses, this one.
    let parsers = parallel::parsers(opts);
    let given: Vec<Arc<Mutex<Given>>> = (0..parsers).map(|_| Arc::default()).collect();
    let mut feed = Feed::new(b, input, opts.events, given.clone());
    let mut done = 0;
    parallel::ordered_reusing(
        parsers,
        &chunks,
        |worker| Decoder::new(shared, given[worker].clone()),
        |decoder, range, spare| decoder.chunk(range, spare),
        |worker, mut batch| {
            let go_on = feed.batch(worker, &mut batch);
            input.release(chunks[done].clone());
            done += 1;
            batch.clear();
            (go_on, batch)
        },
    );
    feed.finish(input.name())
}

/// The look-ahead (`rules::Ahead`) read ahead of the batches in one quick
/// pass, from where the batch being fed begins. A log BR wrote maps its
/// modules first and times its first sample, so the rules ask for it for
/// a sampled log only (once its first sample is fed) or for a damaged one.
#[derive(Clone, Copy)]
struct Later<'a> {
    input: &'a Input,
    from: usize,
}

impl<'a> ReadAhead<'a> for Later<'a> {
    /// Pages read are given back as the pass goes, so a file larger than
    /// memory is never resident whole.
    fn read_ahead(&self) -> Ahead<'a> {
        const STEP: usize = 1 << 20;
        let bytes = self.input.bytes();
        let mut ahead = Ahead::default();
        let (mut pos, mut from) = (self.from, self.from);
        while pos < bytes.len() {
            pos = skip(bytes, pos, from + STEP, &mut ahead.timed);
            if pos - from >= STEP {
                self.input.forget(from..pos);
                from = pos;
            }
            if pos >= bytes.len() {
                break;
            }
            let Ok((kind, len)) = measure(&bytes[pos..]) else {
                break;
            };
            match kind {
                1 => module(&mut ahead, &bytes[pos..]),
                4 => ahead.timed = true,
                _ => {}
            }
            pos += len;
        }
        self.input.forget(from..pos);
        ahead
    }
}

/// Keeps the first mapping of a module number (`measure` found the
/// record whole, so it reads).
fn module<'a>(ahead: &mut Ahead<'a>, at: &'a [u8]) {
    if let Ok((Record::Module { module, name }, _)) = read(at) {
        ahead.modules.entry(module).or_insert(name);
    }
}

/// Skips from `pos` the records samples are made of, as `measure` reads
/// them, while the longest of them would fit; stops at any other type and
/// at a type 3 from `pause_at` on. Says when it passes a time record. Where
/// it stops, the careful reading goes on: this is that reading's common
/// case in a tight loop, as reading ahead is a part of a load no other
/// core shares.
fn skip(bytes: &[u8], mut pos: usize, pause_at: usize, timed: &mut bool) -> usize {
    // A name record is the longest: its type, its length, 255 bytes.
    let end = bytes.len().saturating_sub(257);
    while pos < end {
        pos += match bytes[pos] {
            3 if pos >= pause_at => break,
            3 | 5 => 8,
            4 => {
                *timed = true;
                9
            }
            6 | 8 | 9 => 1,
            7 => 2 + usize::from(bytes[pos + 1]),
            _ => break,
        };
    }
    pos
}

/// The calling thread's half: workers' batches, in file order, into the
/// rules.
struct Feed<'a, 'b> {
    b: &'b mut ProfileBuilder,
    input: &'a Input,
    rules: Rules<'a, Later<'a>>,
    /// Each worker's numbers → the builder's ids.
    locals: Vec<Local>,
    names: NameMaps,
    /// Where the batches fed so far end: the next batch fed must begin
    /// there. Once reading has stopped, where it stopped.
    read_to: usize,
    /// The batch's samples, resolved, waiting for `add_pending`, and their
    /// frames (root first) back to back.
    pending: Vec<Pending>,
    funcs: Vec<FuncId>,
    /// A whole sample's frames, read again (`resolve`).
    again: Vec<RawFrame<'a>>,
    /// Each worker's ids as given to it (`decode::Given`).
    given: Vec<Arc<Mutex<Given>>>,
}

impl<'a, 'b> Feed<'a, 'b> {
    fn new(
        b: &'b mut ProfileBuilder,
        input: &'a Input,
        keep: KeepEvents,
        given: Vec<Arc<Mutex<Given>>>,
    ) -> Self {
        let rules = Rules::new(b, input, keep, Later { input, from: 0 });
        Feed {
            b,
            input,
            rules,
            locals: Vec::new(),
            names: NameMaps::default(),
            read_to: 0,
            pending: Vec::new(),
            funcs: Vec::new(),
            again: Vec::new(),
            given,
        }
    }

    /// Feeds a batch that begins where the last one fed ended; another
    /// began at a wrong guess, and only its numbering is kept (the worker
    /// goes on numbering from it). Says whether reading goes on.
    fn batch(&mut self, worker: usize, batch: &mut Batch<'a>) -> bool {
        if self.locals.len() <= worker {
            self.locals.resize_with(worker + 1, Local::default);
        }
        let new_names = std::mem::take(&mut batch.new_names);
        self.locals[worker].learn(batch);
        let Some(span) = batch.span.clone().filter(|s| s.start == self.read_to) else {
            // Read from a wrong guess: its numbers stay, its names wait
            // for a use (`load::names`).
            self.names.hold(worker, new_names);
            return true;
        };
        self.names.learn(worker, &new_names, &mut *self.b);
        self.read_to = span.end;
        // What comes later is read from here, if it has not been read.
        self.rules.later_mut().from = span.start;
        if batch.timed {
            self.rules.saw_time();
        }
        // A worker's lines are too many to stay in a cache between the
        // samples that meet them: each sample's is asked for ahead.
        const AHEAD: usize = 8;
        let mut ops = std::mem::take(&mut batch.ops);
        for i in 0..ops.len() {
            if let Some(Op::Sample { line, .. }) = ops.get(i + AHEAD) {
                self.locals[worker].prefetch_line(*line);
            }
            match &mut ops[i] {
                Op::Warn(at, problem) => {
                    let why = std::mem::take(&mut problem.why);
                    self.b.warn(Place::Offset(*at), problem.kind, why);
                }
                &mut Op::Mapping { at, module, name } => {
                    self.rules.mapping(self.b, at, module, name);
                }
                &mut Op::Sample {
                    offset,
                    funcs,
                    raw,
                    len,
                    hash,
                    ns,
                    timed,
                    line,
                } => {
                    let ns = self.rules.time(self.b, offset, timed, ns);
                    match batch.sample(funcs, raw, len) {
                        Sent::Ids(ids) => {
                            self.sample_of_ids(worker, offset, (ids, funcs, hash), ns, line);
                        }
                        Sent::Numbers(raw, numbers) => {
                            self.sample(worker, offset, (raw, numbers), ns, line);
                        }
                    }
                }
            }
        }
        ops.clear();
        batch.ops = ops;
        self.add_pending(&batch.ids);
        !batch.last
    }

    /// Resolves one closed sample: its offset, its frames as read record
    /// by record (empty when it was read whole), the worker's numbers of
    /// its frames' functions (leaf first), its nanoseconds (`None` in a
    /// sampled profile), the worker's number of its leaf's line. It is
    /// added with the rest of its batch (`add_pending`).
    fn sample(
        &mut self,
        worker: usize,
        offset: u64,
        (raw, funcs): (&[RawFrame<'a>], &[u32]),
        ns: Option<u64>,
        line: u32,
    ) {
        if funcs.is_empty() {
            return;
        }
        let start = self.funcs.len();
        if !self.locals[worker].known(funcs, line, &mut self.funcs) {
            self.funcs.truncate(start);
            self.resolve(worker, offset, raw, funcs);
        }
        let hash = ProfileBuilder::stack_hash(&self.funcs[start..]);
        let Some(&leaf) = self.funcs.last() else {
            return;
        };
        let frames = Frames::Own(start..self.funcs.len());
        self.pend(worker, offset, (frames, leaf, hash), ns, line);
    }

    /// A sample whose functions' ids (root first) and stack hash the
    /// worker found, at `ids` in the batch: as `sample`, with nothing to
    /// resolve, and its ids left where they are (`Frames::Batch`).
    fn sample_of_ids(
        &mut self,
        worker: usize,
        offset: u64,
        (ids, at, hash): (&[FuncId], usize, u32),
        ns: Option<u64>,
        line: u32,
    ) {
        let Some(&leaf) = ids.last() else {
            return;
        };
        let frames = Frames::Batch(at..at + ids.len());
        self.pend(worker, offset, (frames, leaf, hash), ns, line);
    }

    /// Queues a sample whose functions' ids (root first, `leaf` last)
    /// are `frames`, hashed to `hash`.
    fn pend(
        &mut self,
        worker: usize,
        offset: u64,
        (frames, leaf, hash): (Frames, FuncId, u32),
        ns: Option<u64>,
        line: u32,
    ) {
        let line = self.line(worker, line, leaf, offset);
        self.pending.push(Pending {
            offset,
            frames,
            leaf,
            hash,
            ns,
            line,
        });
    }

    /// Gives ids to a sample's functions not met before, root first onto
    /// `funcs` (`Rules::functions`): where each frame stands, for a
    /// warning, comes from `raw`, or from reading the sample again.
    fn resolve(&mut self, worker: usize, offset: u64, raw: &[RawFrame<'a>], funcs: &[u32]) {
        let mut again = std::mem::take(&mut self.again);
        let frames = if raw.len() == funcs.len() {
            raw
        } else if reread(self.input.bytes(), offset as usize, &mut again)
            && again.len() == funcs.len()
        {
            &again[..]
        } else {
            // A worker read it whole from these bytes: not reached. Were it
            // reached, the module warnings would stand at the sample.
            &[]
        };
        let mut numbered = Numbered {
            worker,
            local: &mut self.locals[worker],
            names: &mut self.names,
            given: self.given.get(worker),
            numbers: funcs,
            frames,
            offset,
        };
        self.rules.functions(self.b, &mut numbered, &mut self.funcs);
        self.again = again;
    }

    /// Adds the batch's samples in file order (the builder asks ahead for
    /// what each stack and line lookup reads), then their events.
    fn add_pending(&mut self, ids: &[FuncId]) {
        let (pending, funcs) = (&self.pending, &self.funcs);
        self.b.add_hashed_samples(pending.len(), |i| {
            let p = &pending[i];
            HashedSample {
                frames: match &p.frames {
                    Frames::Batch(r) => ids.get(r.clone()).unwrap_or_default(),
                    Frames::Own(r) => funcs.get(r.clone()).unwrap_or_default(),
                },
                hash: p.hash,
                time_ns: p.ns,
                line: Some(p.line),
            }
        });
        for p in &self.pending {
            self.rules.added(p.offset, p.leaf, p.ns);
        }
        self.pending.clear();
        self.funcs.clear();
    }

    fn line(&mut self, worker: usize, local: u32, leaf: FuncId, offset: u64) -> LineId {
        if let Some(id) = self.locals[worker].line_ids.get(local) {
            return id;
        }
        let at = self.locals[worker].lines[local as usize];
        let id = self.rules.line(self.b, at, leaf, offset);
        self.locals[worker].line_ids.set(local, id);
        id
    }

    /// The worker of the last batch fed reported why reading stopped; the
    /// whole log has been read.
    fn finish(self, path: &str) -> Result<(), LoadError> {
        self.rules.finish(self.b, path, self.read_to)
    }
}

/// A sample's frames as a worker numbered them, leaf first, for the rules
/// to resolve (`Rules::functions`): a function the worker's number has an
/// id for is not resolved again.
struct Numbered<'f, 'a> {
    worker: usize,
    local: &'f mut Local,
    names: &'f mut NameMaps,
    given: Option<&'f Arc<Mutex<Given>>>,
    numbers: &'f [u32],
    /// Where each frame's record stands, when known.
    frames: &'f [RawFrame<'a>],
    /// The sample's type 3, where the frames' places are not known.
    offset: u64,
}

impl<'a> SampleFrames<'a, Later<'a>> for Numbered<'_, 'a> {
    fn count(&self) -> usize {
        self.numbers.len()
    }

    fn module(&self, i: usize) -> (u16, u64) {
        let module = self
            .numbers
            .get(i)
            .map_or(0, |&n| self.local.funcs[n as usize].module);
        (module, self.frames.get(i).map_or(self.offset, |f| f.offset))
    }

    fn function(
        &mut self,
        rules: &mut Rules<'a, Later<'a>>,
        b: &mut ProfileBuilder,
        i: usize,
    ) -> FuncId {
        let n = self.numbers.get(i).copied().unwrap_or_default();
        if let Some(id) = self.local.func_ids.get(n) {
            return id;
        }
        let new = self.local.funcs[n as usize];
        let at = self.frames.get(i).map_or(self.offset, |f| f.offset);
        let (names, worker) = (&mut *self.names, self.worker);
        let id = rules.function(b, (new.kind, new.module, at), |b| {
            names.id(worker, new.name, b)
        });
        self.local.func_ids.set(n, id);
        if let Some(Ok(mut given)) = self.given.map(|g| g.lock()) {
            given.give(n, id);
        }
        id
    }
}

/// A sample resolved to the builder's ids, its stack not yet looked up.
struct Pending {
    offset: u64,
    /// Root first, never empty.
    frames: Frames,
    /// The frames' last, for the sample's event: kept, so adding the
    /// events does not read the frames a second time.
    leaf: FuncId,
    hash: u32,
    /// `None` in a sampled profile.
    ns: Option<u64>,
    line: LineId,
}

/// Where a pending sample's ids are: the batch's, as its worker found
/// them, are not copied (a copy of a few ids cost the calling thread a
/// call to `memcpy` a sample); those resolved here are in `Feed::funcs`.
#[derive(Clone, Debug)]
enum Frames {
    Batch(Range<usize>),
    Own(Range<usize>),
}

/// One worker's numbering of functions and lines, and the builder's ids
/// for those met so far (its names': `Feed::names`).
#[derive(Default)]
struct Local {
    funcs: Vec<NewFunc>,
    func_ids: Ids<FuncId>,
    lines: Vec<(u16, u32)>,
    line_ids: Ids<LineId>,
}

/// The builder's ids of a worker's numbers, 4 bytes each where an
/// `Option` of an id takes 8: the calling thread reads one a frame of
/// every sample, and a worker's 5,016 functions then take 20 KB of the
/// 48 KB first-level cache, not 40.
struct Ids<T> {
    ids: Vec<u32>,
    kind: PhantomData<T>,
}

/// No id yet: tables stay below `u32::MAX` rows (`ids.rs`).
const UNSEEN: u32 = u32::MAX;

impl<T> Default for Ids<T> {
    fn default() -> Self {
        Ids {
            ids: Vec::new(),
            kind: PhantomData,
        }
    }
}

impl<T: RowId> Ids<T> {
    #[inline]
    fn get(&self, n: u32) -> Option<T> {
        match self.ids.get(n as usize) {
            Some(&id) if id != UNSEEN => Some(T::from_index(id as usize)),
            _ => None,
        }
    }

    fn set(&mut self, n: u32, id: T) {
        if let Some(slot) = self.ids.get_mut(n as usize) {
            *slot = id.index() as u32;
        }
    }

    fn resize(&mut self, len: usize) {
        self.ids.resize(len, UNSEEN);
    }

    fn prefetch(&self, n: u32) {
        if let Some(slot) = self.ids.get(n as usize) {
            prefetch(slot);
        }
    }
}

impl Local {
    /// Takes the batch's new function and line numbers.
    fn learn(&mut self, batch: &Batch<'_>) {
        self.funcs.extend_from_slice(&batch.new_funcs);
        self.func_ids.resize(self.funcs.len());
        self.lines.extend_from_slice(&batch.new_lines);
        self.line_ids.resize(self.lines.len());
    }

    /// Asks for the builder's id of the worker's line `local`, ahead of
    /// the sample that needs it.
    fn prefetch_line(&self, local: u32) {
        self.line_ids.prefetch(local);
    }

    /// Whether every function and the line of a sample already have ids
    /// (then no module can be new either); while they do, the functions'
    /// ids go on `funcs`, root first.
    fn known(&self, numbers: &[u32], line: u32, funcs: &mut Vec<FuncId>) -> bool {
        self.line_ids.get(line).is_some()
            && numbers.iter().rev().all(|&n| match self.func_ids.get(n) {
                Some(id) => {
                    funcs.push(id);
                    true
                }
                None => false,
            })
    }
}

#[cfg(test)]
mod tests;
