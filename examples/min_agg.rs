//! The minimal aggregator issues 40 and 69 measure profx against: the
//! least a program can do to count a trace's calls by name. It maps the
//! file, cuts it in two at a line end (a record's, for DBF), and on two
//! threads finds each line with `memchr`, takes the name field and counts
//! it in an `FxHashMap`; then it merges the two maps. No validation, no numbers, no model: a floor, not
//! a rival.
//!
//! ```text
//! cargo run --release --example min_agg -- deldbe|plist|dbf FILE
//! ```
//!
//! - `deldbe`: the fourth comma-separated field, quotes dropped (the call
//!   column of `thread,time,op,call,...`; a quoted one to its closing
//!   quote);
//! - `plist`: the name of each function record (`6\t…`, its last tab
//!   field);
//! - `dbf`: fixed-width records, not lines: the header's record count,
//!   header and record lengths, and the field descriptors up to the call
//!   field (the first named as profx names it: `CALL FUNC FUNCTION NAME
//!   SYMBOL PROC`); the file is cut in two at a record, and each live
//!   record's call field (deleted ones start with `*`), its trailing
//!   blanks dropped, is counted.
//!
//! Prints the distinct names and the lines counted, so the work cannot be
//! optimized away.

use memchr::memchr;
use rustc_hash::FxHashMap;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [mode, path] = args.as_slice() else {
        eprintln!("usage: min_agg deldbe|plist|dbf FILE");
        return ExitCode::from(2);
    };
    if !["deldbe", "plist", "dbf"].contains(&mode.as_str()) {
        eprintln!("min_agg: deldbe, plist or dbf");
        return ExitCode::from(2);
    }
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("min_agg: {path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    // SAFETY: the file is only read, and a benchmark's input is not
    // changed while it runs.
    let map = match unsafe { memmap2::Mmap::map(&file) } {
        Ok(m) => m,
        Err(e) => {
            eprintln!("min_agg: {path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let Some((mut left, right)) = halves(mode, &map) else {
        eprintln!("min_agg: {path}: no DBF header with a call field");
        return ExitCode::FAILURE;
    };
    let mut lines = 0u64;
    for (k, n) in right {
        *left.entry(k).or_default() += n;
    }
    for n in left.values() {
        lines += n;
    }
    println!("{} names, {lines} lines", left.len());
    ExitCode::SUCCESS
}

type Counts<'a> = FxHashMap<&'a [u8], u64>;

/// The counts of the file's two halves, each counted on a thread of its
/// own; `None` for a DBF file without a header that names a call field.
fn halves<'a>(mode: &str, bytes: &'a [u8]) -> Option<(Counts<'a>, Counts<'a>)> {
    if mode == "dbf" {
        let dbf = Dbf::of(bytes)?;
        let mid = dbf.records.len() / dbf.len / 2 * dbf.len;
        let (a, b) = dbf.records.split_at(mid);
        return Some(std::thread::scope(|s| {
            let other = s.spawn(|| dbf.count(b));
            (dbf.count(a), other.join().unwrap_or_default())
        }));
    }
    let name: fn(&[u8]) -> Option<&[u8]> = match mode {
        "deldbe" => deldbe_name,
        _ => plist_name,
    };
    let mid = bytes.len() / 2;
    let cut = memchr(b'\n', &bytes[mid..]).map_or(bytes.len(), |i| mid + i + 1);
    let (a, b) = bytes.split_at(cut);
    Some(std::thread::scope(|s| {
        let other = s.spawn(|| count(b, name));
        (count(a, name), other.join().unwrap_or_default())
    }))
}

fn count(mut s: &[u8], name: fn(&[u8]) -> Option<&[u8]>) -> Counts<'_> {
    let mut counts: FxHashMap<&[u8], u64> = FxHashMap::default();
    while !s.is_empty() {
        let end = memchr(b'\n', s).unwrap_or(s.len());
        if let Some(n) = name(&s[..end]) {
            *counts.entry(n).or_default() += 1;
        }
        s = s.get(end + 1..).unwrap_or_default();
    }
    counts
}

fn deldbe_name(line: &[u8]) -> Option<&[u8]> {
    let mut rest = line;
    for _ in 0..3 {
        rest = &rest[memchr(b',', rest)? + 1..];
    }
    // A quoted name may hold commas (`CStringT<wchar_t,…>`): to its
    // closing quote.
    match rest.strip_prefix(b"\"") {
        Some(q) => Some(&q[..memchr(b'"', q)?]),
        None => Some(&rest[..memchr(b',', rest).unwrap_or(rest.len())]),
    }
}

fn plist_name(line: &[u8]) -> Option<&[u8]> {
    let rest = line.strip_prefix(b"6\t")?;
    let start = memchr::memrchr(b'\t', rest)? + 1;
    Some(&rest[start..])
}

/// A DBF file's records and where their call field is.
struct Dbf<'a> {
    /// The whole records the header counts (no more than the file holds).
    records: &'a [u8],
    /// A record's length.
    len: usize,
    /// The call field's place in a record (the flag byte is offset 0).
    call: std::ops::Range<usize>,
}

impl<'a> Dbf<'a> {
    /// The header's layout; `None` without a call field. The records
    /// end where the header's count says: an end mark (0x1A) after them
    /// is then never read as one.
    fn of(bytes: &'a [u8]) -> Option<Dbf<'a>> {
        let u16_at = |i: usize| {
            Some(usize::from(u16::from_le_bytes([
                *bytes.get(i)?,
                *bytes.get(i + 1)?,
            ])))
        };
        let count = u32::from_le_bytes(bytes.get(4..8)?.try_into().ok()?) as usize;
        let (header, len) = (u16_at(8)?, u16_at(10)?);
        let (mut pos, mut offset) = (32, 1);
        let call = loop {
            let d = bytes.get(pos..pos + 32).filter(|d| d[0] != 0x0D)?;
            let name = &d[..d[..11].iter().position(|&b| b == 0).unwrap_or(11)];
            let field = offset..offset + usize::from(d[16]);
            if [
                &b"CALL"[..],
                b"FUNC",
                b"FUNCTION",
                b"NAME",
                b"SYMBOL",
                b"PROC",
            ]
            .iter()
            .any(|n| n.eq_ignore_ascii_case(name))
            {
                break field;
            }
            (pos, offset) = (pos + 32, field.end);
        };
        let rest = bytes.get(header..)?;
        let whole = count.min(rest.len() / len.max(1));
        (len >= call.end).then(|| Dbf {
            records: &rest[..whole * len],
            len,
            call,
        })
    }

    /// Each live record's call, as profx names it: the field without
    /// its trailing blanks.
    fn count(&self, records: &'a [u8]) -> Counts<'a> {
        let mut counts: FxHashMap<&[u8], u64> = FxHashMap::default();
        for record in records.chunks_exact(self.len) {
            if record[0] == b'*' {
                continue;
            }
            let field = &record[self.call.clone()];
            let end = field.iter().rposition(|&b| b != b' ').map_or(0, |i| i + 1);
            *counts.entry(&field[..end]).or_default() += 1;
        }
        counts
    }
}
