//! The PLIST `/T` rules (formats.md § plist): the one place they are
//! applied. Both loaders feed them records ([`Record`]): the reference
//! loader (`reference.rs`) a line at a time, the fast engine (`fast/`) the
//! records its workers read from chunks of lines, in file order; so the
//! two can differ only in how bytes become records (`record.rs`,
//! `fast/bytes.rs`), never in what a record does.
//!
//! A line is a record, numbered from 1 (a blank line is none). What each
//! one does, on [`Rules`]:
//!
//! - A line too long to be a record, one whose first field is no format
//!   tag, or a tag PLIST does not define (11 and up): a warning at its
//!   line, and it is skipped. An unknown tag ends the stack being listed;
//!   the other two end nothing.
//! - A record of a known tag ends the stack being listed unless it is a
//!   frame (10), a stack short of its declared frames warning at its tag 9
//!   line; a function (6) or a tag 8 also ends the group of stacks (a
//!   count of stacks other than the tag 8 declared warns at its line), and
//!   a function forgets the owner of stacks. All this even when the record
//!   is then unusable: short of fields, or a field that is not the number
//!   it must be, a warning at its line and the record skipped.
//! - 0–5, the session: banner and version, profiling method, total and
//!   outside time and call depth, hit counts, date and command line, the
//!   starting function. They become meta; the times the session's totals.
//! - 6, a function (its name and object module): calls, func time
//!   (exclusive), func+child time (inclusive). A function listed again is
//!   summed, with a warning naming its first line; func+child time below
//!   func time, or either negative, warns and is kept. It owns the stacks
//!   that follow.
//! - 7, a line: source file, line number, hit count.
//! - 8, the number of stacks the owner has; 9, a stack of the owner: its
//!   size, hits, self and child time; 10, a frame of that stack, by name.
//!   A group or a stack before any function, or a frame with no stack
//!   open or beyond its stack's size, is skipped with a warning.
//!
//! At the end ([`Rules::finish`]) the open stack and group close as above;
//! a file with no usable record fails to load. The session's totals are
//! filed (a function's numbers were summed in the builder as each record
//! came); counting and coverage methods (321, 324, 521, 524) write 0 where
//! they measured no time, so their times are absent, not 0, and are taken
//! back here. A frame names a function by name only: it is
//! the tag 6 function of that name when there is exactly one, else a
//! function of that name and no module; a stack is stored root first with
//! its owner as the leaf, whichever way it is listed (`record::orient`).
//!
//! Replay from any point: everything a record leaves for the records after
//! it is in [`Rules`], and each record brings its own line number, so the
//! file's records fed in several calls, split anywhere (data appended
//! later included), do what they do fed at once. What needs the whole file
//! waits for `finish`: the method (it decides whether any time was
//! measured) and the stacks, whose frames may name a function listed
//! further down, even in a later part. A profile that keeps no stacks
//! holds only the names its stacks call from (`Callers`), to make the
//! functions they name that no record lists. So a replay of
//! appended data feeds the new records to the engine that has not
//! finished, and finishes once (`tests.rs` holds a split replay to the
//! whole, and a frame resolved by a function appended later).

use super::record::{self, count, meta, number, orient, time};
use super::stacks::Fresh;
use crate::LoadError;
use crate::problem::Problem;
use crate::split::MAX_LINE;
use profx_model::text::visible;
use profx_model::{
    FuncId, FuncSummary, MetaValue, NameId, Place, ProfileBuilder, TimeValues, WarningKind,
};

