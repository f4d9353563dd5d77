//! Loading FOXDBE (DBF) pieces: the header packet and its numbered packets,
//! which hold records only (a packet that starts with a header of the same
//! layout has it skipped). Record counts come from the bytes present.

use super::dbf::{self, ColMap, Header};
use super::events::{Decoder, TraceEvents};
use super::invalid;
use super::replay::Replay;
use super::row::Col;
use crate::load::{Input, LoadError, LoadOptions};
use crate::model::{Packet, Place, ProfileBuilder};
use std::sync::Arc;

/// Loads `pieces` with `header`'s layout; `first_has_header` when the
/// first piece is the header packet itself.
pub fn load(
    pieces: &[Input],
    header: &Header,
    first_has_header: bool,
    opts: &LoadOptions,
    b: &mut ProfileBuilder,
) -> Result<(), LoadError> {
    let first = &pieces[0];
    let columns = opts.columns.as_deref().map(Col::parse_list).transpose();
    let columns = columns.map_err(|e| invalid(first, "--columns".into(), e))?;
    let map = ColMap::new(header.fields.clone(), columns.as_deref());
    let map = Arc::new(map.map_err(|e| invalid(first, "offset 32".into(), e))?);
    let mut replay = Replay::new(b, map.has(Col::Time));
    let mut live = 0;
    for (i, piece) in pieces.iter().enumerate() {
        if i > 0 {
            b.begin_source(piece.name());
        }
        let (start, declared) = match (i, first_has_header) {
            (0, true) => (header.header_len, Some(header.declared)),
            _ => own_header(piece, header),
        };
        live += load_piece(
            piece,
            start,
            declared,
            header.record_len,
            &map,
            &mut replay,
            b,
        );
    }
    if live == 0 {
        let place = format!(
            "offset {}",
            if first_has_header {
                header.header_len
            } else {
                0
            }
        );
        return Err(invalid(first, place, "no trace record in the table".into()));
    }
    replay.finish(b, first.name());
    Ok(())
}

/// Where a packet's records start: after a header of the same layout, if
/// it has one, else at once.
fn own_header(piece: &Input, header: &Header) -> (usize, Option<u32>) {
    let bytes = piece.bytes();
    match dbf::header(bytes, Some(bytes.len())) {
        Ok(h) if h.fields == header.fields && h.record_len == header.record_len => {
            (h.header_len, Some(h.declared))
        }
        _ => (0, None),
    }
}

/// One piece's records into the replay and a packet; returns how many
/// live records it had.
fn load_piece(
    piece: &Input,
    start: usize,
    declared: Option<u32>,
    record_len: usize,
    map: &Arc<ColMap>,
    replay: &mut Replay,
    b: &mut ProfileBuilder,
) -> u64 {
    let mut events = TraceEvents::new(piece.clone(), Decoder::Dbf(map.clone(), record_len));
    let (mut first_ms, mut last_ms) = (None, None);
    let walk = dbf::walk(piece.bytes(), start, record_len, |at, record| {
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
    warn_about(b, &walk, declared, record_len);
    b.add_packet(Packet {
        source: piece.name().to_string(),
        first_ms,
        last_ms,
        events: Box::new(events),
    });
    walk.live
}

/// One warning each for a stale count, deleted records, a trailing partial
/// record and bytes after the end mark.
fn warn_about(b: &mut ProfileBuilder, w: &dbf::Walk, declared: Option<u32>, record_len: usize) {
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
