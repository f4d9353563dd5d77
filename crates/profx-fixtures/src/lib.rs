//! Writers of input files from readable descriptions, for fixtures, the
//! demo and benchmarks. Never used when loading.
//!
//! Every description is one directive a line (`verb arg arg …`, `#` starts
//! a comment); `each_directive` reads them for every writer.

#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(unreachable_pub)]
#![cfg_attr(not(test), deny(clippy::unwrap_used))]

pub mod br;
pub mod dbf;
pub mod demo;
pub mod large;

/// Appends `bytes` to the file at `path` (made if missing), as a
/// profiler's writer grows a trace it flushes: the tests and benchmarks
/// of following one.
pub fn append(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    f.write_all(bytes)
}

/// Splits on spaces; a double-quoted token keeps spaces and takes escapes.
pub(crate) fn tokenize(line: &str) -> Result<Vec<Vec<u8>>, String> {
    let mut tokens = Vec::new();
    let mut chars = line.trim().chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '"' {
            chars.next();
            tokens.push(quoted(&mut chars)?);
        } else {
            let mut t = String::new();
            while let Some(&c) = chars.peek().filter(|c| !c.is_whitespace()) {
                t.push(c);
                chars.next();
            }
            tokens.push(t.into_bytes());
        }
    }
    Ok(tokens)
}

fn quoted(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    loop {
        match chars.next().ok_or("unterminated string")? {
            '"' => return Ok(out),
            // Only \\, \" and \xNN are escapes: BR paths (LIB\FNSLIB.BR) keep
            // any other backslash as written.
            '\\' => match chars.peek().copied() {
                Some('x') => {
                    chars.next();
                    let hex: String = chars.by_ref().take(2).collect();
                    out.push(
                        u8::from_str_radix(&hex, 16).map_err(|_| format!("bad escape \\x{hex}"))?,
                    );
                }
                Some(c @ ('\\' | '"')) => {
                    chars.next();
                    out.push(c as u8);
                }
                _ => out.push(b'\\'),
            },
            c => {
                let mut buf = [0; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
        }
    }
}

/// A description line that cannot be compiled.
#[derive(Debug, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct GenError {
    /// The description's line the error is at, 1-based.
    pub line: usize,
    /// Why the line cannot be compiled.
    pub reason: String,
}

/// Calls `apply(verb, args)` for each directive of `desc`, numbering errors
/// by their line.
pub(crate) fn each_directive(
    desc: &str,
    mut apply: impl FnMut(&[u8], &[Vec<u8>]) -> Result<(), String>,
) -> Result<(), GenError> {
    for (i, raw) in desc.lines().enumerate() {
        let text = raw.split_once('#').map_or(raw, |(code, _)| code);
        let at = |reason: String| GenError {
            line: i + 1,
            reason,
        };
        let tokens = tokenize(text).map_err(at)?;
        if let Some((verb, args)) = tokens.split_first() {
            apply(verb, args).map_err(at)?;
        }
    }
    Ok(())
}
