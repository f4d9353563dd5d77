//! FOXDBE: the dBASE/FoxPro DBF table the Xbase++ profiler writes by default.
//!
//! Little-endian header: version, YY MM DD, u32 record count, u16 header
//! length, u16 record length; 32-byte field descriptors (name in 11
//! NUL-padded bytes, type, length, decimals) up to a 0x0D byte; records from
//! the header length on, each starting with a flag (`' '` live, `'*'`
//! deleted). The first byte alone proves nothing (0x30–0x32 are also the
//! digits that start a DELDBE row), so the whole header must hold together.

use super::row::{Col, Row, number, whole};
use crate::problem::Problem;
use byteorder::{ByteOrder, LittleEndian};
use profx_model::WarningKind;
use std::borrow::Cow;
use std::ops::ControlFlow;

/// One field descriptor.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Field {
    pub name: String,
    pub kind: u8,
    /// From the start of the record (the flag byte is offset 0).
    pub offset: usize,
    pub len: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub(super) struct Header {
    pub declared: u32,
    pub header_len: usize,
    pub record_len: usize,
    pub fields: Vec<Field>,
}

/// Reads and checks a DBF header; `file_len` when the whole file is known.
pub(super) fn header(bytes: &[u8], file_len: Option<usize>) -> Result<Header, String> {
    if bytes.len() < 33 {
        return Err("shorter than a DBF header".into());
    }
    let (month, day) = (bytes[2], bytes[3]);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return Err(format!("header date has month {month} and day {day}"));
    }
    let declared = LittleEndian::read_u32(&bytes[4..8]);
    let header_len = usize::from(LittleEndian::read_u16(&bytes[8..10]));
    let record_len = usize::from(LittleEndian::read_u16(&bytes[10..12]));
    if file_len.is_some_and(|n| header_len > n) {
        return Err(format!(
            "header length {header_len} is past the end of the file"
        ));
    }
    let fields = descriptors(bytes, header_len)?;
    let sum: usize = fields.iter().map(|f| f.len).sum();
    if record_len != 1 + sum {
        return Err(format!(
            "record length {record_len} is not 1 + the field lengths ({sum})"
        ));
    }
    Ok(Header {
        declared,
        header_len,
        record_len,
        fields,
    })
}

fn descriptors(bytes: &[u8], header_len: usize) -> Result<Vec<Field>, String> {
    let mut fields = Vec::new();
    let (mut pos, mut offset) = (32, 1);
    loop {
        match bytes.get(pos) {
            Some(0x0D) if pos < header_len => break,
            Some(_) if pos + 32 <= header_len.min(bytes.len()) => {}
            _ => return Err("no 0x0D after the field descriptors within the header".into()),
        }
        let d = &bytes[pos..pos + 32];
        let raw = &d[..11];
        let name_end = raw.iter().position(|&b| b == 0).unwrap_or(11);
        let name = &raw[..name_end];
        if name.is_empty() || !name.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'_') {
            return Err(format!(
                "field descriptor at offset {pos} has no valid name"
            ));
        }
        let len = usize::from(d[16]);
        fields.push(Field {
            name: String::from_utf8_lossy(name).into_owned(),
            kind: d[11],
            offset,
            len,
        });
        offset += len;
        pos += 32;
    }
    if fields.is_empty() {
        return Err("no field descriptors".into());
    }
    Ok(fields)
}

/// A field's value.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Value<'a> {
    Text(Cow<'a, str>),
    Number(Option<f64>),
}

impl Value<'_> {
    fn number(&self) -> Option<f64> {
        match self {
            Value::Number(n) => *n,
            Value::Text(t) => number(t).ok().flatten(),
        }
    }
}

/// Decodes a field of a record by its type.
pub(super) fn value<'a>(field: &Field, record: &'a [u8]) -> Result<Value<'a>, Problem> {
    let raw = record
        .get(field.offset..field.offset + field.len)
        .ok_or_else(|| Problem::new(WarningKind::MissingField, "record too short"))?;
    Ok(match field.kind {
        // The general reading, shared by no fast path: the reference reads
        // every number this way, and the fast engine's own readers
        // (`fast/record.rs`) are held to it by the property tests.
        b'N' | b'F' => {
            let text = profx_model::text::decode(raw);
            let n = number(&text).map_err(|()| {
                let why = format!(
                    "{} {:?} is not a number",
                    field.name,
                    profx_model::text::visible(&text)
                );
                Problem::new(WarningKind::NotANumber, why)
            })?;
            Value::Number(n)
        }
        b'I' if raw.len() == 4 => Value::Number(Some(f64::from(LittleEndian::read_i32(raw)))),
        b'B' if raw.len() == 8 => {
            Value::Number(Some(LittleEndian::read_f64(raw)).filter(|x| x.is_finite()))
        }
        _ => {
            let end = raw
                .iter()
                .rposition(|&b| b != b' ' && b != 0)
                .map_or(0, |i| i + 1);
            Value::Text(profx_model::text::decode(&raw[..end]))
        }
    })
}

