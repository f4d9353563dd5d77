//! The PLIST `/T` reference loader: the format's rules, a line at a time,
//! on one thread. Read this to learn the format; `Plist::load` (the rest
//! of this folder) gives the same profile faster, and a property test
//! (`tests/properties.rs`) holds the two to the same `--json` on
//! generated, cut and flipped files.
//!
//! A line is a record: a format tag, then TAB-separated fields (runs of
//! spaces when the line has no TAB), the last field of tags 0, 1, 5, 6 and
//! 10 keeping its spaces (`record::parse_line`). The tags:
//!
//! - 0–5, the session: banner and version, profiling method, total and
//!   outside time and call depth, hit counts, date and command line, the
//!   starting function. They become meta; the times the session's totals.
//! - 6, a function: exe, object module, calls, func time, func+child time,
//!   name. Func time is exclusive, func+child inclusive. A function listed
//!   twice is summed, with a warning.
//! - 7, a line: exe, source file, line number, hit count.
//! - 8, 9, 10: the stacks of the function above: 8 says how many, each 9
//!   gives a stack's size, hits, self and child time, and that many 10
//!   records name its frames. A frame names a function by name only: it
//!   is the tag 6 function of that name when there is exactly one, else a
//!   function of that name and no module. Stacks are stored root first with
//!   their function as the leaf, whichever way they are listed.
//!
//! Counting and coverage methods (321, 324, 521, 524) write 0 where they
//! measured no time: their times are absent, not 0. Anything unusable is
//! a warning at its line, and the record is skipped; a file with no
//! usable record fails to load.

use super::listing;
use super::record::{self, Fields, Parsed, count, meta, number, orient, parse_line, time};
use crate::problem::Problem;
use crate::split::{MAX_LINE, numbered_lines};
use crate::{InvalidKind, LoadError};
use profx_model::text::{decode, visible};
use profx_model::{
    FuncId, FuncSummary, MetaValue, NameId, Place, ProfileBuilder, TimeValues, WarningKind,
};
use std::collections::HashMap;

/// Loads `bytes` (the file `path`) into `b`: a printed listing when the
/// file holds no `/T` records and has a `Profile:` line, else the records.
pub(super) fn load(bytes: &[u8], path: &str, b: &mut ProfileBuilder) -> Result<(), LoadError> {
    let records = super::records_detect(bytes, true) == crate::Detection::Yes;
    if !records && let Some((start, kind)) = listing::find(bytes) {
        return listing::load(bytes, start, kind, b).map_err(|reason| LoadError::Invalid {
            path: path.to_string(),
            place: Place::Line(start),
            kind: InvalidKind::NoRecords,
            reason,
        });
    }
    let mut r = Reader::new(b);
    for (n, line) in numbered_lines(bytes) {
        r.line(n, line);
    }
    r.finish(path)
}

/// A function as tag 6 records list it (summed when listed twice).
struct Listed {
    first_line: u64,
    calls: u64,
    time: f64,
    child: f64,
}

/// A tag 9 stack and the tag 10 frames that followed it.
struct Stack {
    line: u64,
    owner: FuncId,
    owner_name: NameId,
    size: u64,
    hits: u64,
    self_ms: f64,
    child_ms: f64,
    frames: Vec<NameId>,
}

struct Reader<'b> {
    b: &'b mut ProfileBuilder,
    method: Option<u64>,
    /// Total and outside time (tag 2).
    session: Option<(f64, f64)>,
    /// The tag 6 functions, in the order first listed.
    listed: Vec<(FuncId, Listed)>,
    place: HashMap<FuncId, usize>,
    /// The latest tag 6 function and its name: the owner of stacks.
    owner: Option<(FuncId, NameId)>,
    /// The latest tag 8: its line, the stacks it declares and those seen.
    group: Option<(u64, u64, u64)>,
    stacks: Vec<Stack>,
    /// Whether the last stack still takes frames.
    open: bool,
    used: u64,
}

impl<'b> Reader<'b> {
    fn new(b: &'b mut ProfileBuilder) -> Self {
        Reader {
            b,
            method: None,
            session: None,
            listed: Vec::new(),
            place: HashMap::new(),
            owner: None,
            group: None,
            stacks: Vec::new(),
            open: false,
            used: 0,
        }
    }

    fn warn(&mut self, n: u64, kind: WarningKind, message: String) {
        self.b.warn(Place::Line(n), kind, message);
    }

