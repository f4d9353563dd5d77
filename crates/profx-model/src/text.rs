//! Text from input files: decoding, and showing it without letting it
//! drive a terminal.
//!
//! formats.md: "Text is decoded as UTF-8 where valid, else as
//! Windows-1252". Names keep their control characters in the model (they are
//! data); [`visible`] is what every view prints instead.

use std::borrow::Cow;
use std::fmt::Write;

/// Decodes bytes as UTF-8 when valid, else as Windows-1252 (never fails):
/// encoding_rs's, which maps the five bytes Windows-1252 leaves undefined
/// to the C1 control of the same value, as browsers do.
pub fn decode(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => {
            encoding_rs::WINDOWS_1252
                .decode_without_bom_handling(bytes)
                .0
        }
    }
}

/// Whether a character must not reach a terminal as it is, decided by its
/// Unicode general category (unicode-properties), not a hand list: controls
/// (Cc: C0, C1, DEL), format characters (Cf: bidi controls, zero-width
/// joiners, U+061C, U+00AD, U+180E, U+FFF9–FFFB, tag characters), line and
/// paragraph separators (Zl, Zp), space separators other than the space
/// itself (Zs), surrogates and unassigned code points; and any other
/// character that takes no column and is no combining mark (U+3164, a
/// letter by category, draws nothing), since an invisible character can
/// hide or fake a name.
pub fn is_unsafe(c: char) -> bool {
    use unicode_properties::{GeneralCategory as G, UnicodeGeneralCategory};
    if c.is_ascii() {
        return c.is_ascii_control();
    }
    match c.general_category() {
        G::Control
        | G::Format
        | G::LineSeparator
        | G::ParagraphSeparator
        | G::SpaceSeparator
        | G::Surrogate
        | G::Unassigned => true,
        G::NonspacingMark | G::SpacingMark | G::EnclosingMark => false,
        _ => unicode_width::UnicodeWidthChar::width(c) == Some(0),
    }
}

/// `s` with every unsafe character shown as an escape (`\x1b`, `\u{202e}`),
/// so a name can neither move the cursor nor retitle the terminal.
pub fn visible(s: &str) -> Cow<'_, str> {
    if is_printable_ascii(s) || !s.chars().any(is_unsafe) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if is_unsafe(c) && (c as u32) < 0x100 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if is_unsafe(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Whether every byte of `s` is printable ASCII (space to `~`), as most
/// names are: then nothing in it needs an escape. A search asks it of
/// millions of names a keystroke, so it looks at sixteen bytes at a time
/// without stopping, which the compiler turns into vector instructions
/// (decoding chars and asking each its category was most of a search).
pub fn is_printable_ascii(s: &str) -> bool {
    let printable = |b: u8| b.wrapping_sub(b' ') < 0x5f;
    let mut chunks = s.as_bytes().chunks_exact(16);
    for chunk in &mut chunks {
        if !chunk.iter().fold(true, |ok, &b| ok & printable(b)) {
            return false;
        }
    }
    chunks.remainder().iter().all(|&b| printable(b))
}

/// JSON text with every unsafe character that serde leaves raw (DEL, C1
/// controls, bidi and invisible marks) written as a `\uXXXX` escape. Such
/// characters only occur inside JSON strings, where the escape means the
/// same character, so the document is unchanged for any parser and cannot
/// drive a terminal it is printed on.
pub fn json_safe(json: String) -> String {
    if !json.chars().any(is_unsafe) {
        return json;
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if is_unsafe(c) && c != '\n' {
            // JSON escapes UTF-16 units: a pair beyond the first plane.
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                let _ = write!(out, "\\u{:04x}", u);
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sixteen-at-a-time pass says what a pass over the bytes says,
    /// at every place of a bad byte in long and short names.
    #[test]
    fn printable_ascii_is_judged_at_every_place() {
        let plain = "CWinThread::onclick12(int, const char *) and some more";
        assert!(is_printable_ascii(plain));
        assert!(is_printable_ascii(""));
        for bad in ["\x1f", "\x7f", "\t", "é", "\u{202e}"] {
            for at in 0..=plain.len() {
                let s = format!("{}{bad}{}", &plain[..at], &plain[at..]);
                assert!(!is_printable_ascii(&s), "{s:?}");
                assert!(!is_printable_ascii(&s[..at + bad.len()]), "{s:?}");
            }
        }
    }

    #[test]
    fn decodes_utf8_else_windows_1252() {
        assert_eq!(decode("Größe".as_bytes()), "Größe");
        assert_eq!(decode(b"Gr\xf6\xdfe \x80 \x93q\x94"), "Größe € “q”");
        // The bytes Windows-1252 leaves undefined are the C1 controls.
        assert_eq!(
            decode(b"\x81\x8d\x8f\x90\x9d\xff"),
            "\u{81}\u{8d}\u{8f}\u{90}\u{9d}\u{ff}"
        );
    }

    #[test]
    fn json_keeps_its_meaning_without_raw_controls() {
        let raw = serde_json::to_string(&"a\u{202e}b\u{9b}c\x7fd\x1b\u{E0041}").unwrap();
        let safe = json_safe(raw.clone());
        assert_eq!(safe, "\"a\\u202eb\\u009bc\\u007fd\\u001b\\udb40\\udc41\"");
        let back: String = serde_json::from_str(&safe).unwrap();
        assert_eq!(back, serde_json::from_str::<String>(&raw).unwrap());
    }

    /// Every format and separator character, whatever the hand lists of
    /// the past forgot, and letters that draw nothing.
    #[test]
    fn invisible_characters_are_unsafe_by_category() {
        for c in [
            '\u{061C}',
            '\u{2028}',
            '\u{2029}',
            '\u{FFF9}',
            '\u{FFFA}',
            '\u{FFFB}',
            '\u{E0001}',
            '\u{E0041}',
            '\u{00AD}',
            '\u{180E}',
            '\u{3164}',
            '\u{200B}',
            '\u{202E}',
            '\u{FEFF}',
            '\u{00A0}',
            '\u{3000}',
            '\u{7F}',
            '\u{9B}',
        ] {
            assert!(is_unsafe(c), "U+{:04X}", c as u32);
            assert!(!visible(&c.to_string()).chars().any(is_unsafe));
        }
        for c in ['a', ' ', 'é', '\u{301}', '漢', 'ß', '€', '→', '\u{1F600}'] {
            assert!(!is_unsafe(c), "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn escape_sequences_and_bidi_marks_become_visible() {
        let hostile = "a\x1b]0;pwned\x07b\x1b[2Jc\u{202e}d\u{9b}e\r";
        let shown = visible(hostile);
        assert_eq!(shown, "a\\x1b]0;pwned\\x07b\\x1b[2Jc\\u{202e}d\\x9be\\r");
        assert!(!shown.chars().any(is_unsafe));
        assert!(matches!(visible("plain name"), Cow::Borrowed(_)));
    }
}
