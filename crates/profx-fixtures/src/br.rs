//! BR profiler logs from a readable description, one record per line:
//!
//! ```text
//! # a timed sample of FN8, called from the main routine of ORDERS.BR
//! module 1 "ORDERS.BR"          type 1: number, file name
//! module 2 "LIB\FNSLIB.BR"
//! sample 2 40 1                 type 3: module, line, clause (opens a sample)
//! time 210000                   type 4: nanoseconds (or 0.21ms, 210us)
//! name "FN8 "                   type 7: names the frame before it
//! back 1 120 0                  type 5: a backtrace frame
//! main                          type 9 (gosub: type 8)
//! end                           type 6
//! bytes 2a 00                   raw bytes, for damaged files
//! ```
//!
//! Strings take `\\`, `\"` and `\xNN` escapes, so any byte can be written.

pub use super::GenError;
use super::each_directive;
use byteorder::{BigEndian, WriteBytesExt};

/// Compiles a description into the bytes of a BR log.
pub fn compile(desc: &str) -> Result<Vec<u8>, GenError> {
    let mut out = Vec::new();
    each_directive(desc, |verb, args| record(&mut out, verb, args))?;
    Ok(out)
}

fn record(out: &mut Vec<u8>, verb: &[u8], args: &[Vec<u8>]) -> Result<(), String> {
    let want = |n: usize| {
        if args.len() == n {
            Ok(())
        } else {
            Err(format!(
                "{} takes {n} values",
                String::from_utf8_lossy(verb)
            ))
        }
    };
    let io = |e: std::io::Error| e.to_string();
    match verb {
        b"module" => {
            want(2)?;
            let name = &args[1];
            out.push(1);
            out.write_u16::<BigEndian>(num(&args[0])?).map_err(io)?;
            let len = u16::try_from(name.len()).map_err(|_| "name longer than 65535 bytes")?;
            out.write_u16::<BigEndian>(len).map_err(io)?;
            out.extend_from_slice(name);
        }
        b"sample" | b"back" => {
            want(3)?;
            out.push(if verb == b"sample" { 3 } else { 5 });
            out.write_u16::<BigEndian>(num(&args[0])?).map_err(io)?;
            out.write_u32::<BigEndian>(num(&args[1])?).map_err(io)?;
            out.push(num(&args[2])?);
        }
        b"time" => {
            want(1)?;
            out.push(4);
            out.write_u64::<BigEndian>(nanoseconds(&args[0])?)
                .map_err(io)?;
        }
        b"name" => {
            want(1)?;
            out.push(7);
            out.push(u8::try_from(args[0].len()).map_err(|_| "name longer than 255 bytes")?);
            out.extend_from_slice(&args[0]);
        }
        b"gosub" | b"main" | b"end" => {
            want(0)?;
            out.push(match verb {
                b"gosub" => 8,
                b"main" => 9,
                _ => 6,
            });
        }
        b"bytes" => {
            for a in args {
                let hex = std::str::from_utf8(a).map_err(|e| e.to_string())?;
                out.push(
                    u8::from_str_radix(hex, 16)
                        .map_err(|_| format!("{hex:?} is not a hex byte"))?,
                );
            }
        }
        other => {
            return Err(format!(
                "unknown record {:?}",
                String::from_utf8_lossy(other)
            ));
        }
    }
    Ok(())
}

fn num<T: std::str::FromStr>(token: &[u8]) -> Result<T, String> {
    let s = String::from_utf8_lossy(token);
    s.parse()
        .map_err(|_| format!("{s:?} is not a number in range"))
}

/// `210000`, `210us`, `0.21ms` → nanoseconds.
fn nanoseconds(token: &[u8]) -> Result<u64, String> {
    let s = String::from_utf8_lossy(token);
    let (value, scale) = if let Some(v) = s.strip_suffix("ms") {
        (v, 1e6)
    } else if let Some(v) = s.strip_suffix("us") {
        (v, 1e3)
    } else {
        return num(token);
    };
    let x: f64 = value.parse().map_err(|_| format!("{s:?} is not a time"))?;
    Ok((x * scale).round() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiles_the_documented_example() {
        let bytes = compile(
            "module 1 \"ORDERS.BR\"\nsample 2 40 1 # leaf\ntime 0.21ms\nname \"FN8 \"\nback 1 120 0\nmain\nend\nbytes 2a ff\n",
        )
        .unwrap();
        let mut want = vec![1, 0, 1, 0, 9];
        want.extend_from_slice(b"ORDERS.BR");
        want.extend_from_slice(&[3, 0, 2, 0, 0, 0, 40, 1]);
        want.extend_from_slice(&[4, 0, 0, 0, 0, 0, 3, 0x34, 0x50]);
        want.extend_from_slice(&[7, 4, b'F', b'N', b'8', b' ']);
        want.extend_from_slice(&[5, 0, 1, 0, 0, 0, 120, 0, 9, 6, 0x2a, 0xff]);
        assert_eq!(bytes, want);
    }

    #[test]
    fn escapes_and_errors() {
        let path = compile(r#"module 1 "LIB\FNS\\X\"""#).unwrap();
        assert_eq!(&path[5..], br#"LIB\FNS\X""#);
        assert_eq!(
            compile("name \"a\\x1b\\\"\"").unwrap(),
            vec![7, 3, b'a', 0x1b, b'"']
        );
        let e = compile("end\nsample 1 2").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(compile("time soon").is_err());
        assert!(compile("frobnicate").is_err());
    }
}
