//! A BR worker's function numbers by the bytes of the records that tell a
//! frame's function, for a whole sample's frames (`Decoder::number_whole`).
//!
//! The worker's table of functions (`Decoder::funcs`) keys a function by
//! its kind, module and trimmed name, borrowed from the log: a lookup
//! hashes the name's bytes, probes a hashbrown group and compares the name
//! through a pointer, for every frame of every sample. Most names are
//! short, so here a function is keyed by
//! what its records hold, read as words straight from the log: its name
//! record's length and up to 15 bytes of name (the bytes past the name
//! masked off), its module and its kind. A key is three words; a lookup
//! is a multiplication and a compare of each slot it probes.
//!
//! A name as written is not trimmed, so two keys may stand for one
//! function (`"FNA"` and a padded `"FNA "`): each then finds the number the
//! worker's table gave that function, and the numbers stay the same as
//! reading record by record gives. Keys never say anything the table does
//! not: a miss goes to the table, and its answer is remembered here.

use crate::br::rules::FuncKind;

/// A frame's function as its records spell it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct FrameKey {
    lo: u64,
    hi: u64,
    /// The name's length, its `FuncKind`'s number and the module: `len <<
    /// 24 | kind << 16 | module`. Never `EMPTY`: lengths stay below 16.
    tag: u32,
}

/// A slot's tag when it holds no key.
const EMPTY: u32 = u32::MAX;

impl FrameKey {
    /// A frame whose function has no name record: a program, GOSUB or
    /// main of `module`.
    pub(super) fn unnamed(kind: FuncKind, module: u16) -> Self {
        FrameKey {
            lo: 0,
            hi: 0,
            tag: (kind as u32) << 16 | u32::from(module),
        }
    }

    /// A named function of `module` whose name record's `len` bytes of
    /// name begin at `at` in `bytes`; `None` for a name of 16 bytes or
    /// more, or one whose 16 bytes from `at` run past the end of `bytes`.
    #[inline]
    pub(super) fn named(bytes: &[u8], at: usize, len: usize, module: u16) -> Option<Self> {
        if len >= 16 {
            return None;
        }
        let words = bytes.get(at..at.checked_add(16)?)?;
        let (lo, hi) = words.split_at(8);
        let lo = u64::from_le_bytes(lo.try_into().ok()?);
        let hi = u64::from_le_bytes(hi.try_into().ok()?);
        Some(FrameKey {
            lo: lo & low_bytes(len),
            hi: hi & low_bytes(len.saturating_sub(8)),
            tag: (len as u32) << 24 | (FuncKind::Named as u32) << 16 | u32::from(module),
        })
    }

    #[inline]
    fn home(self, bits: u32) -> usize {
        let h = (self.lo ^ self.hi.rotate_left(29) ^ u64::from(self.tag) << 7)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> (64 - bits)) as usize
    }
}

/// A mask of the low `n` bytes of a word (all of it from 8 on).
#[inline]
fn low_bytes(n: usize) -> u64 {
    if n >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * n)) - 1
    }
}

/// A key and its number in 24 bytes (a `FrameKey` and a number would
/// take 32 with the key's padding): the table is too large for the first
/// cache level, and each lookup waits for its slot.
#[derive(Clone, Copy, Debug)]
struct Slot {
    lo: u64,
    hi: u64,
    tag: u32,
    number: u32,
}

impl Slot {
    fn new(key: FrameKey, number: u32) -> Self {
        Slot {
            lo: key.lo,
            hi: key.hi,
            tag: key.tag,
            number,
        }
    }

    fn key(&self) -> FrameKey {
        FrameKey {
            lo: self.lo,
            hi: self.hi,
            tag: self.tag,
        }
    }
}

const FREE: Slot = Slot {
    lo: 0,
    hi: 0,
    tag: EMPTY,
    number: 0,
};

/// Open addressing, linear probing, at most half full (a lookup then
/// reads about one slot): 4,096 slots of 24 bytes to start with, doubled
/// as keys come.
#[derive(Debug)]
pub(super) struct FrameKeys {
    slots: Vec<Slot>,
    bits: u32,
    len: usize,
}

impl Default for FrameKeys {
    fn default() -> Self {
        FrameKeys::with_bits(12)
    }
}