/// One line as the rules read it, whichever loader read it; names are
/// `N`, the reader's own numbers, which [`Names`] turns into the profile's.
#[derive(Debug, PartialEq)]
pub(super) enum Record<N> {
    /// A line of this many bytes, longer than any record.
    TooLong(usize),
    /// A line whose first field (this text) is not a format tag.
    NotATag(String),
    /// A format tag PLIST does not define.
    Unknown(u32),
    /// A known tag with fewer fields than it needs.
    Short { tag: u32, need: usize, found: usize },
    /// A known tag with a field that is not what it must be.
    Unusable { tag: u32, why: Problem },
    /// Tags 0–5, a handful a file: their fields, read by the rules.
    Global { tag: u32, fields: Vec<String> },
    /// Tag 6.
    Function {
        module: N,
        name: N,
        calls: u64,
        time: f64,
        child: f64,
    },
    /// Tag 7.
    Line { file: N, line: u32, hits: u64 },
    /// Tag 8.
    Group { declared: u64 },
    /// Tag 9.
    Stack {
        size: u64,
        hits: u64,
        self_ms: f64,
        child_ms: f64,
    },
    /// Tag 10.
    Frame { name: N },
}

/// A reader's names: its numbers → the profile's ids, and their text (for
/// a warning's words; the profile's table may be busy on another thread).
pub(super) trait Names {
    /// How the reader numbers a name.
    type Name: Copy;
    /// The profile's id of `name`.
    fn id(&self, name: Self::Name) -> NameId;
    /// The text of `name`; `b` holds the profile's names when the reader's
    /// are the profile's.
    fn text<'s>(&'s self, b: &'s ProfileBuilder, name: Self::Name) -> &'s str;
}

/// Names the profile's table numbered already (the reference loader's).
pub(super) struct Interned;

impl Names for Interned {
    type Name = NameId;

    fn id(&self, name: NameId) -> NameId {
        name
    }

    fn text<'s>(&'s self, b: &'s ProfileBuilder, name: NameId) -> &'s str {
        b.name(name)
    }
}

/// What resolving stack frames at the end needs of the name table: the id
/// of `""` (the module of a frame no function of the file matches) and how
/// many names there are.
#[derive(Clone, Copy)]
struct Frames {
    no_module: NameId,
    names: usize,
}

impl Frames {
    /// The builder's table's, once every name is in.
    fn of(b: &mut ProfileBuilder) -> Frames {
        let no_module = b.intern("");
        let table = b.take_names();
        let names = table.len();
        b.put_names(table);
        Frames { no_module, names }
    }
}

/// The latest tag 8: how many stacks it promised and how many came.
struct Group {
    line: u64,
    declared: u64,
    seen: u64,
}

/// A tag 9 stack. Its frame names are `Rules::frames` from `first` to
/// the next stack's `first`: frames only ever join the newest stack, and
/// one list for all of them saves a heap block a stack. A listing holds
/// one a function until its end, so what only the open stack needs (its
/// declared frames, its line in full) is kept once, in `Rules`.
struct RawStack {
    hits: u64,
    self_ms: f64,
    child_ms: f64,
    first: usize,
    /// Its line, as the builder keeps a stack's (0: past `u32`).
    line: u32,
    owner: FuncId,
    owner_name: NameId,
}

/// Everything the records so far leave for those to come: the engine.
/// It holds no builder: each call is given it, so a replay may stop after
/// any record and go on later.
#[derive(Default)]
pub(super) struct Rules {
    method: Option<u64>,
    /// Total and outside time (tag 2).
    session: Option<(f64, f64)>,
    /// The line that first lists each function. Its numbers are the
    /// builder's as they come (a function is the most numerous record, and
    /// holding them until the end was a third of a large listing's peak);
    /// a method of no time takes the times back at the end.
    first_lines: FirstLines,
    /// The latest tag 6 function and its name: the owner of stacks.
    owner: Option<(FuncId, NameId)>,
    group: Option<Group>,
    /// The stack taking frames: the last of `stacks`, when one is open.
    open: bool,
    stacks: Vec<RawStack>,
    /// The open stack's declared frames and line.
    open_size: u64,
    open_line: u64,
    frames: Vec<NameId>,
    /// Where no stacks are kept: the names frames call from, in the
    /// order the stacks first name them (`Callers`).
    callers: Callers,
    used: u64,
}