    fn line(&mut self, n: u64, bytes: &[u8]) {
        if bytes.len() > MAX_LINE {
            let len = bytes.len();
            let why = format!(
                "a line of {len} bytes is longer than a record can be ({MAX_LINE} bytes); skipped"
            );
            return self.warn(n, WarningKind::LineTooLong, why);
        }
        let text = decode(bytes);
        let (tag, fields) = match parse_line(&text) {
            Parsed::Blank => return,
            Parsed::NotATag(first) => {
                let first = format!("{:?}", visible(first));
                let msg = format!("first field {first} is not a PLIST format tag; line skipped");
                return self.warn(n, WarningKind::NotARecord, msg);
            }
            Parsed::Unknown(tag) => {
                self.close_stack();
                let msg = format!("unknown format tag {tag}; record skipped");
                return self.warn(n, WarningKind::UnknownRecordType, msg);
            }
            Parsed::Short { tag, need, found } => {
                let msg = format!(
                    "tag {tag} needs {need} fields after the tag, found {found}; record skipped"
                );
                self.warn(n, WarningKind::MissingField, msg);
                (tag, None)
            }
            Parsed::Record { tag, fields } => (tag, Some(fields)),
        };
        // Any record but a frame ends the stack being listed; a function
        // or a new tag 8 ends the group of stacks, even an unusable one.
        if tag != 10 {
            self.close_stack();
        }
        if matches!(tag, 6 | 8) {
            self.close_group();
        }
        if tag == 6 {
            self.owner = None;
        }
        let Some(fields) = fields else { return };
        match self.record(n, tag, &fields) {
            Ok(()) => self.used += 1,
            Err(why) => self.warn(n, why.kind, format!("tag {tag}: {why}; record skipped")),
        }
    }

    /// One record of a known tag with its fields. Numbers are checked in
    /// field order, before any name is taken.
    fn record(&mut self, n: u64, tag: u32, f: &Fields<'_>) -> Result<(), Problem> {
        match tag {
            0..=5 => self.global(tag, f)?,
            6 => {
                let calls = number(f.get(2), "count", count)?;
                let t = number(f.get(3), "time", time)?;
                let child = number(f.get(4), "child time", time)?;
                self.function(n, f.get(5), f.get(1), calls, t, child);
            }
            7 => {
                let line = number(f.get(2), "line", count)?;
                let line = u32::try_from(line).map_err(|_| record::line_out_of_range(line))?;
                let hits = number(f.get(3), "count", count)?;
                let file = self.b.intern(f.get(1));
                let id = self.b.line(file, line, None);
                self.b.line_summary(id, Some(hits), None);
            }
            8 => {
                let declared = number(f.get(0), "number of stacks", count)?;
                if self.owner.is_none() {
                    return Err(record::out_of_place("stacks before any tag 6 function"));
                }
                self.group = Some((n, declared, 0));
            }
            9 => {
                let size = number(f.get(0), "stack size", count)?;
                let hits = number(f.get(1), "hit count", count)?;
                let self_ms = number(f.get(2), "stack time", time)?;
                let child_ms = number(f.get(3), "child time", time)?;
                let (owner, owner_name) = self
                    .owner
                    .ok_or_else(|| record::out_of_place("stack before any tag 6 function"))?;
                if let Some(g) = &mut self.group {
                    g.2 += 1;
                }
                let frames = Vec::new();
                let stack = Stack {
                    line: n,
                    owner,
                    owner_name,
                    size,
                    hits,
                    self_ms,
                    child_ms,
                    frames,
                };
                self.stacks.push(stack);
                self.open = true;
            }
            _ => {
                let name = self.b.intern(f.get(0));
                match self.stacks.last_mut().filter(|_| self.open) {
                    Some(s) if (s.frames.len() as u64) < s.size => s.frames.push(name),
                    Some(s) => return Err(record::frame_beyond(s.size)),
                    None => {
                        return Err(record::out_of_place("stack frame with no tag 9 stack open"));
                    }
                }
            }
        }
        Ok(())
    }

    /// Tags 0 to 5: the session's meta and totals.
    fn global(&mut self, tag: u32, f: &Fields<'_>) -> Result<(), Problem> {
        let text = |s: &str| MetaValue::Text(s.to_string());
        match tag {
            0 => {
                self.b.set_meta("plist_version", meta(f.get(0)));
                self.b.set_meta("banner", text(f.get(1)));
            }
            1 => {
                let code = number(f.get(0), "method", count)?;
                self.method = Some(code);
                self.b.set_meta("method_code", int(code));
                self.b.set_meta("method", text(f.get(1)));
            }
            2 => {
                let total = number(f.get(0), "total time", time)?;
                let outside = number(f.get(1), "outside time", time)?;
                let depth = number(f.get(2), "call depth", count)?;
                self.session = Some((total, outside));
                self.b.set_meta("call_depth", int(depth));
            }
            3 => {
                for (i, key) in ["total_hits", "units_marked", "units_hit"]
                    .into_iter()
                    .enumerate()
                {
                    let value = number(f.get(i), key, count);
                    self.b.set_meta(key, int(value?));
                }
            }
            4 => {
                self.b.set_meta("date", text(f.get(0)));
                self.b.set_meta("command_line", text(f.get(1)));
            }
            _ => self.b.set_meta("start_function", text(f.get(0))),
        }
        Ok(())
    }

