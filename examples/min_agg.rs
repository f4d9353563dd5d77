//! The minimal aggregator issue 40 measures profx against: the least a
//! program can do to count a trace's calls by name. It maps the file, cuts
//! it in two at a line end, and on two threads finds each line with
//! `memchr`, takes the name field and counts it in an `FxHashMap`; then it
//! merges the two maps. No validation, no numbers, no model: a floor, not
//! a rival.
//!
//! ```text
//! cargo run --release --example min_agg -- deldbe|plist FILE
//! ```
//!
//! - `deldbe`: the fourth comma-separated field, quotes dropped (the call
//!   column of `thread,time,op,call,...`; a quoted one to its closing
//!   quote);
//! - `plist`: the name of each function record (`6\t…`, its last tab
//!   field).
//!
//! Prints the distinct names and the lines counted, so the work cannot be
//! optimized away.

use memchr::memchr;
use rustc_hash::FxHashMap;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [mode, path] = args.as_slice() else {
        eprintln!("usage: min_agg deldbe|plist FILE");
        return ExitCode::from(2);
    };
    let name: fn(&[u8]) -> Option<&[u8]> = match mode.as_str() {
        "deldbe" => deldbe_name,
        "plist" => plist_name,
        _ => {
            eprintln!("min_agg: deldbe or plist");
            return ExitCode::from(2);
        }
    };
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
    let bytes: &[u8] = &map;
    let mid = bytes.len() / 2;
    let cut = memchr(b'\n', &bytes[mid..]).map_or(bytes.len(), |i| mid + i + 1);
    let (a, b) = bytes.split_at(cut);
    let (mut left, right) = std::thread::scope(|s| {
        let other = s.spawn(|| count(b, name));
        (count(a, name), other.join().unwrap_or_default())
    });
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

fn count(mut s: &[u8], name: fn(&[u8]) -> Option<&[u8]>) -> FxHashMap<&[u8], u64> {
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
