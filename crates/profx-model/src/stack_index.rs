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
//! The probing is `probe.rs`'s, shared with the name index; the table is
//! at most three quarters full.

use super::ids::{FuncId, StackId};
use super::probe::{Slot, Slots};

#[derive(Clone, Copy, Debug)]
pub(crate) struct StackSlot {
    /// `EMPTY` for a free slot.
    id: u32,
    hash: u32,
    start: u32,
    len: u32,
}

const EMPTY: u32 = u32::MAX;

impl Slot for StackSlot {
    const FREE: Self = StackSlot {
        id: EMPTY,
        hash: 0,
        start: 0,
        len: 0,
    };
    const MAX_LOAD: (usize, usize) = (3, 4);

    fn is_free(&self) -> bool {
        self.id == EMPTY
    }

    fn hash(&self) -> u32 {
        self.hash
    }
}

#[derive(Clone, Debug, Default)]
pub(crate) struct StackIndex {
    slots: Slots<StackSlot>,
}

/// The hash a stack is indexed by.
pub(crate) fn hash_frames(frames: &[FuncId]) -> u32 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    frames.hash(&mut h);
    h.finish() as u32
}

impl StackIndex {
    /// The stack with these frames (hashed to `hash`), if indexed.
    pub(crate) fn find(&self, hash: u32, frames: &[FuncId], arena: &[FuncId]) -> Option<StackId> {
        let found = self.slots.find(hash, |s| {
            s.len as usize == frames.len()
                && arena.get(s.start as usize..(s.start + s.len) as usize) == Some(frames)
        });
        found.map(|s| StackId(s.id))
    }

    /// Indexes a stack no indexed stack has the frames of.
    pub(crate) fn insert(&mut self, id: StackId, hash: u32, start: u32, len: u32) {
        self.slots.insert(StackSlot {
            id: id.0,
            hash,
            start,
            len,
        });
    }

    /// Asks for the slot a lookup of `hash` reads first, ahead of it.
    pub(crate) fn prefetch(&self, hash: u32) {
        self.slots.prefetch(hash);
    }

    /// The stack and arena place of the first slot of hash `hash` among
    /// the four a lookup reads first: what it will read next (call after
    /// `prefetch`, once those slots have had time to come in). A table up
    /// to three quarters full often holds a key past its home slot.
    pub(crate) fn first_match(&self, hash: u32) -> Option<(StackId, u32, u32)> {
        let s = self.slots.near(hash, 4)?;
        Some((StackId(s.id), s.start, s.len))
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
        assert!(index.slots.size() * 3 >= index.slots.len() * 4);
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
        assert_eq!(index.first_match(42), Some((StackId(0), 0, 2)));
        assert_eq!(index.find(42, &f(&[3, 1]), &arena), None);
    }
}
