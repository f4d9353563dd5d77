//! DELDBE ("human readable output"): one trace record per line,
//! comma-separated, text in double quotes with trailing blanks removed,
//! numbers unquoted with `.` decimals, no header line by default:
//!
//! ```text
//! 1,1520.25,"i","ORDERPRINT",112,"'A', 12"
//! ```
//!
//! Without `--columns` or a header row, the op column (one letter) anchors
//! the others: the numbers before it are thread, then time; after the call
//! a number is the line, and the rest of the line is the parameters.

use super::row::{Col, Row, number, whole};
use crate::LoadOptions;
use crate::problem::Problem;
use crate::split::numbered_lines;
use profx_model::WarningKind;
use profx_model::text::decode;
use std::borrow::Cow;

/// One field of a line, with where it starts (for "the rest of the line").
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Field<'a> {
    pub text: &'a str,
    pub quoted: bool,
    pub start: usize,
}

/// Splits a line into fields; `out` is reused between lines.
pub(super) fn split<'a>(line: &'a str, out: &mut Vec<Field<'a>>) {
    out.clear();
    let bytes = line.as_bytes();
    let mut i = 0;
    loop {
        while i < bytes.len() && bytes[i] == b' ' {
            i += 1;
        }
        let start = i;
        if i < bytes.len() && bytes[i] == b'"' {
            let close = closing_quote(bytes, i + 1);
            let text = line[i + 1..close].trim_end_matches([' ', '\0']);
            out.push(Field {
                text,
                quoted: true,
                start,
            });
            i = close + 1;
            while i < bytes.len() && bytes[i] != b',' {
                i += 1;
            }
        } else {
            let end = line[i..].find(',').map_or(line.len(), |n| i + n);
            out.push(Field {
                text: line[i..end].trim(),
                quoted: false,
                start,
            });
            i = end;
        }
        if i >= bytes.len() {
            return;
        }
        i += 1; // the comma
    }
}

/// The quote that ends a text field: one followed by a comma or the end.
fn closing_quote(bytes: &[u8], from: usize) -> usize {
    let mut j = from;
    while j < bytes.len() {
        if bytes[j] == b'"' {
            let mut k = j + 1;
            while k < bytes.len() && bytes[k] == b' ' {
                k += 1;
            }
            if k == bytes.len() || bytes[k] == b',' {
                return j;
            }
        }
        j += 1;
    }
    bytes.len()
}

/// How a line's fields map to trace columns.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Layout {
    /// From `--columns` or a header row.
    Fixed(Vec<Col>),
    /// Found per line from the op column.
    Anchored,
}

