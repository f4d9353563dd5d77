//! A followed trace read as it grows (formats.md § Following a trace):
//! the trace's rules carry on from where the last update stopped, each
//! thread's open calls kept, so that an update reads the records that
//! came, not the trace so far.
//!
//! [`Resume`] keeps a builder holding every record read so far, and where
//! each piece (the file given, then its numbered packets) was read to.
//! [`Resume::feed`] reads the whole records each piece gained the plain
//! way, through the reference reader's own steps for a line and a record
//! (`reference::deldbe_line`, `reference::dbf_record`) and so the
//! format's rules (`rules.rs`); [`Resume::profile`] finishes a clone of
//! the builder (calls still open closed at their time so far and counted
//! under `open_calls`, as `Rules::finish` does for a live trace) while
//! the original goes on. Its profile is the one a load of the same bytes
//! makes with the trace live; a property test (`tests/properties.rs`)
//! holds the two together on generated, cut and flipped traces.
//!
//! Pieces are read in order, as a load reads them. Where the bytes change
//! what was read already, `feed` says so ([`Restart`]) and the follower
//! starts a new read from the bytes it kept: a piece before the last one
//! read grew (a packet written to after the next began), a piece shrank
//! (written anew), a packet appeared between two already listed, the
//! first piece's layout changed, or what decides where a piece's records
//! begin (a DELDBE piece's first non-blank line, which may name its
//! fields; a DBF packet's own header) came out otherwise once records of
//! it were read. Before any record of a piece is read its start is
//! decided again on every feed, at no cost.
//!
//! Warnings a load gives once a piece is read (a DBF piece's deleted,
//! partial and trailing records) and those about missing packets are
//! given in the finished clone, about their piece: a list past the
//! warning budget (`budget.rs`) may keep other ones whole than a load's
//! would; the counts are the same.

use super::dbf::{self, ColMap, Header};
use super::deldbe::{Layout, body_start};
use super::events::Decoder;
use super::foxdbe::{column_map, counted, own_header_of, warn_about};
use super::reference::{Calls, PacketOf, dbf_record, deldbe_line};
use super::row::Col;
use super::{Xpp, bad_columns, invalid, looks_like_dbf, packets, warn_missing};
use crate::{Input, InvalidKind, LoadError, LoadOptions, Loader};
use profx_model::{Place, Profile, ProfileBuilder};
use std::ops::ControlFlow;
use std::sync::Arc;

/// One piece as the follower holds it: its name and its whole records so
/// far (a partial last line or record is cut off).
pub(crate) type Piece<'a> = (&'a str, &'a [u8]);

/// The bytes changed what was read already: start a new read.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Restart;

/// A trace's records read so far, and the state to read on from.
#[derive(Debug)]
pub(crate) struct Resume {
    opts: LoadOptions,
    b: ProfileBuilder,
    body: Body,
    reads: Vec<Read>,
    /// The last piece any byte was read from: the pieces before it are
    /// read to their end.
    last: usize,
}

/// How the trace's records are cut, and the rules they feed.
#[derive(Debug)]
enum Body {
    /// Lines; the rules are made with the first record, which says
    /// whether the trace is timed.
    Deldbe {
        calls: Option<Calls>,
        /// The layout `--columns` gives, or none found yet.
        first: Layout,
    },
    /// Records of the header's length.
    Dbf {
        header: Header,
        map: Arc<ColMap>,
        calls: Calls,
    },
}

/// What was read of one piece.
#[derive(Debug)]
struct Read {
    name: String,
    /// Its input's number in the builder (its warnings' source).
    source: usize,
    /// Where its records begin, and (DELDBE) the layout they are read
    /// with and the number of the line before `start`.
    start: Start,
    /// Read up to here.
    at: usize,
    /// DELDBE: the number of the line that begins at `at`.
    line: u64,
    /// Its length at the last feed.
    seen: usize,
    /// Whether any record, or warning, was made of its bytes.
    made: bool,
    packet: PacketOf,
    /// DBF: what its walk found so far besides live records.
    walk: dbf::Walk,
}

#[derive(Clone, Debug, PartialEq)]
struct Start {
    at: usize,
    lines_before: u64,
    layout: Layout,
}

