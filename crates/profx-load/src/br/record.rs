//! One BR profiler record, parsed with nom's streaming parsers so that a
//! record cut off by the end of the file is told apart from a bad one.

use crate::problem::Problem;
use nom::Parser;
use nom::bytes::streaming::take;
use nom::number::streaming::{be_u8, be_u16, be_u32, be_u64};
use profx_model::WarningKind;

/// A record of the log; names borrow the file's bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Record<'a> {
    /// Type 1: module number → program file name.
    Module { module: u16, name: &'a [u8] },
    /// Type 3: opens a sample at its current line (the leaf frame).
    Current(Frame),
    /// Type 4: nanoseconds spent in the current line.
    Time(u64),
    /// Type 5: one backtrace frame.
    Back(Frame),
    /// Type 7: names the function of the frame just before it.
    Name(&'a [u8]),
    /// Type 8: the frame just before it is in a GOSUB routine.
    Gosub,
    /// Type 9: the frame just before it is in the main routine.
    Main,
    /// Type 6: closes the sample.
    End,
}

/// Where a type 3 or type 5 record points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Frame {
    pub module: u16,
    pub line: u32,
    pub clause: u8,
}

/// Why no record could be read at a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stop {
    /// The file ends inside a record of this type.
    Cut { kind: u8 },
    /// A type byte the format does not define.
    Unknown { kind: u8 },
}

type Res<'a, T> = nom::IResult<&'a [u8], T>;

/// Reads the record at the start of `input`; returns it and its length.
/// `input` must not be empty.
pub(super) fn read(input: &[u8]) -> Result<(Record<'_>, usize), Stop> {
    let kind = input[0];
    let body = &input[1..];
    let parsed = match kind {
        1 => module(body),
        3 => frame(body).map(|(r, f)| (r, Record::Current(f))),
        4 => be_u64(body).map(|(r, ns)| (r, Record::Time(ns))),
        5 => frame(body).map(|(r, f)| (r, Record::Back(f))),
        7 => name(body),
        8 => Ok((body, Record::Gosub)),
        9 => Ok((body, Record::Main)),
        6 => Ok((body, Record::End)),
        _ => return Err(Stop::Unknown { kind }),
    };
    match parsed {
        Ok((rest, record)) => Ok((record, input.len() - rest.len())),
        // Streaming parsers fail only for want of bytes: every value fits.
        Err(_) => Err(Stop::Cut { kind }),
    }
}

/// `read` for a record that lies whole in `input`, decoded by hand: a
/// worker reads every record of its chunk, and nom's streaming parsers,
/// which must tell a cut record from a bad one at each field, cost more
/// than the reading itself. `None` when the record is cut off or of an
/// unknown type; then `read` says which.
#[inline]
pub(super) fn read_whole(input: &[u8]) -> Option<(Record<'_>, usize)> {
    let (&kind, body) = input.split_first()?;
    Some(match kind {
        3 | 5 => {
            let &[m0, m1, l0, l1, l2, l3, clause] = body.get(..7)? else {
                return None;
            };
            let f = Frame {
                module: u16::from_be_bytes([m0, m1]),
                line: u32::from_be_bytes([l0, l1, l2, l3]),
                clause,
            };
            let rec = if kind == 3 {
                Record::Current(f)
            } else {
                Record::Back(f)
            };
            (rec, 8)
        }
        4 => {
            let ns = u64::from_be_bytes(body.get(..8)?.try_into().ok()?);
            (Record::Time(ns), 9)
        }
        7 => {
            let n = usize::from(*body.first()?);
            (Record::Name(body.get(1..1 + n)?), 2 + n)
        }
        6 => (Record::End, 1),
        8 => (Record::Gosub, 1),
        9 => (Record::Main, 1),
        1 => {
            let &[m0, m1, n0, n1] = body.get(..4)? else {
                return None;
            };
            let n = usize::from(u16::from_be_bytes([n0, n1]));
            let module = u16::from_be_bytes([m0, m1]);
            let name = body.get(4..4 + n)?;
            (Record::Module { module, name }, 5 + n)
        }
        _ => return None,
    })
}

/// The type and length of the record at the start of `input` (not
/// empty), as `read` finds them, without decoding it: reading ahead and
/// checking a guessed chunk start only need where each record ends.
pub(super) fn measure(input: &[u8]) -> Result<(u8, usize), Stop> {
    let kind = input[0];
    let len = match kind {
        3 | 5 => 8,
        4 => 9,
        6 | 8 | 9 => 1,
        1 => match input.get(3..5) {
            Some(n) => 5 + usize::from(u16::from_be_bytes([n[0], n[1]])),
            None => usize::MAX,
        },
        7 => input.get(1).map_or(usize::MAX, |&n| 2 + usize::from(n)),
        _ => return Err(Stop::Unknown { kind }),
    };
    if len <= input.len() {
        Ok((kind, len))
    } else {
        Err(Stop::Cut { kind })
    }
}

