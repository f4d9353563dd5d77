//! The two JSON pieces the streaming exporters write by hand: strings and
//! numbers. A trace can have millions of events, so the JSON targets write
//! as they go instead of building a document.

use profx_model::text::is_unsafe;
use std::io::{self, Write};

/// `s` as a JSON string. Every character that could drive a terminal
/// (controls, C1, bidi and zero-width marks) is written as a `\u` escape:
/// the same text to a JSON reader, inert if the file is shown raw.
pub(super) fn string(out: &mut dyn Write, s: &str) -> io::Result<()> {
    out.write_all(b"\"")?;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        let escape = match c {
            '"' => Some("\\\"".to_string()),
            '\\' => Some("\\\\".to_string()),
            c if is_unsafe(c) => Some(format!("\\u{:04x}", c as u32)),
            _ => None,
        };
        if let Some(e) = escape {
            out.write_all(&s.as_bytes()[start..i])?;
            out.write_all(e.as_bytes())?;
            start = i + c.len_utf8();
        }
    }
    out.write_all(&s.as_bytes()[start..])?;
    out.write_all(b"\"")
}

/// A finite number in its shortest exact form (never an exponent, which
/// Rust's `Display` does not use); anything else as 0, which JSON can hold.
pub(super) fn number(out: &mut dyn Write, x: f64) -> io::Result<()> {
    if x.is_finite() {
        write!(out, "{x}")
    } else {
        out.write_all(b"0")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> String {
        let mut out = Vec::new();
        string(&mut out, text).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn strings_round_trip_and_hold_no_raw_control() {
        for text in [
            "plain",
            "q\"uote\\",
            "esc\x1b]0;t\x07",
            "rlo\u{202e}x",
            "nl\n",
            "é€𝄞",
        ] {
            let json = s(text);
            assert!(!json.chars().any(is_unsafe), "{json:?}");
            let back: String = serde_json::from_str(&json).unwrap();
            assert_eq!(back, text);
        }
    }

    #[test]
    fn numbers_are_plain_decimals() {
        let n = |x: f64| {
            let mut out = Vec::new();
            number(&mut out, x).unwrap();
            String::from_utf8(out).unwrap()
        };
        assert_eq!(n(1.5), "1.5");
        assert_eq!(n(1e21), "1000000000000000000000");
        assert_eq!(n(f64::NAN), "0");
        assert_eq!(n(35.0), "35");
    }
}