impl Layout {
    /// Whether rows carry a time (decides a timed replay).
    pub(super) fn has_time(&self, first_row: &[Field<'_>]) -> bool {
        match self {
            Layout::Fixed(cols) => cols.contains(&Col::Time),
            Layout::Anchored => op_index(first_row).is_some_and(|i| i >= 2),
        }
    }
}

/// A row made only of known field names is a header.
pub(super) fn header(fields: &[Field<'_>]) -> Option<Vec<Col>> {
    let cols: Option<Vec<Col>> = fields.iter().map(|f| Col::from_name(f.text)).collect();
    cols.filter(|c| c.contains(&Col::Op) && c.contains(&Col::Call))
}

fn op_index(fields: &[Field<'_>]) -> Option<usize> {
    fields.iter().position(|f| {
        let mut chars = f.text.chars();
        matches!((chars.next(), chars.next()), (Some(c), None) if c.is_ascii_alphabetic())
    })
}

/// Decodes one line's fields.
pub(super) fn row<'a>(
    line: &'a str,
    fields: &[Field<'a>],
    layout: &Layout,
) -> Result<Row<'a>, Problem> {
    match layout {
        Layout::Fixed(cols) => fixed(line, fields, cols),
        Layout::Anchored => anchored(line, fields),
    }
}

fn fixed<'a>(line: &'a str, fields: &[Field<'a>], cols: &[Col]) -> Result<Row<'a>, Problem> {
    let mut row = Row::default();
    for (i, (&col, f)) in cols.iter().zip(fields).enumerate() {
        match col {
            Col::Thread => row.thread = whole(num(f, "thread")?),
            Col::Time => row.time = num(f, "time")?,
            Col::Op => row.op = Cow::Borrowed(f.text),
            Col::Call => row.call = Cow::Borrowed(f.text),
            Col::Line => row.line = whole(num(f, "line")?),
            // The last column keeps its commas: parameters are free text.
            Col::Params if i + 1 == cols.len() => row.params = rest(line, f.start),
            Col::Params => row.params = Some(Cow::Borrowed(f.text)).filter(|p| !p.is_empty()),
        }
    }
    if row.op.is_empty() || row.call.is_empty() {
        let why = format!(
            "{} fields, no op or call where --columns/the header puts them",
            fields.len()
        );
        return Err(Problem::new(WarningKind::MissingField, why));
    }
    Ok(row)
}

fn anchored<'a>(line: &'a str, fields: &[Field<'a>]) -> Result<Row<'a>, Problem> {
    let missing = |why: &str| Problem::new(WarningKind::MissingField, why);
    let op = op_index(fields).ok_or_else(|| missing("no one-letter op column"))?;
    let call = fields
        .get(op + 1)
        .filter(|f| !f.text.is_empty())
        .ok_or_else(|| missing("no call after the op column"))?;
    let mut numbers = fields[..op].iter();
    let mut row = Row {
        thread: whole(
            numbers
                .next()
                .map(|f| num(f, "thread"))
                .transpose()?
                .flatten(),
        ),
        time: numbers
            .next()
            .map(|f| num(f, "time"))
            .transpose()?
            .flatten(),
        op: Cow::Borrowed(fields[op].text),
        call: Cow::Borrowed(call.text),
        ..Row::default()
    };
    let mut next = op + 2;
    if let Some(f) = fields
        .get(next)
        .filter(|f| !f.quoted && number(f.text).is_ok_and(|n| n.is_some()))
    {
        row.line = whole(number(f.text).ok().flatten());
        next += 1;
    }
    row.params = fields.get(next).and_then(|f| rest(line, f.start));
    Ok(row)
}

fn num(f: &Field<'_>, what: &str) -> Result<Option<f64>, Problem> {
    number(f.text).map_err(|()| {
        let why = format!(
            "{what} {:?} is not a number",
            profx_model::text::visible(f.text)
        );
        Problem::new(WarningKind::NotANumber, why)
    })
}

fn rest(line: &str, start: usize) -> Option<Cow<'_, str>> {
    Some(line[start..].trim())
        .filter(|s| !s.is_empty())
        .map(Cow::Borrowed)
}

/// Where the records start and how many lines come before: after a byte
/// order mark, and after a header line (the first non-blank one) unless
/// `--columns` gave the layout, which the header then sets.
pub(super) fn body_start(bytes: &[u8], opts: &LoadOptions, layout: &mut Layout) -> (usize, u64) {
    let bom = if bytes.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    let first = numbered_lines(bytes).find(|(_, line)| !decode(line).trim().is_empty());
    let Some((n, line)) = first.filter(|_| opts.columns.is_none()) else {
        return (bom, 0);
    };
    let text = decode(line);
    let mut fields = Vec::new();
    split(&text, &mut fields);
    let Some(cols) = header(&fields) else {
        return (bom, 0);
    };
    *layout = Layout::Fixed(cols);
    let end = line.as_ptr() as usize - bytes.as_ptr() as usize + line.len();
    let after = bytes[end..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |i| end + i + 1);
    (after, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(line: &str) -> Vec<Field<'_>> {
        let mut v = Vec::new();
        split(line, &mut v);
        v
    }

    #[test]
    fn splits_quoted_text_and_numbers() {
        let f = fields(r#"1, 20.5,"i","MAIN   ",12,"a, b""#);
        let texts: Vec<_> = f.iter().map(|f| (f.text, f.quoted)).collect();
        assert_eq!(
            texts,
            [
                ("1", false),
                ("20.5", false),
                ("i", true),
                ("MAIN", true),
                ("12", false),
                ("a, b", true)
            ]
        );
        assert_eq!(fields("").len(), 1);
    }

    #[test]
    fn anchors_on_the_op_column() {
        let line = r#"2,20.5,"I","Obj:Method",12,"x",3"#;
        let r = row(line, &fields(line), &Layout::Anchored).unwrap();
        assert_eq!(
            (r.thread, r.time, r.op.as_ref(), r.call.as_ref()),
            (Some(2), Some(20.5), "I", "Obj:Method")
        );
        assert_eq!((r.line, r.params.as_deref()), (Some(12), Some(r#""x",3"#)));
        let bare = r#"1,"o","MAIN""#;
        let r = row(bare, &fields(bare), &Layout::Anchored).unwrap();
        assert_eq!(
            (r.thread, r.time, r.line, r.params),
            (Some(1), None, None, None)
        );
        assert!(row("1,2,3", &fields("1,2,3"), &Layout::Anchored).is_err());
    }

    #[test]
    fn header_rows_and_fixed_columns() {
        let h = r#""THREAD","OP","CALL","TIMELINE""#;
        let cols = header(&fields(h)).unwrap();
        assert_eq!(cols, [Col::Thread, Col::Op, Col::Call, Col::Time]);
        let line = r#"3,"i","F",7.25"#;
        let r = row(line, &fields(line), &Layout::Fixed(cols)).unwrap();
        assert_eq!(
            (r.thread, r.time, r.call.as_ref()),
            (Some(3), Some(7.25), "F")
        );
        assert_eq!(header(&fields(r#"1,"i","F""#)), None);
    }
}
