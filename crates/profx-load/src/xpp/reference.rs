//! The Xbase++ trace reference loader: the format's records read the plain
//! way, a record at a time, on one thread, and fed to the format's rules
//! (`rules.rs`). Read the two to learn the format; `Xpp::load` (the engine
//! in `fast/`) reads the same records faster and feeds the same rules, and
//! a property test (`tests/properties.rs`) holds the two to the same
//! `--json`, events and warnings on generated, cut and flipped traces.
//!
//! A trace is one record per event: thread, time (ms since the program
//! started), op, call, line, parameters (`row.rs`). It is a FoxPro DBF
//! table (FOXDBE: `dbf.rs` reads the header and the records) or
//! comma-delimited text (DELDBE: `deldbe.rs` splits a line and finds its
//! fields), and it may be written in packets, `NAME.PRF` then
//! `NAME.PRF.000001…` (`packets.rs`), read as one trace with a packet each.
//!
//! What each record does (the ops' rules: calls opened, marked and closed
//! per thread, and their times) is in `rules.rs`, which the fast engine
//! feeds too; this file is how bytes become those records, the plain way.

use super::dbf::{self, ColMap, Header};
use super::deldbe::{self, Layout, body_start, split};
use super::events::{Decoder, Step, TraceEvents};
use super::foxdbe::{column_map, each_piece, warn_about};
use super::row::{Col, Row};
use super::rules::{Op, Record, Rules};
use super::{
    Detection, bad_columns, detect_deldbe, invalid, looks_like_dbf, packet_header, packets,
    with_siblings,
};
use crate::problem::Problem;
use crate::split::{MAX_LINE, numbered_lines};
use crate::watch::{STEP, Watched};
use crate::{Input, InvalidKind, LoadError, LoadOptions};
use profx_model::text::decode;
use profx_model::{Packet, Place, ProfileBuilder};
use std::ops::ControlFlow;

/// Loads `input` (and its packets) into `b`; `watched` may stop it.
pub(super) fn load(
    input: &Input,
    opts: &LoadOptions,
    watched: &Watched<'_>,
    b: &mut ProfileBuilder,
) -> Result<(), LoadError> {
    let bytes = input.bytes();
    match dbf::header(bytes, Some(bytes.len())) {
        Ok(header) => {
            let pieces = with_siblings(input, opts, b);
            return load_dbf(&pieces, (&header, true), (opts, watched), b);
        }
        Err(why) if packets::split_numbered(input.name()).is_none() && looks_like_dbf(bytes) => {
            return Err(invalid(
                input,
                (Place::Offset(0), InvalidKind::BadHeader),
                format!("not a DBF trace: {why}"),
            ));
        }
        Err(_) => {}
    }
    if let Some((base, _)) = packets::split_numbered(input.name())
        && detect_deldbe(bytes, true) != Detection::Yes
    {
        // A numbered packet of DBF records only: the header is its NAME.PRF's.
        let header = packet_header(input, base)?;
        let pieces = std::slice::from_ref(input);
        return load_dbf(pieces, (&header, false), (opts, watched), b);
    }
    load_deldbe(&with_siblings(input, opts, b), (opts, watched), b)
}

