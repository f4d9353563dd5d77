//! `br`: the Business Rules! profiler log (seed 002).
//!
//! `DEBUG PROFILE SAMPLED|TIMED file` makes BR write a stream of
//! variable-length binary records, the first byte the record type, every
//! number big-endian. Type 1 maps a module number to its program file; a
//! sample runs from a type 3 (the current line: module, line, clause) to a
//! type 6, with an optional type 4 (nanoseconds spent, timed profiles only),
//! type 5 backtrace frames nearest caller first, and after any frame a type
//! 7 (function name), 8 (in a GOSUB) or 9 (in the main routine). A timed
//! sample of `FN8` in `LIB\FNSLIB.BR` line 40, called from line 120 of the
//! main routine of `ORDERS.BR`, is these bytes:
//!
//! ```text
//! 03 0002 00000028 01           current line: module 2, line 40, clause 1
//! 04 0000000000033450           210,000 ns
//! 07 04 "FN8 "                  function name, padded
//! 05 0001 00000078 00           backtrace: module 1, line 120
//! 09                            main routine
//! 06                            end of sample
//! ```
//!
//! Samples go to the builder's sample feed (model.md § Samples), which owns
//! hits, times and recursion; this module only decodes and names frames.
//! Names stay slices of the mapped file until interned, so a record costs no
//! allocation unless it brings a new name.
//!
//! Large logs are decoded on every core (`decode.rs`, `load::parallel`): a
//! quick first pass over the record lengths finds where samples begin, the
//! chunks between are decoded by workers, and this thread feeds their
//! samples to the builder in file order, so ids, sums and warnings come out
//! as a single reading would make them.

mod decode;
mod events;
mod record;

use super::{Detection, Input, KeepEvents, LoadError, LoadOptions, Loader, parallel};
use crate::model::{FuncId, LineId, MetaValue, NameId, Packet, Place, ProfileBuilder};
use crate::text::decode;
use decode::{Batch, Decoder, GOSUB, Kind, MAIN, Op, PROGRAM, RawFrame, Shared};
use events::SampleEvents;
use record::{Record, Stop, measure, read, trim_name};
use rustc_hash::FxHashMap;
use std::ops::Range;

/// The BR profiler log loader.
pub struct Br;

impl Loader for Br {
    fn name(&self) -> &'static str {
        "br"
    }

    /// Yes when the file starts with a module mapping or a sample and its
    /// first records (up to 16, or at least 2 before any damage) parse, with
    /// names that are text. A DBF, a PNG or random bytes fail on the first
    /// or second record.
    fn detect(&self, head: &[u8], at_eof: bool) -> Detection {
        if !matches!(head.first(), Some(1 | 3)) {
            return if head.is_empty() && !at_eof {
                Detection::NeedMore
            } else {
                Detection::No
            };
        }
        let (mut pos, mut seen) = (0, 0);
        while pos < head.len() && seen < 16 {
            match read(&head[pos..]) {
                Ok((rec, len)) if plausible(&rec) => {
                    pos += len;
                    seen += 1;
                }
                // Damage after records that held together is the loader's to
                // report: a log cut short or corrupted is still a log.
                Err(Stop::Unknown { .. }) if seen >= 2 => break,
                Ok(_) | Err(Stop::Unknown { .. }) => return Detection::No,
                Err(Stop::Cut { .. }) if !at_eof => return Detection::NeedMore,
                Err(Stop::Cut { .. }) => break,
            }
        }
        if seen >= 2 || (seen == 1 && pos == head.len() && at_eof) {
            Detection::Yes
        } else {
            Detection::No
        }
    }

    /// A quick sequential pass finds the mappings and where chunks may
    /// begin; workers decode the chunks; this thread feeds them in order.
    fn load(
        &self,
        input: &Input,
        opts: &LoadOptions,
        b: &mut ProfileBuilder,
    ) -> Result<(), LoadError> {
        let bytes = input.bytes();
        let scan = Scan::of(input, opts.chunk_bytes.unwrap_or(parallel::CHUNK));
        let shared = scan.shared(bytes);
        let mut feed = Feed::new(b, &scan, input, opts.events);
        let mut done = 0;
        parallel::ordered_reusing(
            &scan.chunks,
            || Decoder::new(shared),
            |decoder, range, spare| decoder.chunk(range, spare),
            |worker, mut batch| {
                feed.batch(worker, &mut batch);
                input.release(scan.chunks[done].clone());
                done += 1;
                batch.clear();
                (true, batch)
            },
        );
        feed.finish(input.name(), &scan, bytes.len())
    }
}