    /// A tag 6 function.
    fn function(&mut self, n: u64, name: &str, module: &str, calls: u64, t: f64, child: f64) {
        let (name_id, module_id) = (self.b.intern(name), self.b.intern(module));
        let id = self.b.function(name_id, module_id);
        match self.place.get(&id) {
            Some(&at) => {
                let first = self.listed[at].1.first_line;
                let msg = format!(
                    "function {:?} ({}) listed again after line {first}; merged by summing",
                    visible(name),
                    visible(module)
                );
                self.warn(n, WarningKind::ListedAgain, msg);
            }
            None => {
                self.place.insert(id, self.listed.len());
                let fresh = Listed {
                    first_line: n,
                    calls: 0,
                    time: 0.0,
                    child: 0.0,
                };
                self.listed.push((id, fresh));
            }
        }
        if child < t {
            let msg = format!(
                "func+child time {child} is below func time {t}; both kept as the file states them"
            );
            self.warn(n, WarningKind::ImpossibleValue, msg);
        }
        for (what, v) in [("func time", t), ("func+child time", child)] {
            if v < 0.0 {
                let msg = format!("{what} {v} is negative; kept as the file states it");
                self.warn(n, WarningKind::ImpossibleValue, msg);
            }
        }
        let f = &mut self.listed[self.place[&id]].1;
        f.calls = f.calls.saturating_add(calls);
        f.time += t;
        f.child += child;
        self.owner = Some((id, name_id));
    }

    fn close_stack(&mut self) {
        if let Some(s) = self.stacks.last().filter(|_| self.open) {
            let (have, line, size) = (s.frames.len() as u64, s.line, s.size);
            if have < size {
                let msg =
                    format!("stack declares {size} frames but {have} follow; kept the {have}");
                self.warn(line, WarningKind::CountMismatch, msg);
            }
        }
        self.open = false;
    }

    fn close_group(&mut self) {
        if let Some((line, declared, seen)) = self.group.take()
            && seen != declared
        {
            let msg = format!("declares {declared} stacks but {seen} follow");
            self.warn(line, WarningKind::CountMismatch, msg);
        }
    }

    /// The functions' numbers, the stacks and the session, once every
    /// record is read (a frame may name a function listed further down).
    fn finish(mut self, path: &str) -> Result<(), LoadError> {
        self.close_stack();
        self.close_group();
        if self.used == 0 {
            return Err(record::nothing_usable(path));
        }
        let timed = record::measures_time(self.method);
        let measured = |t: f64| timed.then_some(t);
        // Functions in id order, as the builder made them.
        let mut listed = std::mem::take(&mut self.listed);
        listed.sort_by_key(|(id, _)| id.index());
        for (id, f) in &listed {
            let time = TimeValues {
                elapsed_inclusive: measured(f.child),
                elapsed_exclusive: measured(f.time),
                ..Default::default()
            };
            let summary = FuncSummary {
                calls: Some(f.calls),
                time,
                ..Default::default()
            };
            self.b.summary(*id, summary);
        }
        // A frame's name → the one tag 6 function of that name, or `None`
        // when several have it.
        let mut by_name: HashMap<NameId, Option<FuncId>> = HashMap::new();
        for (id, _) in &listed {
            let name = self.b.function_ref(*id).name;
            let entry = by_name.entry(name).or_insert(Some(*id));
            if *entry != Some(*id) {
                *entry = None;
            }
        }
        let no_module = self.b.intern("");
        for s in std::mem::take(&mut self.stacks) {
            let mut names = s.frames;
            orient(&mut names, s.owner_name);
            let callers = &names[..names.len().saturating_sub(1)];
            let mut frames: Vec<FuncId> = callers
                .iter()
                .map(|&name| match by_name.get(&name) {
                    Some(&Some(f)) => f,
                    _ => self.b.function(name, no_module),
                })
                .collect();
            frames.push(s.owner);
            if self.b.keeps_stacks() {
                let id = self.b.stack(&frames);
                self.b.stack_line(id, s.line);
                let t = |x: f64| timed.then_some(x);
                self.b
                    .stack_summary(id, Some(s.hits), t(s.self_ms), t(s.child_ms));
            }
        }
        if let (true, Some((total, outside))) = (timed, self.session) {
            let totals = self.b.totals_mut();
            totals.elapsed_inclusive_ms = (total > 0.0).then_some(total);
            totals.outside_ms = Some(outside);
        }
        Ok(())
    }
}

fn int(n: u64) -> MetaValue {
    i64::try_from(n).map_or_else(|_| MetaValue::Float(n as f64), MetaValue::Int)
}