/// By `FuncId` index (ids are dense): the line that first lists the
/// function, 0 where the file lists none. Four bytes a function: a line
/// past `u32` (a file of billions of lines) is kept aside.
#[derive(Default)]
struct FirstLines {
    near: Vec<u32>,
    far: rustc_hash::FxHashMap<usize, u64>,
}

/// `near`'s mark of a line kept in `far`.
const FAR: u32 = u32::MAX;

impl FirstLines {
    fn get(&self, id: FuncId) -> u64 {
        match self.near.get(id.index()) {
            Some(&FAR) => self.far.get(&id.index()).copied().unwrap_or(0),
            Some(&n) => u64::from(n),
            None => 0,
        }
    }

    fn set(&mut self, id: FuncId, n: u64) {
        let i = id.index();
        if self.near.len() <= i {
            self.near.resize(i + 1, 0);
        }
        self.near[i] = u32::try_from(n).unwrap_or(FAR);
        if self.near[i] == FAR {
            self.far.insert(i, n);
        }
    }

    /// The functions the file lists.
    fn listed(&self) -> impl Iterator<Item = FuncId> + '_ {
        let ids = (0..self.near.len()).map(FuncId::from_index);
        ids.zip(&self.near)
            .filter(|&(_, &line)| line != 0)
            .map(|(id, _)| id)
    }
}

/// The caller frames of stacks a profile does not keep, each name once in
/// the order the stacks first name it (root first). Resolving them at the
/// end makes the functions no tag 6 record lists, in the order resolving
/// every stack would, without holding the stacks until then.
#[derive(Default)]
struct Callers {
    /// A bit a name id: named already.
    seen: Vec<u64>,
    order: Vec<NameId>,
    /// The closing stack's names, oriented.
    oriented: Vec<NameId>,
}

impl Callers {
    /// Notes the callers of a stack of `names` (as listed) that `owner`
    /// owns.
    fn note(&mut self, names: &[NameId], owner: NameId) {
        self.oriented.clear();
        self.oriented.extend_from_slice(names);
        orient(&mut self.oriented, owner);
        let callers = self.oriented.split_last().map_or(&[][..], |(_, c)| c);
        for &name in callers {
            let (word, bit) = (name.index() / 64, 1 << (name.index() % 64));
            if self.seen.len() <= word {
                self.seen.resize(word + 1, 0);
            }
            if self.seen[word] & bit == 0 {
                self.seen[word] |= bit;
                self.order.push(name);
            }
        }
    }
}

impl Rules {
    /// An engine that has read nothing.
    pub(super) fn new() -> Rules {
        Rules::default()
    }

    /// Applies line `n`'s record, its names `names`'.
    pub(super) fn record<M: Names>(
        &mut self,
        b: &mut ProfileBuilder,
        n: u64,
        r: Record<M::Name>,
        names: &M,
    ) {
        let tag = match r {
            Record::TooLong(len) => return too_long(b, n, len),
            Record::NotATag(first) => return not_a_tag(b, n, &first),
            Record::Unknown(tag) => {
                self.close_stack(b);
                return unknown(b, n, tag);
            }
            Record::Short { tag, need, found } => {
                short(b, n, (tag, need, found));
                tag
            }
            Record::Unusable { tag, .. } | Record::Global { tag, .. } => tag,
            Record::Function { .. } => 6,
            Record::Line { .. } => 7,
            Record::Group { .. } => 8,
            Record::Stack { .. } => 9,
            Record::Frame { .. } => 10,
        };
        if tag != 10 {
            self.close_stack(b);
        }
        if matches!(tag, 6 | 8) {
            self.close_group(b);
        }
        if tag == 6 {
            self.owner = None;
        }
        match self.apply(b, n, r, names) {
            Ok(true) => self.used += 1,
            Ok(false) => {}
            Err(why) => skipped(b, n, tag, why),
        }
    }

