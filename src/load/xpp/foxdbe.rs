//! Loading FOXDBE (DBF) pieces: the header packet and its numbered packets,
//! which hold records only (a packet that starts with a header of the same
//! layout has it skipped). Record counts come from the bytes present; the
//! header packet's count is the whole trace's (formats.md), so it is
//! compared with the records of every piece together.

use super::batch::{Batch, Ev, warn_skipped};
use super::dbf::{self, ColMap, Header};
use super::events::{Decoder, TraceEvents};
use super::invalid;
use super::replay::Replay;
use super::row::Col;
use crate::load::names::{NameMaps, WorkerNames};
use crate::load::{Input, KeepEvents, LoadError, LoadOptions, parallel};
use crate::model::{Packet, Place, ProfileBuilder};
use std::ops::Range;
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
    super::within_reach(pieces)?;
    let first = &pieces[0];
    let map = column_map(first, header, opts)?;
    let mut replay = Replay::new(b, map.has(Col::Time));
    each_piece(b, pieces, header, first_has_header, |b, piece, start| {
        let records = Records {
            start,
            len: header.record_len,
            chunk: opts.chunk_bytes.unwrap_or(parallel::CHUNK),
            events: opts.events,
        };
        load_piece(piece, &records, &map, &mut replay, b)
    })?;
    replay.finish(b, first.name());
    Ok(())
}

/// Reads each piece in turn with `read` (each but the first a source of
/// its own), given where its records start, then checks the records of
/// them all (`counted`).
pub(super) fn each_piece(
    b: &mut ProfileBuilder,
    pieces: &[Input],
    header: &Header,
    first_has_header: bool,
    mut read: impl FnMut(&mut ProfileBuilder, &Input, usize) -> dbf::Walk,
) -> Result<(), LoadError> {
    let (mut live, mut present) = (0, 0);
    let header_source = b.current_source();
    for (i, piece) in pieces.iter().enumerate() {
        if i > 0 {
            b.begin_source(piece.name());
        }
        let start = match (i, first_has_header) {
            (0, true) => header.header_len,
            _ => own_header(piece, header),
        };
        let walk = read(b, piece, start);
        live += walk.live;
        present += walk.live + walk.deleted;
    }
    counted(
        b,
        pieces,
        header,
        first_has_header,
        (header_source, live, present),
    )
}

/// The record count a header packet declares against the records present
/// in every piece (a numbered packet opened alone is part of the trace the
/// count is of), and a trace with no live record refused; the last is (the
/// header's source, live records, records present).
fn counted(
    b: &mut ProfileBuilder,
    pieces: &[Input],
    header: &Header,
    first_has_header: bool,
    (header_source, live, present): (usize, u64, u64),
) -> Result<(), LoadError> {
    if first_has_header && u64::from(header.declared) != present {
        let n = header.declared;
        let of = match pieces.len() {
            1 => format!("{present} are present"),
            k => format!("{present} are present in its {k} pieces"),
        };
        let msg = format!("header says {n} records, {of}; read what is present");
        b.warn_in(header_source, Place::Offset(4), msg);
    }
    if live == 0 {
        let at = if first_has_header {
            header.header_len
        } else {
            0
        };
        let reason = "no trace record in the table".into();
        return Err(invalid(&pieces[0], format!("offset {at}"), reason));
    }
    Ok(())
}

/// Where each trace field is in `header`'s records (`--columns` names
/// them when the field names do not).
pub(super) fn column_map(
    first: &Input,
    header: &Header,
    opts: &LoadOptions,
) -> Result<Arc<ColMap>, LoadError> {
    let columns = opts.columns.as_deref().map(Col::parse_list).transpose();
    let columns = columns.map_err(|e| invalid(first, "--columns".into(), e))?;
    let map = ColMap::new(header.fields.clone(), columns.as_deref());
    Ok(Arc::new(
        map.map_err(|e| invalid(first, "offset 32".into(), e))?,
    ))
}