impl FrameKeys {
    fn with_bits(bits: u32) -> Self {
        FrameKeys {
            slots: vec![FREE; 1 << bits],
            bits,
            len: 0,
        }
    }

    /// The number remembered for `key`.
    #[inline(always)]
    pub(super) fn get(&self, key: FrameKey) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut i = key.home(self.bits);
        // Never full, so a free slot ends every probe.
        loop {
            let slot = self.slots.get(i & mask)?;
            if slot.key() == key {
                return Some(slot.number);
            }
            if slot.tag == EMPTY {
                return None;
            }
            i += 1;
        }
    }

    /// Remembers `number` for `key`, which `get` did not find.
    pub(super) fn insert(&mut self, key: FrameKey, number: u32) {
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        self.place(Slot::new(key, number));
        self.len += 1;
    }

    fn place(&mut self, new: Slot) {
        let mask = self.slots.len() - 1;
        let mut i = new.key().home(self.bits);
        while let Some(slot) = self.slots.get_mut(i & mask) {
            if slot.tag == EMPTY {
                *slot = new;
                return;
            }
            i += 1;
        }
    }

    fn grow(&mut self) {
        let old = std::mem::replace(self, FrameKeys::with_bits(self.bits + 1));
        self.len = old.len;
        for slot in old.slots.into_iter().filter(|s| s.tag != EMPTY) {
            self.place(slot);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name record's name bytes at `at` in a log: `name` and then
    /// `after`, as the records that follow it would be.
    fn log(name: &[u8], after: &[u8]) -> (Vec<u8>, usize) {
        let mut bytes = vec![7, name.len() as u8];
        bytes.extend_from_slice(name);
        bytes.extend_from_slice(after);
        (bytes, 2)
    }

    #[test]
    fn a_name_is_its_bytes_whatever_follows_it() {
        for len in 0..16 {
            let name: Vec<u8> = (0..len as u8).map(|i| b'A' + i).collect();
            let (a, at) = log(&name, &[0xff; 20]);
            let (b, _) = log(&name, &[0x00; 20]);
            let key = FrameKey::named(&a, at, len, 3);
            assert!(key.is_some(), "length {len}");
            assert_eq!(key, FrameKey::named(&b, at, len, 3), "length {len}");
        }
    }

    #[test]
    fn length_module_and_kind_tell_keys_apart() {
        let (bytes, at) = log(b"FN\0", &[0; 20]);
        let padded = FrameKey::named(&bytes, at, 3, 1);
        let short = FrameKey::named(&bytes, at, 2, 1);
        assert_ne!(padded, short);
        assert_ne!(short, FrameKey::named(&bytes, at, 2, 2));
        let (empty, at) = log(b"", &[0; 20]);
        let named_empty = FrameKey::named(&empty, at, 0, 1);
        assert_eq!(
            named_empty.map(|k| k == FrameKey::unnamed(FuncKind::Program, 1)),
            Some(false)
        );
        assert_ne!(
            FrameKey::unnamed(FuncKind::Gosub, 1),
            FrameKey::unnamed(FuncKind::Main, 1)
        );
    }

    #[test]
    fn long_names_and_names_at_the_end_have_no_key() {
        let (bytes, at) = log(&[b'x'; 16], &[0; 20]);
        assert_eq!(FrameKey::named(&bytes, at, 16, 1), None);
        let (bytes, at) = log(b"FNEND", &[]);
        assert_eq!(FrameKey::named(&bytes, at, 5, 1), None);
    }

    /// Thousands of keys, many sharing a home slot's neighbourhood, are
    /// all found again across growth; others are not found.
    #[test]
    fn finds_every_key_it_was_given_and_no_other() {
        let mut keys = FrameKeys::default();
        let key = |i: u32| {
            let name = format!("F{i:06}");
            let (bytes, at) = log(name.as_bytes(), &[0; 20]);
            FrameKey::named(&bytes, at, name.len(), (i % 16) as u16)
        };
        for i in 0..20_000u32 {
            let k = key(i).expect("a short name has a key");
            assert_eq!(keys.get(k), None);
            keys.insert(k, i);
        }
        for i in 0..20_000u32 {
            assert_eq!(key(i).and_then(|k| keys.get(k)), Some(i));
        }
        assert_eq!(key(20_000).and_then(|k| keys.get(k)), None);
        assert!(keys.len * 2 <= keys.slots.len());
    }
}