/// Names in a real log are program paths and identifiers: short, and with
/// no NUL inside (a DBF header's reserved bytes are NULs). Other control
/// bytes are allowed: a hostile name must still load, to be shown safely.
fn plausible(rec: &Record<'_>) -> bool {
    let text = |s: &[u8]| s.len() <= 512 && !s.contains(&0);
    match rec {
        Record::Module { name, .. } => !name.is_empty() && text(name),
        Record::Name(name) => text(trim_name(name)),
        _ => true,
    }
}

/// What holds for the whole file, from one quick pass over the records:
/// module mappings (first one wins, wherever it stands), whether any sample
/// is timed, where reading stops and why, and where chunks may begin.
struct Scan<'a> {
    modules: FxHashMap<u16, &'a [u8]>,
    timed: bool,
    end: usize,
    stop: Option<(u64, Stop)>,
    chunks: Vec<Range<usize>>,
}

impl<'a> Scan<'a> {
    /// Chunks of about `size` bytes each begin at a type 3 record, so that
    /// no sample spans two of them. Pages read are given back as the pass
    /// goes, so a file larger than memory is never resident whole.
    fn of(input: &'a Input, size: usize) -> Scan<'a> {
        let bytes = input.bytes();
        let mut scan = Scan {
            modules: FxHashMap::default(),
            timed: false,
            end: bytes.len(),
            stop: None,
            chunks: Vec::new(),
        };
        let (mut pos, mut from) = (0, 0);
        while pos < bytes.len() {
            pos = skip(bytes, pos, from + size.max(1), &mut scan.timed);
            if pos >= bytes.len() {
                break;
            }
            let (kind, len) = match measure(&bytes[pos..]) {
                Ok(ok) => ok,
                Err(why) => {
                    (scan.end, scan.stop) = (pos, Some((pos as u64, why)));
                    break;
                }
            };
            match kind {
                1 => scan.module(&bytes[pos..]),
                4 => scan.timed = true,
                3 if pos - from >= size.max(1) => {
                    input.forget(from..pos);
                    scan.chunks.push(from..pos);
                    from = pos;
                }
                _ => {}
            }
            pos += len;
        }
        if from < scan.end {
            scan.chunks.push(from..scan.end);
        }
        scan
    }

    /// Keeps the first mapping of a module number (`measure` found the
    /// record whole, so it reads).
    fn module(&mut self, at: &'a [u8]) {
        if let Ok((Record::Module { module, name }, _)) = read(at) {
            self.modules.entry(module).or_insert(name);
        }
    }

    fn shared(&self, bytes: &'a [u8]) -> Shared<'a> {
        Shared {
            bytes,
            timed: self.timed,
            end: self.end,
            stop: self.stop,
        }
    }
}

/// Skips from `pos` the records samples are made of, as `measure` reads
/// them, while the longest of them would fit; stops at any other type and
/// at a type 3 from `chunk_at` on. Says when it passes a time record. Where
/// it stops, the careful reading goes on: this is that reading's common
/// case in a tight loop, as the scan is the one part of a load no other
/// core shares.
fn skip(bytes: &[u8], mut pos: usize, chunk_at: usize, timed: &mut bool) -> usize {
    // A name record is the longest: its type, its length, 255 bytes.
    let end = bytes.len().saturating_sub(257);
    while pos < end {
        pos += match bytes[pos] {
            3 if pos >= chunk_at => break,
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
/// builder.
struct Feed<'b> {
    b: &'b mut ProfileBuilder,
    timed: bool,
    /// Module number → file name, resolved up front; unmapped numbers are
    /// added as `module#N` on first use.
    modules: FxHashMap<u16, NameId>,
    /// The name each number was first mapped to, in file order, to warn
    /// about a second, different mapping where it stands.
    mapped: FxHashMap<u16, NameId>,
    gosub: NameId,
    main: NameId,
    /// Each worker's numbers → the builder's ids.
    locals: Vec<Local>,
    /// The batch's samples, resolved, waiting for `add_pending`, and their
    /// frames (root first) back to back.
    pending: Vec<Pending>,
    funcs: Vec<FuncId>,
    events: SampleEvents,
    samples: u64,
    clock_ns: u128,
    mappings: u64,
}

impl<'b> Feed<'b> {
    fn new(b: &'b mut ProfileBuilder, scan: &Scan<'_>, input: &Input, keep: KeepEvents) -> Self {
        let modules = scan
            .modules
            .iter()
            .map(|(&n, name)| (n, b.intern(&decode(name))))
            .collect();
        let (gosub, main) = (b.intern("(gosub)"), b.intern("(main)"));
        b.set_meta(
            "mode",
            MetaValue::Text(if scan.timed { "timed" } else { "sampled" }.into()),
        );
        Feed {
            b,
            timed: scan.timed,
            modules,
            mapped: FxHashMap::default(),
            gosub,
            main,
            locals: Vec::new(),
            pending: Vec::new(),
            funcs: Vec::new(),
            events: SampleEvents::new(input.clone(), scan.end, scan.timed, keep),
            samples: 0,
            clock_ns: 0,
            mappings: 0,
        }
    }

    fn batch(&mut self, worker: usize, batch: &mut Batch<'_>) {
        if self.locals.len() <= worker {
            self.locals.resize_with(worker + 1, Local::default);
        }
        for name in &batch.new_names {
            let id = self.b.intern(&decode(name));
            self.locals[worker].names.push(id);
        }
        self.locals[worker].learn(batch);
        for op in batch.ops.drain(..) {
            match op {
                Op::Warn(at, msg) => self.b.warn(Place::Offset(at), msg),
                Op::Mapping { at, module, name } => self.mapping(at, module, name),
                Op::Sample {
                    offset,
                    frames,
                    ns,
                    line,
                } => self.sample(worker, (offset, &batch.frames[frames]), ns, line),
            }
        }
        self.add_pending();
    }

    fn mapping(&mut self, at: u64, module: u16, name: &[u8]) {
        self.mappings += 1;
        let id = self.b.intern(&decode(name));
        match self.mapped.get(&module) {
            None => {
                self.mapped.insert(module, id);
            }
            Some(&first) if first != id => {
                let msg = format!(
                    "module {module} mapped again to {:?}; kept {:?}",
                    crate::text::visible(self.b.name(id)),
                    crate::text::visible(self.b.name(first)),
                );
                self.b.warn(Place::Offset(at), msg);
            }
            Some(_) => {}
        }
    }

    /// The file name of a module number; an unmapped one is `module#N`,
    /// with one warning at its first use.
    fn module_name(&mut self, module: u16, at: u64) -> NameId {
        if let Some(&id) = self.modules.get(&module) {
            return id;
        }
        let id = self.b.intern(&format!("module#{module}"));
        self.modules.insert(module, id);
        let msg = format!("module {module} is never mapped to a file; named module#{module}");
        self.b.warn(Place::Offset(at), msg);
        id
    }

    /// Resolves one closed sample: its offset and frames (leaf first,
    /// never empty), its nanoseconds, the worker's number of its leaf's
    /// line. It is added with the rest of its batch (`add_pending`).
    fn sample(&mut self, worker: usize, at: (u64, &[RawFrame]), ns: u64, line: u32) {
        let (offset, frames) = at;
        if frames.is_empty() {
            return;
        }
        if !self.locals[worker].knows(frames, line) {
            // Resolve modules in file order first, so an unmapped number is
            // reported at the record that first uses it.
            for f in frames {
                self.module_name(f.at.module, f.offset);
            }
        }
        let start = self.funcs.len();
        for f in frames.iter().rev() {
            let id = self.func(worker, f);
            self.funcs.push(id);
        }
        let root_first = &self.funcs[start..];
        let leaf = root_first[root_first.len() - 1];
        let hash = ProfileBuilder::stack_hash(root_first);
        let line = self.line(worker, line, leaf, offset);
        self.pending.push(Pending {
            offset,
            frames: start..self.funcs.len(),
            hash,
            ns,
            line,
        });
    }

    /// Adds the batch's samples in file order. Their stacks are looked up
    /// among a million or more, each lookup a miss in every cache, so the
    /// index is asked for what each will read some samples ahead.
    fn add_pending(&mut self) {
        const AHEAD: usize = 16;
        let pending = std::mem::take(&mut self.pending);
        for (i, p) in pending.iter().enumerate() {
            if let Some(next) = pending.get(i + AHEAD) {
                self.b.prefetch_stack_slot(next.hash);
            }
            if let Some(next) = pending.get(i + AHEAD / 2) {
                self.b.prefetch_stack_rows(next.hash);
                self.b.prefetch_line(next.line);
            }
            let frames = &self.funcs[p.frames.clone()];
            let Some(&leaf) = frames.last() else {
                continue;
            };
            let stack = self.b.stack_hashed(frames, p.hash);
            let time_ms = self.timed.then(|| p.ns as f64 / 1e6);
            self.b.add_stack_sample(stack, time_ms, Some(p.line));
            self.events.push(p.offset, leaf, self.clock_ns);
            self.samples += 1;
            self.clock_ns += u128::from(p.ns);
        }
        self.pending = pending;
        self.pending.clear();
        self.funcs.clear();
    }

    fn func(&mut self, worker: usize, f: &RawFrame) -> FuncId {
        let local = &self.locals[worker];
        if let Some(id) = local.func_ids[f.func as usize] {
            return id;
        }
        let (kind, module) = local.funcs[f.func as usize];
        let module = self.module_name(module, f.offset);
        let name = match kind {
            PROGRAM => module,
            GOSUB => self.gosub,
            MAIN => self.main,
            n => self.locals[worker].names[n as usize],
        };
        let id = self.b.function(name, module);
        self.locals[worker].func_ids[f.func as usize] = Some(id);
        id
    }

    fn line(&mut self, worker: usize, local: u32, leaf: FuncId, offset: u64) -> LineId {
        if let Some(id) = self.locals[worker].line_ids[local as usize] {
            return id;
        }
        let (module, line) = self.locals[worker].lines[local as usize];
        let file = self.module_name(module, offset);
        let id = self.b.line(file, line, Some(leaf));
        self.locals[worker].line_ids[local as usize] = Some(id);
        id
    }

    /// The last chunk's worker reports why reading stopped; with no chunk
    /// at all (the first record is bad), this does.
    fn finish(self, path: &str, scan: &Scan<'_>, len: usize) -> Result<(), LoadError> {
        if let (true, Some((at, why))) = (scan.chunks.is_empty(), scan.stop) {
            let msg = decode::stop_message(why, len as u64 - at);
            self.b.warn(Place::Offset(at), msg);
        }
        if self.samples == 0 && self.mappings == 0 {
            return Err(LoadError::Invalid {
                path: path.to_string(),
                place: format!("offset {}", scan.end),
                reason: "no sample or module record in the log".into(),
            });
        }
        let total = self.timed.then(|| self.clock_ns as f64 / 1e6);
        self.b.add_packet(Packet {
            source: path.to_string(),
            first_ms: self.timed.then_some(0.0),
            last_ms: total,
            events: Box::new(self.events),
        });
        Ok(())
    }
}

/// A sample resolved to the builder's ids, its stack not yet looked up.
struct Pending {
    offset: u64,
    /// In `Feed::funcs`, root first, never empty.
    frames: Range<usize>,
    hash: u32,
    ns: u64,
    line: LineId,
}

/// One worker's numbering of names, functions and lines, and the
/// builder's ids for those met so far.
#[derive(Default)]
struct Local {
    names: Vec<NameId>,
    funcs: Vec<(Kind, u16)>,
    func_ids: Vec<Option<FuncId>>,
    lines: Vec<(u16, u32)>,
    line_ids: Vec<Option<LineId>>,
}

impl Local {
    fn learn(&mut self, batch: &Batch<'_>) {
        self.funcs.extend_from_slice(&batch.new_funcs);
        self.func_ids.resize(self.funcs.len(), None);
        self.lines.extend_from_slice(&batch.new_lines);
        self.line_ids.resize(self.lines.len(), None);
    }

    /// Whether every function and the line of a sample already have ids
    /// (then no module can be new either).
    fn knows(&self, frames: &[RawFrame], line: u32) -> bool {
        self.line_ids[line as usize].is_some()
            && frames
                .iter()
                .all(|f| self.func_ids[f.func as usize].is_some())
    }
}

#[cfg(test)]
mod tests;
