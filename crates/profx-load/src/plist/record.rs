//! One PLIST /T line → the record it holds (formats.md § plist): its tag
//! and fields, numbers read, names numbered by the caller. This is the
//! general reading, a line at a time: the reference loader's, and the fast
//! engine's for any line not of the common shapes `fast/bytes.rs` reads.
//! What a record does is `rules.rs`'s.

use super::rules::Record;
use crate::problem::Problem;
use crate::split::MAX_LINE;
use profx_model::text::decode;
use profx_model::{MetaValue, NameId, WarningKind};

/// The record `line` (without its line end) holds, its names numbered by
/// `name`; `None` for a blank line.
pub(super) fn read<N>(line: &[u8], name: &mut impl FnMut(&str) -> N) -> Option<Record<N>> {
    if line.len() > MAX_LINE {
        return Some(Record::TooLong(line.len()));
    }
    Some(match parse_line(&decode(line)) {
        Parsed::Blank => return None,
        Parsed::Record { tag, fields } => {
            fields_of(tag, &fields, name).unwrap_or_else(|why| Record::Unusable { tag, why })
        }
        Parsed::Short { tag, need, found } => Record::Short { tag, need, found },
        Parsed::NotATag(first) => Record::NotATag(first.to_string()),
        Parsed::Unknown(tag) => Record::Unknown(tag),
    })
}

/// A known tag's record from its fields. Numbers are checked in field
/// order, and names numbered only once they all hold.
fn fields_of<N>(
    tag: u32,
    f: &Fields<'_>,
    name: &mut impl FnMut(&str) -> N,
) -> Result<Record<N>, Problem> {
    Ok(match tag {
        6 => {
            let calls = number(f.get(2), "count", count)?;
            let t = number(f.get(3), "time", time)?;
            let child = number(f.get(4), "child time", time)?;
            let module = name(f.get(1));
            Record::Function {
                module,
                name: name(f.get(5)),
                calls,
                time: t,
                child,
            }
        }
        7 => {
            let line = number(f.get(2), "line", count)?;
            let line = u32::try_from(line).map_err(|_| line_out_of_range(line))?;
            let hits = number(f.get(3), "count", count)?;
            Record::Line {
                file: name(f.get(1)),
                line,
                hits,
            }
        }
        8 => Record::Group {
            declared: number(f.get(0), "number of stacks", count)?,
        },
        9 => Record::Stack {
            size: number(f.get(0), "stack size", count)?,
            hits: number(f.get(1), "hit count", count)?,
            self_ms: number(f.get(2), "stack time", time)?,
            child_ms: number(f.get(3), "child time", time)?,
        },
        10 => Record::Frame {
            name: name(f.get(0)),
        },
        _ => Record::Global {
            tag,
            fields: f.to_vec(),
        },
    })
}

/// Fields after the tag that each known tag carries.
fn arity(tag: u32) -> Option<usize> {
    match tag {
        5 | 8 | 10 => Some(1),
        0 | 1 | 4 => Some(2),
        2 | 3 => Some(3),
        7 | 9 => Some(4),
        6 => Some(6),
        _ => None,
    }
}

/// Tags whose last field is the rest of the line, so names keep their spaces.
fn last_field_takes_rest(tag: u32) -> bool {
    matches!(tag, 0 | 1 | 5 | 6 | 10)
}

/// The fields of one record after its tag, trimmed.
#[derive(Debug, PartialEq)]
pub(super) struct Fields<'a> {
    items: [&'a str; 6],
    len: usize,
}

impl<'a> Fields<'a> {
    pub(super) fn get(&self, i: usize) -> &'a str {
        self.items[i]
    }

    /// The fields, owned.
    pub(super) fn to_vec(&self) -> Vec<String> {
        self.items[..self.len]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }
}

/// What a line is.
#[derive(Debug, PartialEq)]
pub(super) enum Parsed<'a> {
    Blank,
    Record {
        tag: u32,
        fields: Fields<'a>,
    },
    /// The first field is not a tag number.
    NotATag(&'a str),
    /// A tag number PLIST does not define (11 and up).
    Unknown(u32),
    /// A known tag with fewer fields than it needs.
    Short {
        tag: u32,
        need: usize,
        found: usize,
    },
}

