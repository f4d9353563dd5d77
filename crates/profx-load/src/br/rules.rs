//! The BR profiler log's rules (formats.md § br): the one place they are
//! applied. Both loaders feed them records: the reference loader
//! (`reference.rs`) each record as nom reads it, the fast engine (`fast/`)
//! what its workers decoded, so the two can differ only in how bytes
//! become records, never in what a record does.
//!
//! The rules:
//! - Type 1 maps a module number to its program file. The first mapping of
//!   a number is kept; a later, different one is a warning. A number used
//!   before its mapping takes the file it is mapped to later; one never
//!   mapped is named `module#N`, with a warning at the frame that first
//!   uses it.
//! - A type 3 opens a sample at its leaf frame, closing the open one (with
//!   a warning: it had no type 6). Type 4 adds nanoseconds to it, type 5
//!   adds a caller frame (nearest first), and a type 7, 8 or 9 says what
//!   the frame before it is: a named function, a GOSUB routine, the main
//!   routine. A frame without one is its program (the function is named
//!   after the file). A type 6 closes the sample. Any of these outside a
//!   sample is skipped, with a warning.
//! - A frame's function is (name, module file); the leaf's line is (its
//!   module's file, line), filed under the leaf's function.
//! - The profile is timed when any type 4 stands in the log; then a
//!   sample without one counts 0 ms, with a warning, and in a sampled
//!   profile samples weigh nothing but their hit.
//! - A record that does not read (a type the format does not define, or
//!   one cut off by the end of the file) stops the reading, with a
//!   warning; the sample it leaves open is closed there.
//! - A log with no sample and no mapping is no profile.
//!
//! They are applied in two steps, both here. `Sampler` (records → closed
//! samples, mappings and the warnings about the log's shape) needs nothing
//! but the records since the last type 3, so the fast engine runs it on
//! every core, a chunk each, from where a sample begins; `walk_sample` is
//! its reading of a sample in one go, for a sample that is only what
//! samples are made of. Both read a sample's records through
//! `Telling::record`, the one place that says what each does. `Rules` (mappings kept, modules, times, frames
//! resolved to the builder's functions and lines, samples added) needs the
//! log in file order and runs on the calling thread. `Replay` is the two
//! together, a record at a time.
//!
//! Replay from any point: both steps keep all they know between calls, so
//! a log fed in parts (split at any record boundary) makes what it makes
//! fed at once; nothing is decided at a part's end. Two rules look ahead
//! (a module used before its mapping, a sample without time in a log that
//! is timed later): what they need of the rest of the log is an input,
//! `Ahead`, read by the loader's own reader (`ReadAhead`) the first time a
//! sample needs it. A replay of data appended later hands the engine a
//! reader of the log as it is now (`Replay::appended`), and a look-ahead
//! already read is read again from it: a sample resolved after the append
//! sees the appended mappings and time records. One resolved before the
//! append keeps what it was given: a module mapped only in data appended
//! after the sample using it was replayed stays `module#N`, with its
//! warning, and a sample without time replayed before the log's first time
//! record arrived stays weightless. So a log fed as appended makes what
//! one feed makes whenever every module is mapped before its first use (or
//! never) and no sample without time comes before the first time record,
//! as BR writes its logs. `rules/tests.rs` holds both.

use super::events::SampleEvents;
use super::record::{Frame, Record, Stop, read_whole, record_type, stop_message, trim_name};
use crate::problem::Problem;
use crate::{Input, InvalidKind, KeepEvents, LoadError};
use profx_model::metrics::Sample;
use profx_model::text::decode;
use profx_model::{FuncId, LineId, MetaValue, NameId, Packet, Place, ProfileBuilder, WarningKind};
use rustc_hash::FxHashMap;

/// The warning at a sample closed by the next one's type 3.
const NEXT_SAMPLE: &str = "was not closed before the next sample; closed there";

