//! The DELDBE engine: the opened file and its numbered packets, one
//! trace, a packet per piece; workers read chunks of lines on every core
//! (`record.rs` the common line at byte level, `../deldbe.rs` any other),
//! this thread replays them in order (`replay.rs`).

use super::batch::{Batch, Ev, warn_skipped};
use super::record;
use super::replay::Replay;
use crate::names::{NameMaps, WorkerNames};
use crate::split::MAX_LINE;
use crate::watch::Watched;
use crate::xpp::deldbe::{self, Field, Layout, body_start, split};
use crate::xpp::events::{Decoder, TraceEvents};
use crate::xpp::row::Col;
use crate::xpp::{bad_columns, invalid};
use crate::{Input, InvalidKind, LoadError, LoadOptions, parallel};
use profx_model::text::decode;
use profx_model::{Packet, Place, ProfileBuilder};
use std::borrow::Cow;
use std::cell::Cell;
use std::ops::Range;

/// Loads `pieces` as one trace; `watched` may stop it.
pub(crate) fn load(
    pieces: &[Input],
    opts: &LoadOptions,
    watched: &Watched<'_>,
    b: &mut ProfileBuilder,
) -> Result<(), LoadError> {
    crate::xpp::within_reach(pieces)?;
    watched.expect(pieces.iter().map(Input::len).sum());
    let first = &pieces[0];
    let mut layout = match &opts.columns {
        Some(list) => Layout::Fixed(Col::parse_list(list).map_err(|e| bad_columns(first, e))?),
        None => Layout::Anchored,
    };
    let mut replay = None;
    for (i, piece) in pieces.iter().enumerate() {
        if i > 0 {
            b.begin_source(piece.name());
        }
        let packet = load_piece(piece, (opts, watched), &mut layout, &mut replay, b);
        watched.check()?;
        watched.piece_read(piece.len());
        b.add_packet(packet);
    }
    let Some(replay) = replay else {
        return Err(invalid(
            first,
            (Place::Line(1), InvalidKind::NoRecords),
            "no trace record in the file".into(),
        ));
    };
    replay.finish(b, first.name(), opts.live);
    Ok(())
}

/// One piece's records into the replay; returns its packet. Workers parse
/// chunks of lines (`load::parallel`); this thread replays them in order,
/// until `watched` says stop.
fn load_piece(
    piece: &Input,
    (opts, watched): (&LoadOptions, &Watched<'_>),
    layout: &mut Layout,
    replay: &mut Option<Replay>,
    b: &mut ProfileBuilder,
) -> Packet {
    let bytes = piece.bytes();
    let (start, mut lines_before) = body_start(bytes, opts, layout);
    let size = parallel::chunk_bytes(opts, watched);
    let chunks = parallel::input_line_chunks(piece, start, size);
    let mut events = TraceEvents::new(piece.clone(), Decoder::Deldbe(layout.clone()), opts.events);
    let (mut first_ms, mut last_ms) = (None, None);
    let mut maps = NameMaps::default();
    let mut done = 0;
    parallel::ordered_until(
        parallel::parsers(opts),
        &chunks,
        &|| watched.stop(),
        |_| WorkerNames::kept(),
        |names, range, spare| {
            let batch = parse_chunk(bytes, range.clone(), layout, names, Batch::reusing(spare));
            // A batch holds no bytes of the input: its pages can go now,
            // not when the replay is done with the batch.
            piece.forget(range);
            batch
        },
        |worker, mut batch| {
            let map = maps.learn(worker, &batch.new_names, b);
            let lines = LineOf::new(bytes, chunks[done].start, lines_before);
            let skipped = std::mem::take(&mut batch.skipped);
            warn_skipped(b, skipped, |at| Place::Line(lines.nth(at)), "line skipped");
            if let Some(timed) = batch.first_timed {
                let rp =
                    replay.get_or_insert_with(|| Replay::new(b, timed, opts.threads.as_deref()));
                let place = |ev: &Ev| Place::Line(lines.line(ev.offset()));
                rp.batch(b, &batch.events, map, place, |ev, step| {
                    events.push(ev.offset(), step);
                    first_ms = first_ms.or(ev.time());
                    last_ms = ev.time().or(last_ms);
                });
            }
            lines_before += batch.extra;
            piece.mark_read(chunks[done].end);
            let go_on = watched.read(chunks[done].end);
            done += 1;
            (go_on, batch.events)
        },
    );
    Packet {
        source: piece.name().to_string(),
        first_ms,
        last_ms,
        events: std::sync::Arc::new(events),
    }
}

/// A chunk's line numbers: of a skipped line by its index in the chunk,
/// and of an event by its offset, for the few events that warn (an event
/// keeps its offset only): newlines are counted from the chunk's start,
/// on from the last offset asked about, since a batch's warnings come in
/// file order.
struct LineOf<'a> {
    bytes: &'a [u8],
    start: usize,
    lines_before: u64,
    /// An offset asked about and the newlines from `start` to it.
    counted: Cell<(usize, u64)>,
}