/// Splits a line: on TABs, or on runs of spaces when it has no TAB at all.
pub(super) fn parse_line(line: &str) -> Parsed<'_> {
    let line = line.trim();
    if line.is_empty() {
        return Parsed::Blank;
    }
    let tabbed = line.contains('\t');
    let (first, rest) = if tabbed {
        line.split_once('\t').unwrap_or((line, ""))
    } else {
        next_token(line)
    };
    let first = first.trim();
    let Some(tag) = tag_number(first) else {
        return Parsed::NotATag(first);
    };
    let Some(need) = arity(tag) else {
        return Parsed::Unknown(tag);
    };
    let rest_last = last_field_takes_rest(tag);
    let fields = if tabbed {
        split_tabs(rest, need, rest_last)
    } else {
        split_spaces(rest, need, rest_last)
    };
    if fields.len < need {
        return Parsed::Short {
            tag,
            need,
            found: fields.len,
        };
    }
    Parsed::Record { tag, fields }
}

fn tag_number(s: &str) -> Option<u32> {
    if s.is_empty() || s.len() > 9 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

fn split_tabs(rest: &str, need: usize, rest_last: bool) -> Fields<'_> {
    let mut f = Fields {
        items: [""; 6],
        len: 0,
    };
    if rest.is_empty() && !rest_last {
        return f;
    }
    let pieces: Box<dyn Iterator<Item = &str>> = if rest_last {
        Box::new(rest.splitn(need, '\t'))
    } else {
        Box::new(rest.split('\t'))
    };
    for piece in pieces.take(need) {
        f.items[f.len] = piece.trim();
        f.len += 1;
    }
    f
}

fn split_spaces(mut rest: &str, need: usize, rest_last: bool) -> Fields<'_> {
    let mut f = Fields {
        items: [""; 6],
        len: 0,
    };
    while f.len < need {
        let trimmed = rest.trim_start_matches(' ');
        if trimmed.is_empty() {
            break;
        }
        let (token, after) = if rest_last && f.len + 1 == need {
            (trimmed.trim(), "")
        } else {
            next_token(trimmed)
        };
        f.items[f.len] = token;
        f.len += 1;
        rest = after;
    }
    f
}

/// The text up to the first space, and what follows that run of spaces.
fn next_token(s: &str) -> (&str, &str) {
    let s = s.trim_start_matches(' ');
    match s.find(' ') {
        Some(i) => (&s[..i], s[i..].trim_start_matches(' ')),
        None => (s, ""),
    }
}

/// Whether the fields a tag needs as numbers are numbers, so detection
/// only counts lines the loader would use (` 1    2.00iB…`, a DBF record,
/// starts with a tag-like `1` but its method is no number).
pub(super) fn numbers_hold(tag: u32, f: &Fields<'_>) -> bool {
    let counts: &[usize] = match tag {
        1 | 8 => &[0],
        2 => &[2],
        3 => &[0, 1, 2],
        6 | 7 => &[2],
        9 => &[0, 1],
        _ => &[],
    };
    let times: &[usize] = match tag {
        2 => &[0, 1],
        6 => &[3, 4],
        7 => &[3],
        9 => &[2, 3],
        _ => &[],
    };
    counts.iter().all(|&i| count(f.get(i)).is_some())
        && times.iter().all(|&i| time(f.get(i)).is_some())
}

/// `s` read by `parse`, or why not (`what` names the field).
pub(super) fn number<T>(s: &str, what: &str, parse: fn(&str) -> Option<T>) -> Result<T, Problem> {
    parse(s).ok_or_else(|| {
        let why = format!("{what} {:?} is not a number", profx_model::text::visible(s));
        Problem::new(WarningKind::NotANumber, why)
    })
}

/// A line number of a tag 7 record that no line can have.
fn line_out_of_range(line: u64) -> Problem {
    let why = format!("line {line} is out of range");
    Problem::new(WarningKind::NumberTooLarge, why)
}

/// A record without the record it belongs under (`why` says which).
pub(super) fn out_of_place(why: &str) -> Problem {
    Problem::new(WarningKind::OutOfPlace, why)
}

/// A frame past the `size` frames its tag 9 record declares.
pub(super) fn frame_beyond(size: u64) -> Problem {
    let why = format!("stack frame beyond the {size} the tag 9 record declares");
    Problem::new(WarningKind::CountMismatch, why)
}