/// The warning at a sample left open where reading ends.
const END_OF_LOG: &str = "was not closed before the end of the log; closed there";

/// What the records after a frame say its function is: the program of
/// its module (nothing said), a GOSUB routine (type 8), the main routine
/// (type 9), or a named function (type 7). The fast engine's spelt keys
/// (`fast/frame_keys.rs`) hold it as its number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(super) enum FuncKind {
    Program = 0,
    Gosub = 1,
    Main = 2,
    Named = 3,
}

/// What a type 7, 8 or 9 says of the frame before it: its kind, and with
/// `Named` its name as written (padding kept); `None` for another record.
#[inline]
fn told<'a>(rec: &Record<'a>) -> Option<(FuncKind, &'a [u8])> {
    match *rec {
        Record::Name(name) => Some((FuncKind::Named, name)),
        Record::Gosub => Some((FuncKind::Gosub, &[])),
        Record::Main => Some((FuncKind::Main, &[])),
        _ => None,
    }
}

/// A frame of a sample as its records tell it.
#[derive(Clone, Copy, Debug)]
pub(super) struct RawFrame<'a> {
    pub at: Frame,
    /// Offset of the type 3 or 5 record that gave it.
    pub offset: u64,
    pub kind: FuncKind,
    /// With `FuncKind::Named`: the name (padding trimmed, but as
    /// `walk_sample` tells it).
    pub name: &'a [u8],
}

impl<'a> RawFrame<'a> {
    fn new(at: Frame, offset: u64) -> Self {
        RawFrame {
            at,
            offset,
            kind: FuncKind::Program,
            name: &[],
        }
    }
}

/// A sample the sampler closed: its type 3's offset, its nanoseconds and
/// whether a time record gave them.
#[derive(Clone, Copy, Debug)]
pub(super) struct Closed {
    pub offset: u64,
    pub ns: u64,
    pub timed: bool,
}