impl Resume {
    /// A read of a trace whose pieces are `pieces`, nothing read yet;
    /// `None` for what only a load reads (a numbered packet followed on
    /// its own, a DBF header that does not hold, a range to cut to): the
    /// follower loads such a trace whole on every update.
    pub(crate) fn new(
        pieces: &[Piece<'_>],
        opts: &LoadOptions,
    ) -> Result<Option<Resume>, LoadError> {
        let Some(&(name, bytes)) = pieces.first() else {
            return Ok(None);
        };
        if opts.range.is_some() || packets::split_numbered(name).is_some() {
            return Ok(None);
        }
        let placeholder = Input::owned(name, Vec::new());
        let xpp: &dyn Loader = &Xpp;
        let mut b = crate::builder_for(name, xpp, opts);
        super::state_facts(&mut b);
        let body = match dbf::header(bytes, Some(bytes.len())) {
            Ok(header) => {
                let map = column_map(&placeholder, &header, opts)?;
                let calls = Calls::new(&mut b, map.has(Col::Time), opts.threads.as_deref());
                Body::Dbf { header, map, calls }
            }
            Err(_) if looks_like_dbf(bytes) => return Ok(None),
            Err(_) => Body::Deldbe {
                calls: None,
                first: match &opts.columns {
                    Some(list) => Layout::Fixed(
                        Col::parse_list(list).map_err(|e| bad_columns(&placeholder, e))?,
                    ),
                    None => Layout::Anchored,
                },
            },
        };
        Ok(Some(Resume {
            opts: opts.clone(),
            b,
            body,
            reads: Vec::new(),
            last: 0,
        }))
    }

    /// Reads what `pieces` gained since the last feed: the first of them
    /// the file given, the rest its numbered packets in numeric order.
    pub(crate) fn feed(&mut self, pieces: &[Piece<'_>]) -> Result<(), Restart> {
        self.same_layout(pieces)?;
        self.list(pieces)?;
        let mut carry = self.first_layout();
        for (i, &(_, bytes)) in pieces.iter().enumerate() {
            let start = self.start_of(i, bytes, &carry);
            let r = &mut self.reads[i];
            if bytes.len() < r.seen || (i < self.last && bytes.len() != r.seen) {
                return Err(Restart);
            }
            if start != r.start {
                if r.made || i < self.last {
                    return Err(Restart);
                }
                let decoder = self.body.decoder(&start.layout);
                let r = &mut self.reads[i];
                r.packet = PacketOf::new(&Input::owned(&r.name, Vec::new()), decoder, &self.opts);
                (r.at, r.line, r.start) = (start.at, start.lines_before + 1, start);
            }
            carry = self.reads[i].start.layout.clone();
        }
        for (i, &(_, bytes)) in pieces.iter().enumerate().skip(self.last) {
            self.b.warn_into(self.reads[i].source);
            self.read(i, bytes);
            self.reads[i].seen = bytes.len();
            if self.reads[i].at > self.reads[i].start.at || self.reads[i].made {
                self.last = i;
            }
        }
        Ok(())
    }

    /// The profile of every record read, the trace still live, as a load
    /// of `inputs` (the pieces fed last, shared) makes it.
    pub(crate) fn profile(&self, inputs: &[Input]) -> Result<Profile, LoadError> {
        let Some(first) = inputs.first() else {
            return Err(LoadError::NoInput);
        };
        let mut b = self.b.clone();
        let numbered: Vec<(u64, String)> = inputs[1..]
            .iter()
            .filter_map(|p| Some((packets::split_numbered(p.name())?.1, p.name().to_string())))
            .collect();
        warn_missing(packets::missing(first.name(), &numbered), 0, &mut b);
        for (r, input) in self.reads.iter().zip(inputs) {
            b.add_packet(r.packet.so_far(input.clone()));
        }
        match &self.body {
            Body::Deldbe { calls: None, .. } => {
                return Err(invalid(
                    first,
                    (Place::Line(1), InvalidKind::NoRecords),
                    "no trace record in the file".into(),
                ));
            }
            Body::Deldbe {
                calls: Some(calls), ..
            } => calls.finish(&mut b, first.name(), true),
            Body::Dbf { header, calls, .. } => {
                let (mut live, mut present) = (0, 0);
                for r in &self.reads {
                    warn_about(&mut b, r.source, &r.walk, header.record_len);
                    live += r.walk.live;
                    present += r.walk.live + r.walk.deleted;
                }
                counted(&mut b, inputs, header, (true, true), (0, live, present))?;
                calls.finish(&mut b, first.name(), true);
            }
        }
        let opts = LoadOptions {
            format: Some(super::super::follow::FOLLOWED.into()),
            packets: Some(inputs[1..].to_vec()),
            live: true,
            ..self.opts.clone()
        };
        crate::made(b, first, &Xpp, &opts)
    }

    /// The first piece still cut as it was: a DBF header of the same
    /// fields and lengths (its record count is rewritten as records come),
    /// or still no DBF at all.
    fn same_layout(&self, pieces: &[Piece<'_>]) -> Result<(), Restart> {
        let Some(&(_, bytes)) = pieces.first() else {
            return Err(Restart);
        };
        let now = dbf::header(bytes, Some(bytes.len()));
        let same = match (&self.body, now) {
            (Body::Dbf { header, .. }, Ok(h)) => {
                (h.header_len, h.record_len, &h.fields)
                    == (header.header_len, header.record_len, &header.fields)
            }
            (Body::Deldbe { .. }, Err(_)) => !looks_like_dbf(bytes),
            _ => false,
        };
        if same { Ok(()) } else { Err(Restart) }
    }

    /// Takes up the pieces listed: those listed before, in the same
    /// order, then new ones, each a source of its own as a load makes it.
    fn list(&mut self, pieces: &[Piece<'_>]) -> Result<(), Restart> {
        if pieces.len() < self.reads.len()
            || self
                .reads
                .iter()
                .zip(pieces)
                .any(|(r, &(name, _))| r.name != name)
        {
            return Err(Restart);
        }
        for &(name, _) in &pieces[self.reads.len()..] {
            let first = self.reads.is_empty();
            if !first {
                self.b.begin_source(name);
            }
            let start = Start {
                at: usize::MAX,
                lines_before: 0,
                layout: Layout::Anchored,
            };
            let decoder = self.body.decoder(&start.layout);
            self.reads.push(Read {
                name: name.to_string(),
                source: self.b.current_source(),
                start,
                at: 0,
                line: 1,
                seen: 0,
                made: false,
                packet: PacketOf::new(&Input::owned(name, Vec::new()), decoder, &self.opts),
                walk: dbf::Walk::default(),
            });
        }
        Ok(())
    }

    fn first_layout(&self) -> Layout {
        match &self.body {
            Body::Deldbe { first, .. } => first.clone(),
            Body::Dbf { .. } => Layout::Anchored,
        }
    }

    /// Where piece `i`'s records begin in `bytes`, read with the layout
    /// the pieces before it leave (`carry`), as a load decides it.
    fn start_of(&self, i: usize, bytes: &[u8], carry: &Layout) -> Start {
        match &self.body {
            Body::Deldbe { .. } => {
                let mut layout = carry.clone();
                let (at, lines_before) = body_start(bytes, &self.opts, &mut layout);
                Start {
                    at,
                    lines_before,
                    layout,
                }
            }
            Body::Dbf { header, .. } => Start {
                at: match i {
                    0 => header.header_len,
                    _ => own_header_of(bytes, header),
                },
                lines_before: 0,
                layout: Layout::Anchored,
            },
        }
    }

    /// Reads piece `i`'s whole records from where it was left.
    fn read(&mut self, i: usize, bytes: &[u8]) {
        let Resume {
            opts,
            b,
            body,
            reads,
            ..
        } = self;
        let r = &mut reads[i];
        match body {
            Body::Deldbe { calls, .. } => {
                while r.at < bytes.len() {
                    let rest = &bytes[r.at..];
                    let Some(end) = rest.iter().position(|&c| c == b'\n') else {
                        break;
                    };
                    let mut line = &rest[..end];
                    let mut offset = r.at;
                    // A load reads a piece's lines from their start with
                    // `numbered_lines`, which passes over a byte order mark.
                    if r.at == r.start.at && line.starts_with(b"\xEF\xBB\xBF") {
                        (line, offset) = (&line[3..], offset + 3);
                    }
                    let line = line.strip_suffix(b"\r").unwrap_or(line);
                    r.made |= deldbe_line(
                        b,
                        (line, r.line, offset as u64),
                        &r.start.layout,
                        opts,
                        (calls, &mut r.packet),
                    );
                    r.at += end + 1;
                    r.line += 1;
                }
            }
            Body::Dbf {
                header, map, calls, ..
            } => {
                // Nothing after an end mark is read; what came after it
                // is counted (`warn_about`).
                if let Some((at, _)) = r.walk.end_mark {
                    r.walk.end_mark = Some((at, bytes.len() - at - 1));
                    return;
                }
                let len = header.record_len;
                let walk = dbf::walk(bytes, r.at, len, |at, record| {
                    dbf_record(b, (record, at), map, (calls, &mut r.packet));
                    ControlFlow::Continue(())
                });
                let records = walk.live + walk.deleted;
                r.at += usize::try_from(records).unwrap_or(usize::MAX) * len;
                r.made |= records > 0;
                let w = &mut r.walk;
                w.live += walk.live;
                w.deleted += walk.deleted;
                w.first_deleted = w.first_deleted.or(walk.first_deleted);
                w.partial = walk.partial;
                w.end_mark = walk.end_mark;
            }
        }
    }
}

impl Body {
    fn decoder(&self, layout: &Layout) -> Decoder {
        match self {
            Body::Deldbe { .. } => Decoder::Deldbe(layout.clone()),
            Body::Dbf { header, map, .. } => Decoder::Dbf(map.clone(), header.record_len),
        }
    }
}
