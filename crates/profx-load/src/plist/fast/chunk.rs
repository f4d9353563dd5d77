//! A worker's side of PLIST loading: one chunk of lines → the records it
//! holds, numbers read and names numbered, for the applier to feed the
//! rules (`../rules.rs`) in file order.
//!
//! Everything a line says on its own is read here (its tag, its fields,
//! whether its numbers are numbers), by `bytes.rs` for the common shapes
//! and `record::read` for the rest; nothing here decides what a record
//! does.

use super::bytes;
use crate::names::NewNames;
use crate::names::WorkerNames;
use crate::plist::record;
use crate::plist::rules::Record;

/// One chunk's records.
#[derive(Debug, Default)]
pub(super) struct Batch {
    /// (line's index in the chunk, what it holds); blank lines have none.
    pub items: Vec<(u32, Record<u32>)>,
    pub new_names: NewNames,
    /// Lines in the chunk, blank ones included.
    pub lines: u64,
}

/// Parses `chunk` (whole lines, the last one's newline included), its
/// items going in `spare`'s room (a batch the consumer is done with).
pub(super) fn parse(
    chunk: &[u8],
    names: &mut WorkerNames,
    mut spare: Vec<(u32, Record<u32>)>,
) -> Batch {
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

/// A line (no `\n`) the fast reading left, read the general way.
fn general(line: &[u8], names: &mut WorkerNames) -> Option<Record<u32>> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    record::read(line, &mut |name| names.id(name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Problem;
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
        let function = Record::Function {
            module: 0,
            name: 1,
            calls: 4,
            time: 80.0,
            child: 90.0,
        };
        assert_eq!(
            batch.items,
            vec![
                (0, function),
                (2, Record::Frame { name: 1 }),
                (3, Record::NotATag("x".into())),
                (4, Record::Unknown(11)),
                (
                    5,
                    Record::Unusable {
                        tag: 9,
                        why: Problem::new(
                            WarningKind::NotANumber,
                            "hit count \"z\" is not a number"
                        )
                    }
                ),
            ]
        );
    }
}
