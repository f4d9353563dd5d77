//! Names by their text's hash: the interner's table ([`Slots`] of
//! 8-byte slots, a name's id and its hash).
//!
//! At most half full: most lookups of a new name end at the first or
//! second slot, in the same cache line. `Interner::intern_all`, given a
//! parsing worker's batch (thousands of names new to a table of 200 k,
//! each lookup a miss in every cache), asks for their slots a few names
//! ahead with `prefetch`.

use super::ids::NameId;
use super::probe::{Slot, Slots};

#[derive(Clone, Copy, Debug)]
pub(crate) struct NameSlot {
    /// `EMPTY` for a free slot.
    id: u32,
    hash: u32,
}

const EMPTY: u32 = u32::MAX;

impl Slot for NameSlot {
    const FREE: Self = NameSlot { id: EMPTY, hash: 0 };
    const MAX_LOAD: (usize, usize) = (1, 2);

    fn is_free(&self) -> bool {
        self.id == EMPTY
    }

    fn hash(&self) -> u32 {
        self.hash
    }
}

#[derive(Clone, Debug, Default)]
pub(crate) struct NameIndex {
    slots: Slots<NameSlot>,
}

impl NameIndex {
    /// The name hashed to `hash` whose text `is_it` accepts, if indexed.
    #[inline]
    pub(crate) fn find(&self, hash: u32, mut is_it: impl FnMut(NameId) -> bool) -> Option<NameId> {
        let found = self.slots.find(hash, |s| is_it(NameId(s.id)));
        found.map(|s| NameId(s.id))
    }

    /// Indexes a name no indexed name has the text of.
    pub(crate) fn insert(&mut self, id: NameId, hash: u32) {
        self.slots.insert(NameSlot { id: id.0, hash });
    }

    /// Room for `more` names without growing.
    pub(crate) fn reserve(&mut self, more: usize) {
        self.slots.reserve(more);
    }

    /// Asks for the slot a lookup of `hash` reads first, ahead of it.
    #[inline]
    pub(crate) fn prefetch(&self, hash: u32) {
        self.slots.prefetch(hash);
    }

    /// Forgets every name, keeping the room.
    pub(crate) fn clear(&mut self) {
        self.slots.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Thousands of names, many sharing a hash, are all found again
    /// across growth and a clear; others are not found.
    #[test]
    fn finds_every_name_it_indexed_and_no_other() {
        // Name `i` is the number i; hashes collide in fours.
        let hash = |i: u32| (i / 4).wrapping_mul(2_654_435_761);
        let mut index = NameIndex::default();
        assert_eq!(index.find(hash(0), |_| true), None);
        for round in 0..2 {
            for i in 0..5000 {
                index.insert(NameId(i), hash(i));
            }
            for i in 0..5000 {
                assert_eq!(index.find(hash(i), |id| id.0 == i), Some(NameId(i)));
            }
            for i in 5000..5100 {
                assert_eq!(index.find(hash(i), |id| id.0 == i), None, "round {round}");
            }
            // Slots stay at most half full.
            assert!(index.slots.size() >= index.slots.len() * 2);
            index.clear();
            assert_eq!(index.find(hash(7), |_| true), None);
        }
    }

    /// Room reserved ahead is used without growing.
    #[test]
    fn reserved_room_takes_the_names_without_growing() {
        let mut index = NameIndex::default();
        index.reserve(100);
        let size = index.slots.size();
        for i in 0..100 {
            index.insert(NameId(i), i);
        }
        assert_eq!(index.slots.size(), size);
    }
}
