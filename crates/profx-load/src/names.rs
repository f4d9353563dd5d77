//! How parsing workers number names and hand them to the consumer: the one
//! protocol of every fast loader (PLIST's, the Xbase++ traces' and BR's).
//!
//! - A worker numbers the names it reads in a table of its own
//!   (`WorkerNames`: no lock on the hot path).
//! - With each batch it ships the names it numbered since its last batch
//!   (`WorkerNames::take` → `NewNames`), back to back in one buffer, with
//!   the number of the first.
//! - The consumer, which receives a worker's batches in the order they were
//!   made, interns them in number order in the profile's table and keeps,
//!   per worker, its numbers → the profile's ids (`NameMaps::learn`): one
//!   array lookup a name thereafter.
//!
//! A worker's numbers last the whole load (`WorkerNames::kept`: a trace
//! has thousands of names, each read millions of times, so a batch ships
//! only the few new to its worker) or start again with each batch
//! (`WorkerNames::per_batch`: a PLIST has hundreds of thousands of names,
//! mostly read once, and a table kept for the whole load would hold every
//! name once more for each worker).
//!
//! A batch the consumer will not feed (BR's workers guess where their
//! chunk's first sample begins; a wrong guess reads bytes another worker
//! reads properly) still carries numbers its worker goes on using. The
//! consumer holds its names unnamed in the profile (`NameMaps::hold`) and
//! interns one only when a fed batch uses it (`NameMaps::id`), so what a
//! wrong guess read never becomes a name.

use crate::scan::word;
use profx_model::intern::Interner;
use profx_model::{NameId, ProfileBuilder};

/// A worker's name table.
#[derive(Debug)]
pub(crate) struct WorkerNames {
    table: Interner,
    recent: Recent,
    /// How many of `table`'s names went out with earlier batches.
    shipped: usize,
    /// Whether numbering starts again with each batch.
    per_batch: bool,
}

impl WorkerNames {
    /// Numbers that last the whole load.
    pub(crate) fn kept() -> Self {
        WorkerNames {
            table: Interner::default(),
            recent: Recent::default(),
            shipped: 0,
            per_batch: false,
        }
    }

    /// Numbers that start again from 0 with each batch (the table keeps
    /// its room for the next).
    pub(crate) fn per_batch() -> Self {
        WorkerNames {
            per_batch: true,
            ..WorkerNames::kept()
        }
    }

    /// The worker's number for `name`.
    pub(crate) fn id(&mut self, name: &str) -> u32 {
        self.table.intern(name).index() as u32
    }

    /// `id` of a name the fast path found to be ASCII: a name read a
    /// moment ago is found by its bytes (`Recent`), and only a new one is
    /// made text.
    pub(crate) fn id_ascii(&mut self, name: &[u8]) -> u32 {
        let key = self.recent.key(name);
        if let Some((at, key)) = key {
            let slot = self.recent.slots[at];
            if slot.len == key.len
                && (slot.first, slot.last) == (key.first, key.last)
                && (name.len() <= 16
                    || self
                        .table
                        .resolve(NameId::from_index(slot.id as usize))
                        .as_bytes()
                        == name)
            {
                return slot.id;
            }
        }
        let id = match self.table.find(name) {
            Some(id) => id.index() as u32,
            None => self.id(&String::from_utf8_lossy(name)),
        };
        if let Some((at, key)) = key {
            self.recent.slots[at] = RecentSlot { id, ..key };
        }
        id
    }

    /// The names numbered since the last take, for the batch that goes
    /// out now.
    pub(crate) fn take(&mut self) -> NewNames {
        let first = if self.per_batch { 0 } else { self.shipped };
        let mut new = NewNames {
            first,
            ..NewNames::default()
        };
        for i in first..self.table.len() {
            new.text.push_str(self.table.resolve(NameId::from_index(i)));
            new.ends.push(new.text.len());
        }
        if self.per_batch {
            self.table.clear();
            self.recent.clear();
        } else {
            self.shipped = self.table.len();
        }
        new
    }
}

