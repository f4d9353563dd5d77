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
//! feed; the events themselves stay in the file behind an offset index
//! (`events.rs`). A trace written in packets (`packets.rs`) is loaded as
//! one trace with a packet per piece. `reference.rs` is the format's rules
//! a record at a time (`--reference`; read it first); `fast/` reads the
//! same on every core.

mod dbf;
mod deldbe;
mod events;
mod fast;
mod foxdbe;
mod index;
pub(crate) mod packets;
mod reference;
pub(crate) mod resume;
mod row;
mod rules;

pub(crate) use rules::OPEN_CALLS;

use super::split::{MAX_LINE, numbered_lines};
use super::watch::Watched;
use super::{Detection, Input, InvalidKind, LoadError, LoadOptions, Loader, detect_growing};
use deldbe::{Layout, header, split};
use profx_model::text::decode;
use profx_model::{Facts, HitsWord, LineFile, Place, ProfileBuilder, WarningKind, Watch};

/// The Xbase++ trace loader.
pub(crate) struct Xpp;

impl Loader for Xpp {
    fn name(&self) -> &'static str {
        "xpp"
    }

    /// FOXDBE: a DBF header that holds together (dbf.rs). DELDBE: the first
    /// non-blank line is a header of known field names, or a record whose
    /// one-letter op (`i I O o`) follows only numbers and precedes a call.
    fn detect(&self, head: &[u8], at_eof: bool) -> Detection {
        match detect_dbf(head, at_eof) {
            Detection::No => detect_deldbe(head, at_eof),
            decided => decided,
        }
    }

    /// Also a records-only DBF packet: `NAME.PRF.000001` whose first byte
    /// is a record flag (its header is in `NAME.PRF`).
    fn detect_input(&self, input: &Input) -> Detection {
        let bytes = input.bytes();
        match detect_growing(self, bytes) {
            Detection::Yes => Detection::Yes,
            _ if packets::split_numbered(input.name()).is_some()
                && matches!(bytes.first(), Some(b' ' | b'*')) =>
            {
                Detection::Yes
            }
            _ => Detection::No,
        }
    }

    fn load(
        &self,
        input: &Input,
        opts: &LoadOptions,
        b: &mut ProfileBuilder,
    ) -> Result<(), LoadError> {
        load(input, opts, &Watched::none(), b)
    }

    /// A trace's thread choice loads it again, watched (`replay.rs`).
    fn load_watched(
        &self,
        input: &Input,
        opts: &LoadOptions,
        watch: &Watch<'_>,
        b: &mut ProfileBuilder,
    ) -> Result<(), LoadError> {
        load(input, opts, &Watched::new(watch), b)
    }
}

/// Loads `input` with the reference loader or the fast engine, in the
/// encoding it is written in; `watched` may stop it.
fn load(
    input: &Input,
    opts: &LoadOptions,
    watched: &Watched<'_>,
    b: &mut ProfileBuilder,
) -> Result<(), LoadError> {
    state_facts(b);
    if opts.reference {
        return reference::load(input, opts, watched, b);
    }
    let bytes = input.bytes();
    let dbf_header = dbf::header(bytes, Some(bytes.len()));
    if let Ok(header) = &dbf_header {
        let pieces = with_siblings(input, opts, b);
        return fast::foxdbe::load(&pieces, (header, true), opts, watched, b);
    }
    // A numbered packet that is not delimited text holds DBF records only.
    let numbered = packets::split_numbered(input.name());
    // A DBF header that fails a later check: its own complaint is the
    // reason worth giving, not "no trace record" from reading it as text.
    if let Err(why) = dbf_header
        && numbered.is_none()
        && looks_like_dbf(bytes)
    {
        return Err(invalid(
            input,
            (Place::Offset(0), InvalidKind::BadHeader),
            format!("not a DBF trace: {why}"),
        ));
    }
    if let Some((base, _)) = numbered.filter(|_| detect_deldbe(bytes, true) != Detection::Yes) {
        let header = packet_header(input, base)?;
        let pieces = std::slice::from_ref(input);
        return fast::foxdbe::load(pieces, (&header, false), opts, watched, b);
    }
    fast::delimited::load(&with_siblings(input, opts, b), opts, watched, b)
}

/// What a trace's numbers are: a call's line is filed under its caller,
/// and its hits are the calls it recorded.
fn state_facts(b: &mut ProfileBuilder) {
    b.state_facts(Facts {
        line_file: LineFile::Caller,
        hits_word: HitsWord::Calls,
        ..Facts::default()
    });
}

