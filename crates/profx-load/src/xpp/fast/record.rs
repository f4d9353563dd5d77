//! The common DELDBE record, read without the general field splitter.
//!
//! Nearly every line of a real trace has one shape, as the Xbase++ DELDBE
//! writer makes it:
//!
//! ```text
//! 3,0.038,"i","FN000169",540
//! ```
//!
//! thread, time in ms, the op, the quoted function name, the line, and
//! (from a program traced with its parameters) a parameters field, passed
//! over. This module reads exactly that shape (digits, one optional
//! decimal point, no spaces, ASCII) and gives up on anything else: the caller
//! then uses `deldbe::split` and `deldbe::row`, which define the format.
//! What it accepts, it reads to the same values as they would, bit for bit
//! (a test checks both on the same lines). DBF records of the common
//! layout (`DbfShape`) are read the same way, field by field at fixed
//! places, with `dbf::ColMap::row` as the reading they must agree with.

use crate::scan::{POW10, decimal as time, digits, printable, printable_until, word};
use crate::xpp::dbf::ColMap;
use crate::xpp::row::Col;
use std::ops::Range;

/// A record of the common shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Record<'a> {
    pub thread: u64,
    pub time: f64,
    pub op: u8,
    /// Printable ASCII, so it is its own text.
    pub call: &'a [u8],
    pub line: Option<u32>,
}

/// The record at the start of `s` if it has the common shape and ends
/// there with a line end (`\n`, `\r\n`, not taken) or with `s` (or a
/// last `\r`): the
/// record and its length. A chunk is read line by line this way without
/// looking for each line's end first.
pub(crate) fn record_at(s: &[u8]) -> Option<(Record<'_>, usize)> {
    // Thread and line pass through an f64 in the general parser: digits
    // that an f64 holds exactly read the same either way.
    let (thread, rest) = digits(s, 15)?;
    let rest = rest.strip_prefix(b",")?;
    let (time, rest) = time(rest)?;
    let rest = rest.strip_prefix(b",")?;
    let (op, rest) = op(rest)?;
    let rest = rest.strip_prefix(b",")?;
    let (call, rest) = name(rest)?;
    let (line, rest) = match rest {
        [b',', b'0'..=b'9', ..] => {
            let (n, tail) = digits(&rest[1..], 10)?;
            (Some(u32::try_from(n).ok()?), tail)
        }
        _ => (None, rest),
    };
    let rest = params(rest, line.is_none())?;
    match rest {
        [] | [b'\r'] | [b'\n', ..] | [b'\r', b'\n', ..] => {}
        _ => return None,
    }
    let record = Record {
        thread,
        time,
        op,
        call,
        line,
    };
    Some((record, s.len() - rest.len()))
}

/// Where the trace columns of a DBF record of the common layout are:
/// number (`N`/`F`) fields for the thread, time and line, character
/// (`C`) fields for the op and call, no parameters field. A record is
/// read straight from these ranges; anything unusual in it (a decimal
/// thread, a name that is not printable ASCII, an op other than
/// `i I O o`, a number `padded_number` does not take) leaves it to
/// `ColMap::row`, which defines the format.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct DbfShape {
    pub thread: Range<usize>,
    pub time: Range<usize>,
    pub op: Range<usize>,
    pub call: Range<usize>,
    pub line: Option<Range<usize>>,
    /// Where the last of them ends: a record this long holds them all.
    pub end: usize,
}

impl DbfShape {
    /// The common layout's places in `map`, if its layout is the common
    /// one. A parameters field is passed over: the replay never reads it,
    /// and `ColMap::row` reads it without a warning whatever it holds (the
    /// Trace pane decodes it when shown).
    pub(crate) fn of(map: &ColMap) -> Option<DbfShape> {
        let place = |want: Col, kinds: &[u8]| {
            let f = map.field_of(want)?;
            kinds.contains(&f.kind).then(|| f.offset..f.offset + f.len)
        };
        let (number, character) = (&[b'N', b'F'][..], &[b'C'][..]);
        let line = match map.has(Col::Line) {
            true => Some(place(Col::Line, number)?),
            false => None,
        };
        let (thread, time) = (place(Col::Thread, number)?, place(Col::Time, number)?);
        let (op, call) = (place(Col::Op, character)?, place(Col::Call, character)?);
        let ends = [&thread, &time, &op, &call].map(|r| r.end);
        let end = ends.into_iter().chain(line.as_ref().map(|r| r.end)).max()?;
        Some(DbfShape {
            thread,
            time,
            op,
            call,
            line,
            end,
        })
    }

