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
//! `reference.rs` reads the log the plain way, record by record on one
//! thread (`--reference`): read it first to learn the format. `fast/` is
//! the same rules on every core. Both read records by `record.rs` and keep
//! a sample's place and leaf for the trace pane in `events.rs`.
//!
//! Samples go to the builder's sample feed (model.md § Samples), which owns
//! hits, times and recursion; this module only decodes and names frames.
//! Names stay slices of the mapped file until interned, so a record costs no
//! allocation unless it brings a new name.

mod events;
mod fast;
mod record;
mod reference;

use super::{Detection, Input, LoadError, LoadOptions, Loader};
use events::SampleEvents;
use profx_model::{MetaValue, NameId, Packet, Place, ProfileBuilder, WarningKind};
use record::{Record, Stop, read, trim_name};
use rustc_hash::FxHashMap;

/// The warning at a sample closed by the next one's type 3, from either
/// reader.
const NEXT_SAMPLE: &str = "was not closed before the next sample; closed there";

/// The BR profiler log loader.
pub(crate) struct Br;

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

    /// The reference loader when asked for (`--reference`), else the fast
    /// engine (`fast`).
    fn load(
        &self,
        input: &Input,
        opts: &LoadOptions,
        b: &mut ProfileBuilder,
    ) -> Result<(), LoadError> {
        // Every stack of a log is a sample's (model.md § Samples).
        b.hits_count(profx_model::HitsCount::Samples);
        if opts.reference {
            return reference::load(input, opts, b);
        }
        fast::load(input, opts, b)
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

/// The first file each module number was mapped to, in file order: both
/// loaders keep it, and warn where a number is mapped again to another.
#[derive(Default)]
struct Mapped(FxHashMap<u16, NameId>);

impl Mapped {
    fn map(&mut self, b: &mut ProfileBuilder, at: u64, module: u16, file: NameId) {
        match self.0.get(&module) {
            None => {
                self.0.insert(module, file);
            }
            Some(&first) if first != file => {
                let msg = format!(
                    "module {module} mapped again to {:?}; kept {:?}",
                    profx_model::text::visible(b.name(file)),
                    profx_model::text::visible(b.name(first)),
                );
                b.warn(Place::Offset(at), WarningKind::MappedAgain, msg);
            }
            Some(_) => {}
        }
    }
}

/// The name of a module number never mapped, with the warning where it
/// is first used.
fn never_mapped(b: &mut ProfileBuilder, module: u16, at: u64) -> NameId {
    let msg = format!("module {module} is never mapped to a file; named module#{module}");
    b.warn(Place::Offset(at), WarningKind::UnmappedModule, msg);
    b.intern(&format!("module#{module}"))
}

/// What a whole log read comes to, as either loader counted it.
struct Read {
    samples: u64,
    mappings: u64,
    /// Any time record stood in the log.
    timed: bool,
    clock_ns: u128,
    /// Where reading ended.
    read_to: usize,
}

/// The end of a log: a log with no sample and no mapping fails; else its
/// mode and its one packet of samples.
fn end_log(
    b: &mut ProfileBuilder,
    path: &str,
    mut events: SampleEvents,
    read: Read,
) -> Result<(), LoadError> {
    if read.samples == 0 && read.mappings == 0 {
        return Err(LoadError::Invalid {
            path: path.to_string(),
            place: Place::Offset(read.read_to as u64),
            kind: crate::InvalidKind::NoRecords,
            reason: "no sample or module record in the log".into(),
        });
    }
    let mode = if read.timed { "timed" } else { "sampled" };
    b.set_meta("mode", MetaValue::Text(mode.into()));
    events.finish(read.read_to, read.timed);
    let total = read.timed.then(|| read.clock_ns as f64 / 1e6);
    b.add_packet(Packet {
        source: path.to_string(),
        first_ms: read.timed.then_some(0.0),
        last_ms: total,
        events: Box::new(events),
    });
    Ok(())
}
