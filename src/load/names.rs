//! Names numbered by a parsing worker.
//!
//! A worker interns a chunk's names into a table of its own (no lock on
//! the hot path) and ships them with the chunk's batch, back to back in
//! one buffer; the consumer interns them in number order, so a worker's
//! number indexes the list of `NameId`s it got back. The table starts
//! empty for each chunk: a table kept for the whole load would hold every
//! name once more for each worker.

use crate::model::intern::Interner;

/// A worker's name table for the chunk it is parsing.
#[derive(Debug, Default)]
pub struct LocalNames {
    table: Interner,
}

impl LocalNames {
    /// The worker's number for `name`.
    pub fn id(&mut self, name: &str) -> u32 {
        self.table.intern(name).0
    }

    /// The names numbered so far, in number order; numbering starts again
    /// from 0 (the table keeps its room for the next chunk).
    pub fn take(&mut self) -> NewNames {
        let mut new = NewNames::default();
        for name in self.table.names() {
            new.text.push_str(name);
            new.ends.push(new.text.len());
        }
        self.table.clear();
        new
    }
}

/// Names a batch introduces, back to back.
#[derive(Debug, Default)]
pub struct NewNames {
    text: String,
    ends: Vec<usize>,
}

impl NewNames {
    /// Name `i` of the batch (the worker's number `i`).
    pub fn get(&self, i: usize) -> Option<&str> {
        let start = match i {
            0 => 0,
            _ => *self.ends.get(i - 1)?,
        };
        self.text.get(start..*self.ends.get(i)?)
    }

    pub fn iter(&self) -> impl Iterator<Item = &str> + Clone {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(&self.ends).map(|(a, &b)| &self.text[a..b])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A take ships the names in number order and numbering starts again.
    #[test]
    fn names_go_out_in_number_order_and_numbering_restarts() {
        let mut w = LocalNames::default();
        assert_eq!([w.id("a"), w.id(""), w.id("b"), w.id("a")], [0, 1, 2, 0]);
        assert_eq!(w.take().iter().collect::<Vec<_>>(), ["a", "", "b"]);
        assert!(w.take().iter().next().is_none());
        assert_eq!([w.id("b"), w.id("c")], [0, 1]);
        let names = w.take();
        assert_eq!(names.iter().collect::<Vec<_>>(), ["b", "c"]);
        assert_eq!(
            [names.get(0), names.get(1), names.get(2)],
            [Some("b"), Some("c"), None]
        );
    }
}
