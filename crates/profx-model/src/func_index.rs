//! Functions by their identity (name, module), for the builder.
//!
//! Nearly every name has one module (a trace's functions have none, a
//! listing's one each), so each name's first function sits in a list by
//! name id, and only the other modules of a name go in a hash map. Names
//! are numbered in order of first sight and a loader meets a function
//! soon after its name: the list is read and grown near its end, where a
//! hash map of many functions is a cache miss per lookup, and rehashes as
//! it grows.

use super::ids::{FuncId, NameId};
use rustc_hash::FxHashMap;

/// No function has this name yet.
const NONE: FuncId = FuncId(u32::MAX);

/// Its lookups are given each function's module (the function table's
/// column): the list holds ids alone, four bytes a name rather than eight,
/// for a listing of millions of names.
#[derive(Clone, Debug, Default)]
pub(crate) struct FuncIndex {
    /// By name id: the name's first function.
    first: Vec<FuncId>,
    /// The functions of a name after its first, by (name, module).
    others: FxHashMap<(NameId, NameId), FuncId>,
}

impl FuncIndex {
    /// The function (name, module); `module_of` is each function's module.
    pub(crate) fn get(
        &self,
        name: NameId,
        module: NameId,
        module_of: impl Fn(FuncId) -> NameId,
    ) -> Option<FuncId> {
        match self.first.get(name.index()) {
            None | Some(&NONE) => None,
            Some(&id) if module_of(id) == module => Some(id),
            Some(_) => self.others.get(&(name, module)).copied(),
        }
    }

    /// The names two or more functions share (in different modules).
    pub(crate) fn shared_names(&self) -> rustc_hash::FxHashSet<NameId> {
        self.others.keys().map(|&(name, _)| name).collect()
    }

    /// Records `id` as (name, module), which has no function yet.
    pub(crate) fn insert(&mut self, name: NameId, module: NameId, id: FuncId) {
        let at = name.index();
        if self.first.len() <= at {
            self.first.resize(at + 1, NONE);
        }
        match self.first[at] {
            NONE => self.first[at] = id,
            _ => {
                self.others.insert((name, module), id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name's first module is found in the list, its others in the map,
    /// and a module it lacks is not found.
    #[test]
    fn every_module_of_a_name_finds_its_own_function() {
        let mut index = FuncIndex::default();
        let (f, g) = (NameId(3), NameId(0));
        let (m1, m2, m3) = (NameId(1), NameId(2), NameId(4));
        // The modules of functions 0, 1 and 2, as the table holds them.
        let modules = [m1, m2, m1];
        let get = |index: &FuncIndex, name, module| {
            index.get(name, module, |id: FuncId| modules[id.index()])
        };
        assert_eq!(get(&index, f, m1), None);
        index.insert(f, m1, FuncId(0));
        index.insert(f, m2, FuncId(1));
        index.insert(g, m1, FuncId(2));
        assert_eq!(get(&index, f, m1), Some(FuncId(0)));
        assert_eq!(get(&index, f, m2), Some(FuncId(1)));
        assert_eq!(get(&index, g, m1), Some(FuncId(2)));
        assert_eq!(get(&index, f, m3), None);
        assert_eq!(get(&index, g, m2), None);
        assert_eq!(get(&index, NameId(9), m1), None);
    }
}
