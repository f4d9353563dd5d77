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

/// A record the loader skipped, repaired or doubted, and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// Index into `Profile::sources` of the input the place is in.
    pub source: usize,
    /// Where in that input the record is.
    pub place: Place,
    /// What was wrong with the record and what the loader did about it.
    pub message: String,
}
