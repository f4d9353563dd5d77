//! FOXDBE (DBF) pieces, for both loaders: the header packet and its numbered packets,
//! which hold records only (a packet that starts with a header of the same
//! layout has it skipped). Record counts come from the bytes present; the
//! header packet's count is the whole trace's (formats.md), so it is
//! compared with the records of every piece together.

use super::dbf::{self, ColMap, Header};
use super::row::Col;
use super::{bad_columns, invalid};
use crate::{Input, InvalidKind, LoadError, LoadOptions};
use profx_model::{Place, ProfileBuilder, WarningKind};
use std::sync::Arc;

/// Reads each piece in turn with `read` (each but the first a source of
/// its own), given where its records start, then checks the records of
/// them all (`counted`; not the header's count while `growing`). An error from `read` (a stopped load) ends it.
pub(super) fn each_piece(
    b: &mut ProfileBuilder,
    pieces: &[Input],
    (header, first_has_header, growing): (&Header, bool, bool),
    mut read: impl FnMut(&mut ProfileBuilder, &Input, usize) -> Result<dbf::Walk, LoadError>,
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
        let walk = read(b, piece, start)?;
        live += walk.live;
        present += walk.live + walk.deleted;
    }
    counted(
        b,
        pieces,
        header,
        (first_has_header, growing),
        (header_source, live, present),
    )
}

/// The record count a header packet declares against the records present
/// in every piece (a numbered packet opened alone is part of the trace the
/// count is of), and a trace with no live record refused; the last is (the
/// header's source, live records, records present).
pub(super) fn counted(
    b: &mut ProfileBuilder,
    pieces: &[Input],
    header: &Header,
    (first_has_header, growing): (bool, bool),
    (header_source, live, present): (usize, u64, u64),
) -> Result<(), LoadError> {
    // A header packet still being written is rewritten as records come:
    // its count is compared once following stops (`follow.rs`).
    if first_has_header && !growing && u64::from(header.declared) != present {
        let n = header.declared;
        let of = match pieces.len() {
            1 => format!("{present} are present"),
            k => format!("{present} are present in its {k} pieces"),
        };
        let msg = format!("header says {n} records, {of}; read what is present");
        let kind = WarningKind::CountMismatch;
        b.warn_in(header_source, Place::Offset(4), kind, msg);
    }
    if live == 0 {
        let at = if first_has_header {
            header.header_len
        } else {
            0
        };
        let reason = "no trace record in the table".into();
        let place = (Place::Offset(at as u64), InvalidKind::NoRecords);
        return Err(invalid(&pieces[0], place, reason));
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
    let columns = columns.map_err(|e| bad_columns(first, e))?;
    let map = ColMap::new(header.fields.clone(), columns.as_deref());
    let place = (Place::Offset(32), InvalidKind::NoColumns);
    Ok(Arc::new(map.map_err(|e| invalid(first, place, e))?))
}

/// Where a packet's records start: after a header of the same layout, if
/// it has one, else at once.
pub(super) fn own_header(piece: &Input, header: &Header) -> usize {
    own_header_of(piece.bytes(), header)
}

/// Where the records start in a packet's `bytes` (`own_header`).
pub(super) fn own_header_of(bytes: &[u8], header: &Header) -> usize {
    match dbf::header(bytes, Some(bytes.len())) {
        Ok(h) if h.fields == header.fields && h.record_len == header.record_len => h.header_len,
        _ => 0,
    }
}

/// One warning each for deleted records, a trailing partial record and
/// bytes after the end mark, in the input `source`.
pub(super) fn warn_about(b: &mut ProfileBuilder, source: usize, w: &dbf::Walk, record_len: usize) {
    if let Some(at) = w.first_deleted {
        let msg = format!("{} deleted record(s) skipped", w.deleted);
        b.warn_in(
            source,
            Place::Offset(at as u64),
            WarningKind::DeletedRecords,
            msg,
        );
    }
    if let Some((at, size)) = w.partial {
        let msg = format!("trailing partial record ({size} of {record_len} bytes) skipped");
        b.warn_in(
            source,
            Place::Offset(at as u64),
            WarningKind::TruncatedRecord,
            msg,
        );
    }
    if let Some((at, after)) = w.end_mark.filter(|&(_, after)| after > 0) {
        let msg = format!("{after} bytes after the end-of-file mark not read");
        b.warn_in(
            source,
            Place::Offset(at as u64),
            WarningKind::TrailingBytes,
            msg,
        );
    }
}