/// Names a batch introduces, back to back, numbered from `first`.
#[derive(Debug, Default)]
pub(crate) struct NewNames {
    first: usize,
    text: String,
    ends: Vec<usize>,
}

impl NewNames {
    /// The name the worker numbered `number`, if this batch brought it.
    pub(crate) fn get(&self, number: u32) -> Option<&str> {
        let i = (number as usize).checked_sub(self.first)?;
        let start = match i {
            0 => 0,
            _ => *self.ends.get(i - 1)?,
        };
        self.text.get(start..*self.ends.get(i)?)
    }

    /// The names in number order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &str> + Clone {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(&self.ends).map(|(a, &b)| &self.text[a..b])
    }
}

/// The consumer's side: per worker, its numbers → the profile's names.
#[derive(Debug, Default)]
pub(crate) struct NameMaps {
    maps: Vec<Vec<NameId>>,
    /// Per worker, the names of batches held, not interned (`hold`).
    held: Vec<Vec<NewNames>>,
}

/// A number no name has been given for yet.
const UNNAMED: NameId = NameId::from_index(u32::MAX as usize);

impl NameMaps {
    /// Interns the batch's new names in `table`, in number order; returns
    /// `worker`'s numbers → the profile's names, which [`global`] reads.
    pub(crate) fn learn(
        &mut self,
        worker: usize,
        new: &NewNames,
        table: &mut impl NameTable,
    ) -> &[NameId] {
        let map = self.map_to(worker, new.first);
        table.intern_new(new, map);
        map
    }

    /// Takes the numbers of a batch that is not fed, interning none of
    /// its names: [`NameMaps::id`] interns one when a fed batch uses it.
    pub(crate) fn hold(&mut self, worker: usize, new: NewNames) {
        let count = new.ends.len();
        let map = self.map_to(worker, new.first);
        map.resize(new.first + count, UNNAMED);
        if self.held.len() <= worker {
            self.held.resize_with(worker + 1, Vec::new);
        }
        if count > 0 {
            self.held[worker].push(new);
        }
    }

    /// `worker`'s name `number` as the profile's, interned now if a held
    /// batch brought it; an id no name has for a number no batch brought.
    pub(crate) fn id(&mut self, worker: usize, number: u32, table: &mut impl NameTable) -> NameId {
        let Some(map) = self.maps.get_mut(worker) else {
            return UNNAMED;
        };
        let id = global(map, number);
        if id != UNNAMED {
            return id;
        }
        let held = self.held.get(worker).into_iter().flatten();
        let Some(text) = held.filter_map(|new| new.get(number)).next() else {
            return UNNAMED;
        };
        let id = table.intern_one(text);
        if let Some(slot) = map.get_mut(number as usize) {
            *slot = id;
        }
        id
    }

    /// `worker`'s map, its numbers from `first` on forgotten: a worker's
    /// batches come in the order it made them, so its numbers before
    /// `first` are the ones learnt from earlier batches.
    fn map_to(&mut self, worker: usize, first: usize) -> &mut Vec<NameId> {
        if self.maps.len() <= worker {
            self.maps.resize_with(worker + 1, Vec::new);
        }
        let map = &mut self.maps[worker];
        map.truncate(first);
        map.resize(first, UNNAMED);
        map
    }
}

/// A worker's name number as the profile's (`map`: [`NameMaps::learn`]'s);
/// a number no batch brought (a broken worker) is an id no name has.
#[inline]
pub(crate) fn global(map: &[NameId], number: u32) -> NameId {
    map.get(number as usize).copied().unwrap_or(UNNAMED)
}

/// The profile's name table, as the consumer holds it: the builder's, or
/// the table taken out of it while another thread adds rows.
pub(crate) trait NameTable {
    /// Interns `new`'s names in order, their ids onto `ids`.
    fn intern_new(&mut self, new: &NewNames, ids: &mut Vec<NameId>);

    /// Interns one name (a held one, at its first use).
    fn intern_one(&mut self, name: &str) -> NameId;
}