/// A count: decimal digits only.
pub(super) fn count(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// A time in ms; `nan` and `inf` are not times.
pub(super) fn time(s: &str) -> Option<f64> {
    s.parse::<f64>().ok().filter(|t| t.is_finite())
}

/// A meta value: a number when the field is a whole number, else its text
/// as written (a version "1.10" must not turn into 1.1).
pub(super) fn meta(s: &str) -> MetaValue {
    match count(s).and_then(|n| i64::try_from(n).ok()) {
        Some(n) => MetaValue::Int(n),
        None => MetaValue::Text(s.to_string()),
    }
}

/// Puts listed frame names root first with the owner as the leaf
/// (formats.md): a list starting with the owner is leaf-first, so reverse
/// it; a list with the owner at neither end gets it appended.
pub(super) fn orient(names: &mut Vec<NameId>, owner: NameId) {
    let starts = names.first() == Some(&owner);
    let ends = names.last() == Some(&owner);
    if starts && !ends {
        names.reverse();
    } else if !starts && !ends {
        names.push(owner);
    }
}

/// Whether a profile of this method measured times: counting and
/// coverage methods (321, 324, 521, 524) write 0 where they measured
/// nothing, so their times are absent.
pub(super) fn measures_time(method: Option<u64>) -> bool {
    !matches!(method, Some(321 | 324 | 521 | 524))
}

/// The failure of a file with no record to use.
pub(super) fn nothing_usable(path: &str) -> crate::LoadError {
    crate::LoadError::Invalid {
        path: path.to_string(),
        place: profx_model::Place::Line(1),
        kind: crate::InvalidKind::NoRecords,
        reason: "no usable PLIST record in the file".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(line: &str) -> Vec<&str> {
        match parse_line(line) {
            Parsed::Record { fields, .. } => fields.items[..fields.len].to_vec(),
            other => panic!("not a record: {other:?}"),
        }
    }

    #[test]
    fn tab_records_keep_spaces_in_the_last_field() {
        assert_eq!(
            fields("6\tPT.EXE\tpt.obj\t3\t1.5\t2.5\tCWnd::Foo(int, long)\r"),
            [
                "PT.EXE",
                "pt.obj",
                "3",
                "1.5",
                "2.5",
                "CWnd::Foo(int, long)"
            ]
        );
        assert_eq!(fields("10\t name with\ttab "), ["name with\ttab"]);
        assert_eq!(
            fields("7\tPT.EXE\t a.c \t12\t4\textra"),
            ["PT.EXE", "a.c", "12", "4"]
        );
    }

    #[test]
    fn lines_without_tabs_split_on_runs_of_spaces() {
        assert_eq!(
            fields("  6  PT.EXE   pt.obj 3 1.5  2.5   operator new(unsigned int)"),
            [
                "PT.EXE",
                "pt.obj",
                "3",
                "1.5",
                "2.5",
                "operator new(unsigned int)"
            ]
        );
        assert_eq!(fields("2 100.5   3.25 7"), ["100.5", "3.25", "7"]);
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        assert_eq!(parse_line("   \t "), Parsed::Blank);
        assert_eq!(parse_line("Total time: 5"), Parsed::NotATag("Total"));
        assert_eq!(parse_line("+6\tx"), Parsed::NotATag("+6"));
        assert_eq!(parse_line("12\tx"), Parsed::Unknown(12));
        assert_eq!(
            parse_line("9\t2\t1"),
            Parsed::Short {
                tag: 9,
                need: 4,
                found: 2
            }
        );
        assert_eq!(
            parse_line("8"),
            Parsed::Short {
                tag: 8,
                need: 1,
                found: 0
            }
        );
    }

    #[test]
    fn numbers() {
        assert_eq!(count("42"), Some(42));
        assert_eq!(count("-1"), None);
        assert_eq!(count("4.0"), None);
        assert_eq!(time("88816.409"), Some(88816.409));
        assert_eq!(time("nan"), None);
        assert_eq!(meta("522"), MetaValue::Int(522));
        assert_eq!(meta("1.10"), MetaValue::Text("1.10".into()));
        assert_eq!(meta("Wed Nov 05"), MetaValue::Text("Wed Nov 05".into()));
    }
}