/// Where the sampler's results go, in file order.
pub(super) trait Sink<'a> {
    /// A warning about the log's shape at `at`.
    fn warn(&mut self, at: u64, problem: Problem);
    /// A type 1 at `at`.
    fn mapping(&mut self, at: u64, module: u16, name: &'a [u8]);
    /// A closed sample and its frames, leaf first (never none).
    fn sample(&mut self, closed: Closed, frames: &[RawFrame<'a>]);
}

/// A sample as its records tell it, from its type 3 on: its time so far,
/// and its last frame, whose function the records after it may still
/// tell. Its `record` is the grammar of a sample's records, the one
/// spelling of it: `Sampler` feeds it a record at a time, `walk_sample` a
/// sample in one go.
#[derive(Clone, Copy, Debug)]
struct Telling<'a> {
    ns: u64,
    timed: bool,
    /// The last frame and where its name's bytes begin (0 until a type 7
    /// names it); `None` once the type 6 came.
    last: Option<(RawFrame<'a>, usize)>,
}

/// What a record did to the sample open before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// It is part of the sample.
    Took,
    /// It closed the sample (a type 6).
    Closed,
    /// It is no record of a sample (a mapping, another type 3): the
    /// sample is still open.
    NotOfIt,
}

impl<'a> Telling<'a> {
    /// The sample whose type 3 at `at` gives its leaf frame.
    #[inline(always)]
    fn new(leaf: Frame, at: usize) -> Self {
        Telling {
            ns: 0,
            timed: false,
            last: Some((RawFrame::new(leaf, at as u64), 0)),
        }
    }

    /// The record at `at`: each frame goes to `each` once the records
    /// after it have told its function (the leaf first, then each caller;
    /// a name as written, padding kept, with where its bytes begin), and
    /// time records are summed. `each` is called from one place, so that
    /// a worker's numbering of a frame is inlined into its loop.
    #[inline(always)]
    fn record(
        &mut self,
        at: usize,
        rec: Record<'a>,
        mut each: impl FnMut(RawFrame<'a>, usize),
    ) -> Step {
        let next = match rec {
            Record::Time(ns) => {
                (self.ns, self.timed) = (self.ns.saturating_add(ns), true);
                return Step::Took;
            }
            Record::Back(f) => Some((RawFrame::new(f, at as u64), 0)),
            Record::End => None,
            Record::Module { .. } | Record::Current(_) => return Step::NotOfIt,
            other => {
                if let (Some((kind, name)), Some((frame, name_at))) = (told(&other), &mut self.last)
                {
                    (frame.kind, frame.name, *name_at) = (kind, name, at + 2);
                }
                return Step::Took;
            }
        };
        // A type 5 or the 6 ends what can be told of the frame before it.
        if let Some((frame, name_at)) = std::mem::replace(&mut self.last, next) {
            each(frame, name_at);
        }
        match self.last {
            Some(_) => Step::Took,
            None => Step::Closed,
        }
    }

    /// The sample closes without its type 6 (at the next type 3, or where
    /// reading ends): its last frame is what its records told by then.
    fn cut(&mut self, mut each: impl FnMut(RawFrame<'a>, usize)) {
        if let Some((frame, name_at)) = self.last.take() {
            each(frame, name_at);
        }
    }
}

/// Records → closed samples, mappings and warnings, a record at a time.
#[derive(Debug, Default)]
pub(super) struct Sampler<'a> {
    /// The open sample: its type 3's offset and what its records told.
    open: Option<(u64, Telling<'a>)>,
    /// The open sample's frames told so far, leaf first, names trimmed.
    frames: Vec<RawFrame<'a>>,
    timed: bool,
}

/// A told frame as `Sink::sample` is given it: its name without padding.
fn trimmed(mut frame: RawFrame<'_>) -> RawFrame<'_> {
    frame.name = trim_name(frame.name);
    frame
}

impl<'a> Sampler<'a> {
    /// Applies the record at `at`.
    pub(super) fn record(&mut self, at: u64, rec: Record<'a>, sink: &mut impl Sink<'a>) {
        if let Record::Time(_) = rec {
            self.timed = true;
        }
        if let Some((_, sample)) = self.open.as_mut() {
            let frames = &mut self.frames;
            match sample.record(at as usize, rec, |frame, _| frames.push(trimmed(frame))) {
                Step::Took => return,
                Step::Closed => return self.close(at, "", sink),
                Step::NotOfIt => {}
            }
        }
        match rec {
            Record::Module { module, name } => sink.mapping(at, module, name),
            Record::Current(f) => {
                self.next_sample(at, sink);
                self.open = Some((at, Telling::new(f, at as usize)));
            }
            rec => {
                let kind = record_type(&rec);
                let msg = format!("record type {kind} outside a sample; skipped");
                sink.warn(at, Problem::new(WarningKind::OutOfPlace, msg));
            }
        }
    }

    /// A sample begins at `at`: the open one, if any, closes there as a
    /// type 3 closes it. A fast worker says so where it reads a sample in
    /// one go (`walk_sample`) and where its chunk ends, at the type 3 the
    /// next chunk begins with.
    #[inline]
    pub(super) fn next_sample(&mut self, at: u64, sink: &mut impl Sink<'a>) {
        if self.open.is_some() {
            self.close(at, NEXT_SAMPLE, sink);
        }
    }

    /// Reading ends at `at`: at a record that does not read (`why`, with
    /// the bytes `left` unread), or at the end of the data. The open
    /// sample closes there.
    pub(super) fn stop(&mut self, at: u64, why: Option<(Stop, u64)>, sink: &mut impl Sink<'a>) {
        if let Some((why, left)) = why {
            sink.warn(at, stop_message(why, left));
        }
        self.close(at, END_OF_LOG, sink);
    }

    /// Whether a time record was fed.
    pub(super) fn timed(&self) -> bool {
        self.timed
    }

    /// Closes the open sample at `at`; `why` non-empty when it was not
    /// closed by its own type 6 (the warning stands where it is closed).
    #[cold]
    fn close(&mut self, at: u64, why: &str, sink: &mut impl Sink<'a>) {
        let Some((offset, mut sample)) = self.open.take() else {
            return;
        };
        let frames = &mut self.frames;
        sample.cut(|frame, _| frames.push(trimmed(frame)));
        if !why.is_empty() {
            let msg = format!("sample at offset {offset} {why}");
            sink.warn(at, Problem::new(WarningKind::Unclosed, msg));
        }
        let closed = Closed {
            offset,
            ns: sample.ns,
            timed: sample.timed,
        };
        sink.sample(closed, &self.frames);
        self.frames.clear();
    }
}

/// The sample whose type 3 is at `start`, read in one go as the sampler
/// reads it record by record (`Telling`), when it lies whole in `bytes`
/// and holds only the records samples are made of: each frame goes to
/// `each` once told (see `Telling::record`). Where it ends (after its 6),
/// its nanoseconds and whether a time record gave them; `None` at a record
/// of another type (a mapping, another type 3) or one that does not read
/// whole, having told `each` some of it: the sampler then takes it a
/// record at a time.
#[inline(always)]
pub(super) fn walk_sample<'a>(
    bytes: &'a [u8],
    start: usize,
    mut each: impl FnMut(RawFrame<'a>, usize),
) -> Option<(usize, u64, bool)> {
    let (Record::Current(leaf), len) = read_whole(bytes.get(start..)?)? else {
        return None;
    };
    let (mut sample, mut pos) = (Telling::new(leaf, start), start + len);
    loop {
        let (rec, len) = read_whole(bytes.get(pos..)?)?;
        let at = pos;
        pos += len;
        match sample.record(at, rec, &mut each) {
            Step::Took => {}
            Step::Closed => return Some((pos, sample.ns, sample.timed)),
            Step::NotOfIt => return None,
        }
    }
}

/// The frames of the sample whose type 3 is at `start`, read again as
/// `walk_sample` reads them, onto `frames` (emptied first; names
/// trimmed); `false` if they do not read so.
pub(super) fn reread<'a>(bytes: &'a [u8], start: usize, frames: &mut Vec<RawFrame<'a>>) -> bool {
    frames.clear();
    let walked = walk_sample(bytes, start, |frame, _| frames.push(trimmed(frame)));
    walked.is_some()
}

/// What the log holds from where the records being fed are on, read
/// ahead for the rules that need it: each module number's first mapping
/// there, and whether any time record stands there (up to the first
/// record that does not read).
#[derive(Debug, Default)]
pub(super) struct Ahead<'a> {
    pub modules: FxHashMap<u16, &'a [u8]>,
    pub timed: bool,
}

/// A loader's reader of `Ahead`, asked the first time a sample needs it.
pub(super) trait ReadAhead<'a> {
    /// What the log holds from where the records not yet fed begin (or
    /// from earlier: what was fed is known already).
    fn read_ahead(&self) -> Ahead<'a>;
}

/// The rules in file order: mappings, modules, times, frames resolved to
/// the builder's functions and lines, samples added with their events.
pub(super) struct Rules<'a, R> {
    later: R,
    ahead: Option<Ahead<'a>>,
    /// Module number → its file, as mapped, found ahead or `module#N`. By
    /// index: every frame of a sample with something new asks.
    modules: Vec<Option<NameId>>,
    /// The file each number was first mapped to, in file order.
    mapped: FxHashMap<u16, NameId>,
    gosub: NameId,
    main: NameId,
    /// A time record was fed.
    seen_time: bool,
    events: SampleEvents,
    samples: u64,
    clock_ns: u128,
    mappings: u64,
}

