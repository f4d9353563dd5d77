//! Writers of input files from readable descriptions, for fixtures, the
//! demo and benchmarks. Never used when loading.

pub mod br;
pub mod dbf;
pub mod demo;

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