/// The input and, unless it is itself a numbered packet, its numbered
/// siblings (a followed trace's own copies of them, `LoadOptions::
/// packets`, where it gives them); a missing or unreadable packet is a
/// warning naming it.
fn with_siblings(input: &Input, opts: &LoadOptions, b: &mut ProfileBuilder) -> Vec<Input> {
    let mut pieces = vec![input.clone()];
    if packets::split_numbered(input.name()).is_some() {
        return pieces;
    }
    if let Some(kept) = &opts.packets {
        let numbered: Vec<(u64, String)> = kept
            .iter()
            .filter_map(|p| Some((packets::split_numbered(p.name())?.1, p.name().to_string())))
            .collect();
        warn_missing(
            packets::missing(input.name(), &numbered),
            b.current_source(),
            b,
        );
        pieces.extend(kept.iter().cloned());
        return pieces;
    }
    let (found, missing) = packets::siblings(input.name());
    warn_missing(missing, b.current_source(), b);
    for path in found {
        match Input::open(&path) {
            Ok(piece) => pieces.push(piece),
            Err(e) => {
                let why = format!("packet not read: {e}");
                b.warn(Place::File(path), WarningKind::UnreadablePacket, why);
            }
        }
    }
    pieces
}

/// A warning for each run of missing packets, in the input `source` (the
/// file given's).
fn warn_missing(missing: Vec<packets::Missing>, source: usize, b: &mut ProfileBuilder) {
    for run in missing {
        if run.count == 1 {
            let why = "packet missing; its events are not in the trace";
            b.warn_in(
                source,
                Place::File(run.first),
                WarningKind::MissingPacket,
                why,
            );
        } else {
            let last = std::path::Path::new(&run.last)
                .file_name()
                .map_or_else(|| run.last.clone(), |n| n.to_string_lossy().into_owned());
            let why = format!(
                "{} packets missing, up to {last}; their events are not in the trace",
                run.count
            );
            b.warn_in(
                source,
                Place::File(run.first),
                WarningKind::MissingPacket,
                why,
            );
        }
    }
}

/// A DBF trace's header length and record length, where `bytes` begin
/// with a header (a followed trace cuts its records by them).
pub(crate) fn dbf_layout(bytes: &[u8]) -> Option<(usize, usize)> {
    let h = dbf::header(bytes, None).ok()?;
    Some((h.header_len, h.record_len))
}

/// The DBF header a records-only packet needs, from its `NAME.PRF`.
fn packet_header(input: &Input, base: &str) -> Result<dbf::Header, LoadError> {
    let why = |kind, reason: String| invalid(input, (Place::Offset(0), kind), reason);
    let header = Input::open(base).map_err(|_| {
        why(
            InvalidKind::NoHeaderPacket,
            format!("a DBF trace packet needs its header packet {base}, which cannot be read"),
        )
    })?;
    let bytes = header.bytes();
    dbf::header(bytes, Some(bytes.len())).map_err(|e| {
        why(
            InvalidKind::BadHeader,
            format!("{base} has no DBF header to read this packet with: {e}"),
        )
    })
}

/// A header date that is a date and NULs in its reserved bytes: no
/// delimited text starts that way.
fn looks_like_dbf(bytes: &[u8]) -> bool {
    bytes.len() >= 32
        && (1..=12).contains(&bytes[2])
        && (1..=31).contains(&bytes[3])
        && bytes[12..32].contains(&0)
        && detect_deldbe(bytes, true) != Detection::Yes
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

fn detect_deldbe(head: &[u8], at_eof: bool) -> Detection {
    if head.contains(&0) {
        return Detection::No;
    }
    let complete = match (at_eof, head.iter().rposition(|&b| b == b'\n')) {
        (true, _) => head,
        (false, Some(end)) => &head[..end],
        (false, None) => return Detection::NeedMore,
    };
    let Some((_, line)) = numbered_lines(complete).find(|(_, l)| !l.trim_ascii().is_empty()) else {
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

/// A line too long to be a trace record (`len` bytes).
fn line_too_long(len: usize) -> crate::problem::Problem {
    let why =
        format!("a line of {len} bytes is longer than a trace record can be ({MAX_LINE} bytes)");
    crate::problem::Problem::new(WarningKind::LineTooLong, why)
}

/// Pieces at least this large (64 PiB) are not read as traces, by either
/// loader, so that the two refuse alike: the fast engine keeps an event's
/// offset below its op's bits (`fast/batch.rs`). No 64-bit system maps a
/// file that large.
const MAX_PIECE: u64 = 1 << 56;

/// Refuses a piece whose offsets an event could not hold (`MAX_PIECE`):
/// none can be mapped today, but a refusal costs nothing and a wrong
/// offset would be silent.
fn within_reach(pieces: &[Input]) -> Result<(), LoadError> {
    match pieces.iter().find(|p| p.len() >= MAX_PIECE) {
        Some(p) => Err(invalid(
            p,
            (Place::Offset(0), InvalidKind::TooLarge),
            "a trace of 64 PiB or more is not read".into(),
        )),
        None => Ok(()),
    }
}

fn invalid(input: &Input, (place, kind): (Place, InvalidKind), reason: String) -> LoadError {
    LoadError::Invalid {
        path: input.name().to_string(),
        place,
        kind,
        reason,
    }
}

/// `--columns` refused, for the input it was given for.
fn bad_columns(input: &Input, reason: String) -> LoadError {
    LoadError::Columns {
        path: input.name().to_string(),
        reason,
    }
}

#[cfg(test)]
mod tests;