    /// The record (flag byte included) as the common shape reads it.
    pub(crate) fn record<'a>(&self, record: &'a [u8]) -> Option<Record<'a>> {
        if record.len() < self.end {
            return None;
        }
        let thread = padded_whole(&record[self.thread.clone()])??;
        let time = padded_number(&record[self.time.clone()])?;
        let op = match name_field(&record[self.op.clone()])? {
            [op @ (b'i' | b'I' | b'O' | b'o')] => *op,
            _ => return None,
        };
        let call = name_field(&record[self.call.clone()])?;
        let line = match &self.line {
            Some(r) => match padded_whole(&record[r.clone()])? {
                Some(n) => Some(u32::try_from(n).ok()?),
                None => None,
            },
            None => None,
        };
        Some(Record {
            thread,
            time,
            op,
            call,
            line,
        })
    }
}

/// A character field holding a name: without its trailing blanks and
/// NULs, and only if the rest is printable ASCII (not empty).
fn name_field(raw: &[u8]) -> Option<&[u8]> {
    let mut end = raw.len();
    // Names are short in wide fields: blanks go a word at a time (the
    // last byte of a little-endian word is its top one).
    while let Some(w) = end.checked_sub(8).and_then(|at| word_at(raw, at)) {
        let other = w ^ SPACES;
        end -= (other.leading_zeros() / 8) as usize;
        if other != 0 {
            break;
        }
    }
    while end > 0 && matches!(raw[end - 1], b' ' | 0) {
        end -= 1;
    }
    let name = &raw[..end];
    (end > 0 && printable(name)).then_some(name)
}

/// A DBF number field of the common shape, as dBase writes it: digits
/// with at most one decimal point, padded with spaces. It reads as
/// `row::number` reads the decoded field, bit for bit; anything else
/// (blank, a sign, an exponent, 16 digits or more) is left to it.
pub(crate) fn padded_number(raw: &[u8]) -> Option<f64> {
    // One pass: spaces, digits, maybe a point and digits, spaces; the
    // same limits as `time` (15 digits in all).
    let mut i = skip_spaces(raw, 0);
    let (mut mantissa, mut n) = (0u64, 0);
    while let Some(d) = digit_at(raw, i) {
        if n == 15 {
            return None;
        }
        (mantissa, n, i) = (mantissa * 10 + d, n + 1, i + 1);
    }
    if n == 0 {
        return None;
    }
    let mut k = 0;
    if raw.get(i) == Some(&b'.') {
        i += 1;
        while let Some(d) = digit_at(raw, i) {
            if n + k == 15 {
                return None;
            }
            (mantissa, k, i) = (mantissa * 10 + d, k + 1, i + 1);
        }
        if k == 0 {
            return None;
        }
    }
    (skip_spaces(raw, i) == raw.len()).then(|| mantissa as f64 / POW10[k])
}

/// A DBF number field holding a whole number: `Some(None)` when blank,
/// `Some(Some(n))` for up to 15 digits padded with spaces, `None` for
/// anything else (left to the general reading).
fn padded_whole(raw: &[u8]) -> Option<Option<u64>> {
    let mut i = skip_spaces(raw, 0);
    if i == raw.len() {
        return Some(None);
    }
    let (mut value, start) = (0u64, i);
    while let Some(d) = digit_at(raw, i) {
        if i - start == 15 {
            return None;
        }
        (value, i) = (value * 10 + d, i + 1);
    }
    (i > start && skip_spaces(raw, i) == raw.len()).then_some(Some(value))
}

