//! String interning: every name in a profile is stored once and referred to
//! by a `NameId`, so millions of rows cost four bytes per name.

use super::ids::NameId;
use rustc_hash::FxHashMap;

/// Owns the distinct strings of one profile.
#[derive(Debug, Default, Clone)]
pub struct Interner {
    strings: Vec<Box<str>>,
    index: FxHashMap<Box<str>, NameId>,
}

impl Interner {
    /// The id of `s`, adding it on first sight.
    pub fn intern(&mut self, s: &str) -> NameId {
        if let Some(&id) = self.index.get(s) {
            return id;
        }
        let id = NameId::from_index(self.strings.len());
        self.strings.push(s.into());
        self.index.insert(s.into(), id);
        id
    }

    pub fn resolve(&self, id: NameId) -> &str {
        &self.strings[id.index()]
    }

    pub fn len(&self) -> usize {
        self.strings.len()
    }

    pub fn is_empty(&self) -> bool {
        self.strings.is_empty()
    }

    /// Drops the lookup table once loading is over (the app only resolves
    /// ids) and ranks the names once, so sorting a million rows by a name
    /// compares integers, not strings.
    pub fn freeze(self) -> Names {
        let mut order: Vec<u32> = (0..self.strings.len() as u32).collect();
        order.sort_unstable_by(|&a, &b| self.strings[a as usize].cmp(&self.strings[b as usize]));
        let mut ranks = vec![0; self.strings.len()];
        for (rank, &id) in order.iter().enumerate() {
            // The empty text ranks 0 whether or not it was interned, so a
            // row showing no name (ranked 0 by its column) ties with it.
            ranks[id as usize] = if self.strings[id as usize].is_empty() {
                0
            } else {
                rank as u32 + 1
            };
        }
        Names {
            strings: self.strings,
            ranks,
        }
    }
}

/// The read-only string table of a finished profile.
#[derive(Debug, Default, Clone)]
pub struct Names {
    strings: Vec<Box<str>>,
    /// Per name: its place in byte order among all names (`""` is 0).
    ranks: Vec<u32>,
}

impl Names {
    /// Orders names as `str::cmp` orders their text.
    pub fn rank(&self, id: NameId) -> u32 {
        self.ranks[id.index()]
    }

    pub fn resolve(&self, id: NameId) -> &str {
        &self.strings[id.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_follow_text_order() {
        let mut i = Interner::default();
        let ids: Vec<_> = ["b", "", "a", "B", "ab"]
            .iter()
            .map(|s| i.intern(s))
            .collect();
        let names = i.freeze();
        let ranks: Vec<_> = ids.iter().map(|&id| names.rank(id)).collect();
        assert_eq!(ranks, [5, 0, 3, 2, 4]);
    }

    #[test]
    fn same_string_same_id_and_resolves_back() {
        let mut i = Interner::default();
        let a = i.intern("main");
        let b = i.intern("helper");
        assert_eq!(i.intern("main"), a);
        assert_ne!(a, b);
        assert_eq!(i.len(), 2);
        let names = i.freeze();
        assert_eq!(names.resolve(b), "helper");
    }
}
