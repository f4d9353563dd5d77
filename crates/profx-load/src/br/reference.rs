//! The BR profiler log read the plain way (`--reference`): one thread,
//! record by record through `record::read` (nom's streaming parsers), each
//! sample resolved and added as it closes. This is the format's rules in
//! one place, to learn it from; `mod.rs` and `decode.rs` apply the same
//! rules on every core, and a property test (`tests/properties.rs`,
//! `br_reference_and_fast_agree`) holds that both make the same profile.
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

use super::events::SampleEvents;
use super::record::{Frame, Record, read, record_type, stop_message, trim_name};
use super::{Mapped, NEXT_SAMPLE, Read, end_log, never_mapped};
use crate::{Input, LoadError, LoadOptions};
use profx_model::metrics::Sample;
use profx_model::text::decode;
use profx_model::{NameId, Place, ProfileBuilder, WarningKind};
use rustc_hash::FxHashMap;

/// Reads the whole log into `b`.
pub(super) fn load(
    input: &Input,
    opts: &LoadOptions,
    b: &mut ProfileBuilder,
) -> Result<(), LoadError> {
    let bytes = input.bytes();
    let later = Later::read(bytes);
    let mut log = Log::new(b, input, opts, later);
    let mut pos = 0;
    let stopped = loop {
        let Some(rest) = bytes.get(pos..).filter(|r| !r.is_empty()) else {
            break None;
        };
        match read(rest) {
            Ok((rec, len)) => {
                log.record(pos as u64, rec);
                pos += len;
            }
            Err(why) => break Some(why),
        }
    };
    if let Some(why) = stopped {
        let stop = stop_message(why, (bytes.len() - pos) as u64);
        log.b.warn(Place::Offset(pos as u64), stop.kind, stop.why);
    }
    let why = "was not closed before the end of the log; closed there";
    log.close(pos as u64, why);
    log.finish(input.name(), pos)
}

/// What a sample may need from later in the log, read in a first pass:
/// each module number's first mapping, and whether any time record stands
/// where reading goes (up to the first record that does not read).
struct Later<'a> {
    modules: FxHashMap<u16, &'a [u8]>,
    timed: bool,
}

impl<'a> Later<'a> {
    fn read(bytes: &'a [u8]) -> Later<'a> {
        let mut later = Later {
            modules: FxHashMap::default(),
            timed: false,
        };
        let mut pos = 0;
        while let Some(Ok((rec, len))) = bytes.get(pos..).filter(|r| !r.is_empty()).map(read) {
            match rec {
                Record::Module { module, name } => {
                    later.modules.entry(module).or_insert(name);
                }
                Record::Time(_) => later.timed = true,
                _ => {}
            }
            pos += len;
        }
        later
    }
}

/// What a frame's function is, as the records after it tell.
#[derive(Clone, Copy)]
enum Is<'a> {
    /// No type 7, 8 or 9 followed it: the function is its program.
    Program,
    Named(&'a [u8]),
    Gosub,
    Main,
}

/// A frame of the open sample, where its record stands.
struct OpenFrame<'a> {
    at: Frame,
    offset: u64,
    is: Is<'a>,
}

/// The sample being read.
struct Open<'a> {
    offset: u64,
    /// Leaf first, then its callers, nearest first.
    frames: Vec<OpenFrame<'a>>,
    ns: u64,
    timed: bool,
}

struct Log<'a, 'b> {
    b: &'b mut ProfileBuilder,
    later: Later<'a>,
    /// Module number → its file, as mapped or found later.
    modules: FxHashMap<u16, NameId>,
    /// The first file each number was mapped to, in file order.
    mapped: Mapped,
    gosub: NameId,
    main: NameId,
    open: Option<Open<'a>>,
    events: SampleEvents,
    samples: u64,
    clock_ns: u128,
    mappings: u64,
}

impl<'a, 'b> Log<'a, 'b> {
    fn new(b: &'b mut ProfileBuilder, input: &Input, opts: &LoadOptions, later: Later<'a>) -> Self {
        let (gosub, main) = (b.intern("(gosub)"), b.intern("(main)"));
        Log {
            b,
            later,
            modules: FxHashMap::default(),
            mapped: Mapped::default(),
            gosub,
            main,
            open: None,
            events: SampleEvents::new(input.clone(), opts.events),
            samples: 0,
            clock_ns: 0,
            mappings: 0,
        }
    }

