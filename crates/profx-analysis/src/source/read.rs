//! A source file as a view shows it: decoded as UTF-8, else as
//! Windows-1252 (the model's `text::decode`), its tabs expanded and every
//! character that could drive a terminal escaped (`text::visible`).

use profx_model::text::{decode, visible};
use std::path::Path;

/// Where a tab stops: every eighth column, as editors and `pprof list` do.
const TAB: usize = 8;

/// Files above this size are not read: a source view is no place for a
/// generated gigabyte, and the message says so.
pub const MAX_SOURCE_BYTES: u64 = 256 << 20;

/// Why a file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file system said no.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// Too large to be a source file.
    #[error(
        "{path} is {bytes} bytes, more than a source file holds ({MAX_SOURCE_BYTES} read at most)"
    )]
    TooLarge {
        /// The file.
        path: String,
        /// Its size.
        bytes: u64,
    },
}

/// The lines of the file at `path`, shown safely.
pub fn read_lines(path: &Path) -> Result<Vec<String>, ReadError> {
    let shown = || visible(&path.display().to_string()).into_owned();
    let io = |source| ReadError::Io {
        path: shown(),
        source,
    };
    let bytes = std::fs::metadata(path).map_err(io)?.len();
    if bytes > MAX_SOURCE_BYTES {
        return Err(ReadError::TooLarge {
            path: shown(),
            bytes,
        });
    }
    let raw = std::fs::read(path).map_err(io)?;
    Ok(lines_of(&raw))
}

/// `raw` split into lines (LF or CRLF; a BOM dropped), each decoded on
/// its own so one Windows-1252 line leaves the UTF-8 others alone.
pub fn lines_of(raw: &[u8]) -> Vec<String> {
    let raw = raw.strip_prefix(b"\xef\xbb\xbf").unwrap_or(raw);
    let raw = raw.strip_suffix(b"\n").unwrap_or(raw);
    if raw.is_empty() {
        return Vec::new();
    }
    raw.split(|&b| b == b'\n')
        .map(|l| shown_line(&decode(l.strip_suffix(b"\r").unwrap_or(l))))
        .collect()
}

/// One line of text as a view draws it: tabs expanded to the next stop,
/// anything else unsafe escaped.
pub fn shown_line(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut col = 0usize;
    for part in line.split_inclusive('\t') {
        let (text, tab) = match part.strip_suffix('\t') {
            Some(t) => (t, true),
            None => (part, false),
        };
        let text = visible(text);
        out.push_str(&text);
        col += unicode_width::UnicodeWidthStr::width(&*text);
        if tab {
            let pad = TAB - col % TAB;
            out.extend(std::iter::repeat_n(' ', pad));
            col += pad;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tabs_stop_every_eighth_column_and_controls_are_escaped() {
        assert_eq!(shown_line("\tx"), "        x");
        assert_eq!(shown_line("ab\tc"), "ab      c");
        assert_eq!(shown_line("a\x1b[2Jb"), "a\\x1b[2Jb");
    }

    #[test]
    fn windows_1252_and_utf8_lines_decode_each_on_their_own() {
        let raw = b"caf\xe9\r\nna\xc3\xafve\n";
        assert_eq!(lines_of(raw), ["café", "naïve"]);
        assert!(lines_of(b"").is_empty());
    }
}