impl NameTable for Interner {
    fn intern_new(&mut self, new: &NewNames, ids: &mut Vec<NameId>) {
        // A batch at once: `intern_all` asks for each name's slot a few
        // names ahead.
        ids.extend(self.intern_all(new.iter()));
    }

    fn intern_one(&mut self, name: &str) -> NameId {
        self.intern(name)
    }
}

impl NameTable for ProfileBuilder {
    fn intern_new(&mut self, new: &NewNames, ids: &mut Vec<NameId>) {
        ids.extend(new.iter().map(|n| self.intern(n)));
    }

    fn intern_one(&mut self, name: &str) -> NameId {
        self.intern(name)
    }
}

/// Names by their first and last eight bytes and length, direct-mapped: a
/// worker reads a name a record, nearly always one of a few thousand, and
/// a slot here costs a fraction of the table's hash and probe. Up to 16
/// bytes the key is the name's bytes (a shorter name's zero-padded); a
/// longer name's middle is not in the key, so a hit on one is checked
/// against the table's text of the id (Xbase++ methods, C++ names with
/// namespaces: real names are mostly longer than 16 bytes). Its slots are
/// made at the first name looked up this way.
#[derive(Debug, Default)]
struct Recent {
    slots: Vec<RecentSlot>,
}

#[derive(Clone, Copy, Debug, Default)]
struct RecentSlot {
    first: u64,
    last: u64,
    /// 0 for a free slot.
    len: u32,
    id: u32,
}

const RECENT_BITS: u32 = 12;

