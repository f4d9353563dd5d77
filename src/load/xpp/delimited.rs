//! Loading DELDBE pieces: the opened file and its numbered packets, one
//! trace, a packet per piece.

use super::deldbe::{self, Layout, header, split};
use super::events::{Decoder, TraceEvents};
use super::invalid;
use super::replay::Replay;
use super::row::Col;
use crate::load::split::numbered_lines;
use crate::load::{Input, LoadError, LoadOptions};
use crate::model::{Packet, Place, ProfileBuilder};
use crate::text::decode;

pub fn load(pieces: &[Input], opts: &LoadOptions, b: &mut ProfileBuilder) -> Result<(), LoadError> {
    let first = &pieces[0];
    let mut layout = match &opts.columns {
        Some(list) => {
            Layout::Fixed(Col::parse_list(list).map_err(|e| invalid(first, "--columns".into(), e))?)
        }
        None => Layout::Anchored,
    };
    let mut replay = None;
    for (i, piece) in pieces.iter().enumerate() {
        if i > 0 {
            b.begin_source(piece.name());
        }
        let packet = load_piece(piece, opts, &mut layout, &mut replay, b);
        b.add_packet(packet);
    }
    let Some(replay) = replay else {
        return Err(invalid(
            first,
            "line 1".into(),
            "no trace record in the file".into(),
        ));
    };
    replay.finish(b, first.name());
    Ok(())
}

/// One piece's records into the replay; returns its packet.
fn load_piece(
    piece: &Input,
    opts: &LoadOptions,
    layout: &mut Layout,
    replay: &mut Option<Replay>,
    b: &mut ProfileBuilder,
) -> Packet {
    let bytes = piece.bytes();
    let base = bytes.as_ptr() as usize;
    let mut first_line = true;
    let (mut offsets, mut funcs) = (Vec::new(), Vec::new());
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
            *layout = Layout::Fixed(cols);
            continue;
        }
        let row = match deldbe::row(&text, &fields, layout) {
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
    let mut events = TraceEvents::new(piece.clone(), Decoder::Deldbe(layout.clone()));
    for (offset, f) in offsets.into_iter().zip(funcs) {
        events.push(offset, f);
    }
    Packet {
        source: piece.name().to_string(),
        first_ms,
        last_ms,
        events: Box::new(events),
    }
}
