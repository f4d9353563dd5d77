//! A worker's side of PLIST loading: one chunk of lines → the records it
//! holds, numbers parsed and names numbered, for the calling thread to
//! apply in file order.
//!
//! Everything a line says on its own is settled here (its tag, its fields,
//! whether its numbers are numbers); what depends on the lines before it
//! (which function a stack belongs to, whether a frame has a stack to go
//! in) is the calling thread's, in `State`.

use super::bytes;
use super::record::{Fields, Parsed, count, line_out_of_range, number, parse_line, time};
use crate::names::{NewNames, WorkerNames};
use crate::problem::Problem;
use crate::split::MAX_LINE;
use profx_model::text::decode;

/// What one line holds.
#[derive(Debug, PartialEq)]
pub(super) enum Item {
    /// A record of a known tag with its fields; `Err` says which number
    /// is not one.
    Record {
        tag: u32,
        body: Result<Body, Problem>,
    },
    Short {
        tag: u32,
        need: usize,
        found: usize,
    },
    /// The first field, made safe to print, is not a tag.
    NotATag(String),
    Unknown(u32),
    /// A line of this many bytes.
    TooLong(usize),
}

/// A record's fields, names as the worker's numbers.
#[derive(Debug, PartialEq)]
pub(super) enum Body {
    /// Tags 0–5, a handful a file: their fields, read where they are used.
    Global(Vec<String>),
    Function {
        module: u32,
        name: u32,
        calls: u64,
        time: f64,
        child: f64,
    },
    Line {
        file: u32,
        line: u32,
        hits: u64,
    },
    Group {
        declared: u64,
    },
    Stack {
        size: u64,
        hits: u64,
        self_ms: f64,
        child_ms: f64,
    },
    Frame {
        name: u32,
    },
}

/// One chunk's records.
#[derive(Debug, Default)]
pub(super) struct Batch {
    /// (line's index in the chunk, what it holds); blank lines have none.
    pub items: Vec<(u32, Item)>,
    pub new_names: NewNames,
    /// Lines in the chunk, blank ones included.
    pub lines: u64,
}

/// Parses `chunk` (whole lines, the last one's newline included), its
/// items going in `spare`'s room (a batch the consumer is done with).
pub(super) fn parse(chunk: &[u8], names: &mut WorkerNames, mut spare: Vec<(u32, Item)>) -> Batch {
    let body = chunk.strip_suffix(b"\n").unwrap_or(chunk);
    spare.clear();
    let mut batch = Batch {
        items: spare,
        ..Batch::default()
    };
    // Lines as `body.split(b'\n')` gives them (an empty body is one blank
    // line); a line of the common shape is read, end found, in one pass.
    let mut at = 0;
    loop {
        let rest = &body[at..];
        let (item, len) = match bytes::item_at(rest, names) {
            Some((item, len)) => (Some(item), len),
            None => {
                let len = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
                (general(&rest[..len], names), len)
            }
        };
        // A chunk is a few hundred kilobytes: its line index fits.
        batch.items.extend(item.map(|i| (batch.lines as u32, i)));
        batch.lines += 1;
        at += len + 1;
        if at > body.len() {
            break;
        }
    }
    batch.new_names = names.take();
    batch
}

/// A line (no `\n`) the fast reading left, read by the format's rules.
fn general(line: &[u8], names: &mut WorkerNames) -> Option<Item> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.len() > MAX_LINE {
        return Some(Item::TooLong(line.len()));
    }
    item(&decode(line), names)
}

pub(super) fn item(text: &str, names: &mut WorkerNames) -> Option<Item> {
    Some(match parse_line(text) {
        Parsed::Blank => return None,
        Parsed::Record { tag, fields } => Item::Record {
            tag,
            body: body(tag, &fields, names),
        },
        Parsed::Short { tag, need, found } => Item::Short { tag, need, found },
        Parsed::NotATag(first) => Item::NotATag(format!("{:?}", profx_model::text::visible(first))),
        Parsed::Unknown(tag) => Item::Unknown(tag),
    })
}

/// Numbers are checked in field order and names numbered only once they
/// all hold, as the records are read one by one.
fn body(tag: u32, f: &Fields<'_>, names: &mut WorkerNames) -> Result<Body, Problem> {
    Ok(match tag {
        6 => {
            let calls = number(f.get(2), "count", count)?;
            let t = number(f.get(3), "time", time)?;
            let child = number(f.get(4), "child time", time)?;
            let module = names.id(f.get(1));
            Body::Function {
                module,
                name: names.id(f.get(5)),
                calls,
                time: t,
                child,
            }
        }
        7 => {
            let line = number(f.get(2), "line", count)?;
            let line = u32::try_from(line).map_err(|_| line_out_of_range(line))?;
            let hits = number(f.get(3), "count", count)?;
            Body::Line {
                file: names.id(f.get(1)),
                line,
                hits,
            }
        }
        8 => Body::Group {
            declared: number(f.get(0), "number of stacks", count)?,
        },
        9 => Body::Stack {
            size: number(f.get(0), "stack size", count)?,
            hits: number(f.get(1), "hit count", count)?,
            self_ms: number(f.get(2), "stack time", time)?,
            child_ms: number(f.get(3), "child time", time)?,
        },
        10 => Body::Frame {
            name: names.id(f.get(0)),
        },
        _ => Body::Global(f.to_vec()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use profx_model::WarningKind;

    /// Lines are counted as splitting the chunk at its newlines counts
    /// them, whichever reading takes each line.
    #[test]
    fn lines_are_counted_as_a_split_counts_them() {
        let mut names = WorkerNames::per_batch();
        for (text, lines, items) in [
            (&b"\n"[..], 1, 0),
            (b"8\t1\n\n", 2, 1),
            (b"8\t1\r\n8\t2", 2, 2),
            (b"8\t1\r\n\r\n x\n8\t2\n", 4, 3),
            (b"", 1, 0),
        ] {
            let batch = parse(text, &mut names, Vec::new());
            assert_eq!((batch.lines, batch.items.len()), (lines, items), "{text:?}");
        }
    }

    #[test]
    fn lines_become_items_at_their_index() {
        let mut names = WorkerNames::per_batch();
        let text =
            b"6\tP.EXE\tp.obj\t4\t80.0\t90.0\twork\n\n10\twork\r\nx\ty\n11\tz\n9\t1\tz\t0\t0\n";
        let batch = parse(text, &mut names, Vec::new());
        assert_eq!(batch.lines, 6);
        let function = Body::Function {
            module: 0,
            name: 1,
            calls: 4,
            time: 80.0,
            child: 90.0,
        };
        assert_eq!(
            batch.items,
            vec![
                (
                    0,
                    Item::Record {
                        tag: 6,
                        body: Ok(function)
                    }
                ),
                (
                    2,
                    Item::Record {
                        tag: 10,
                        body: Ok(Body::Frame { name: 1 })
                    }
                ),
                (3, Item::NotATag("\"x\"".into())),
                (4, Item::Unknown(11)),
                (
                    5,
                    Item::Record {
                        tag: 9,
                        body: Err(Problem::new(
                            WarningKind::NotANumber,
                            "hit count \"z\" is not a number"
                        ))
                    }
                ),
            ]
        );
    }
}
