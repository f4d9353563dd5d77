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

mod events;
mod record;

use super::{Detection, Input, LoadError, LoadOptions, Loader};
use crate::model::metrics::Sample;
use crate::model::{FuncId, MetaValue, NameId, Packet, Place, ProfileBuilder};
use crate::text::decode;
use events::{SampleEvents, SampleRow};
use record::{Frame, Record, Stop, read, trim_name};
use rustc_hash::FxHashMap;

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

    fn load(
        &self,
        input: &Input,
        _opts: &LoadOptions,
        b: &mut ProfileBuilder,
    ) -> Result<(), LoadError> {
        let bytes = input.bytes();
        let scan = Scan::of(bytes);
        let mut st = State::new(b, &scan);
        let stop = st.run(input);
        st.finish(input.name(), stop, bytes.len())
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

/// What holds for the whole file: module mappings (first one wins, wherever
/// it stands) and whether any sample is timed.
struct Scan<'a> {
    modules: FxHashMap<u16, &'a [u8]>,
    timed: bool,
}

impl<'a> Scan<'a> {
    fn of(bytes: &'a [u8]) -> Scan<'a> {
        let mut scan = Scan {
            modules: FxHashMap::default(),
            timed: false,
        };
        let mut pos = 0;
        while pos < bytes.len() {
            let Ok((rec, len)) = read(&bytes[pos..]) else {
                break;
            };
            match rec {
                Record::Module { module, name } => {
                    scan.modules.entry(module).or_insert(name);
                }
                Record::Time(_) => scan.timed = true,
                _ => {}
            }
            pos += len;
        }
        scan
    }
}

/// What a frame says about its function.
#[derive(Clone, Copy)]
enum Kind {
    Program,
    Named(NameId),
    Gosub,
    Main,
}

#[derive(Clone, Copy)]
struct RawFrame {
    at: Frame,
    /// Offset of the type 3 or 5 record that gave it.
    offset: u64,
    kind: Kind,
}

/// A sample between its type 3 and its end.
struct Open {
    offset: u64,
    frames: Vec<RawFrame>,
    ns: u64,
    timed: bool,
}

struct State<'b> {
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
    open: Option<Open>,
    spare: Vec<RawFrame>,
    funcs: Vec<FuncId>,
    rows: Vec<SampleRow>,
    clock_ns: u128,
    mappings: u64,
}

impl<'b> State<'b> {
    fn new(b: &'b mut ProfileBuilder, scan: &Scan<'_>) -> Self {
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
        State {
            b,
            timed: scan.timed,
            modules,
            mapped: FxHashMap::default(),
            gosub,
            main,
            open: None,
            spare: Vec::new(),
            funcs: Vec::new(),
            rows: Vec::new(),
            clock_ns: 0,
            mappings: 0,
        }
    }

    /// Applies every record; returns where and why reading stopped early.
    fn run(&mut self, input: &Input) -> Option<(u64, Stop)> {
        let bytes = input.bytes();
        let mut pos = 0;
        while pos < bytes.len() {
            input.mark_read(pos);
            let (rec, len) = match read(&bytes[pos..]) {
                Ok(ok) => ok,
                Err(stop) => return Some((pos as u64, stop)),
            };
            self.record(pos as u64, rec);
            pos += len;
        }
        None
    }

    fn record(&mut self, at: u64, rec: Record<'_>) {
        match rec {
            Record::Module { module, name } => self.mapping(at, module, name),
            Record::Current(frame) => {
                if self.open.is_some() {
                    self.close(at, "was not closed before the next sample; closed there");
                }
                let mut frames = std::mem::take(&mut self.spare);
                frames.push(RawFrame {
                    at: frame,
                    offset: at,
                    kind: Kind::Program,
                });
                self.open = Some(Open {
                    offset: at,
                    frames,
                    ns: 0,
                    timed: false,
                });
            }
            Record::End if self.open.is_some() => self.close(at, ""),
            _ => self.in_sample(at, rec),
        }
    }

