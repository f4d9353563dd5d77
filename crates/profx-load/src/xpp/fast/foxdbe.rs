//! The FOXDBE (DBF) engine: workers decode runs of whole records on every
//! core (`batch.rs`), this thread replays them in order (`replay.rs`),
//! piece after piece (`../foxdbe.rs`: what a piece is and what its counts
//! must agree with).

use super::batch::{Batch, Ev, warn_skipped};
use super::record::DbfShape;
use super::replay::Replay;
use crate::names::{NameMaps, WorkerNames};
use crate::watch::Watched;
use crate::xpp::dbf::{self, ColMap, Header};
use crate::xpp::events::{Decoder, TraceEvents};
use crate::xpp::foxdbe::{column_map, each_piece, warn_about};
use crate::xpp::row::Col;
use crate::{Input, KeepEvents, LoadError, LoadOptions, parallel};
use profx_model::{Packet, Place, ProfileBuilder};
use std::ops::{ControlFlow, Range};
use std::sync::Arc;

/// Loads `pieces` with `header`'s layout; `first_has_header` when the
/// first piece is the header packet itself; `watched` may stop it.
pub(crate) fn load(
    pieces: &[Input],
    (header, first_has_header): (&Header, bool),
    opts: &LoadOptions,
    watched: &Watched<'_>,
    b: &mut ProfileBuilder,
) -> Result<(), LoadError> {
    crate::xpp::within_reach(pieces)?;
    watched.expect(pieces.iter().map(Input::len).sum());
    let first = &pieces[0];
    let map = column_map(first, header, opts)?;
    let mut replay = Replay::new(b, map.has(Col::Time), opts.threads.as_deref());
    let shape = DbfShape::of(&map);
    each_piece(
        b,
        pieces,
        (header, first_has_header, opts.live),
        |b, piece, start| {
            let records = Records {
                start,
                len: header.record_len,
                chunk: parallel::chunk_bytes(opts, watched),
                events: opts.events,
                parsers: parallel::parsers(opts),
                shape: shape.as_ref(),
            };
            let walk = load_piece(piece, &records, &map, (&mut replay, watched), b);
            watched.check()?;
            watched.piece_read(piece.len());
            Ok(walk)
        },
    )?;
    replay.finish(b, first.name(), opts.live);
    Ok(())
}

/// One piece's records into the replay and a packet; returns what the walk
/// over its records found. Workers decode runs of whole records
/// (`load::parallel`); this thread replays them in order and stops at an
/// end-of-file mark, or where `watched` says stop.
fn load_piece(
    piece: &Input,
    records: &Records<'_>,
    map: &Arc<ColMap>,
    (replay, watched): (&mut Replay, &Watched<'_>),
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
    parallel::ordered_until(
        records.parsers,
        &chunks,
        &|| watched.stop(),
        |_| WorkerNames::kept(),
        |names, range, spare| {
            let batch = Batch::reusing(spare);
            let batch = parse_records(bytes, range.clone(), records, map, names, batch);
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
            let go_on = walk.end_mark.is_none() && watched.read(chunks[done].end);
            done += 1;
            (go_on, batch.events)
        },
    );
    warn_about(b, b.current_source(), &walk, record_len);
    b.add_packet(Packet {
        source: piece.name().to_string(),
        first_ms,
        last_ms,
        events: std::sync::Arc::new(events),
    });
    walk
}

/// Where a piece's records are, how to cut and read them.
struct Records<'a> {
    start: usize,
    len: usize,
    /// Bytes a parsing chunk holds.
    chunk: usize,
    /// What the packet keeps of the records it reads as events.
    events: KeepEvents,
    /// Parsers to run (`parallel::parsers`).
    parsers: usize,
    /// Where the columns are when the layout is the common one.
    shape: Option<&'a DbfShape>,
}

/// Decodes the records of `bytes[range]` into `batch` (empty); its extra
/// is what the walk over them found.
fn parse_records(
    bytes: &[u8],
    range: Range<usize>,
    records: &Records<'_>,
    map: &ColMap,
    names: &mut WorkerNames,
    mut batch: Batch<dbf::Walk>,
) -> Batch<dbf::Walk> {
    // Owned here: read through `records`, the shape's places would be
    // read again after every event pushed (the batch could alias them).
    let shape = records.shape.cloned();
    let walk = dbf::walk(
        &bytes[..range.end],
        range.start,
        records.len,
        |at, record| {
            match shape.as_ref().and_then(|s| s.record(record)) {
                Some(r) => batch.push_fast(names, &r, at as u64),
                None => match map.row(record) {
                    Ok(row) => batch.push(names, &row, at as u64),
                    Err(why) => batch.skipped.push(at as u64, why.kind, why.why),
                },
            }
            ControlFlow::Continue(())
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
