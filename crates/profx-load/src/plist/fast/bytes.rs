//! The common PLIST /T records, read without the general field splitter.
//!
//! Nearly every line of a large listing is a function, a line count or a
//! stack record, each as PLIST writes it: the tag, TABs, plain numbers,
//! names of printable ASCII with no blank at either end:
//!
//! ```text
//! 6→PROFTEST.EXE→proftest.obj→70→86571.608→87316.863→CWinThread::PumpMessage(void)
//! ```
//!
//! This module reads exactly those shapes (tags 6 to 10) and gives up on
//! anything else, leaving the line to `record::read`, which defines the
//! format. What it accepts it reads to the
//! same item, names numbered in the same order (a test checks both ways on
//! the same lines).

use crate::names::WorkerNames;
use crate::plist::rules::Record;
use crate::scan::{decimal, digits, printable_prefix};
use crate::split::MAX_LINE;

/// The record at the start of `s` if it has a common shape and its line
/// ends there (`\n` or `\r\n`, not taken, or the end of `s`, a last `\r`
/// allowed) within `MAX_LINE` bytes: the item and the length of the line
/// without its `\n`.
pub(super) fn item_at(s: &[u8], names: &mut WorkerNames) -> Option<(Record<u32>, usize)> {
    let (tag, rest) = digits(s, 2)?;
    let rest = rest.strip_prefix(b"\t")?;
    // Names are numbered only once the whole line is known to be read
    // here (`len` settles its end), in the order `record::read` numbers them.
    let len = |rest: &[u8]| {
        let len = s.len() - rest.len() + line_end(rest)?;
        (len <= MAX_LINE).then_some(len)
    };
    let (body, len) = match tag {
        6 => {
            let (_exe, rest) = field(rest)?;
            let (module, rest) = field(rest)?;
            let (calls, rest) = tabbed(digits(rest, 19)?)?;
            let (time, rest) = tabbed(decimal(rest)?)?;
            let (child, rest) = decimal(rest)?;
            let (name, end) = last_name(rest.strip_prefix(b"\t")?)?;
            let len = len(end)?;
            let module = id(module, names)?;
            let body = Record::Function {
                module,
                name: id(name, names)?,
                calls,
                time,
                child,
            };
            (body, len)
        }
        7 => {
            let (_exe, rest) = field(rest)?;
            let (file, rest) = field(rest)?;
            let (line, rest) = tabbed(digits(rest, 19)?)?;
            let line = u32::try_from(line).ok()?;
            let (hits, rest) = digits(rest, 19)?;
            let len = len(rest)?;
            let body = Record::Line {
                file: id(file, names)?,
                line,
                hits,
            };
            (body, len)
        }
        8 => {
            let (declared, rest) = digits(rest, 19)?;
            (Record::Group { declared }, len(rest)?)
        }
        9 => {
            let (size, rest) = tabbed(digits(rest, 19)?)?;
            let (hits, rest) = tabbed(digits(rest, 19)?)?;
            let (self_ms, rest) = tabbed(decimal(rest)?)?;
            let (child_ms, rest) = decimal(rest)?;
            let body = Record::Stack {
                size,
                hits,
                self_ms,
                child_ms,
            };
            (body, len(rest)?)
        }
        10 => {
            let (name, end) = last_name(rest)?;
            let len = len(end)?;
            (
                Record::Frame {
                    name: id(name, names)?,
                },
                len,
            )
        }
        _ => return None,
    };
    Some((body, len))
}

/// A value followed by a TAB, and what follows the TAB.
fn tabbed<T>((value, rest): (T, &[u8])) -> Option<(T, &[u8])> {
    Some((value, rest.strip_prefix(b"\t")?))
}

/// A name field ended by a TAB: printable ASCII, not blank at either end.
fn field(s: &[u8]) -> Option<(&[u8], &[u8])> {
    let n = printable_prefix(s);
    let rest = s[n..].strip_prefix(b"\t")?;
    Some((trimmed(&s[..n])?, rest))
}

/// A name that takes the rest of the line, and what follows it (the line
/// end, if the line is of the common shape).
fn last_name(s: &[u8]) -> Option<(&[u8], &[u8])> {
    let n = printable_prefix(s);
    Some((trimmed(&s[..n])?, &s[n..]))
}

/// `s` if it is not empty and has no blank at either end (the general
/// reading trims fields; these need no trimming).
fn trimmed(s: &[u8]) -> Option<&[u8]> {
    match (s.first(), s.last()) {
        (Some(&a), Some(&z)) if a != b' ' && z != b' ' => Some(s),
        _ => None,
    }
}

