//! The common DELDBE record, read without the general field splitter.
//!
//! Nearly every line of a real trace has one shape, as the Xbase++ DELDBE
//! writer makes it:
//!
//! ```text
//! 3,0.038,"i","FN000169",540
//! ```
//!
//! thread, time in ms, the op, the quoted function name, the line. This
//! module reads exactly that shape (digits, one optional decimal point, no
//! spaces, no parameters, ASCII) and gives up on anything else: the caller
//! then uses `deldbe::split` and `deldbe::row`, which define the format.
//! What it accepts, it reads to the same values as they would, bit for bit
//! (a test checks both on the same lines).

/// A record of the common shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Record<'a> {
    pub thread: u64,
    pub time: f64,
    pub op: u8,
    pub call: &'a str,
    pub line: Option<u32>,
}

/// The record on `line` (no line end), if it has the common shape.
pub fn record(line: &[u8]) -> Option<Record<'_>> {
    // Thread and line pass through an f64 in the general parser: digits
    // that an f64 holds exactly read the same either way.
    let (thread, rest) = digits(line, 15)?;
    let rest = rest.strip_prefix(b",")?;
    let (time, rest) = time(rest)?;
    let rest = rest.strip_prefix(b",")?;
    let (op, rest) = op(rest)?;
    let rest = rest.strip_prefix(b",")?;
    let (call, rest) = name(rest)?;
    let line = match rest {
        [] => None,
        [b',', n @ ..] => {
            let (n, tail) = digits(n, 10)?;
            if !tail.is_empty() {
                return None;
            }
            Some(u32::try_from(n).ok()?)
        }
        _ => return None,
    };
    Some(Record {
        thread,
        time,
        op,
        call,
        line,
    })
}

/// A DBF number field of the common shape, as dBase writes it: digits
/// with at most one decimal point, padded with spaces. It reads as
/// `row::number` reads the decoded field, bit for bit; anything else
/// (blank, a sign, an exponent, 16 digits or more) is left to it.
pub fn padded_number(raw: &[u8]) -> Option<f64> {
    let start = raw.iter().position(|&b| b != b' ')?;
    let end = raw.iter().rposition(|&b| b != b' ')? + 1;
    match time(&raw[start..end])? {
        (x, []) => Some(x),
        _ => None,
    }
}

/// 1 to `max` ASCII digits as a number.
fn digits(s: &[u8], max: usize) -> Option<(u64, &[u8])> {
    let n = s
        .iter()
        .take(max + 1)
        .take_while(|b| b.is_ascii_digit())
        .count();
    if n == 0 || n > max {
        return None;
    }
    let value = s[..n]
        .iter()
        .fold(0u64, |v, &d| v * 10 + u64::from(d - b'0'));
    Some((value, &s[n..]))
}

/// `123` or `123.456`. The value is the integer of all the digits divided
/// by a power of ten; both are exact in an f64 while the digits are at
/// most 15 and the decimals at most 22, so the one rounding of the
/// division gives the correctly rounded value `str::parse` gives.
fn time(s: &[u8]) -> Option<(f64, &[u8])> {
    let (whole, rest) = digits(s, 15)?;
    let Some(frac) = rest.strip_prefix(b".") else {
        return Some((whole as f64, rest));
    };
    let (decimals, tail) = digits(frac, 15)?;
    let k = frac.len() - tail.len();
    let int_digits = s.len() - rest.len();
    if int_digits + k > 15 {
        return None;
    }
    let mantissa = whole * 10u64.pow(k as u32) + decimals;
    Some((mantissa as f64 / POW10[k], tail))
}

/// Powers of ten, each exact in an f64.
const POW10: [f64; 16] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

/// `"i"` or `i`: one ASCII letter.
fn op(s: &[u8]) -> Option<(u8, &[u8])> {
    match s {
        [b'"', c, b'"', rest @ ..] | [c, rest @ ..] if c.is_ascii_alphabetic() => Some((*c, rest)),
        _ => None,
    }
}

/// A quoted name of printable ASCII with no quote or comma in it, not
/// blank at either end.
fn name(s: &[u8]) -> Option<(&str, &[u8])> {
    let body = s.strip_prefix(b"\"")?;
    let n = body
        .iter()
        .take_while(|&&b| b != b'"' && b != b',' && (b' '..0x7F).contains(&b))
        .count();
    let (text, rest) = (&body[..n], body[n..].strip_prefix(b"\"")?);
    match (text.first(), text.last()) {
        (Some(a), Some(z)) if *a != b' ' && *z != b' ' => {
            Some((std::str::from_utf8(text).ok()?, rest))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::deldbe::{Layout, row, split};
    use super::*;

    /// The fast reading of `line` equals the general parser's, bit for bit.
    fn same_as_general(line: &str) {
        let fast = record(line.as_bytes()).unwrap_or_else(|| panic!("{line}: not accepted"));
        let mut fields = Vec::new();
        split(line, &mut fields);
        let slow = row(line, &fields, &Layout::Anchored).expect("a record");
        assert_eq!(slow.thread, Some(fast.thread), "{line}");
        assert_eq!(
            slow.time.map(f64::to_bits),
            Some(fast.time.to_bits()),
            "{line}"
        );
        assert_eq!(slow.op.as_bytes(), [fast.op], "{line}");
        assert_eq!(slow.call, fast.call, "{line}");
        assert_eq!(slow.line, fast.line, "{line}");
        assert_eq!(slow.params, None, "{line}");
    }

    #[test]
    fn padded_numbers_read_as_the_general_parser_reads_them() {
        let general = |raw: &str| super::super::row::number(raw).ok().flatten();
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
        ] {
            same_as_general(line);
        }
        // Random times: every digit count and position of the point.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let digits = (x % 15 + 1) as usize;
            let value = (x >> 8) % 10u64.pow(digits as u32);
            let text = format!("{value:0digits$}");
            let point = (x >> 60) as usize % digits;
            let time = match point {
                0 => text,
                p => format!("{}.{}", &text[..p], &text[p..]),
            };
            same_as_general(&format!("1,{time},\"i\",\"F\",3"));
        }
    }

    #[test]
    fn other_shapes_are_left_to_the_general_parser() {
        for line in [
            "",
            " 3,0.038,\"i\",\"F\",5",
            "3,0.038,\"i\",\"F\",5,params",
            "3,-1,\"i\",\"F\",5",
            "3,1e3,\"i\",\"F\",5",
            "3,1.,\"i\",\"F\",5",
            "3,0.038,\"i\",\"F,G\",5",
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
