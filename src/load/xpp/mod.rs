//! `xpp`: Xbase++ profiler traces, `.PRF` (seed 004).
//!
//! The Xbase++ profiler writes one record per trace event: thread, time
//! (ms since program start), operation `OP` (`i` before entering a
//! function, `I` entered, `O` about to return, `o` returned), the call, its
//! line and parameters. By default the file is a FoxPro DBF table (FOXDBE);
//! with "human readable output" it is comma-delimited text (DELDBE):
//!
//! ```text
//! 1,1520.25,"i","ORDERPRINT",112,"'A', 12"
//! ```
//!
//! The loader turns the events into intervals through the builder's trace
//! feed (`replay.rs` decides push / mark / pop per op); the events
//! themselves stay in the file behind an offset index (`events.rs`).

mod dbf;
mod deldbe;
mod events;
mod replay;
mod row;

use super::split::numbered_lines;
use super::{Detection, Input, LoadError, LoadOptions, Loader};
use crate::model::{Packet, Place, ProfileBuilder};
use crate::text::decode;
use deldbe::{Layout, header, split};
use events::{Decoder, TraceEvents};
use replay::Replay;
use row::Col;

/// The Xbase++ trace loader.
pub struct Xpp;

impl Loader for Xpp {
    fn name(&self) -> &'static str {
        "xpp"
    }

    /// FOXDBE: a DBF header that holds together (dbf.rs). DELDBE: the first
    /// non-blank line is a header of known field names, or a record whose
    /// one-letter op (`i I O o`) follows only numbers and precedes a call.
    fn detect(&self, head: &[u8], at_eof: bool) -> Detection {
        match detect_dbf(head, at_eof) {
            Detection::No => {}
            decided => return decided,
        }
        if head.contains(&0) {
            return Detection::No;
        }
        let complete = match (at_eof, head.iter().rposition(|&b| b == b'\n')) {
            (true, _) => head,
            (false, Some(end)) => &head[..end],
            (false, None) => return Detection::NeedMore,
        };
        let Some((_, line)) = numbered_lines(complete).find(|(_, l)| !l.trim_ascii().is_empty())
        else {
            return if at_eof {
                Detection::No
            } else {
                Detection::NeedMore
            };
        };
        let text = decode(line);
        let mut fields = Vec::new();
        split(&text, &mut fields);
        if header(&fields).is_some() || is_trace_row(&text, &fields) {
            Detection::Yes
        } else {
            Detection::No
        }
    }

    fn load(
        &self,
        input: &Input,
        opts: &LoadOptions,
        b: &mut ProfileBuilder,
    ) -> Result<(), LoadError> {
        let bytes = input.bytes();
        match dbf::header(bytes, Some(bytes.len())) {
            Ok(header) => load_dbf(input, header, opts, b),
            Err(_) => load_deldbe(input, opts, b),
        }
    }
}

fn detect_dbf(head: &[u8], at_eof: bool) -> Detection {
    if head.len() < 12 {
        return if at_eof {
            Detection::No
        } else {
            Detection::NeedMore
        };
    }
    let header_len = usize::from(u16::from_le_bytes([head[8], head[9]]));
    if head.len() < header_len && !at_eof {
        return Detection::NeedMore;
    }
    match dbf::header(head, at_eof.then_some(head.len())) {
        Ok(_) => Detection::Yes,
        Err(_) => Detection::No,
    }
}

/// A FOXDBE trace: one piece of records after the header.
fn load_dbf(
    input: &Input,
    header: dbf::Header,
    opts: &LoadOptions,
    b: &mut ProfileBuilder,
) -> Result<(), LoadError> {
    let columns = opts.columns.as_deref().map(Col::parse_list).transpose();
    let columns = columns.map_err(|e| invalid(input, "--columns".into(), e))?;
    let map = dbf::ColMap::new(header.fields.clone(), columns.as_deref());
    let map = std::sync::Arc::new(map.map_err(|e| invalid(input, "offset 32".into(), e))?);
    let mut replay = Replay::new(b, map.has(Col::Time));
    let mut events = TraceEvents::new(input.clone(), Decoder::Dbf(map.clone(), header.record_len));
    let (mut first_ms, mut last_ms) = (None, None);
    let bytes = input.bytes();
    let walk = dbf::walk(bytes, header.header_len, header.record_len, |at, record| {
        let place = Place::Offset(at as u64);
        match map.row(record) {
            Ok(row) => {
                events.push(at as u64, replay.event(b, &row, place));
                first_ms = first_ms.or(row.time);
                last_ms = row.time.or(last_ms);
            }
            Err(why) => b.warn(place, format!("not a trace record: {why}; skipped")),
        }
    });
    walk_warnings(b, &walk, Some(header.declared), header.record_len);
    if walk.live == 0 {
        return Err(invalid(
            input,
            format!("offset {}", header.header_len),
            "no trace record in the table".into(),
        ));
    }
    replay.finish(b, input.name());
    b.add_packet(Packet {
        source: input.name().to_string(),
        first_ms,
        last_ms,
        events: Box::new(events),
    });
    Ok(())
}

