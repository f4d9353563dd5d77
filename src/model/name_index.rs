//! Names by their text's hash: the interner's open-addressing table.
//!
//! A slot holds a name's id and its 32-bit hash (8 bytes), so a probe
//! settles most mismatches without reading any text, and growing reads
//! no text at all. The table is ours, like the stack index, so that a
//! caller with many names in hand (a parsing worker's batch: thousands of
//! names new to a table of 200 k, each lookup a miss in every cache) can
//! ask for their slots a few names ahead ([`NameIndex::prefetch`]).
//!
//! Linear probing over a power-of-two table at most half full: most
//! lookups of a new name end at the first or second slot, in the same
//! cache line. Names are never removed; `clear` forgets them all.

use super::hint::prefetch;
use super::ids::NameId;

#[derive(Clone, Copy, Debug)]
struct Slot {
    /// `EMPTY` for a free slot.
    id: u32,
    hash: u32,
}

const EMPTY: u32 = u32::MAX;
const FREE: Slot = Slot { id: EMPTY, hash: 0 };

#[derive(Clone, Debug, Default)]
pub struct NameIndex {
    slots: Vec<Slot>,
    len: usize,
}

impl NameIndex {
    /// Where probing for `hash` starts: the top bits of a multiplicative
    /// spread, as Fx's low bits are weak.
    fn home(&self, hash: u32) -> usize {
        let bits = self.slots.len().trailing_zeros();
        let spread = u64::from(hash).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (spread >> (64 - bits)) as usize
    }

    /// The name hashed to `hash` whose text `is_it` accepts, if indexed.
    #[inline]
    pub fn find(&self, hash: u32, mut is_it: impl FnMut(NameId) -> bool) -> Option<NameId> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(hash);
        loop {
            let s = self.slots[i];
            if s.id == EMPTY {
                return None;
            }
            if s.hash == hash && is_it(NameId(s.id)) {
                return Some(NameId(s.id));
            }
            i = (i + 1) & mask;
        }
    }

    /// Indexes a name no indexed name has the text of.
    pub fn insert(&mut self, id: NameId, hash: u32) {
        self.reserve(1);
        self.place(Slot { id: id.0, hash });
        self.len += 1;
    }

    /// Room for `more` names without growing (so slots asked for ahead
    /// stay where they are).
    pub fn reserve(&mut self, more: usize) {
        let need = (self.len + more).saturating_mul(2);
        if need > self.slots.len() {
            self.grow(need.next_power_of_two().max(16));
        }
    }

    fn place(&mut self, slot: Slot) {
        let mask = self.slots.len() - 1;
        let mut i = self.home(slot.hash);
        while self.slots[i].id != EMPTY {
            i = (i + 1) & mask;
        }
        self.slots[i] = slot;
    }

    fn grow(&mut self, size: usize) {
        let old = std::mem::replace(&mut self.slots, vec![FREE; size]);
        for s in old.into_iter().filter(|s| s.id != EMPTY) {
            self.place(s);
        }
    }

    /// Asks for the slot a lookup of `hash` reads first, ahead of it.
    #[inline]
    pub fn prefetch(&self, hash: u32) {
        if !self.slots.is_empty() {
            prefetch(&self.slots[self.home(hash)]);
        }
    }

    /// Forgets every name, keeping the room.
    pub fn clear(&mut self) {
        self.slots.fill(FREE);
        self.len = 0;
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
            assert!(index.slots.len() >= index.len * 2);
            index.clear();
            assert_eq!(index.find(hash(7), |_| true), None);
        }
    }

    /// Room reserved ahead is used without growing.
    #[test]
    fn reserved_room_takes_the_names_without_growing() {
        let mut index = NameIndex::default();
        index.reserve(100);
        let size = index.slots.len();
        for i in 0..100 {
            index.insert(NameId(i), i);
        }
        assert_eq!(index.slots.len(), size);
    }
}