impl<'a, R: ReadAhead<'a>> Rules<'a, R> {
    /// Rules for the log `input`, whose events are kept as `keep` says;
    /// `later` reads ahead.
    pub(super) fn new(b: &mut ProfileBuilder, input: &Input, keep: KeepEvents, later: R) -> Self {
        let (gosub, main) = (b.intern("(gosub)"), b.intern("(main)"));
        Rules {
            later,
            ahead: None,
            modules: Vec::new(),
            mapped: FxHashMap::default(),
            gosub,
            main,
            seen_time: false,
            events: SampleEvents::new(input.clone(), keep),
            samples: 0,
            clock_ns: 0,
            mappings: 0,
        }
    }

    /// The reader of what comes later, for a loader to move on as it
    /// feeds.
    pub(super) fn later_mut(&mut self) -> &mut R {
        &mut self.later
    }

    fn ahead(&mut self) -> &Ahead<'a> {
        let later = &self.later;
        self.ahead.get_or_insert_with(|| later.read_ahead())
    }

    /// A time record was fed.
    pub(super) fn saw_time(&mut self) {
        self.seen_time = true;
    }

    /// A type 1 at `at`: the number's file unless it has one, and a warning
    /// where a number is mapped again to another.
    pub(super) fn mapping(&mut self, b: &mut ProfileBuilder, at: u64, module: u16, name: &[u8]) {
        self.mappings += 1;
        let id = b.intern(&decode(name));
        if self.known_module(module).is_none() {
            self.set_module(module, id);
        }
        match self.mapped.get(&module) {
            None => {
                self.mapped.insert(module, id);
            }
            Some(&first) if first != id => {
                let msg = format!(
                    "module {module} mapped again to {:?}; kept {:?}",
                    profx_model::text::visible(b.name(id)),
                    profx_model::text::visible(b.name(first)),
                );
                b.warn(Place::Offset(at), WarningKind::MappedAgain, msg);
            }
            Some(_) => {}
        }
    }

    /// A sample's time (its type 3 at `offset`; `ns` summed from its time
    /// records, if `timed`): `None` in a sampled profile; 0 ms, with a
    /// warning, for a sample without a time record in a timed one.
    #[inline]
    pub(super) fn time(
        &mut self,
        b: &mut ProfileBuilder,
        offset: u64,
        timed: bool,
        ns: u64,
    ) -> Option<u64> {
        if timed {
            return Some(ns);
        }
        if !(self.seen_time || self.ahead().timed) {
            return None;
        }
        let msg = "sample has no time record in a timed profile; counted as 0 ms";
        b.warn(Place::Offset(offset), WarningKind::MissingTime, msg);
        Some(ns)
    }

    /// A module number's file, mapped before or after its use; one never
    /// mapped is `module#N`, with one warning at its first use (`at`).
    pub(super) fn module(&mut self, b: &mut ProfileBuilder, module: u16, at: u64) -> NameId {
        if let Some(id) = self.known_module(module) {
            return id;
        }
        let id = match self.ahead().modules.get(&module).copied() {
            Some(name) => b.intern(&decode(name)),
            None => {
                let msg =
                    format!("module {module} is never mapped to a file; named module#{module}");
                b.warn(Place::Offset(at), WarningKind::UnmappedModule, msg);
                b.intern(&format!("module#{module}"))
            }
        };
        self.set_module(module, id);
        id
    }

    fn known_module(&self, module: u16) -> Option<NameId> {
        self.modules.get(usize::from(module)).copied().flatten()
    }

    fn set_module(&mut self, module: u16, id: NameId) {
        let at = usize::from(module);
        if self.modules.len() <= at {
            self.modules.resize(at + 1, None);
        }
        self.modules[at] = Some(id);
    }

    /// The function of a frame of `kind` in `module` whose record is at
    /// `at`: a program is named after its file; `named` names a named one.
    pub(super) fn function(
        &mut self,
        b: &mut ProfileBuilder,
        (kind, module, at): (FuncKind, u16, u64),
        named: impl FnOnce(&mut ProfileBuilder) -> NameId,
    ) -> FuncId {
        let file = self.module(b, module, at);
        let name = match kind {
            FuncKind::Program => file,
            FuncKind::Gosub => self.gosub,
            FuncKind::Main => self.main,
            FuncKind::Named => named(b),
        };
        b.function(name, file)
    }

    /// A closed sample's functions, root first onto `out`. Modules are
    /// named leaf first, as the records stand, so a warning about one
    /// stands at the record that first uses it.
    pub(super) fn functions(
        &mut self,
        b: &mut ProfileBuilder,
        frames: &mut impl SampleFrames<'a, R>,
        out: &mut Vec<FuncId>,
    ) {
        for i in 0..frames.count() {
            let (module, at) = frames.module(i);
            self.module(b, module, at);
        }
        for i in (0..frames.count()).rev() {
            let id = frames.function(self, b, i);
            out.push(id);
        }
    }

    /// The line of a sample's leaf (module, line) under its function,
    /// the sample's type 3 at `offset`.
    pub(super) fn line(
        &mut self,
        b: &mut ProfileBuilder,
        (module, line): (u16, u32),
        leaf: FuncId,
        offset: u64,
    ) -> LineId {
        let file = self.module(b, module, offset);
        b.line(file, line, Some(leaf))
    }

    /// A sample the caller added to the builder: its event, at its type
    /// 3's `offset`, and its time on the clock.
    #[inline]
    pub(super) fn added(&mut self, offset: u64, leaf: FuncId, ns: Option<u64>) {
        self.events.push(offset, leaf, self.clock_ns);
        self.samples += 1;
        self.clock_ns += u128::from(ns.unwrap_or(0));
    }

    /// A closed sample resolved and added, its frames as the sampler read
    /// them.
    fn sample(
        &mut self,
        b: &mut ProfileBuilder,
        closed: Closed,
        frames: &[RawFrame<'a>],
        funcs: &mut Vec<FuncId>,
    ) {
        let ns = self.time(b, closed.offset, closed.timed, closed.ns);
        funcs.clear();
        self.functions(b, &mut Sampled(frames), funcs);
        let (Some(&leaf), Some(first)) = (funcs.last(), frames.first()) else {
            return;
        };
        let line = self.line(b, (first.at.module, first.at.line), leaf, closed.offset);
        b.add_sample(Sample {
            frames: funcs,
            time_ns: ns,
            line: Some(line),
        });
        self.added(closed.offset, leaf, ns);
    }

    /// The end of the log, read to `read_to`: a log with no sample and no
    /// mapping fails; else its mode and its one packet of samples.
    pub(super) fn finish(
        self,
        b: &mut ProfileBuilder,
        path: &str,
        read_to: usize,
    ) -> Result<(), LoadError> {
        if self.samples == 0 && self.mappings == 0 {
            return Err(LoadError::Invalid {
                path: path.to_string(),
                place: Place::Offset(read_to as u64),
                kind: InvalidKind::NoRecords,
                reason: "no sample or module record in the log".into(),
            });
        }
        let timed = self.seen_time;
        let mode = if timed { "timed" } else { "sampled" };
        b.set_meta("mode", MetaValue::Text(mode.into()));
        let mut events = self.events;
        events.finish(read_to, timed);
        let total = timed.then(|| self.clock_ns as f64 / 1e6);
        b.add_packet(Packet {
            source: path.to_string(),
            first_ms: timed.then_some(0.0),
            last_ms: total,
            events: std::sync::Arc::new(events),
        });
        Ok(())
    }
}

