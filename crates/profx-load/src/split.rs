//! Splitting text inputs into numbered lines, shared by the text loaders.

/// Lines of `bytes` with their 1-based numbers, without `\n` or `\r\n`.
/// A UTF-8 byte-order mark before the first line is dropped.
/// The longest line a text loader takes as a record. The formats write
/// names of at most a few hundred bytes; a longer line is damage or an
/// attack, and interning it would cost its whole size in memory.
pub(crate) const MAX_LINE: usize = 64 << 10;

pub(crate) fn numbered_lines(bytes: &[u8]) -> impl Iterator<Item = (u64, &[u8])> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let empty = body.is_empty();
    body.split(|&b| b == b'\n')
        .filter(move |_| !empty)
        .enumerate()
        .map(|(i, line)| (i as u64 + 1, line.strip_suffix(b"\r").unwrap_or(line)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_lines_and_strips_crlf_and_bom() {
        let lines: Vec<_> = numbered_lines(b"\xEF\xBB\xBFa\r\n\r\nb\nc").collect();
        assert_eq!(
            lines,
            vec![
                (1, &b"a"[..]),
                (2, &b""[..]),
                (3, &b"b"[..]),
                (4, &b"c"[..])
            ]
        );
        assert_eq!(numbered_lines(b"x\n").count(), 1);
        assert_eq!(numbered_lines(b"").count(), 0);
    }
}