/// Where a packet's records start: after a header of the same layout, if
/// it has one, else at once.
pub(super) fn own_header(piece: &Input, header: &Header) -> usize {
    let bytes = piece.bytes();
    match dbf::header(bytes, Some(bytes.len())) {
        Ok(h) if h.fields == header.fields && h.record_len == header.record_len => h.header_len,
        _ => 0,
    }
}

/// One piece's records into the replay and a packet; returns what the walk
/// over its records found. Workers decode runs of whole records
/// (`load::parallel`); this thread replays them in order and stops at an
/// end-of-file mark.
fn load_piece(
    piece: &Input,
    records: &Records,
    map: &Arc<ColMap>,
    replay: &mut Replay,
    b: &mut ProfileBuilder,
) -> dbf::Walk {
    let bytes = piece.bytes();
    let record_len = records.len;
    let mut events = TraceEvents::new(
        piece.clone(),
        Decoder::Dbf(map.clone(), record_len),
        records.events,
    );
    let (mut first_ms, mut last_ms) = (None, None);
    let chunks = parallel::record_chunks(bytes.len(), records.start, record_len, records.chunk);
    let mut maps = NameMaps::default();
    let mut walk = dbf::Walk::default();
    let mut done = 0;
    parallel::ordered_reusing(
        &chunks,
        |_| WorkerNames::kept(),
        |names, range, spare| {
            let batch = Batch::reusing(spare);
            let batch = parse_records(bytes, range.clone(), record_len, map, names, batch);
            // A batch holds no bytes of the input: its pages can go now,
            // not when the replay is done with the batch.
            piece.forget(range);
            batch
        },
        |worker, mut batch| {
            let map = maps.learn(worker, &batch.new_names, b);
            let skipped = std::mem::take(&mut batch.skipped);
            warn_skipped(b, skipped, Place::Offset, "skipped");
            let place = |ev: &Ev| Place::Offset(ev.offset());
            replay.batch(b, &batch.events, map, place, |ev, step| {
                events.push(ev.offset(), step);
                first_ms = first_ms.or(ev.time());
                last_ms = ev.time().or(last_ms);
            });
            merge(&mut walk, batch.extra, bytes.len());
            piece.mark_read(chunks[done].end);
            done += 1;
            (walk.end_mark.is_none(), batch.events)
        },
    );
    warn_about(b, &walk, record_len);
    b.add_packet(Packet {
        source: piece.name().to_string(),
        first_ms,
        last_ms,
        events: Box::new(events),
    });
    walk
}

/// Where a piece's records are and how to cut them.
struct Records {
    start: usize,
    len: usize,
    /// Bytes a parsing chunk holds.
    chunk: usize,
    /// What the packet keeps of the records it reads as events.
    events: KeepEvents,
}

/// Decodes the records of `bytes[range]` into `batch` (empty); its extra
/// is what the walk over them found.
fn parse_records(
    bytes: &[u8],
    range: Range<usize>,
    record_len: usize,
    map: &ColMap,
    names: &mut WorkerNames,
    mut batch: Batch<dbf::Walk>,
) -> Batch<dbf::Walk> {
    let walk = dbf::walk(
        &bytes[..range.end],
        range.start,
        record_len,
        |at, record| match map.fast_row(record) {
            Some(r) => batch.push_fast(names, &r, at as u64),
            None => match map.row(record) {
                Ok(row) => batch.push(names, &row, at as u64),
                Err(why) => batch.skipped.push(at as u64, why),
            },
        },
    );
    batch.extra = walk;
    batch.new_names = names.take();
    batch
}

/// Adds a chunk's walk to the piece's so far (`len`: the piece's size, for
/// the count of bytes after an end mark).
fn merge(total: &mut dbf::Walk, chunk: dbf::Walk, len: usize) {
    total.live += chunk.live;
    total.deleted += chunk.deleted;
    total.first_deleted = total.first_deleted.or(chunk.first_deleted);
    total.partial = chunk.partial.or(total.partial);
    total.end_mark = chunk.end_mark.map(|(at, _)| (at, len - at - 1));
}

/// One warning each for deleted records, a trailing partial record and
/// bytes after the end mark.
pub(super) fn warn_about(b: &mut ProfileBuilder, w: &dbf::Walk, record_len: usize) {
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
