//! Names numbered by a parsing worker.
//!
//! A worker interns into a table of its own (no lock on the hot path) and
//! ships, with each batch, the names it numbered since the last one, back
//! to back in one buffer; the consumer interns them in number order, so a
//! worker's number indexes the list of `NameId`s it got back.

use crate::model::intern::Interner;

/// A worker's name table.
#[derive(Debug, Default)]
pub struct LocalNames {
    table: Interner,
    /// Names before this number went out with earlier batches.
    shipped: usize,
}

impl LocalNames {
    /// The worker's number for `name`.
    pub fn id(&mut self, name: &str) -> u32 {
        self.table.intern(name).0
    }

    /// Starts numbering again from 0.
    pub fn clear(&mut self) {
        self.table.clear();
        self.shipped = 0;
    }

    /// The names numbered since the last call, in number order.
    pub fn take_new(&mut self) -> NewNames {
        let mut new = NewNames::default();
        for name in self.table.names_from(self.shipped) {
            new.text.push_str(name);
            new.ends.push(new.text.len());
        }
        self.shipped = self.table.len();
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
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(&self.ends).map(|(a, &b)| &self.text[a..b])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each take ships only the names numbered since the last; after a
    /// clear, numbering starts again from 0.
    #[test]
    fn new_names_go_out_once_in_number_order() {
        let mut w = LocalNames::default();
        assert_eq!([w.id("a"), w.id(""), w.id("b"), w.id("a")], [0, 1, 2, 0]);
        let first: Vec<String> = w.take_new().iter().map(String::from).collect();
        assert_eq!(first, ["a", "", "b"]);
        assert_eq!(w.id("c"), 3);
        assert_eq!(w.take_new().iter().collect::<Vec<_>>(), ["c"]);
        assert!(w.take_new().iter().next().is_none());
        w.clear();
        assert_eq!(w.id("b"), 0);
        assert_eq!(w.take_new().iter().collect::<Vec<_>>(), ["b"]);
    }
}
