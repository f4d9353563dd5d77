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

    /// Drops the lookup table once loading is over: the app only resolves ids.
    pub fn freeze(self) -> Names {
        Names {
            strings: self.strings,
        }
    }
}

/// The read-only string table of a finished profile.
#[derive(Debug, Default, Clone)]
pub struct Names {
    strings: Vec<Box<str>>,
}

impl Names {
    pub fn resolve(&self, id: NameId) -> &str {
        &self.strings[id.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