/// Which field holds each trace column; the rest are shown as they are.
#[derive(Clone, Debug)]
pub(super) struct ColMap {
    pub fields: Vec<Field>,
    cols: Vec<(Col, usize)>,
    others: Vec<usize>,
}

impl ColMap {
    /// By name (aliases, case-insensitive), or by position with `--columns`.
    pub(super) fn new(fields: Vec<Field>, columns: Option<&[Col]>) -> Result<ColMap, String> {
        let mut cols: Vec<(Col, usize)> = Vec::new();
        match columns {
            Some(list) => cols.extend(list.iter().copied().zip(0..fields.len())),
            None => {
                for (i, f) in fields.iter().enumerate() {
                    match Col::from_name(&f.name) {
                        Some(c) if !cols.iter().any(|&(k, _)| k == c) => cols.push((c, i)),
                        _ => {}
                    }
                }
            }
        }
        if !cols.iter().any(|&(c, _)| c == Col::Op) || !cols.iter().any(|&(c, _)| c == Col::Call) {
            let found: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
            return Err(format!("no op and call fields among {}", found.join(", ")));
        }
        let others = (0..fields.len())
            .filter(|i| !cols.iter().any(|&(_, k)| k == *i))
            .collect();
        Ok(ColMap {
            fields,
            cols,
            others,
        })
    }

    /// The field that holds `col`, if one does.
    pub(super) fn field_of(&self, col: Col) -> Option<&Field> {
        let &(_, i) = self.cols.iter().find(|&&(c, _)| c == col)?;
        self.fields.get(i)
    }

    pub(super) fn has(&self, col: Col) -> bool {
        self.cols.iter().any(|&(c, _)| c == col)
    }

    /// The trace row of one record (flag byte included).
    pub(super) fn row<'a>(&self, record: &'a [u8]) -> Result<Row<'a>, Problem> {
        let mut row = Row::default();
        for &(col, i) in &self.cols {
            let v = value(&self.fields[i], record)?;
            match col {
                Col::Thread => row.thread = whole(v.number()),
                Col::Time => row.time = v.number(),
                Col::Line => row.line = whole(v.number()),
                Col::Op => row.op = text(v),
                Col::Call => row.call = text(v),
                Col::Params => row.params = Some(text(v)).filter(|p| !p.is_empty()),
            }
        }
        if row.op.is_empty() || row.call.is_empty() {
            return Err(Problem::new(WarningKind::MissingField, "empty op or call"));
        }
        Ok(row)
    }

    /// The fields no trace column uses, as `NAME=value` for the trace pane.
    pub(super) fn others(&self, record: &[u8]) -> Option<String> {
        let parts: Vec<String> = self
            .others
            .iter()
            .filter_map(|&i| {
                let f = &self.fields[i];
                let v = match value(f, record).ok()? {
                    Value::Text(t) => t.into_owned(),
                    Value::Number(n) => n.map_or(String::new(), |x| x.to_string()),
                };
                Some(format!("{}={v}", f.name))
            })
            .collect();
        (!parts.is_empty()).then(|| parts.join(", "))
    }
}

fn text(v: Value<'_>) -> Cow<'_, str> {
    match v {
        Value::Text(t) => t,
        Value::Number(n) => Cow::Owned(n.map_or(String::new(), |x| x.to_string())),
    }
}

/// What walking a piece's records found besides live records.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Walk {
    pub live: u64,
    pub deleted: u64,
    pub first_deleted: Option<usize>,
    /// Offset and size of a record cut off by the end of the piece.
    pub partial: Option<(usize, usize)>,
    /// Offset of a 0x1A end mark, and how many bytes followed it.
    pub end_mark: Option<(usize, usize)>,
}

/// Calls `live` with (offset, record) for each live record from `start`,
/// until it breaks.
pub(super) fn walk(
    bytes: &[u8],
    start: usize,
    record_len: usize,
    mut live: impl FnMut(usize, &[u8]) -> ControlFlow<()>,
) -> Walk {
    let mut w = Walk::default();
    let mut pos = start;
    while pos < bytes.len() {
        if bytes[pos] == 0x1A {
            w.end_mark = Some((pos, bytes.len() - pos - 1));
            break;
        }
        if pos + record_len > bytes.len() {
            w.partial = Some((pos, bytes.len() - pos));
            break;
        }
        if bytes[pos] == b'*' {
            w.deleted += 1;
            w.first_deleted = w.first_deleted.or(Some(pos));
        } else {
            w.live += 1;
            if live(pos, &bytes[pos..pos + record_len]).is_break() {
                break;
            }
        }
        pos += record_len;
    }
    w
}
