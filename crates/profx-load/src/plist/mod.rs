//! `plist`: Visual C++ Source Profiler `PLIST /T` output (seeds 000, 001).
//!
//! PLIST, the report step of the VC++ 2.0–6.0 source profiler, writes with
//! `/T` one tab-delimited record per line, the first field a format tag:
//! 0–5 are global records (banner, method, total time, hit counts, date,
//! starting function), 6 a function (exe, object module, calls, time,
//! func+child time, name), 7 a line (exe, source, line, count), and 8/9/10
//! the function-attribution stacks that follow their function: 8 says how
//! many stacks, each 9 gives a stack's size, hits, self and child time, and
//! that many 10 records name its frames. A function-timing record reads
//! (`→` a TAB):
//!
//! ```text
//! 6→PROFTEST.EXE→proftest.obj→70→86571.608→87316.863→CWinThread::PumpMessage(void)
//! ```
//!
//! No raw `/T` file is public (tests/fixtures/real/SOURCES.md): the layout
//! comes from the seeds, and text copied out of a listing loses its TABs,
//! hence the split on runs of spaces when a line has none. Counting and
//! coverage methods (321, 324, 521, 524) write zero times that mean "not
//! measured", so they become absent. The numbers are the file's own: this
//! loader feeds them to the builder as summaries and lets the metric code
//! derive session totals and percents.
//!
//! `rules.rs` is what each `/T` record does, the one place the format's
//! rules are applied; `reference.rs` reads the records the plain way, a
//! line at a time on one thread (`--reference`), with `record.rs`, the
//! fields of each tag, and feeds them to the rules: read these first to
//! learn the format. `fast/` reads the same records on every core and
//! feeds the same rules; `stacks.rs` files the stacks without an index
//! where none is needed. `listing.rs` reads the printed listing.

mod fast;
mod listing;
mod record;
mod reference;
mod rules;
mod stacks;

use super::split::numbered_lines;
use super::{Detection, Input, LoadError, LoadOptions, Loader};
use profx_model::ProfileBuilder;
use profx_model::text::decode;
use record::{Parsed, parse_line};

/// The PLIST /T loader.
pub(crate) struct Plist;

impl Loader for Plist {
    fn name(&self) -> &'static str {
        "plist"
    }

    /// Yes for `/T` records ([`records_detect`]) or a printed listing
    /// (`listing::detect`: a `Profile:` line of a known kind).
    fn detect(&self, head: &[u8], at_eof: bool) -> Detection {
        match records_detect(head, at_eof) {
            Detection::Yes => Detection::Yes,
            records => match (listing::detect(head, at_eof), records) {
                (Detection::No, records) => records,
                (listing, _) => listing,
            },
        }
    }

    /// The reference loader when asked for (`--reference`); a printed
    /// listing by `listing.rs`; else the fast engine (`fast/`).
    fn load(
        &self,
        input: &Input,
        opts: &LoadOptions,
        b: &mut ProfileBuilder,
    ) -> Result<(), LoadError> {
        // Times are written to the microsecond: a stack's child time and
        // its callees' differ by half of one per value in rounding alone.
        b.stated_rounding(0.0005);
        if opts.reference {
            return reference::load(input.bytes(), input.name(), b);
        }
        // As detection reads them: the heads only.
        if crate::detect_heads(input.bytes(), records_detect) != Detection::Yes
            && let Some((start, kind)) = listing::find(input.bytes())
        {
            return listing::load(input.bytes(), start, kind, b).map_err(|reason| {
                LoadError::Invalid {
                    path: input.name().to_string(),
                    place: profx_model::Place::Line(start),
                    kind: crate::InvalidKind::NoRecords,
                    reason,
                }
            });
        }
        fast::load(input, opts, b)
    }
}

/// `/T` records: yes when the first non-blank line is a record with a tag
/// from 0 to 10 and a separator, and most of the first eight non-blank
/// lines are tag lines (a stray listing line or a future tag does not hide
/// a real file). A DELDBE row (`1,2,…`) or a CSV header fails at its first
/// field.
fn records_detect(head: &[u8], at_eof: bool) -> Detection {
    {
        let complete = match text_lines(head, at_eof) {
            Ok(complete) => complete,
            Err(decided) => return decided,
        };
        let (mut seen, mut tagged) = (0, 0);
        for (_, bytes) in numbered_lines(complete) {
            let line = decode(bytes);
            let is_tag_line = match parse_line(&line) {
                Parsed::Blank => continue,
                Parsed::Record { tag, fields } => {
                    has_separator(&line) && record::numbers_hold(tag, &fields)
                }
                Parsed::Short { .. } => has_separator(&line),
                Parsed::Unknown(_) => seen > 0,
                Parsed::NotATag(_) => false,
            };
            if seen == 0 && !is_tag_line {
                return Detection::No;
            }
            seen += 1;
            tagged += usize::from(is_tag_line);
            if seen == 8 {
                break;
            }
        }
        match seen {
            0 if !at_eof => Detection::NeedMore,
            0 => Detection::No,
            _ if 2 * tagged > seen => Detection::Yes,
            _ => Detection::No,
        }
    }
}

/// The whole lines of a text head: a NUL says it is no text (no), and a
/// head that is not the whole file and holds no line end asks for more.
fn text_lines(head: &[u8], at_eof: bool) -> Result<&[u8], Detection> {
    if head.contains(&0) {
        return Err(Detection::No);
    }
    if at_eof {
        return Ok(head);
    }
    match head.iter().rposition(|&b| b == b'\n') {
        Some(end) => Ok(&head[..end]),
        None => Err(Detection::NeedMore),
    }
}

fn has_separator(line: &str) -> bool {
    line.trim().contains(['\t', ' '])
}

#[cfg(test)]
mod tests;