fn module(i: &[u8]) -> Res<'_, Record<'_>> {
    let (i, module) = be_u16(i)?;
    let (i, len) = be_u16(i)?;
    let (i, name) = take(len).parse(i)?;
    Ok((i, Record::Module { module, name }))
}

fn frame(i: &[u8]) -> Res<'_, Frame> {
    let (i, module) = be_u16(i)?;
    let (i, line) = be_u32(i)?;
    let (i, clause) = be_u8(i)?;
    Ok((
        i,
        Frame {
            module,
            line,
            clause,
        },
    ))
}

fn name(i: &[u8]) -> Res<'_, Record<'_>> {
    let (i, len) = be_u8(i)?;
    let (i, name) = take(len).parse(i)?;
    Ok((i, Record::Name(name)))
}

/// A function name as BR pads it: trailing spaces and NULs trimmed.
pub(super) fn trim_name(name: &[u8]) -> &[u8] {
    let end = name
        .iter()
        .rposition(|&b| b != b' ' && b != 0)
        .map_or(0, |i| i + 1);
    &name[..end]
}

/// The warning where reading stops at a record that does not read, with
/// the bytes `left` unread.
pub(super) fn stop_message(why: Stop, left: u64) -> Problem {
    match why {
        Stop::Cut { kind } => Problem::new(
            WarningKind::TruncatedRecord,
            format!("record type {kind} cut off by the end of the file ({left} bytes)"),
        ),
        Stop::Unknown { kind } => Problem::new(
            WarningKind::UnknownRecordType,
            format!("unknown record type {kind}; stopped reading, {left} bytes not read"),
        ),
    }
}

/// A record's type byte.
pub(super) fn record_type(rec: &Record<'_>) -> u8 {
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
mod tests {
    use super::*;

    #[test]
    fn reads_each_record_type() {
        let f = Frame {
            module: 2,
            line: 0x0102_0304,
            clause: 7,
        };
        assert_eq!(
            read(b"\x01\x00\x02\x00\x03ABCrest"),
            Ok((
                Record::Module {
                    module: 2,
                    name: b"ABC"
                },
                8
            ))
        );
        assert_eq!(
            read(b"\x03\x00\x02\x01\x02\x03\x04\x07"),
            Ok((Record::Current(f), 8))
        );
        assert_eq!(
            read(b"\x05\x00\x02\x01\x02\x03\x04\x07"),
            Ok((Record::Back(f), 8))
        );
        assert_eq!(
            read(b"\x04\x00\x00\x00\x00\x00\x0f\x42\x40"),
            Ok((Record::Time(1_000_000), 9))
        );
        assert_eq!(read(b"\x07\x02FN\x06"), Ok((Record::Name(b"FN"), 4)));
        assert_eq!(read(b"\x08"), Ok((Record::Gosub, 1)));
        assert_eq!(read(b"\x09"), Ok((Record::Main, 1)));
        assert_eq!(read(b"\x06\x03"), Ok((Record::End, 1)));
    }

    #[test]
    fn cut_off_and_unknown_records_stop() {
        assert_eq!(read(b"\x03\x00\x02\x01"), Err(Stop::Cut { kind: 3 }));
        assert_eq!(read(b"\x01\x00\x02\x00\x09ABC"), Err(Stop::Cut { kind: 1 }));
        assert_eq!(read(b"\x07\xffFN"), Err(Stop::Cut { kind: 7 }));
        assert_eq!(read(b"\x02\x00"), Err(Stop::Unknown { kind: 2 }));
        assert_eq!(read(b"\x00"), Err(Stop::Unknown { kind: 0 }));
    }

    proptest::proptest! {
        /// On any bytes, `measure` finds the type, length or stop `read` does.
        #[test]
        fn measure_agrees_with_read(bytes in proptest::collection::vec(
            proptest::prop_oneof![0u8..=10, proptest::num::u8::ANY], 1..40)) {
            let read = read(&bytes).map(|(_, len)| (bytes[0], len));
            proptest::prop_assert_eq!(measure(&bytes), read);
        }

        /// On any bytes, `read_whole` reads what `read` does, or leaves
        /// to it a record `read` cannot read.
        #[test]
        fn read_whole_agrees_with_read(bytes in proptest::collection::vec(
            proptest::prop_oneof![0u8..=10, proptest::num::u8::ANY], 1..40)) {
            match read_whole(&bytes) {
                Some(whole) => proptest::prop_assert_eq!(Ok(whole), read(&bytes)),
                None => proptest::prop_assert!(read(&bytes).is_err()),
            }
        }
    }

    #[test]
    fn names_lose_their_padding() {
        assert_eq!(trim_name(b"FNSUM  \0\0"), b"FNSUM");
        assert_eq!(trim_name(b" \0"), b"");
    }
}