impl Recent {
    /// Where a name goes, and its key; `None` for an empty one.
    fn key(&mut self, name: &[u8]) -> Option<(usize, RecentSlot)> {
        if self.slots.is_empty() {
            self.slots = vec![RecentSlot::default(); 1 << RECENT_BITS];
        }
        let len = name.len();
        let (first, last) = match len {
            0 => return None,
            1..=7 => {
                let mut padded = [0u8; 8];
                padded[..len].copy_from_slice(name);
                (word(&padded), 0)
            }
            _ => (word(&name[..8]), word(&name[len - 8..])),
        };
        // Not the length: names of one byte repeated then share a slot at
        // every length, which is what lets a test catch a missing length
        // check.
        let mix = (first ^ last.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let at = (mix >> (64 - RECENT_BITS)) as usize;
        let key = RecentSlot {
            first,
            last,
            len: len as u32,
            id: 0,
        };
        Some((at, key))
    }

    /// Forgets every name (their numbers start again).
    fn clear(&mut self) {
        self.slots.fill(RecentSlot::default());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Numbering per batch: a take ships the names in number order and
    /// numbering starts again.
    #[test]
    fn per_batch_names_go_out_in_number_order_and_numbering_restarts() {
        let mut w = WorkerNames::per_batch();
        assert_eq!([w.id("a"), w.id(""), w.id("b"), w.id("a")], [0, 1, 2, 0]);
        assert_eq!(w.take().iter().collect::<Vec<_>>(), ["a", "", "b"]);
        assert!(w.take().iter().next().is_none());
        assert_eq!([w.id_ascii(b"b"), w.id("c"), w.id_ascii(b"b")], [0, 1, 0]);
        let names = w.take();
        assert_eq!(names.iter().collect::<Vec<_>>(), ["b", "c"]);
        assert_eq!(
            [names.get(0), names.get(1), names.get(2)],
            [Some("b"), Some("c"), None]
        );
        // A name looked up by its bytes before the restart is not found
        // under its old number.
        assert_eq!([w.id("c"), w.id_ascii(b"b")], [0, 1]);
    }

    /// Kept numbers: each take ships only the names new since the last,
    /// and the consumer's map covers every number so far.
    #[test]
    fn kept_numbers_ship_each_name_once_and_map_for_the_whole_load() {
        let mut w = WorkerNames::kept();
        let mut table = Interner::default();
        table.intern("x");
        let mut maps = NameMaps::default();
        assert_eq!([w.id("a"), w.id_ascii(b"b")], [0, 1]);
        let first = w.take();
        assert_eq!(first.iter().collect::<Vec<_>>(), ["a", "b"]);
        let map = maps.learn(3, &first, &mut table).to_vec();
        assert_eq!(map, [NameId::from_index(1), NameId::from_index(2)]);
        assert_eq!([w.id("b"), w.id("x"), w.id_ascii(b"a")], [1, 2, 0]);
        let second = w.take();
        assert_eq!(second.iter().collect::<Vec<_>>(), ["x"]);
        assert_eq!([second.get(1), second.get(2)], [None, Some("x")]);
        let map = maps.learn(3, &second, &mut table);
        assert_eq!(
            map,
            [
                NameId::from_index(1),
                NameId::from_index(2),
                NameId::from_index(0)
            ]
        );
        assert_eq!(global(map, 2), NameId::from_index(0));
        assert_eq!(global(map, 3), NameId::from_index(u32::MAX as usize));
        assert!(w.take().iter().next().is_none());
    }

    /// A held batch's names are interned only when used, in the order
    /// used; numbers learnt after it still map, and an unknown number
    /// maps to no name.
    #[test]
    fn held_names_are_interned_at_first_use() {
        let mut w = WorkerNames::kept();
        let mut table = Interner::default();
        let mut maps = NameMaps::default();
        assert_eq!([w.id("g1"), w.id("g2"), w.id("g3")], [0, 1, 2]);
        maps.hold(0, w.take());
        assert_eq!(table.len(), 0);
        assert_eq!(w.id("a"), 3);
        let map = maps.learn(0, &w.take(), &mut table).to_vec();
        assert_eq!(map, [UNNAMED, UNNAMED, UNNAMED, NameId::from_index(0)]);
        assert_eq!(maps.id(0, 2, &mut table), NameId::from_index(1));
        assert_eq!(maps.id(0, 2, &mut table), NameId::from_index(1));
        assert_eq!(maps.id(0, 0, &mut table), NameId::from_index(2));
        assert_eq!(maps.id(0, 3, &mut table), NameId::from_index(0));
        assert_eq!(table.len(), 3, "g2 was never used");
        assert_eq!(table.resolve(NameId::from_index(1)), "g3");
        assert_eq!(maps.id(0, 9, &mut table), UNNAMED);
        assert_eq!(maps.id(5, 0, &mut table), UNNAMED);
        // An empty held batch changes nothing.
        maps.hold(0, w.take());
        assert_eq!(maps.id(0, 1, &mut table), NameId::from_index(3));
    }

    /// Names that share a recent slot (one byte repeated, at every length)
    /// or differ only inside (the same first and last eight bytes) get
    /// the numbers of a plain table, in the order first read.
    #[test]
    fn recent_names_are_numbered_as_the_table_numbers_them() {
        let mut texts: Vec<String> = Vec::new();
        for len in 1..=20 {
            texts.push("A".repeat(len));
            texts.push("B".repeat(len));
        }
        for mid in ["X", "Y", "XY", "YX", "XYZ"] {
            texts.push(format!("FN00{mid}0169"));
            texts.push(format!("ABCDEFGH{mid}ABCDEFGH"));
        }
        texts.extend((0..9000).map(|i| format!("FN{:06}", i % 6000)));
        // Long names sharing long prefixes and suffixes.
        for m in ["append", "assign", "insert", "erase0"] {
            for i in 0..50 {
                texts.push(format!("std::basic_string<char>::{m}{i:02}(const char *)"));
                texts.push(format!("CUSTOMERDIALOG:{m}{i:02}:VALIDATE"));
            }
        }
        let mut names = WorkerNames::kept();
        let mut plain: std::collections::HashMap<&str, usize> = Default::default();
        for round in 0..3 {
            for (i, text) in texts.iter().enumerate() {
                if (i + round) % 3 == 0 {
                    continue;
                }
                let next = plain.len();
                let want = *plain.entry(text).or_insert(next);
                let got = names.id_ascii(text.as_bytes());
                assert_eq!(got as usize, want, "{text}");
            }
        }
        assert_eq!(names.take().iter().count(), plain.len());
    }
}