    /// Records that only make sense inside a sample.
    fn in_sample(&mut self, at: u64, rec: Record<'_>) {
        let Some(open) = self.open.as_mut() else {
            let kind = record_type(&rec);
            self.b.warn(
                Place::Offset(at),
                format!("record type {kind} outside a sample; skipped"),
            );
            return;
        };
        let last = open.frames.len() - 1;
        match rec {
            Record::Time(ns) => {
                open.ns = open.ns.saturating_add(ns);
                open.timed = true;
            }
            Record::Back(frame) => open.frames.push(RawFrame {
                at: frame,
                offset: at,
                kind: Kind::Program,
            }),
            Record::Name(name) => {
                let id = self.b.intern(&decode(trim_name(name)));
                open.frames[last].kind = Kind::Named(id);
            }
            Record::Gosub => open.frames[last].kind = Kind::Gosub,
            Record::Main => open.frames[last].kind = Kind::Main,
            Record::Module { .. } | Record::Current(_) | Record::End => {}
        }
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

    /// Ends the open sample and feeds it; `why` non-empty when it was not
    /// closed by its own type 6 (the warning stands where it is closed).
    fn close(&mut self, at: u64, why: &str) {
        let Some(mut open) = self.open.take() else {
            return;
        };
        if !why.is_empty() {
            self.b.warn(
                Place::Offset(at),
                format!("sample at offset {} {why}", open.offset),
            );
        }
        if self.timed && !open.timed {
            let msg = "sample has no time record in a timed profile; counted as 0 ms";
            self.b.warn(Place::Offset(open.offset), msg);
        }
        // Resolve modules in file order first, so an unmapped number is
        // reported at the record that first uses it.
        for f in &open.frames {
            self.module_name(f.at.module, f.offset);
        }
        self.funcs.clear();
        for f in open.frames.iter().rev() {
            let module = self.module_name(f.at.module, f.offset);
            let name = match f.kind {
                Kind::Program => module,
                Kind::Named(id) => id,
                Kind::Gosub => self.gosub,
                Kind::Main => self.main,
            };
            self.funcs.push(self.b.function(name, module));
        }
        let leaf = open.frames[0].at;
        let file = self.module_name(leaf.module, open.offset);
        let time_ms = self.timed.then(|| open.ns as f64 / 1e6);
        self.b.add_sample(Sample {
            frames: &self.funcs,
            time_ms,
            line: Some((file, leaf.line)),
        });
        self.rows.push(SampleRow {
            function: self.funcs[self.funcs.len() - 1],
            line: leaf.line,
            clause: leaf.clause,
            start_ms: self.timed.then(|| self.clock_ns as f64 / 1e6),
        });
        self.clock_ns += u128::from(open.ns);
        open.frames.clear();
        self.spare = open.frames;
    }

    fn finish(
        mut self,
        path: &str,
        stop: Option<(u64, Stop)>,
        len: usize,
    ) -> Result<(), LoadError> {
        let end = stop.map_or(len as u64, |(at, _)| at);
        if let Some((at, why)) = stop {
            let left = len as u64 - at;
            let msg = match why {
                Stop::Cut { kind } => {
                    format!("record type {kind} cut off by the end of the file ({left} bytes)")
                }
                Stop::Unknown { kind } => {
                    format!("unknown record type {kind}; stopped reading, {left} bytes not read")
                }
            };
            self.b.warn(Place::Offset(at), msg);
        }
        self.close(
            end,
            "was not closed before the end of the log; closed there",
        );
        if self.rows.is_empty() && self.mappings == 0 {
            return Err(LoadError::Invalid {
                path: path.to_string(),
                place: format!("offset {end}"),
                reason: "no sample or module record in the log".into(),
            });
        }
        let total = self.timed.then(|| self.clock_ns as f64 / 1e6);
        self.b.add_packet(Packet {
            source: path.to_string(),
            first_ms: self.timed.then_some(0.0),
            last_ms: total,
            events: Box::new(SampleEvents::new(std::mem::take(&mut self.rows))),
        });
        Ok(())
    }
}

fn record_type(rec: &Record<'_>) -> u8 {
    match rec {
        Record::Module { .. } => 1,
        Record::Current(_) => 3,
        Record::Time(_) => 4,
        Record::Back(_) => 5,
        Record::End => 6,
        Record::Name(_) => 7,
        Record::Gosub => 8,
        Record::Main => 9,
    }
}

#[cfg(test)]
mod tests;