/// DELDBE pieces: each line a record; a first line of field names sets the
/// layout, else the op (`i I O o`) anchors the fields around it.
fn load_deldbe(
    pieces: &[Input],
    (opts, watched): (&LoadOptions, &Watched<'_>),
    b: &mut ProfileBuilder,
) -> Result<(), LoadError> {
    super::within_reach(pieces)?;
    watched.expect(pieces.iter().map(Input::len).sum());
    let mut layout = match &opts.columns {
        Some(list) => Layout::Fixed(Col::parse_list(list).map_err(|e| bad_columns(&pieces[0], e))?),
        None => Layout::Anchored,
    };
    let mut calls: Option<Calls> = None;
    for (i, piece) in pieces.iter().enumerate() {
        if i > 0 {
            b.begin_source(piece.name());
        }
        let bytes = piece.bytes();
        let (start, lines_before) = body_start(bytes, opts, &mut layout);
        let decoder = Decoder::Deldbe(layout.clone());
        let mut packet = PacketOf::new(piece, decoder, opts);
        let mut look_at = 0;
        for (k, line) in numbered_lines(&bytes[start..]) {
            let n = lines_before + k;
            let offset = (line.as_ptr() as usize - bytes.as_ptr() as usize) as u64;
            if offset >= look_at {
                if !watched.read(offset as usize) {
                    return Err(LoadError::Cancelled);
                }
                look_at = offset + STEP as u64;
            }
            deldbe_line(
                b,
                (line, n, offset),
                &layout,
                opts,
                (&mut calls, &mut packet),
            );
        }
        b.add_packet(packet.done());
        watched.piece_read(piece.len());
    }
    let Some(calls) = calls else {
        return Err(invalid(
            &pieces[0],
            (Place::Line(1), InvalidKind::NoRecords),
            "no trace record in the file".into(),
        ));
    };
    calls.finish(b, pieces[0].name(), opts.live);
    Ok(())
}

/// One DELDBE line (its bytes, number and offset in its piece), read
/// with `layout`: a record fed to the rules (made with the first, which
/// says whether the trace is timed) and its event to the piece's packet;
/// a blank line nothing; any other a warning. Whether it made anything.
/// A followed trace's resumable read (`resume.rs`) reads its lines here
/// too.
pub(super) fn deldbe_line(
    b: &mut ProfileBuilder,
    (line, n, offset): (&[u8], u64, u64),
    layout: &Layout,
    opts: &LoadOptions,
    (calls, packet): (&mut Option<Calls>, &mut PacketOf),
) -> bool {
    if line.len() > MAX_LINE {
        let why = super::line_too_long(line.len());
        skipped(b, Place::Line(n), &why, "line skipped");
        return true;
    }
    let text = decode(line);
    if text.trim().is_empty() {
        return false;
    }
    let mut fields = Vec::new();
    split(&text, &mut fields);
    match deldbe::row(&text, &fields, layout) {
        Ok(row) => {
            // Whether the trace is timed is the first record's say.
            let timed = layout.has_time(&fields);
            let c = calls.get_or_insert_with(|| Calls::new(b, timed, opts.threads.as_deref()));
            if let Some(step) = c.event(b, &row, Place::Line(n)) {
                packet.event(offset, step, row.time);
            }
        }
        Err(why) => skipped(b, Place::Line(n), &why, "line skipped"),
    }
    true
}

/// FOXDBE pieces, read with `header`'s fields (`first_has_header`: the first
/// piece is the header packet itself).
fn load_dbf(
    pieces: &[Input],
    (header, first_has_header): (&Header, bool),
    (opts, watched): (&LoadOptions, &Watched<'_>),
    b: &mut ProfileBuilder,
) -> Result<(), LoadError> {
    super::within_reach(pieces)?;
    watched.expect(pieces.iter().map(Input::len).sum());
    let first = &pieces[0];
    let map = column_map(first, header, opts)?;
    let mut calls = Calls::new(b, map.has(Col::Time), opts.threads.as_deref());
    each_piece(
        b,
        pieces,
        (header, first_has_header, opts.live),
        |b, piece, start| {
            let decoder = Decoder::Dbf(map.clone(), header.record_len);
            let mut packet = PacketOf::new(piece, decoder, opts);
            let mut look_at = 0;
            let walk = dbf::walk(piece.bytes(), start, header.record_len, |at, record| {
                if at >= look_at {
                    if !watched.read(at) {
                        return ControlFlow::Break(());
                    }
                    look_at = at + STEP;
                }
                dbf_record(b, (record, at), &map, (&mut calls, &mut packet));
                ControlFlow::Continue(())
            });
            watched.check()?;
            warn_about(b, b.current_source(), &walk, header.record_len);
            b.add_packet(packet.done());
            watched.piece_read(piece.len());
            Ok(walk)
        },
    )?;
    calls.finish(b, first.name(), opts.live);
    Ok(())
}

/// One live DBF record at offset `at` of its piece, read with `map`: fed
/// to the rules and its event to the piece's packet, or a warning. The
/// resumable read (`resume.rs`) reads its records here too.
pub(super) fn dbf_record(
    b: &mut ProfileBuilder,
    (record, at): (&[u8], usize),
    map: &ColMap,
    (calls, packet): (&mut Calls, &mut PacketOf),
) {
    let place = Place::Offset(at as u64);
    match map.row(record) {
        Ok(row) => {
            if let Some(step) = calls.event(b, &row, place) {
                packet.event(at as u64, step, row.time);
            }
        }
        Err(why) => skipped(b, place, &why, "skipped"),
    }
}

fn skipped(b: &mut ProfileBuilder, place: Place, why: &Problem, what: &str) {
    b.warn(
        place,
        why.kind,
        format!("not a trace record: {why}; {what}"),
    );
}

/// A piece's packet: its events as the Trace pane shows them, and the
/// times of its first and last timed events.
#[derive(Debug)]
pub(super) struct PacketOf {
    source: String,
    events: TraceEvents,
    first_ms: Option<f64>,
    last_ms: Option<f64>,
}

impl PacketOf {
    pub(super) fn new(piece: &Input, decoder: Decoder, opts: &LoadOptions) -> Self {
        PacketOf {
            source: piece.name().to_string(),
            events: TraceEvents::new(piece.clone(), decoder, opts.events),
            first_ms: None,
            last_ms: None,
        }
    }

    fn event(&mut self, offset: u64, step: Step, time: Option<f64>) {
        self.events.push(offset, step);
        self.first_ms = self.first_ms.or(time);
        self.last_ms = time.or(self.last_ms);
    }

    /// The packet so far, its events read back from `input`: the piece's
    /// bytes as they are now (a followed trace's update, `resume.rs`).
    pub(super) fn so_far(&self, input: Input) -> Packet {
        Packet {
            source: self.source.clone(),
            first_ms: self.first_ms,
            last_ms: self.last_ms,
            events: std::sync::Arc::new(self.events.over(input)),
        }
    }

    pub(super) fn done(self) -> Packet {
        Packet {
            source: self.source,
            first_ms: self.first_ms,
            last_ms: self.last_ms,
            events: std::sync::Arc::new(self.events),
        }
    }
}

/// The rows' records, fed to the trace's rules (`rules.rs`), which both
/// loaders share.
#[derive(Debug)]
pub(super) struct Calls {
    rules: Rules,
}

impl Calls {
    pub(super) fn new(b: &mut ProfileBuilder, timed: bool, threads: Option<&[u64]>) -> Calls {
        Calls {
            rules: Rules::new(b, timed, threads),
        }
    }

    /// One row; what the Trace pane shows of it.
    fn event(&mut self, b: &mut ProfileBuilder, row: &Row<'_>, place: Place) -> Option<Step> {
        let call = b.intern(&row.call);
        let op = Op::of(&row.op, |op| b.intern(op));
        let record = Record {
            thread: row.thread.unwrap_or(0),
            time: row.time,
            op,
            call,
            line: row.line,
        };
        self.rules.event(b, record, &|| place.clone())
    }

    /// Closes the calls still open (`Rules::finish`).
    pub(super) fn finish(&self, b: &mut ProfileBuilder, source: &str, live: bool) {
        self.rules.finish(b, source, live);
    }
}