/// Where the spaces from `i` on end. DBF numbers are padded on the left
/// to the field's width: eight bytes are looked at a time.
#[inline]
fn skip_spaces(raw: &[u8], mut i: usize) -> usize {
    while let Some(w) = word_at(raw, i) {
        let other = w ^ SPACES;
        if other != 0 {
            return i + (other.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while raw.get(i) == Some(&b' ') {
        i += 1;
    }
    i
}

const SPACES: u64 = u64::from_le_bytes([b' '; 8]);

/// The eight bytes at `i` as a little-endian word, if there are eight.
#[inline]
fn word_at(raw: &[u8], i: usize) -> Option<u64> {
    raw.get(i..i.checked_add(8)?).map(word)
}

#[inline]
fn digit_at(raw: &[u8], i: usize) -> Option<u64> {
    let d = raw.get(i)?.wrapping_sub(b'0');
    (d < 10).then_some(u64::from(d))
}

/// `"i"` or `i`: one ASCII letter.
fn op(s: &[u8]) -> Option<(u8, &[u8])> {
    match s {
        [b'"', c, b'"', rest @ ..] | [c, rest @ ..] if c.is_ascii_alphabetic() => Some((*c, rest)),
        _ => None,
    }
}

/// A quoted name of printable ASCII with no quote or comma in it, not
/// blank at either end.
#[inline]
/// Skips the parameters field, when there is one: the rest of the line
/// after a comma, printable ASCII (`""` when the call had none, as the
/// Xbase++ writer puts it). The general parser keeps them as free text
/// and the replay never reads them, so they are passed over; the Trace
/// pane decodes them from the file when it shows the row. Without a line
/// number the field must start with a quote, as the general parser then
/// takes it for the parameters and not for a line.
fn params(s: &[u8], quoted: bool) -> Option<&[u8]> {
    let Some(text) = s.strip_prefix(b",") else {
        return Some(s);
    };
    if quoted && !text.starts_with(b"\"") {
        return None;
    }
    let n = crate::scan::printable_prefix(text);
    (n > 0).then_some(&text[n..])
}

/// The quoted name, to its first quote. A comma inside is the name's (C++
/// template arguments: `CStringT<wchar_t,StrTraitMFC>`), as the general
/// splitter keeps it: a quote ends its field only before a comma or the
/// line's end, and what follows this one is checked to be that.
fn name(s: &[u8]) -> Option<(&[u8], &[u8])> {
    let body = s.strip_prefix(b"\"")?;
    let n = printable_until(body, b'"', b'"')?;
    let (text, rest) = (&body[..n], body[n..].strip_prefix(b"\"")?);
    match (text.first(), text.last()) {
        (Some(a), Some(z)) if *a != b' ' && *z != b' ' => Some((text, rest)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xpp::deldbe::{Layout, row, split};

    /// The record on `line` (no line end), if it has the common shape.
    fn record(line: &[u8]) -> Option<Record<'_>> {
        match record_at(line)? {
            (r, n) if n == line.len() => Some(r),
            _ => None,
        }
    }

    #[test]
    fn a_record_ends_at_its_line_end() {
        let text = b"3,0.038,\"i\",\"F\",540\r\n4,1,\"o\",\"G\"\n";
        let (r, n) = record_at(text).expect("the common shape");
        assert_eq!((r.thread, r.call, r.line, n), (3, &b"F"[..], Some(540), 19));
        let (r, n) = record_at(&text[21..]).expect("the common shape");
        assert_eq!((r.thread, r.op, r.line, n), (4, b'o', None, 11));
        assert_eq!(record_at(b"4,1,\"o\",\"G\"\r").map(|(_, n)| n), Some(11));
        for other in [
            &b"4,1,\"o\",\"G\"x\n"[..],
            b"4,1,\"o\",\"G\",\n",
            b"4,1,\"o\",\"G\"\rx",
        ] {
            assert_eq!(record_at(other), None, "{other:?}");
        }
    }

    /// The fast reading of `line` equals the general parser's, bit for bit.
    fn same_as_general(line: &str) {
        let fast = record(line.as_bytes()).unwrap_or_else(|| panic!("{line}: not accepted"));
        let mut fields = Vec::new();
        split(line, &mut fields);
        let slow = row(line, &fields, &Layout::Anchored).expect("a record");
        same_values(&slow, &fast, line);
    }

    /// The general reading `slow` and the fast one `fast` of `what` hold the
    /// same values, bit for bit.
    fn same_values(slow: &crate::xpp::row::Row<'_>, fast: &Record<'_>, what: &str) {
        assert_eq!(slow.thread, Some(fast.thread), "{what}");
        let bits = slow.time.map(f64::to_bits);
        assert_eq!(bits, Some(fast.time.to_bits()), "{what}");
        assert_eq!(slow.op.as_bytes(), [fast.op], "{what}");
        assert_eq!(slow.call.as_bytes(), fast.call, "{what}");
        assert_eq!(slow.line, fast.line, "{what}");
    }

    /// A DBF record the fast way reads as `ColMap::row` reads it, and the
    /// common ones are read the fast way.
    #[test]
    fn dbf_records_read_as_the_general_reading_reads_them() {
        use crate::xpp::dbf::Field;
        let layout = [
            ("THREAD", 4),
            ("TIMELINE", 14),
            ("OP", 1),
            ("FUNCTION", 20),
            ("LINENO", 6),
        ];
        let mut offset = 1;
        let fields: Vec<Field> = layout
            .iter()
            .map(|&(name, len)| {
                let kind = if matches!(name, "OP" | "FUNCTION") {
                    b'C'
                } else {
                    b'N'
                };
                offset += len;
                Field {
                    name: name.into(),
                    kind,
                    offset: offset - len,
                    len,
                }
            })
            .collect();
        let map = ColMap::new(fields, None).expect("a trace layout");
        let shape = DbfShape::of(&map).expect("the common layout");
        let threads = ["   3", "  12", "    ", "3.0 ", " 1 2", "9999", " -1 "];
        let times = [
            "         0.038",
            "    123456.789",
            "1",
            "              ",
            "  1e3",
            " 12.",
            "  -0.5",
        ];
        let ops = ["i", "o", "I", "O", "x", " ", "\0"];
        let calls = [
            "FN000169",
            "  lead",
            "A B",
            "Caf\u{e9}",
            "",
            "tab\there",
            "x\0y",
        ];
        let lines = ["   540", "      ", "   1e2", "  0.5 ", "    7 "];
        let mut fast = 0;
        let product = threads
            .iter()
            .flat_map(|t| times.iter().map(move |ms| (t, ms)));
        let product = product.flat_map(|(t, ms)| ops.iter().map(move |op| (t, ms, op)));
        let product = product.flat_map(|x| calls.iter().map(move |c| (x, c)));
        let product = product.flat_map(|x| lines.iter().map(move |l| (x, l)));
        for (((t, ms, op), call), line) in product {
            let text = format!(" {t:>4.4}{ms:>14.14}{op:1.1}{call:<20.20}{line:>6.6}");
            let record = text.as_bytes();
            let Some(r) = shape.record(record) else {
                continue;
            };
            fast += 1;
            let row = map.row(record).expect("the general reading takes it too");
            same_values(&row, &r, &format!("{text:?}"));
        }
        // Threads 3, 12, 9999; three times; four ops; three names; a line,
        // a blank one and one padded on the right: nothing else.
        assert_eq!(fast, 3 * 3 * 4 * 3 * 3);
        let common = b"    3         0.038iFN000169               540";
        assert!(shape.record(common).is_some());
    }

    /// The word-at-a-time checks agree with byte-by-byte ones for every
    /// byte value in every place of a word and past it (`printable` is
    /// checked in `scan`).
    #[test]
    fn word_checks_agree_with_byte_checks() {
        crate::scan::testing::each_byte_in_each_place(b' ', |s| {
            let first = s.iter().position(|&c| c != b' ').unwrap_or(s.len());
            assert_eq!(skip_spaces(s, 0), first, "{s:?}");
        });
        assert_eq!(skip_spaces(b"          ", 3), 10);
        let names: [(&[u8], Option<&[u8]>); 7] = [
            (b"FN000169            ", Some(b"FN000169")),
            (b"A B \0 \0\0       \0  ", Some(b"A B")),
            (b"ABCDEFGHIJKLMNOPQRST", Some(b"ABCDEFGHIJKLMNOPQRST")),
            (b"ABCDEFGHIJKLMNOPQRS ", Some(b"ABCDEFGHIJKLMNOPQRS")),
            (b"  lead  ", Some(b"  lead")),
            (b"        \0           ", None),
            (b"tab\there  ", None),
        ];
        for (raw, name) in names {
            assert_eq!(name_field(raw), name, "{raw:?}");
        }
    }

    #[test]
    fn padded_numbers_read_as_the_general_parser_reads_them() {
        let general = |raw: &str| crate::xpp::row::number(raw).ok().flatten();
        for raw in [
            "         3",
            " 0.038",
            "123456.789   ",
            "999999999999.999",
            "0.00000000000001",
            "7",
        ] {
            let fast = padded_number(raw.as_bytes()).map(f64::to_bits);
            assert_eq!(fast, general(raw).map(f64::to_bits), "{raw:?}");
            assert!(fast.is_some(), "{raw:?} is of the common shape");
        }
        for other in [
            "",
            "    ",
            "12.",
            ".5",
            "-3",
            "1e5",
            "1 2",
            "1234567890123456",
            "\t1",
        ] {
            assert_eq!(padded_number(other.as_bytes()), None, "{other:?}");
        }
    }

    #[test]
    fn accepted_lines_read_as_the_general_parser_reads_them() {
        for line in [
            "3,0.038,\"i\",\"FN000169\",540",
            "12,123456.789,\"o\",\"MAIN\"",
            "0,7,I,\"A B\",1",
            "1,0.1,\"O\",\"X\",4294967295",
            "1,999999999999.999,\"i\",\"f\",0",
            "999999999999999,0.00000000000001,\"i\",\"f\",2",
            "4,0.3,\"i\",\"f.g:h\"",
            // Parameters, which the replay passes over.
            "3,0.038,\"i\",\"F\",5,params",
            "3,0.038,\"i\",\"F\",5,\"\"",
            "3,0.038,\"i\",\"F\",\"\"",
            "3,0.038,\"i\",\"CUSTOMER:VALIDATE\",5,\"'ABC', 12, .T.\"",
            "3,0.038,\"o\",\"F\",\"x\",4",
            "3,0.038,\"i\",\"F\",5,-1,\"x\"",
            "3,0.038,\"i\",\"CStringT<wchar_t,StrTraitMFC>::Left\",5,\"\"",
            "3,0.038,\"i\",\"A\",\"B\",5",
            "3,0.038,\"i\",\"F,G\",5",
        ] {
            same_as_general(line);
        }
        // Random times: every digit count and position of the point.
        for time in crate::scan::testing::random_decimals() {
            same_as_general(&format!("1,{time},\"i\",\"F\",3"));
        }
    }

    #[test]
    fn other_shapes_are_left_to_the_general_parser() {
        for line in [
            "",
            " 3,0.038,\"i\",\"F\",5",
            "3,0.038,\"i\",\"F\",params",
            "3,0.038,\"i\",\"F\",-1",
            "3,0.038,\"i\",\"F\", 5",
            "3,0.038,\"i\",\"F\",5,",
            "3,0.038,\"i\",\"F\",5,\"Café\"",
            "3,0.038,\"i\",\"F\",5,\"x\"\ry",
            "3,-1,\"i\",\"F\",5",
            "3,1e3,\"i\",\"F\",5",
            "3,1.,\"i\",\"F\",5",
            "3,0.038,\"i\",\"F\"G\",5",
            "3,0.038,\"i\",\"F \",5",
            "3,0.038,\"i\",\"\",5",
            "3,0.038,\"i\",F,5",
            "3,0.038,\"ii\",\"F\",5",
            "3,0.038,\"i\",\"Café\",5",
            "3,0.038,\"i\",\"F\",99999999999",
            "3,0.038,\"i\",\"F\", 5",
            "1234567890123456,0,\"i\",\"F\"",
            "4,0.30000000000000004,\"i\",\"f\",2",
            "1,0.1,\"O\",\"X\",4294967296",
        ] {
            assert_eq!(record(line.as_bytes()), None, "{line}");
        }
    }
}
