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

    /// DELDBE: the first non-blank line is a header of known field names,
    /// or a record whose one-letter op (`i I O o`) follows only numbers and
    /// is followed by a call.
    fn detect(&self, head: &[u8], at_eof: bool) -> Detection {
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
        load_deldbe(input, opts, b)
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
