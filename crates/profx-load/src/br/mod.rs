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
//! `rules.rs` is the format's rules, the one place they are applied: read
//! it first to learn the format. `reference.rs` feeds it the log the plain
//! way, record by record on one thread (`--reference`); `fast/` decodes
//! the log on every core and feeds it the same. Records are read by
//! `record.rs`; a sample's place and leaf are kept for the trace pane in
//! `events.rs`.
//!
//! Samples go to the builder's sample feed (model.md § Samples), which owns
//! hits, times and recursion; this module only decodes and names frames.
//! Names stay slices of the mapped file until interned, so a record costs no
//! allocation unless it brings a new name.

mod events;
mod fast;
mod record;
mod reference;
mod rules;

use super::{Detection, Input, LoadError, LoadOptions, Loader};
use profx_model::ProfileBuilder;
use record::{Record, Stop, read, trim_name};

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
        // A program's lines are numbered in its text (formats.md § br).
        b.state_facts(profx_model::Facts {
            line_numbers: profx_model::LineNumbers::Stated,
            ..profx_model::Facts::default()
        });
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
