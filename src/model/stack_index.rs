//! Stacks by their frames: an open-addressing table the builder owns.
//!
//! A stack's frames live once, in the builder's arena; a slot holds the
//! stack's id, its frames' hash and their place in the arena (16 bytes, no
//! allocation a stack), so growing the table reads neither the arena nor
//! the stacks. A sampled log looks up a stack per sample among a million
//! and more, each a miss in every cache; the table is ours (not hashbrown's)
//! so a loader can ask for the slot a stack will be looked up in, and then
//! for its frames, a few samples ahead ([`StackIndex::prefetch`]).
//!
//! Linear probing over a power-of-two table, at most three quarters full;
//! stacks are never removed.

use super::hint::prefetch;
use super::ids::{FuncId, StackId};

#[derive(Clone, Copy, Debug)]
struct Slot {
    /// `EMPTY` for a free slot.
    id: u32,
    hash: u32,
    start: u32,
    len: u32,
}

const EMPTY: u32 = u32::MAX;
const FREE: Slot = Slot {
    id: EMPTY,
    hash: 0,
    start: 0,
    len: 0,
};

#[derive(Debug, Default)]
pub struct StackIndex {
    slots: Vec<Slot>,
    len: usize,
}

/// The hash a stack is indexed by.
pub fn hash_frames(frames: &[FuncId]) -> u32 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    frames.hash(&mut h);
    h.finish() as u32
}

impl StackIndex {
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Where probing for `hash` starts: the top bits of a multiplicative
    /// spread, as Fx's low bits are weak.
    fn home(&self, hash: u32) -> usize {
        let bits = self.slots.len().trailing_zeros();
        let spread = u64::from(hash).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (spread >> (64 - bits)) as usize
    }

    /// The stack with these frames (hashed to `hash`), if indexed.
    pub fn find(&self, hash: u32, frames: &[FuncId], arena: &[FuncId]) -> Option<StackId> {
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
            if s.hash == hash
                && s.len as usize == frames.len()
                && arena.get(s.start as usize..(s.start + s.len) as usize) == Some(frames)
            {
                return Some(StackId(s.id));
            }
            i = (i + 1) & mask;
        }
    }

    /// Indexes a stack no indexed stack has the frames of.
    pub fn insert(&mut self, id: StackId, hash: u32, start: u32, len: u32) {
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            self.grow();
        }
        self.place(Slot {
            id: id.0,
            hash,
            start,
            len,
        });
        self.len += 1;
    }

    fn place(&mut self, slot: Slot) {
        let mask = self.slots.len() - 1;
        let mut i = self.home(slot.hash);
        while self.slots[i].id != EMPTY {
            i = (i + 1) & mask;
        }
        self.slots[i] = slot;
    }

    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(64);
        let old = std::mem::replace(&mut self.slots, vec![FREE; size]);
        for s in old.into_iter().filter(|s| s.id != EMPTY) {
            self.place(s);
        }
    }

    /// Asks for the slot a lookup of `hash` reads first, ahead of it.
    pub fn prefetch(&self, hash: u32) {
        if !self.slots.is_empty() {
            prefetch(&self.slots[self.home(hash)]);
        }
    }

    /// The stack and arena place the first slot for `hash` holds, when its
    /// hash matches: what a lookup will read next (call after `prefetch`,
    /// once that slot has had time to come in).
    pub fn first_match(&self, hash: u32) -> Option<(StackId, u32)> {
        let s = self.slots.get(self.home(hash))?;
        (s.id != EMPTY && s.hash == hash).then_some((StackId(s.id), s.start))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(ids: &[u32]) -> Vec<FuncId> {
        ids.iter().map(|&i| FuncId(i)).collect()
    }

    /// Thousands of stacks, some sharing hashes' home slots and prefixes,
    /// are all found again across growth; others are not found.
    #[test]
    fn finds_every_stack_it_indexed_and_no_other() {
        let mut index = StackIndex::default();
        let mut arena = Vec::new();
        let stacks: Vec<Vec<FuncId>> = (0..5000u32).map(|i| f(&[i % 7, i / 7, i])).collect();
        for (i, s) in stacks.iter().enumerate() {
            let start = arena.len() as u32;
            arena.extend_from_slice(s);
            index.insert(StackId(i as u32), hash_frames(s), start, s.len() as u32);
        }
        for (i, s) in stacks.iter().enumerate() {
            let found = index.find(hash_frames(s), s, &arena);
            assert_eq!(found, Some(StackId(i as u32)));
        }
        for s in [f(&[0, 0]), f(&[1, 0, 0]), f(&[])] {
            assert_eq!(index.find(hash_frames(&s), &s, &arena), None);
        }
        // Slots stay at most three quarters full.
        assert!(index.slots.len() * 3 >= index.len * 4);
    }

    /// Two stacks with one hash are told apart by their frames.
    #[test]
    fn equal_hashes_are_told_apart_by_frames() {
        let mut index = StackIndex::default();
        let arena = f(&[1, 2, 3]);
        index.insert(StackId(0), 42, 0, 2);
        index.insert(StackId(1), 42, 1, 2);
        assert_eq!(index.find(42, &f(&[2, 3]), &arena), Some(StackId(1)));
        assert_eq!(index.find(42, &f(&[1, 2]), &arena), Some(StackId(0)));
        assert_eq!(index.first_match(42), Some((StackId(0), 0)));
        assert_eq!(index.find(42, &f(&[3, 1]), &arena), None);
    }
}