/// A closed sample's frames as a loader holds them, leaf first: what
/// `Rules::functions` asks of each.
pub(super) trait SampleFrames<'a, R> {
    /// How many frames.
    fn count(&self) -> usize;
    /// The frame's module number and where its record stands.
    fn module(&self, i: usize) -> (u16, u64);
    /// The frame's function (`Rules::function`, or a loader's id of it).
    fn function(&mut self, rules: &mut Rules<'a, R>, b: &mut ProfileBuilder, i: usize) -> FuncId;
}

/// Frames as the sampler read them.
struct Sampled<'f, 'a>(&'f [RawFrame<'a>]);

impl<'a, R: ReadAhead<'a>> SampleFrames<'a, R> for Sampled<'_, 'a> {
    fn count(&self) -> usize {
        self.0.len()
    }

    fn module(&self, i: usize) -> (u16, u64) {
        self.0.get(i).map_or((0, 0), |f| (f.at.module, f.offset))
    }

    fn function(&mut self, rules: &mut Rules<'a, R>, b: &mut ProfileBuilder, i: usize) -> FuncId {
        let Some(&f) = self.0.get(i) else {
            return FuncId::from_index(0);
        };
        rules.function(b, (f.kind, f.at.module, f.offset), |b| {
            b.intern(&decode(f.name))
        })
    }
}