/// How many bytes of `rest` belong to the line before its `\n`: 0 or a
/// `\r`; `None` when anything else follows the record.
fn line_end(rest: &[u8]) -> Option<usize> {
    match rest {
        [] | [b'\n', ..] => Some(0),
        [b'\r'] | [b'\r', b'\n', ..] => Some(1),
        _ => None,
    }
}

/// The worker's number for a printable ASCII name (its own text).
fn id(name: &[u8], names: &mut WorkerNames) -> Option<u32> {
    std::str::from_utf8(name).ok().map(|s| names.id(s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plist::record;

    /// The item the fast reading makes of `line` (no line end), with the
    /// names it numbered.
    fn fast(line: &str) -> Option<(Record<u32>, Vec<String>)> {
        let mut names = WorkerNames::per_batch();
        let (item, n) = item_at(line.as_bytes(), &mut names)?;
        assert_eq!(n, line.len(), "{line:?}");
        Some((item, names.take().iter().map(String::from).collect()))
    }

    fn general(line: &str) -> Option<(Record<u32>, Vec<String>)> {
        let mut names = WorkerNames::per_batch();
        let item = record::read(line.as_bytes(), &mut |name| names.id(name))?;
        Some((item, names.take().iter().map(String::from).collect()))
    }

    #[test]
    fn common_records_read_as_the_general_reading_reads_them() {
        for line in [
            "6\tgen.exe\tmod001.obj\t690\t3.544\t7.088\tFunction_0000001(int, const char *)",
            "6\tP T.EXE\tm.obj\t0\t0\t0.5\tx",
            "6\tgen.exe\tmod001.obj\t18446744073709551\t999999999999.999\t0.00000000000001\tf",
            "7\tPT.EXE\tsrc/a b.c\t4294967295\t12",
            "8\t1",
            "9\t2\t690\t3.544\t3.544",
            "10\tCWnd::Foo(int, long)",
            "10\tx\r",
        ] {
            let fast = fast(line).unwrap_or_else(|| panic!("{line:?}: not read"));
            assert_eq!(Some(&fast), general(line).as_ref(), "{line:?}");
        }
        // Random times: every digit count and position of the point.
        for time in crate::scan::testing::random_decimals() {
            let line = format!("9\t1\t2\t{time}\t{time}");
            let (Record::Stack { self_ms, .. }, _) = fast(&line).expect("read") else {
                panic!("{line}: not a stack");
            };
            assert_eq!(
                self_ms.to_bits(),
                time.parse::<f64>().map_or(0, f64::to_bits)
            );
        }
    }

    #[test]
    fn a_record_ends_at_its_line_end() {
        let mut names = WorkerNames::per_batch();
        let text = b"8\t1\r\n10\tf\n9\t1\t2\t3\t4";
        assert_eq!(item_at(text, &mut names).map(|(_, n)| n), Some(4));
        assert_eq!(item_at(&text[5..], &mut names).map(|(_, n)| n), Some(4));
        assert_eq!(item_at(&text[10..], &mut names).map(|(_, n)| n), Some(9));
    }

    #[test]
    fn other_shapes_are_left_to_the_general_reading() {
        for line in [
            "",
            "0\t1.10\tMicrosoft PLIST",
            "2\t2000000.000\t0.000\t200000",
            " 8\t1",
            "8 1",
            "8\t1\textra",
            "8\t1 ",
            "8\t-1",
            "11\tx",
            "100\tx",
            "10\t",
            "10\t name",
            "10\tname ",
            "10\tname\tmore",
            "10\tCaf\u{e9}",
            "10\ta\rb",
            "6\tgen.exe\tm.obj\t1\t1e3\t2\tf",
            "6\tgen.exe\tm.obj\t1\t1.\t2\tf",
            "6\tgen.exe\t\t1\t1\t2\tf",
            "6\tgen.exe\tm.obj\t1\t1\t2",
            "6\tgen.exe\tm.obj\t1\t1\t0.30000000000000004\tf",
            "6\tgen.exe\tm.obj\t99999999999999999999\t1\t2\tf",
            "7\tPT.EXE\ta.c\t4294967296\t1",
            "7\tPT.EXE\ta.c\t12\t4\textra",
            "9\t1\t2\t3",
            "9\t1\tz\t0\t0",
        ] {
            let mut names = WorkerNames::per_batch();
            assert!(item_at(line.as_bytes(), &mut names).is_none(), "{line:?}");
            assert!(
                names.take().iter().next().is_none(),
                "{line:?} numbered a name"
            );
        }
    }
}