    /// A record's own effect; whether it was used.
    fn apply<M: Names>(
        &mut self,
        b: &mut ProfileBuilder,
        n: u64,
        r: Record<M::Name>,
        names: &M,
    ) -> Result<bool, Problem> {
        match r {
            Record::Global { tag, fields } => self.global(b, tag, &fields)?,
            Record::Function {
                module,
                name,
                calls,
                time,
                child,
            } => self.function(b, n, (name, module), names, calls, (time, child)),
            Record::Line { file, line, hits } => {
                let id = b.line(names.id(file), line, None);
                b.line_summary(id, Some(hits), None);
            }
            Record::Group { declared } => self.stack_group(n, declared)?,
            Record::Stack {
                size,
                hits,
                self_ms,
                child_ms,
            } => self.stack(n, size, hits, (self_ms, child_ms))?,
            Record::Frame { name } => self.frame(names.id(name))?,
            Record::Unusable { why, .. } => return Err(why),
            Record::Short { .. } | Record::TooLong(_) | Record::NotATag(_) | Record::Unknown(_) => {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Tags 0 to 5: the session's meta and totals.
    fn global(&mut self, b: &mut ProfileBuilder, tag: u32, f: &[String]) -> Result<(), Problem> {
        let get = |i: usize| f.get(i).map_or("", String::as_str);
        let text = |s: &str| MetaValue::Text(s.to_string());
        match tag {
            0 => {
                b.set_meta("plist_version", meta(get(0)));
                b.set_meta("banner", text(get(1)));
            }
            1 => {
                let code = number(get(0), "method", count)?;
                self.method = Some(code);
                b.set_meta("method_code", int(code));
                b.set_meta("method", text(get(1)));
            }
            2 => {
                let total = number(get(0), "total time", time)?;
                let outside = number(get(1), "outside time", time)?;
                let depth = number(get(2), "call depth", count)?;
                self.session = Some((total, outside));
                b.set_meta("call_depth", int(depth));
            }
            3 => {
                // Each count is filed until one is no number.
                for (i, key) in ["total_hits", "units_marked", "units_hit"]
                    .into_iter()
                    .enumerate()
                {
                    b.set_meta(key, int(number(get(i), key, count)?));
                }
            }
            4 => {
                b.set_meta("date", text(get(0)));
                b.set_meta("command_line", text(get(1)));
            }
            _ => b.set_meta("start_function", text(get(0))),
        }
        Ok(())
    }

    /// A tag 6 function, `id` its (name, module).
    fn function<M: Names>(
        &mut self,
        b: &mut ProfileBuilder,
        n: u64,
        (name, module): (M::Name, M::Name),
        names: &M,
        calls: u64,
        (t, child): (f64, f64),
    ) {
        let name_id = names.id(name);
        let id = b.function(name_id, names.id(module));
        let first_line = self.first_lines.get(id);
        if first_line == 0 {
            self.first_lines.set(id, n);
        } else {
            let msg = format!(
                "function {:?} ({}) listed again after line {}; merged by summing",
                visible(names.text(b, name)),
                visible(names.text(b, module)),
                first_line
            );
            b.warn(Place::Line(n), WarningKind::ListedAgain, msg);
        }
        if child < t {
            let msg = format!(
                "func+child time {child} is below func time {t}; both kept as the file states them"
            );
            b.warn(Place::Line(n), WarningKind::ImpossibleValue, msg);
        }
        for (what, v) in [("func time", t), ("func+child time", child)] {
            if v < 0.0 {
                let msg = format!("{what} {v} is negative; kept as the file states it");
                b.warn(Place::Line(n), WarningKind::ImpossibleValue, msg);
            }
        }
        // Summed in the builder as the record before this change summed
        // them at the end (from 0, saturating), to the same bits.
        let time = TimeValues {
            elapsed_inclusive: Some(child),
            elapsed_exclusive: Some(t),
            ..Default::default()
        };
        let summary = FuncSummary {
            calls: Some(calls),
            time,
            ..Default::default()
        };
        b.summary(id, summary);
        self.owner = Some((id, name_id));
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
        (self.open_size, self.open_line) = (size, n);
        self.stacks.push(RawStack {
            line: u32::try_from(n).unwrap_or(0),
            owner,
            owner_name,
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
            Some(s) if ((self.frames.len() - s.first) as u64) < self.open_size => {
                self.frames.push(name);
                Ok(())
            }
            Some(_) => Err(record::frame_beyond(self.open_size)),
            None => Err(record::out_of_place("stack frame with no tag 9 stack open")),
        }
    }

    fn close_stack(&mut self, b: &mut ProfileBuilder) {
        let Some(s) = self.open_stack() else { return };
        let have = (self.frames.len() - s.first) as u64;
        if have < self.open_size {
            let msg = format!(
                "stack declares {} frames but {have} follow; kept the {have}",
                self.open_size
            );
            b.warn(Place::Line(self.open_line), WarningKind::CountMismatch, msg);
        }
        self.open = false;
        if !b.keeps_stacks()
            && let Some(s) = self.stacks.pop()
        {
            self.callers.note(&self.frames[s.first..], s.owner_name);
            self.frames.truncate(s.first);
        }
    }

    fn close_group(&mut self, b: &mut ProfileBuilder) {
        let Some(g) = self.group.take() else { return };
        if g.seen != g.declared {
            let msg = format!("declares {} stacks but {} follow", g.declared, g.seen);
            b.warn(Place::Line(g.line), WarningKind::CountMismatch, msg);
        }
    }

    /// The end of the file `path`: what waited for every record (see the
    /// module's note).
    pub(super) fn finish(mut self, b: &mut ProfileBuilder, path: &str) -> Result<(), LoadError> {
        let frames = Frames::of(b);
        self.close_stack(b);
        self.close_group(b);
        if self.used == 0 {
            return Err(record::nothing_usable(path));
        }
        let timed = record::measures_time(self.method);
        if !timed {
            b.forget_elapsed_times();
        }
        let by_name = self.functions_by_name(b, frames.names);
        let owners = std::mem::take(&mut self.first_lines).near.len();
        self.file_stacks(b, timed, frames, (&by_name, owners));
        let no_module = frames.no_module;
        for &name in &std::mem::take(&mut self.callers).order {
            frame_function(b, name, (&by_name, no_module));
        }
        if let (true, Some((total, outside))) = (timed, self.session) {
            let totals = b.totals_mut();
            totals.elapsed_inclusive_ms = (total > 0.0).then_some(total);
            totals.outside_ms = Some(outside);
        }
        Ok(())
    }

    /// Each stack, its frames resolved, oriented and filed with its line
    /// and numbers.
    /// `by_name` is `functions_by_name`; `owners`, how many functions
    /// the records numbered.
    fn file_stacks(
        &mut self,
        b: &mut ProfileBuilder,
        timed: bool,
        names: Frames,
        (by_name, owners): (&[u32], usize),
    ) {
        let mut fresh = Fresh::new(owners);
        let (mut frames, mut oriented) = (Vec::new(), Vec::new());
        let stacks = std::mem::take(&mut self.stacks);
        let ends = stacks.iter().skip(1).map(|s| s.first);
        for (s, end) in stacks.iter().zip(ends.chain([self.frames.len()])) {
            oriented.clear();
            oriented.extend_from_slice(&self.frames[s.first..end]);
            orient(&mut oriented, s.owner_name);
            // Resolving makes the functions a frame names that no record
            // lists: a report that keeps no stacks lists them all the same.
            resolve(b, s, &oriented, (by_name, names.no_module), &mut frames);
            if !b.keeps_stacks() {
                continue;
            }
            let id = fresh.stack(b, s.owner, &frames);
            b.stack_line(id, u64::from(s.line));
            let t = |x: f64| timed.then_some(x);
            b.stack_summary(id, Some(s.hits), t(s.self_ms), t(s.child_ms));
        }
    }

    /// Tag 6 functions by name id (names are dense): the function's index,
    /// `NO_FUNCTION` or `SEVERAL`.
    fn functions_by_name(&self, b: &ProfileBuilder, names: usize) -> Vec<u32> {
        let mut map = vec![NO_FUNCTION; names];
        for id in self.first_lines.listed() {
            let index = id.index() as u32;
            if let Some(slot) = map.get_mut(b.function_name_id(id).index()) {
                *slot = if *slot == NO_FUNCTION || *slot == index {
                    index
                } else {
                    SEVERAL
                };
            }
        }
        map
    }
}

/// `by_name` entries: no tag 6 function has the name, or several do.
const NO_FUNCTION: u32 = u32::MAX;
const SEVERAL: u32 = u32::MAX - 1;

/// `s`'s frames from its oriented `names`: the leaf is the owner itself,
/// the others the one tag 6 function of their name, else that name with
/// no module.
fn resolve(
    b: &mut ProfileBuilder,
    s: &RawStack,
    names: &[NameId],
    (by_name, no_module): (&[u32], NameId),
    frames: &mut Vec<FuncId>,
) {
    frames.clear();
    let (_, callers) = names.split_last().unwrap_or((&s.owner_name, &[]));
    for &name in callers {
        frames.push(frame_function(b, name, (by_name, no_module)));
    }
    frames.push(s.owner);
}

/// The function a caller frame of `name` is: the one tag 6 function of
/// that name, else that name with no module (made on first use).
fn frame_function(
    b: &mut ProfileBuilder,
    name: NameId,
    (by_name, no_module): (&[u32], NameId),
) -> FuncId {
    match by_name.get(name.index()) {
        Some(&id) if id < SEVERAL => FuncId::from_index(id as usize),
        _ => b.function(name, no_module),
    }
}

fn int(n: u64) -> MetaValue {
    i64::try_from(n).map_or_else(|_| MetaValue::Float(n as f64), MetaValue::Int)
}

// The warnings of lines that are no usable record, out of the record
// loop: inlined, their formatting made every record's code larger.

#[cold]
#[inline(never)]
fn too_long(b: &mut ProfileBuilder, n: u64, len: usize) {
    let why =
        format!("a line of {len} bytes is longer than a record can be ({MAX_LINE} bytes); skipped");
    b.warn(Place::Line(n), WarningKind::LineTooLong, why);
}

#[cold]
#[inline(never)]
fn not_a_tag(b: &mut ProfileBuilder, n: u64, first: &str) {
    let first = format!("{:?}", visible(first));
    let msg = format!("first field {first} is not a PLIST format tag; line skipped");
    b.warn(Place::Line(n), WarningKind::NotARecord, msg);
}

#[cold]
#[inline(never)]
fn unknown(b: &mut ProfileBuilder, n: u64, tag: u32) {
    let msg = format!("unknown format tag {tag}; record skipped");
    b.warn(Place::Line(n), WarningKind::UnknownRecordType, msg);
}

#[cold]
#[inline(never)]
fn short(b: &mut ProfileBuilder, n: u64, (tag, need, found): (u32, usize, usize)) {
    let msg = format!("tag {tag} needs {need} fields after the tag, found {found}; record skipped");
    b.warn(Place::Line(n), WarningKind::MissingField, msg);
}

#[cold]
#[inline(never)]
fn skipped(b: &mut ProfileBuilder, n: u64, tag: u32, why: Problem) {
    let msg = format!("tag {tag}: {why}; record skipped");
    b.warn(Place::Line(n), why.kind, msg);
}