/// One warning each for a stale count, deleted records, a trailing partial
/// record and bytes after the end mark.
fn walk_warnings(b: &mut ProfileBuilder, w: &dbf::Walk, declared: Option<u32>, record_len: usize) {
    let present = w.live + w.deleted;
    if let Some(n) = declared.filter(|&n| u64::from(n) != present) {
        b.warn(
            Place::Offset(4),
            format!("header says {n} records, {present} are present; read what is present"),
        );
    }
    if let Some(at) = w.first_deleted {
        b.warn(
            Place::Offset(at as u64),
            format!("{} deleted record(s) skipped", w.deleted),
        );
    }
    if let Some((at, size)) = w.partial {
        b.warn(
            Place::Offset(at as u64),
            format!("trailing partial record ({size} of {record_len} bytes) skipped"),
        );
    }
    if let Some((at, after)) = w.end_mark.filter(|&(_, after)| after > 0) {
        b.warn(
            Place::Offset(at as u64),
            format!("{after} bytes after the end-of-file mark not read"),
        );
    }
}

fn is_trace_row(text: &str, fields: &[deldbe::Field<'_>]) -> bool {
    let Ok(row) = deldbe::row(text, fields, &Layout::Anchored) else {
        return false;
    };
    let op_at = fields.iter().position(|f| f.text == row.op).unwrap_or(0);
    matches!(row.op.as_ref(), "i" | "I" | "O" | "o")
        && op_at >= 1
        && fields[..op_at]
            .iter()
            .all(|f| !f.quoted && row::number(f.text).is_ok_and(|n| n.is_some()))
}

fn invalid(input: &Input, place: String, reason: String) -> LoadError {
    LoadError::Invalid {
        path: input.name().to_string(),
        place,
        reason,
    }
}

fn load_deldbe(input: &Input, opts: &LoadOptions, b: &mut ProfileBuilder) -> Result<(), LoadError> {
    let mut layout = match &opts.columns {
        Some(list) => {
            Layout::Fixed(Col::parse_list(list).map_err(|e| invalid(input, "--columns".into(), e))?)
        }
        None => Layout::Anchored,
    };
    let bytes = input.bytes();
    let base = bytes.as_ptr() as usize;
    let mut first_line = true;
    let mut replay: Option<Replay> = None;
    let mut offsets = Vec::new();
    let mut funcs = Vec::new();
    let (mut first_ms, mut last_ms) = (None, None);
    for (n, line) in numbered_lines(bytes) {
        let text = decode(line);
        if text.trim().is_empty() {
            continue;
        }
        // A vector a line: the fields borrow that line's decoded text.
        // (Issue 7: hand out ranges instead, to reuse one buffer.)
        let mut fields = Vec::with_capacity(8);
        split(&text, &mut fields);
        let may_be_header = std::mem::take(&mut first_line) && opts.columns.is_none();
        if let Some(cols) = header(&fields).filter(|_| may_be_header) {
            layout = Layout::Fixed(cols);
            continue;
        }
        let row = match deldbe::row(&text, &fields, &layout) {
            Ok(row) => row,
            Err(why) => {
                b.warn(
                    Place::Line(n),
                    format!("not a trace record: {why}; line skipped"),
                );
                continue;
            }
        };
        let timed = layout.has_time(&fields);
        let rp = replay.get_or_insert_with(|| Replay::new(b, timed));
        funcs.push(rp.event(b, &row, Place::Line(n)));
        offsets.push((line.as_ptr() as usize - base) as u64);
        first_ms = first_ms.or(row.time);
        last_ms = row.time.or(last_ms);
    }
    let Some(rp) = replay else {
        return Err(invalid(
            input,
            "line 1".into(),
            "no trace record in the file".into(),
        ));
    };
    rp.finish(b, input.name());
    let mut events = TraceEvents::new(input.clone(), Decoder::Deldbe(layout));
    for (offset, f) in offsets.into_iter().zip(funcs) {
        events.push(offset, f);
    }
    b.add_packet(Packet {
        source: input.name().to_string(),
        first_ms,
        last_ms,
        events: Box::new(events),
    });
    Ok(())
}

#[cfg(test)]
mod tests;
