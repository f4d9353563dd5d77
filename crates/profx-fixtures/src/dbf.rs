//! DBF tables (Xbase++ FOXDBE traces) from a readable description:
//!
//! ```text
//! field THREAD N 4          name, type (C N F I B L D), length [, decimals]
//! field TIME N 12 3
//! field OP C 1
//! field CALL C 20
//! row 1 0.5 i MAIN          values in field order ("quoted" for spaces)
//! deleted 1 0.7 o MAIN      a record flagged '*'
//! count 99                  the header's record count (default: the records)
//! noheader                  records only, as in a numbered packet
//! noeof                     no 0x1A after the records
//! bytes 20 31               raw bytes after the records
//! ```

pub use super::GenError;
use super::each_directive;
use byteorder::{LittleEndian, WriteBytesExt};

struct FieldDesc {
    name: Vec<u8>,
    kind: u8,
    len: u8,
    decimals: u8,
}

#[derive(Default)]
struct Table {
    fields: Vec<FieldDesc>,
    body: Vec<u8>,
    records: u32,
    count: Option<u32>,
    header: bool,
    eof: bool,
}

/// Compiles a description into the bytes of a DBF file.
pub fn compile(desc: &str) -> Result<Vec<u8>, GenError> {
    let mut t = Table {
        header: true,
        eof: true,
        ..Table::default()
    };
    each_directive(desc, |verb, args| t.line(verb, args))?;
    let mut out = Vec::new();
    if t.header {
        t.write_header(&mut out);
    }
    out.extend_from_slice(&t.body);
    if t.eof {
        out.push(0x1A);
    }
    Ok(out)
}

impl Table {
    fn line(&mut self, verb: &[u8], args: &[Vec<u8>]) -> Result<(), String> {
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        let num = |b: &[u8]| {
            text(b)
                .parse::<u32>()
                .map_err(|_| format!("{:?} is not a number", text(b)))
        };
        match verb {
            b"field" => {
                let [name, kind, len, rest @ ..] = args else {
                    return Err("field NAME TYPE LEN [DEC]".into());
                };
                self.fields.push(FieldDesc {
                    name: name.clone(),
                    kind: *kind.first().ok_or("empty type")?,
                    len: u8::try_from(num(len)?).map_err(|_| "length over 255")?,
                    decimals: rest.first().map(|d| num(d)).transpose()?.unwrap_or(0) as u8,
                });
            }
            b"row" | b"deleted" => {
                if args.len() != self.fields.len() {
                    return Err(format!(
                        "{} values for {} fields",
                        args.len(),
                        self.fields.len()
                    ));
                }
                self.body.push(if verb == b"row" { b' ' } else { b'*' });
                for (f, v) in self.fields.iter().zip(args) {
                    f.write(v, &mut self.body)?;
                }
                self.records += 1;
            }
            b"count" => self.count = Some(num(args.first().ok_or("count N")?)?),
            b"noheader" => self.header = false,
            b"noeof" => self.eof = false,
            b"bytes" => {
                for a in args {
                    let hex = text(a);
                    self.body.push(
                        u8::from_str_radix(&hex, 16)
                            .map_err(|_| format!("{hex:?} is not a hex byte"))?,
                    );
                }
            }
            other => return Err(format!("unknown directive {:?}", text(other))),
        }
        Ok(())
    }

    fn write_header(&self, out: &mut Vec<u8>) {
        let record_len = 1 + self.fields.iter().map(|f| u16::from(f.len)).sum::<u16>();
        let header_len = 32 + 32 * self.fields.len() as u16 + 1;
        out.extend_from_slice(&[0x03, 126, 11, 21]);
        // Writing to a Vec cannot fail.
        let _ = out.write_u32::<LittleEndian>(self.count.unwrap_or(self.records));
        let _ = out.write_u16::<LittleEndian>(header_len);
        let _ = out.write_u16::<LittleEndian>(record_len);
        out.extend_from_slice(&[0; 20]);
        for f in &self.fields {
            let mut name = f.name.clone();
            name.resize(11, 0);
            out.extend_from_slice(&name);
            out.push(f.kind);
            out.extend_from_slice(&[0; 4]);
            out.push(f.len);
            out.push(f.decimals);
            out.extend_from_slice(&[0; 14]);
        }
        out.push(0x0D);
    }
}

impl FieldDesc {
    fn write(&self, v: &[u8], out: &mut Vec<u8>) -> Result<(), String> {
        let len = usize::from(self.len);
        let s = String::from_utf8_lossy(v);
        match self.kind {
            b'I' => {
                let n: i32 = s.parse().map_err(|_| format!("{s:?} is not an integer"))?;
                out.extend_from_slice(&n.to_le_bytes());
            }
            b'B' => {
                let x: f64 = s.parse().map_err(|_| format!("{s:?} is not a number"))?;
                out.extend_from_slice(&x.to_le_bytes());
            }
            b'N' | b'F' => {
                if v.len() > len {
                    return Err(format!("{s:?} is wider than {len}"));
                }
                out.extend(std::iter::repeat_n(b' ', len - v.len()));
                out.extend_from_slice(v);
            }
            _ => {
                let mut cell = v.to_vec();
                cell.resize(len, b' ');
                out.extend_from_slice(&cell);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_header_descriptors_records_and_end_mark() {
        let bytes = compile("field OP C 1\nfield TIME N 5 1\nrow i 2.5\ndeleted o 3.0\n").unwrap();
        assert_eq!(bytes[0], 0x03);
        assert_eq!(u32::from_le_bytes(bytes[4..8].try_into().unwrap()), 2);
        assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), 32 + 64 + 1);
        assert_eq!(u16::from_le_bytes([bytes[10], bytes[11]]), 7);
        assert_eq!(&bytes[32..34], b"OP");
        assert_eq!(bytes[96], 0x0D);
        assert_eq!(&bytes[97..104], b" i  2.5");
        assert_eq!(&bytes[104..111], b"*o  3.0");
        assert_eq!(bytes[111], 0x1A);
        assert!(compile("field OP C 1\nrow a b").is_err());
    }
}