    fn record(&mut self, at: u64, rec: Record<'a>) {
        let frame = |f: Frame| OpenFrame {
            at: f,
            offset: at,
            is: Is::Program,
        };
        match (rec, self.open.as_mut()) {
            (Record::Module { module, name }, _) => self.mapping(at, module, name),
            (Record::Current(f), _) => {
                self.close(at, NEXT_SAMPLE);
                self.open = Some(Open {
                    offset: at,
                    frames: vec![frame(f)],
                    ns: 0,
                    timed: false,
                });
            }
            (Record::End, Some(_)) => self.close(at, ""),
            (Record::Time(ns), Some(open)) => {
                open.ns = open.ns.saturating_add(ns);
                open.timed = true;
            }
            (Record::Back(f), Some(open)) => open.frames.push(frame(f)),
            (Record::Name(name), Some(open)) => mark_last(open, Is::Named(trim_name(name))),
            (Record::Gosub, Some(open)) => mark_last(open, Is::Gosub),
            (Record::Main, Some(open)) => mark_last(open, Is::Main),
            (rec, None) => {
                let msg = format!(
                    "record type {} outside a sample; skipped",
                    record_type(&rec)
                );
                self.b.warn(Place::Offset(at), WarningKind::OutOfPlace, msg);
            }
        }
    }

    fn mapping(&mut self, at: u64, module: u16, name: &[u8]) {
        self.mappings += 1;
        let id = self.b.intern(&decode(name));
        self.modules.entry(module).or_insert(id);
        self.mapped.map(self.b, at, module, id);
    }

    /// A module number's file; one never mapped is `module#N`, with a
    /// warning where it is first used (`at`).
    fn module(&mut self, module: u16, at: u64) -> NameId {
        if let Some(&id) = self.modules.get(&module) {
            return id;
        }
        let id = match self.later.modules.get(&module) {
            Some(name) => self.b.intern(&decode(name)),
            None => never_mapped(self.b, module, at),
        };
        self.modules.insert(module, id);
        id
    }

    /// Closes the open sample at `at` (`why` non-empty when it was not
    /// closed by its own type 6) and adds it.
    fn close(&mut self, at: u64, why: &str) {
        let Some(open) = self.open.take() else {
            return;
        };
        if !why.is_empty() {
            let msg = format!("sample at offset {} {why}", open.offset);
            self.b.warn(Place::Offset(at), WarningKind::Unclosed, msg);
        }
        let ns = self.time(&open);
        // Modules are named leaf first, as the records stand, so a warning
        // about one stands at the record that first uses it.
        for f in &open.frames {
            self.module(f.at.module, f.offset);
        }
        let mut funcs = Vec::with_capacity(open.frames.len());
        for f in open.frames.iter().rev() {
            let module = self.module(f.at.module, f.offset);
            let name = match f.is {
                Is::Program => module,
                Is::Named(name) => self.b.intern(&decode(name)),
                Is::Gosub => self.gosub,
                Is::Main => self.main,
            };
            funcs.push(self.b.function(name, module));
        }
        let (Some(leaf), Some(first)) = (funcs.last().copied(), open.frames.first()) else {
            return;
        };
        let file = self.module(first.at.module, open.offset);
        let line = self.b.line(file, first.at.line, Some(leaf));
        self.b.add_sample(Sample {
            frames: &funcs,
            time_ns: ns,
            line: Some(line),
        });
        self.events.push(open.offset, leaf, self.clock_ns);
        self.samples += 1;
        self.clock_ns += u128::from(ns.unwrap_or(0));
    }

    /// A sample's time: `None` in a sampled profile; 0 ms, with a warning,
    /// for a sample without a time record in a timed one.
    fn time(&mut self, open: &Open<'a>) -> Option<u64> {
        if open.timed {
            return Some(open.ns);
        }
        if !self.later.timed {
            return None;
        }
        let msg = "sample has no time record in a timed profile; counted as 0 ms";
        self.b
            .warn(Place::Offset(open.offset), WarningKind::MissingTime, msg);
        Some(open.ns)
    }

    fn finish(self, path: &str, read_to: usize) -> Result<(), LoadError> {
        let read = Read {
            samples: self.samples,
            mappings: self.mappings,
            timed: self.later.timed,
            clock_ns: self.clock_ns,
            read_to,
        };
        end_log(self.b, path, self.events, read)
    }
}

/// A type 7, 8 or 9 says what the frame before it is.
fn mark_last<'a>(open: &mut Open<'a>, is: Is<'a>) {
    if let Some(last) = open.frames.last_mut() {
        last.is = is;
    }
}
