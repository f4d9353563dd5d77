//! The PLIST `/T` reference loader: the format's records read the plain
//! way, a line at a time, on one thread, and fed to the format's rules
//! (`rules.rs`). Read the two to learn the format; `Plist::load` (the
//! engine in `fast/`) reads the same records faster and feeds the same
//! rules, and a property test (`tests/properties.rs`) holds the two to the
//! same `--json` and warnings on generated, cut and flipped files.
//!
//! A line is a record: a format tag, then TAB-separated fields (runs of
//! spaces when the line has no TAB), the last field of tags 0, 1, 5, 6 and
//! 10 keeping its spaces (`record::parse_line`). The tags:
//!
//! - 0–5, the session: banner and version, profiling method, total and
//!   outside time and call depth, hit counts, date and command line, the
//!   starting function.
//! - 6, a function: exe, object module, calls, func time, func+child time,
//!   name.
//! - 7, a line: exe, source file, line number, hit count.
//! - 8, 9, 10: the stacks of the function above: 8 says how many, each 9
//!   gives a stack's size, hits, self and child time, and that many 10
//!   records name its frames.
//!
//! What each record does (functions summed, stacks resolved, the warnings)
//! is in `rules.rs`, which the fast engine feeds too; this file is how
//! bytes become those records, the plain way, and where a file's lines are
//! numbered.

use super::listing;
use super::record;
use super::rules::{Interned, Rules};
use crate::{InvalidKind, LoadError};
use profx_model::{Place, ProfileBuilder};

/// Loads `bytes` (the file `path`) into `b`: a printed listing when the
/// file holds no `/T` records and has a `Profile:` line, else the records.
pub(super) fn load(bytes: &[u8], path: &str, b: &mut ProfileBuilder) -> Result<(), LoadError> {
    // As the fast engine and detection read them: the heads only.
    let records = crate::detect_heads(bytes, super::records_detect) == crate::Detection::Yes;
    if !records && let Some((start, kind)) = listing::find(bytes) {
        return listing::load(bytes, start, kind, b).map_err(|reason| LoadError::Invalid {
            path: path.to_string(),
            place: Place::Line(start),
            kind: InvalidKind::NoRecords,
            reason,
        });
    }
    let mut r = Reader::new();
    r.text(b, bytes);
    r.finish(b, path)
}

/// The rules, fed a file's lines as they come: at once, or in parts
/// (`text` again with the lines that follow, as a file that grows).
pub(super) struct Reader {
    rules: Rules,
    /// Lines fed so far.
    lines: u64,
}

impl Reader {
    /// A reader at the start of a file.
    pub(super) fn new() -> Reader {
        Reader {
            rules: Rules::new(),
            lines: 0,
        }
    }

    /// Feeds whole lines, those that follow the lines fed before (the
    /// last one may lack its `\n`: it is taken as whole). A UTF-8
    /// byte-order mark before the file's first line is dropped.
    pub(super) fn text(&mut self, b: &mut ProfileBuilder, text: &[u8]) {
        let text = match self.lines {
            0 => text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text),
            _ => text,
        };
        for line in text.split_inclusive(|&c| c == b'\n') {
            self.lines += 1;
            let line = line.strip_suffix(b"\n").unwrap_or(line);
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            let record = record::read(line, &mut |name| b.intern(name));
            if let Some(r) = record {
                self.rules.record(b, self.lines, r, &Interned);
            }
        }
    }

    /// The end of the file `path` (`Rules::finish`).
    pub(super) fn finish(self, b: &mut ProfileBuilder, path: &str) -> Result<(), LoadError> {
        self.rules.finish(b, path)
    }
}
