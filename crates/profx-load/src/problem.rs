//! Why a record cannot be used, as the code that reads it finds out: its
//! kind, and the words its warning will say (the caller adds what it did
//! about it, "record skipped").

use profx_model::WarningKind;
use std::fmt;

/// A defect of one record, before it becomes a warning.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Problem {
    /// What is wrong, as the warning's kind.
    pub kind: WarningKind,
    /// The same in words, the start of the warning's message.
    pub why: String,
}

impl Problem {
    /// A defect of `kind`, said as `why`.
    pub(crate) fn new(kind: WarningKind, why: impl Into<String>) -> Problem {
        Problem {
            kind,
            why: why.into(),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.why)
    }
}