/// The rules fed a record at a time: the reference loader, and a replay
/// from any point.
pub(super) struct Replay<'a, R> {
    sampler: Sampler<'a>,
    rules: Rules<'a, R>,
    funcs: Vec<FuncId>,
}

impl<'a, R: ReadAhead<'a>> Replay<'a, R> {
    /// A replay of the log `input` (see `Rules::new`).
    pub(super) fn new(b: &mut ProfileBuilder, input: &Input, keep: KeepEvents, later: R) -> Self {
        Replay {
            sampler: Sampler::default(),
            rules: Rules::new(b, input, keep, later),
            funcs: Vec::new(),
        }
    }

    /// Applies the record at `at`, the one after the last fed.
    pub(super) fn record(&mut self, b: &mut ProfileBuilder, at: u64, rec: Record<'a>) {
        let Replay {
            sampler,
            rules,
            funcs,
        } = self;
        sampler.record(at, rec, &mut ToRules { rules, b, funcs });
        if sampler.timed() {
            rules.saw_time();
        }
    }

    /// The log has grown: `later` reads it as it is now, and a look-ahead
    /// already read is read again from it (see the module's doc).
    #[cfg_attr(
        not(test),
        expect(dead_code, reason = "for following a growing log; tested here")
    )]
    pub(super) fn appended(&mut self, later: R) {
        let rules = &mut self.rules;
        rules.later = later;
        if rules.ahead.is_some() {
            rules.ahead = Some(rules.later.read_ahead());
        }
    }

    /// Reading ended at `read_to` (at a record that does not read: `why`,
    /// with the bytes left): the sample left open closes there, and the
    /// log ends.
    pub(super) fn finish(
        mut self,
        b: &mut ProfileBuilder,
        path: &str,
        read_to: usize,
        why: Option<(Stop, u64)>,
    ) -> Result<(), LoadError> {
        let Replay {
            sampler,
            rules,
            funcs,
        } = &mut self;
        sampler.stop(read_to as u64, why, &mut ToRules { rules, b, funcs });
        self.rules.finish(b, path, read_to)
    }
}

/// The sampler's results into the rules.
struct ToRules<'r, 'a, R> {
    rules: &'r mut Rules<'a, R>,
    b: &'r mut ProfileBuilder,
    funcs: &'r mut Vec<FuncId>,
}

impl<'a, R: ReadAhead<'a>> Sink<'a> for ToRules<'_, 'a, R> {
    fn warn(&mut self, at: u64, problem: Problem) {
        self.b.warn(Place::Offset(at), problem.kind, problem.why);
    }

    fn mapping(&mut self, at: u64, module: u16, name: &'a [u8]) {
        self.rules.mapping(self.b, at, module, name);
    }

    fn sample(&mut self, closed: Closed, frames: &[RawFrame<'a>]) {
        self.rules.sample(self.b, closed, frames, self.funcs);
    }
}

#[cfg(test)]
mod tests;
