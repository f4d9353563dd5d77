//! Linear probing over a power-of-two table of slots: the core the name
//! and stack indexes and the call tree's child index share, each with its
//! own slot type.
//!
//! A slot carries its key's 32-bit hash, so growing reads no key and a
//! probe settles most mismatches without reading one. The table is ours,
//! not hashbrown's, so that a caller can ask for the slot a lookup will
//! read first, a few lookups ahead ([`Slots::prefetch`]): the name and
//! stack tables of a large profile miss every cache. hashbrown's
//! `HashTable` in its place (no prefetch; its control bytes and its slots
//! two misses a lookup) measured slower on the trace loads, most on a
//! sampled log with every stack kept (BENCHMARKS.md, issue 54). Keys are
//! never removed; `clear` forgets them all.

use profx_sys::prefetch::prefetch;

/// A slot of a [`Slots`] table.
pub(crate) trait Slot: Copy {
    /// A free slot.
    const FREE: Self;
    /// How full the table may get, as a fraction (numerator, denominator).
    const MAX_LOAD: (usize, usize);
    fn is_free(&self) -> bool;
    fn hash(&self) -> u32;
}

#[derive(Clone, Debug)]
pub(crate) struct Slots<S> {
    slots: Vec<S>,
    len: usize,
}

impl<S> Default for Slots<S> {
    fn default() -> Self {
        Slots {
            slots: Vec::new(),
            len: 0,
        }
    }
}

impl<S: Slot> Slots<S> {
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    #[cfg(test)]
    pub(crate) fn size(&self) -> usize {
        self.slots.len()
    }

    /// Where probing for `hash` starts: the top bits of a multiplicative
    /// spread, as Fx's low bits are weak.
    fn home(&self, hash: u32) -> usize {
        let bits = self.slots.len().trailing_zeros();
        let spread = u64::from(hash).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (spread >> (64 - bits)) as usize
    }

    /// The first slot of hash `hash` that `is_it` accepts, if any.
    #[inline]
    pub(crate) fn find(&self, hash: u32, mut is_it: impl FnMut(&S) -> bool) -> Option<&S> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(hash);
        loop {
            let s = &self.slots[i];
            if s.is_free() {
                return None;
            }
            if s.hash() == hash && is_it(s) {
                return Some(s);
            }
            i = (i + 1) & mask;
        }
    }

    /// Adds a slot whose key no slot has.
    pub(crate) fn insert(&mut self, slot: S) {
        self.reserve(1);
        self.place(slot);
        self.len += 1;
    }

    /// Room for `more` keys without growing (so slots asked for ahead
    /// stay where they are).
    pub(crate) fn reserve(&mut self, more: usize) {
        let (num, den) = S::MAX_LOAD;
        let keys = self.len.saturating_add(more);
        if keys.saturating_mul(den) > self.slots.len() * num {
            let size = keys.saturating_mul(den).div_ceil(num);
            self.grow(size.next_power_of_two().max(16));
        }
    }

    fn place(&mut self, slot: S) {
        let mask = self.slots.len() - 1;
        let mut i = self.home(slot.hash());
        while !self.slots[i].is_free() {
            i = (i + 1) & mask;
        }
        self.slots[i] = slot;
    }

    fn grow(&mut self, size: usize) {
        let old = std::mem::replace(&mut self.slots, vec![S::FREE; size]);
        for s in old.into_iter().filter(|s| !s.is_free()) {
            self.place(s);
        }
    }

    /// Asks for the slot a lookup of `hash` reads first, ahead of it.
    #[inline]
    pub(crate) fn prefetch(&self, hash: u32) {
        if !self.slots.is_empty() {
            prefetch(&self.slots[self.home(hash)]);
        }
    }

    /// The first slot of hash `hash` among the `reach` a lookup reads
    /// first (fewer when a free slot ends the probe): what a lookup will
    /// most likely find, without reading any key.
    pub(crate) fn near(&self, hash: u32, reach: usize) -> Option<&S> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let home = self.home(hash);
        (0..reach)
            .map(|k| &self.slots[(home + k) & mask])
            .take_while(|s| !s.is_free())
            .find(|s| s.hash() == hash)
    }

    /// Forgets every key, keeping the room.
    pub(crate) fn clear(&mut self) {
        self.slots.fill(S::FREE);
        self.len = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Key(u32);

    impl Slot for Key {
        const FREE: Self = Key(u32::MAX);
        const MAX_LOAD: (usize, usize) = (3, 4);
        fn is_free(&self) -> bool {
            *self == Self::FREE
        }
        fn hash(&self) -> u32 {
            self.0
        }
    }

    /// A key displaced from its home slot by others with the same home
    /// is found near it, within the reach asked for and not beyond.
    #[test]
    fn near_finds_keys_past_their_home_slot() {
        let mut t = Slots::default();
        t.reserve(12);
        let home = t.home(1);
        let same_home: Vec<u32> = (2..10_000).filter(|&h| t.home(h) == home).take(3).collect();
        for &h in &same_home {
            t.insert(Key(h));
        }
        t.insert(Key(1));
        assert_eq!(t.near(1, 4), Some(&Key(1)));
        assert_eq!(t.near(1, 3), None, "three slots hold the others");
        assert_eq!(t.near(same_home[1], 4), Some(&Key(same_home[1])));
        assert_eq!(t.near(12345, 4), None);
    }
}