impl<'a> LineOf<'a> {
    fn new(bytes: &'a [u8], start: usize, lines_before: u64) -> Self {
        LineOf {
            bytes,
            start,
            lines_before,
            counted: Cell::new((start, 0)),
        }
    }

    /// The line (from 1) that is the chunk's `index`th (from 0).
    fn nth(&self, index: u64) -> u64 {
        self.lines_before + index + 1
    }

    /// The line (from 1) holding the byte at `offset` in the chunk.
    fn line(&self, offset: u64) -> u64 {
        let offset = usize::try_from(offset).map_or(self.bytes.len(), |o| o.min(self.bytes.len()));
        let (mut from, mut newlines) = self.counted.get();
        if offset < from {
            (from, newlines) = (self.start, 0);
        }
        let between = self.bytes.get(from..offset).unwrap_or_default();
        newlines += between.iter().filter(|&&b| b == b'\n').count() as u64;
        self.counted.set((offset.max(from), newlines));
        self.nth(newlines)
    }
}

/// Parses the lines of `bytes[range]` into `batch` (empty); its extra is
/// how many lines the chunk has. A line of the common shape is read in one pass
/// that also finds its end; any other is cut at its newline first.
fn parse_chunk(
    bytes: &[u8],
    range: Range<usize>,
    layout: &Layout,
    names: &mut WorkerNames,
    mut batch: Batch<u64>,
) -> Batch<u64> {
    let chunk = &bytes[range.clone()];
    let body = chunk.strip_suffix(b"\n").unwrap_or(chunk);
    let mut fields = Vec::with_capacity(8);
    let (mut pos, mut at) = (0, 0);
    let anchored = *layout == Layout::Anchored;
    loop {
        let rest = &body[pos..];
        let offset = (range.start + pos) as u64;
        let here = at;
        at += 1;
        let fast = record::record_at(rest).filter(|&(_, n)| anchored && n <= MAX_LINE);
        let len = match fast {
            Some((r, n)) => {
                batch.first_timed.get_or_insert(true);
                batch.push_fast(names, &r, offset);
                n + rest[n..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .unwrap_or(rest.len() - n)
            }
            None => {
                let len = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
                let line = &rest[..len];
                general_line(
                    line.strip_suffix(b"\r").unwrap_or(line),
                    &mut fields,
                    layout,
                    names,
                    &mut batch,
                    offset,
                    here,
                );
                len
            }
        };
        if len == rest.len() {
            break;
        }
        pos += len + 1;
    }
    batch.extra = at;
    batch.new_names = names.take();
    batch
}

/// A line the fast path does not read (`line` without its end).
fn general_line<'a>(
    line: &'a [u8],
    fields: &mut Vec<Field<'a>>,
    layout: &Layout,
    names: &mut WorkerNames,
    batch: &mut Batch<u64>,
    offset: u64,
    here: u64,
) {
    if line.len() > MAX_LINE {
        let why = crate::xpp::line_too_long(line.len());
        batch.skipped.push(here, why.kind, why.why);
        return;
    }
    match decode(line) {
        Cow::Borrowed(text) => parse_line(text, fields, layout, names, batch, offset, here),
        Cow::Owned(text) => parse_line(&text, &mut Vec::new(), layout, names, batch, offset, here),
    }
}

/// One line into the batch: an event, a skipped record, or nothing (blank).
fn parse_line<'a>(
    text: &'a str,
    fields: &mut Vec<Field<'a>>,
    layout: &Layout,
    names: &mut WorkerNames,
    batch: &mut Batch<u64>,
    offset: u64,
    at: u64,
) {
    if text.trim().is_empty() {
        return;
    }
    split(text, fields);
    match deldbe::row(text, fields, layout) {
        Ok(row) => {
            if batch.first_timed.is_none() {
                batch.first_timed = Some(layout.has_time(fields));
            }
            batch.push(names, &row, offset);
        }
        Err(why) => batch.skipped.push(at, why.kind, why.why),
    }
}

#[cfg(test)]
mod tests {
    use super::LineOf;

    /// A chunk's lines are numbered on from the lines before it, asked in
    /// file order or not, at a line's first byte or inside it.
    #[test]
    fn offsets_give_the_lines_that_hold_them() {
        let bytes = b"head\nA\n\nBB\r\nC";
        let lines = LineOf::new(bytes, 5, 10);
        let asked = [5, 7, 8, 9, 13, 5, 12, 99];
        let got: Vec<u64> = asked.iter().map(|&at| lines.line(at)).collect();
        assert_eq!(got, [11, 12, 13, 13, 14, 11, 14, 14]);
    }
}
