//! Warnings: every record a loader skipped, repaired or doubted, with where it is.

use std::fmt;

/// Where in the input a warning points.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Place {
    /// 1-based line of a text format.
    Line(u64),
    /// Byte offset from the start of a binary file.
    Offset(u64),
    /// A whole input file (a missing packet, say).
    File(String),
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Line(n) => write!(f, "line {n}"),
            Place::Offset(n) => write!(f, "offset {n}"),
            Place::File(name) => f.write_str(name),
        }
    }
}

/// What a warning is about, whatever the format: one kind per distinct
/// thing a loader skips, repairs or doubts. Tests, `--strict` and the
/// warning budget tell warnings apart by it, never by their words, and
/// `--json` gives its [`name`](WarningKind::name) (report-json.md lists
/// them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WarningKind {
    /// A line or row longer than any record of the format can be; skipped.
    LineTooLong,
    /// A line that is no record of the format (no PLIST tag, not a line of
    /// a listing, not CSV, a quote left open); skipped.
    NotARecord,
    /// A record of a type the format does not define (a PLIST tag, a BR
    /// record type, a VS row's `Type`).
    UnknownRecordType,
    /// An Xbase++ trace op other than `i`, `I`, `O`, `o`; its records are
    /// skipped.
    UnknownOp,
    /// A record without a field it needs (too few fields, no name, no op
    /// or call); skipped.
    MissingField,
    /// A number field that does not hold a number of its kind; the record
    /// is skipped.
    NotANumber,
    /// A number too large for the value it states; the record is skipped.
    NumberTooLarge,
    /// A record cut short by the end of the file.
    TruncatedRecord,
    /// Records a DBF table marks deleted; skipped.
    DeletedRecords,
    /// Bytes after a DBF table's end-of-file mark; not read.
    TrailingBytes,
    /// A count the file declares (frames of a stack, stacks of a
    /// function, records of a table) that what follows does not match.
    CountMismatch,
    /// A record away from the record it belongs under (a stack before any
    /// function, a frame or a BR record outside its stack or sample, a
    /// caller row of no function row, a call-tree level skipped).
    OutOfPlace,
    /// A function or line listed again; merged by summing.
    ListedAgain,
    /// A BR module number mapped again to another file; the first kept.
    MappedAgain,
    /// A BR module number never mapped to a file; named `module#N`.
    UnmappedModule,
    /// A value that cannot be true (negative, a part above its whole, a
    /// percent outside 0–100); kept as the file states it.
    ImpossibleValue,
    /// A sample of a timed BR log without a time record; counted as 0 ms.
    MissingTime,
    /// A trace time earlier than its thread's clock; the interval counts 0.
    TimeBackwards,
    /// A return from a call not on the thread's stack (a pop without a
    /// push); skipped.
    ReturnWithoutCall,
    /// A return from a call below the top of the stack; the calls above it
    /// close there.
    Unwind,
    /// A call or sample still open where the input ends or the next one
    /// starts; closed there.
    Unclosed,
    /// A trace packet missing from the numbered sequence.
    MissingPacket,
    /// A trace packet that is there but cannot be read.
    UnreadablePacket,
    /// A count that reached the most its counter holds; counted up to there.
    CountCapped,
    /// A value whose sum overflows any number; absent.
    Overflow,
    /// A stated stack time below its own time and its listed callees'; the
    /// listed sum is used.
    StackBelowCallees,
    /// A stack holding more self time than its function's stated
    /// exclusive time.
    StackAboveFunction,
}

impl WarningKind {
    /// Every kind, in the order report-json.md lists them.
    pub const ALL: [WarningKind; 27] = [
        WarningKind::LineTooLong,
        WarningKind::NotARecord,
        WarningKind::UnknownRecordType,
        WarningKind::UnknownOp,
        WarningKind::MissingField,
        WarningKind::NotANumber,
        WarningKind::NumberTooLarge,
        WarningKind::TruncatedRecord,
        WarningKind::DeletedRecords,
        WarningKind::TrailingBytes,
        WarningKind::CountMismatch,
        WarningKind::OutOfPlace,
        WarningKind::ListedAgain,
        WarningKind::MappedAgain,
        WarningKind::UnmappedModule,
        WarningKind::ImpossibleValue,
        WarningKind::MissingTime,
        WarningKind::TimeBackwards,
        WarningKind::ReturnWithoutCall,
        WarningKind::Unwind,
        WarningKind::Unclosed,
        WarningKind::MissingPacket,
        WarningKind::UnreadablePacket,
        WarningKind::CountCapped,
        WarningKind::Overflow,
        WarningKind::StackBelowCallees,
        WarningKind::StackAboveFunction,
    ];

    /// The kind's stable snake_case name, as `--json` writes it. Spelled
    /// out rather than derived, so that renaming a variant cannot change
    /// the contract.
    pub fn name(self) -> &'static str {
        match self {
            WarningKind::LineTooLong => "line_too_long",
            WarningKind::NotARecord => "not_a_record",
            WarningKind::UnknownRecordType => "unknown_record_type",
            WarningKind::UnknownOp => "unknown_op",
            WarningKind::MissingField => "missing_field",
            WarningKind::NotANumber => "not_a_number",
            WarningKind::NumberTooLarge => "number_too_large",
            WarningKind::TruncatedRecord => "truncated_record",
            WarningKind::DeletedRecords => "deleted_records",
            WarningKind::TrailingBytes => "trailing_bytes",
            WarningKind::CountMismatch => "count_mismatch",
            WarningKind::OutOfPlace => "out_of_place",
            WarningKind::ListedAgain => "listed_again",
            WarningKind::MappedAgain => "mapped_again",
            WarningKind::UnmappedModule => "unmapped_module",
            WarningKind::ImpossibleValue => "impossible_value",
            WarningKind::MissingTime => "missing_time",
            WarningKind::TimeBackwards => "time_backwards",
            WarningKind::ReturnWithoutCall => "return_without_call",
            WarningKind::Unwind => "unwind",
            WarningKind::Unclosed => "unclosed",
            WarningKind::MissingPacket => "missing_packet",
            WarningKind::UnreadablePacket => "unreadable_packet",
            WarningKind::CountCapped => "count_capped",
            WarningKind::Overflow => "overflow",
            WarningKind::StackBelowCallees => "stack_below_callees",
            WarningKind::StackAboveFunction => "stack_above_function",
        }
    }
}

impl fmt::Display for WarningKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One thing a loader skipped, repaired or doubted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// Index into `Profile::sources` of the input the place is in.
    pub source: usize,
    /// Where in that input.
    pub place: Place,
    /// What it is about.
    pub kind: WarningKind,
    /// What a user reads: the kind in the words of the format, with the
    /// record's own names and numbers.
    pub message: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_is_listed_once_with_its_own_name() {
        let mut names: Vec<&str> = WarningKind::ALL.iter().map(|k| k.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), WarningKind::ALL.len());
        for name in names {
            assert!(
                name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
                "{name} is not snake_case"
            );
        }
    }
}
