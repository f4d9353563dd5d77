//! String interning: every name in a profile is stored once and referred to
//! by a `NameId`, so millions of rows cost four bytes per name.

use super::ids::NameId;
use super::name_index::NameIndex;
use std::hash::{BuildHasher, Hasher};
use std::sync::Arc;

/// Owns the distinct strings of one profile.
///
/// The text of all names lies back to back in one buffer and the table
/// holds ids, not strings: a name costs its bytes, 8 for its start and
/// 16 to 32 for its table slots (8 bytes each, the table a quarter to half
/// full), not two heap blocks (one for the list, one for the key), and
/// freezing frees nothing name by name.
///
/// A query's step interns on top of its input's frozen names
/// ([`Interner::extending`]): those keep their ids and are shared, not
/// copied, and the names the step adds are numbered after them.
#[derive(Debug, Default, Clone)]
pub struct Interner {
    text: String,
    /// Where each name starts in `text`; it ends where the next starts.
    starts: Vec<usize>,
    /// Ids by hash (`name_index.rs`), numbered from 0 in this table (the
    /// ids handed out are `first` higher).
    index: NameIndex,
    /// The frozen names this table extends (a step's input's), if any.
    base: Option<Box<Names>>,
    /// How many names `base` has: the id of this table's first name.
    first: usize,
}

fn hash(s: &[u8]) -> u32 {
    let mut h = rustc_hash::FxBuildHasher.build_hasher();
    h.write(s);
    let h = h.finish();
    (h ^ (h >> 32)) as u32
}

/// Whether two names are the same bytes. Names are mostly short, and a
/// call to `memcmp` for eight bytes cost more than the hash lookup around
/// it: up to 16 bytes compare as two words.
#[inline]
pub fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    match a.len() {
        0..8 => a.iter().zip(b).all(|(x, y)| x == y),
        8..=16 => {
            let tail = a.len() - 8;
            word(a, 0) == word(b, 0) && word(a, tail) == word(b, tail)
        }
        _ => a == b,
    }
}

/// The eight bytes at `at` (the caller knows they are there).
#[inline(always)]
fn word(s: &[u8], at: usize) -> u64 {
    let mut w = [0; 8];
    w.copy_from_slice(&s[at..at + 8]);
    u64::from_ne_bytes(w)
}

/// A borrowed name as a hash map key that compares with [`same`].
#[derive(Clone, Copy, Debug, Eq)]
pub struct Bytes<'a>(pub &'a [u8]);

impl PartialEq for Bytes<'_> {
    fn eq(&self, other: &Self) -> bool {
        same(self.0, other.0)
    }
}

impl std::hash::Hash for Bytes<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write(self.0);
    }
}

impl Interner {
    /// The id of `s`, adding it on first sight.
    pub fn intern(&mut self, s: &str) -> NameId {
        self.intern_hashed(s, hash(s.as_bytes()))
    }

    /// The ids of `names`, in order, as `intern` gives them. A batch of
    /// names new to a large table costs a cache miss each in the table:
    /// their slots are asked for a few names ahead.
    pub fn intern_all<'a, I>(&mut self, names: I) -> Vec<NameId>
    where
        I: IntoIterator<Item = &'a str>,
        I::IntoIter: Clone,
    {
        const AHEAD: usize = 8;
        let names = names.into_iter();
        let hashes: Vec<u32> = names.clone().map(|s| hash(s.as_bytes())).collect();
        self.index.reserve(hashes.len());
        for &h in hashes.iter().take(AHEAD) {
            self.index.prefetch(h);
        }
        let mut ids = Vec::with_capacity(hashes.len());
        for (i, s) in names.enumerate() {
            if let Some(&h) = hashes.get(i + AHEAD) {
                self.index.prefetch(h);
            }
            ids.push(self.intern_hashed(s, hashes[i]));
        }
        ids
    }

    fn intern_hashed(&mut self, s: &str, h: u32) -> NameId {
        if let Some(id) = self.find_hashed(s.as_bytes(), h) {
            return id;
        }
        if let Some(id) = self.base.as_ref().and_then(|b| b.find(s.as_bytes())) {
            return id;
        }
        let own = NameId::from_index(self.starts.len());
        self.starts.push(self.text.len());
        self.text.push_str(s);
        self.index.insert(own, h);
        NameId::from_index(self.first + own.index())
    }

    /// A table whose names are `names`, under the same ids, shared and not
    /// copied (a query's step: its input's names mean the same in the
    /// profile it makes), to which new names are added after them. Finding
    /// one of `names` by its text reads them all (they keep no lookup
    /// table once frozen): a step adds a few names at most, and names its
    /// input's by their ids.
    pub fn extending(names: &Names) -> Interner {
        Interner {
            first: names.len(),
            base: Some(Box::new(names.clone())),
            ..Interner::default()
        }
    }

    /// The id of the name whose text is `s`, if it has one.
    pub fn find(&self, s: &[u8]) -> Option<NameId> {
        let own = self.find_hashed(s, hash(s));
        own.or_else(|| self.base.as_ref().and_then(|b| b.find(s)))
    }

    /// `s` among this table's own names (not `base`'s).
    fn find_hashed(&self, s: &[u8], h: u32) -> Option<NameId> {
        // Bytes, not `str` slices: no check of UTF-8 boundaries a probe.
        let (text, starts) = (self.text.as_bytes(), self.starts.as_slice());
        let at = |i: usize| {
            let end = starts.get(i + 1).copied().unwrap_or(text.len());
            text.get(starts[i]..end).unwrap_or_default()
        };
        let own = self.index.find(h, |id| same(at(id.index()), s))?;
        Some(NameId::from_index(self.first + own.index()))
    }

    /// The text of name `id`, an id of this table.
    pub fn resolve(&self, id: NameId) -> &str {
        match (id.index().checked_sub(self.first), &self.base) {
            (Some(own), _) => span(&self.text, &self.starts, own),
            (None, Some(base)) => base.resolve(id),
            (None, None) => "",
        }
    }

    /// How many names there are.
    pub fn len(&self) -> usize {
        self.first + self.starts.len()
    }

    /// Forgets every name it added (those it extends stay), keeping the
    /// room they took.
    pub fn clear(&mut self) {
        self.text.clear();
        self.starts.clear();
        self.index.clear();
    }

    /// The names in number order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        let base = self.base.iter().flat_map(|b| b.iter());
        base.chain((0..self.starts.len()).map(|i| span(&self.text, &self.starts, i)))
    }

    /// Whether there are no names.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Drops the lookup table once loading is over (the app only resolves
    /// ids) and ranks the names once, so sorting a million rows by a name
    /// compares integers, not strings.
    pub fn freeze(self) -> Names {
        let Interner {
            mut text,
            mut starts,
            index,
            base,
            first: _,
        } = self;
        drop(index);
        if let Some(base) = base {
            return base.with(&text, &starts);
        }
        text.shrink_to_fit();
        starts.shrink_to_fit();
        // Ranked only now, with the lookup table gone: ranking's keys are
        // the largest thing a load of many names makes at its end.
        let ranks = rank(&text, &starts);
        Names {
            table: Arc::new(Table {
                text,
                starts,
                ranks,
            }),
            added: Added::default(),
        }
    }
}

/// The ranks of the names of a buffer and its start offsets.
///
/// Names are sorted 16 bytes at a time, each step on keys held in the
/// list (two integers, no text read while sorting): first by their first
/// 16 bytes, then each run of names alike in those by the next 16, and
/// so on. Names that share long prefixes (C++: `std::basic_string<…>::`,
/// `CWinThread::`) cost a pass a 16 bytes they share, not a comparison of
/// their whole text at every step of one sort.
fn rank(text: &str, starts: &[usize]) -> Vec<u32> {
    let name = |i: u32| span(text, starts, i as usize);
    let mut order: Vec<Key> = (0..starts.len() as u32)
        .map(|id| {
            let text = name(id).as_bytes();
            let head = prefix(text);
            Key {
                head: (head[0], head[1]),
                id,
                len: u32::try_from(text.len()).unwrap_or(u32::MAX),
            }
        })
        .collect();
    super::par_sort::sort_unstable_by(&mut order, |a, b| a.head.cmp(&b.head));
    refine_split(&mut order, &name);
    let mut ranks = vec![0; starts.len()];
    for (rank, k) in order.iter().enumerate() {
        // The empty text ranks 0 whether or not it was interned, so a
        // row showing no name (ranked 0 by its column) ties with it.
        ranks[k.id as usize] = if k.len == 0 { 0 } else { rank as u32 + 1 };
    }
    ranks
}

/// A name in the ranking: 16 of its bytes (from the depth its run is
/// ordered at) as two big-endian words, its id and its length, so a sort
/// reads no text.
#[derive(Clone, Copy, Debug)]
struct Key {
    head: (u64, u64),
    id: u32,
    len: u32,
}

/// `refine` on every core: the runs alike in their first 16 bytes are
/// ordered apart from each other, so a long list is cut between two runs
/// near its middle and each side refined on a thread of its own.
fn refine_split<'t>(order: &mut [Key], name: &(dyn Fn(u32) -> &'t str + Sync)) {
    let cut = run_boundary(order, order.len() / 2);
    if !super::par_sort::worth_splitting(cut.min(order.len() - cut) * 2) {
        refine(order, name);
        return;
    }
    let (a, b) = order.split_at_mut(cut);
    rayon::join(|| refine_split(a, name), || refine_split(b, name));
}

/// The first place at or after `at` where a new key starts (or the end).
fn run_boundary(order: &[Key], at: usize) -> usize {
    let mut i = at.min(order.len());
    while i > 0 && i < order.len() && order[i].head == order[i - 1].head {
        i += 1;
    }
    i
}

/// Orders the names of each run of `order` alike in their first 16 bytes
/// by the bytes after them, 16 at a time.
fn refine<'t>(order: &mut [Key], name: &(dyn Fn(u32) -> &'t str + Sync)) {
    // Runs alike in the bytes before `depth + 16`, to order by what
    // follows; a list, not recursion, so a name of a megabyte shared with
    // another is as safe as any.
    let mut work: Vec<(usize, usize, usize)> = Vec::new();
    push_runs(order, 0, 0, &mut work);
    while let Some((from, to, depth)) = work.pop() {
        let run = &mut order[from..to];
        let next = depth + 16;
        // Names that end within these 16 bytes are alike in every byte
        // they have (zeros past their end): they differ in length only
        // (trailing NULs), and come first, the shorter first.
        let ends = |k: &Key| k.len as usize <= next;
        run.sort_unstable_by_key(|k| (!ends(k), k.len));
        let ended = run.partition_point(ends);
        let rest = &mut run[ended..];
        for k in rest.iter_mut() {
            let head = prefix(name(k.id).as_bytes().get(next..).unwrap_or_default());
            k.head = (head[0], head[1]);
        }
        rest.sort_unstable_by_key(|k| k.head);
        push_runs(rest, from + ended, next, &mut work);
    }
}

/// Adds to `work` the runs of `order` (which starts at `at` in the whole
/// list) of two names or more with the same key, to order at `depth`.
fn push_runs(order: &[Key], at: usize, depth: usize, work: &mut Vec<(usize, usize, usize)>) {
    let mut i = 0;
    while i < order.len() {
        let mut j = i + 1;
        while j < order.len() && order[j].head == order[i].head {
            j += 1;
        }
        if j - i > 1 {
            work.push((at + i, at + j, depth));
        }
        i = j;
    }
}

/// The first 16 bytes of `s` as two big-endian words, zeros past its end.
/// Two names whose words differ order as their
/// words do: where they differ, either both have a byte, or the one that
/// ended is a prefix of the other (its zeros equal the other's bytes
/// before that place), and so comes first.
fn prefix(s: &[u8]) -> [u64; 2] {
    let mut head = [0u8; 16];
    let n = s.len().min(16);
    head[..n].copy_from_slice(&s[..n]);
    let word = |i: usize| {
        let mut w = [0; 8];
        w.copy_from_slice(&head[i..i + 8]);
        u64::from_be_bytes(w)
    };
    [word(0), word(8)]
}

/// Name `i` of a buffer and its start offsets.
fn span<'a>(text: &'a str, starts: &[usize], i: usize) -> &'a str {
    let end = starts.get(i + 1).copied().unwrap_or(text.len());
    &text[starts[i]..end]
}

/// The read-only string table of a finished profile.
///
/// A loaded profile's names are one [`Table`], shared (`Arc`) by every
/// profile a query makes of it; the few names a step adds (a collapsed
/// module's frame, were it new) are `added` after them, each profile its
/// own short list. Ranks order every name of both by its text.
#[derive(Debug, Default, Clone)]
pub struct Names {
    table: Arc<Table>,
    added: Added,
}

/// A load's names, frozen: text back to back, where each starts, and its
/// rank.
#[derive(Debug, Default)]
struct Table {
    text: String,
    starts: Vec<usize>,
    /// Per name: its place in byte order among the table's names (`""`
    /// is 0).
    ranks: Vec<u32>,
}

/// Names added to a shared [`Table`] by a query's steps, numbered after
/// its names, and how they fall among them in text order.
#[derive(Debug, Default, Clone)]
struct Added {
    text: String,
    starts: Vec<usize>,
    /// Per added name: the table's rank of the last table name before it
    /// in text order (0: none); `u32::MAX` for the empty name, which ranks
    /// 0 and shifts no other.
    after: Vec<u32>,
    /// The `after` of every added name but the empty one, sorted: a table
    /// name of rank r has as many added names before it as there are
    /// entries below r.
    sorted_after: Vec<u32>,
    /// Per added name: its rank among all names.
    ranks: Vec<u32>,
}

impl Names {
    /// These names and `text`'s (back to back, starting at `starts`),
    /// numbered after them, none of which these have: the table shared,
    /// the added names ranked among all. Ranking a new name reads every
    /// name of the table once, as finding it did.
    fn with(&self, text: &str, starts: &[usize]) -> Names {
        if starts.is_empty() {
            return self.clone();
        }
        let mut added = self.added.clone();
        let new: Vec<&str> = (0..starts.len()).map(|i| span(text, starts, i)).collect();
        let mut after: Vec<u32> = new
            .iter()
            .map(|s| if s.is_empty() { u32::MAX } else { 0 })
            .collect();
        let t = &self.table;
        for i in 0..t.starts.len() {
            let (name, r) = (span(&t.text, &t.starts, i), t.ranks[i]);
            for (a, s) in after.iter_mut().zip(&new) {
                if *a != u32::MAX && r > *a && name < *s {
                    *a = r;
                }
            }
        }
        for (s, a) in new.iter().zip(after) {
            added.starts.push(added.text.len());
            added.text.push_str(s);
            added.after.push(a);
        }
        added.sorted_after = added
            .after
            .iter()
            .copied()
            .filter(|&a| a != u32::MAX)
            .collect();
        added.sorted_after.sort_unstable();
        // Among the added names: its table neighbour's rank, one for each
        // added name before it in text order, and one for itself.
        let texts: Vec<&str> = (0..added.starts.len())
            .map(|i| span(&added.text, &added.starts, i))
            .collect();
        added.ranks = (0..texts.len())
            .map(|k| match added.after[k] {
                u32::MAX => 0,
                a => {
                    let before = texts.iter().filter(|o| !o.is_empty() && **o < texts[k]);
                    a + before.count() as u32 + 1
                }
            })
            .collect();
        Names {
            table: Arc::clone(&self.table),
            added,
        }
    }

    /// Orders names as `str::cmp` orders their text.
    #[inline]
    pub fn rank(&self, id: NameId) -> u32 {
        let i = id.index();
        match self.table.ranks.get(i) {
            Some(&r) if r == 0 || self.added.sorted_after.is_empty() => r,
            Some(&r) => r + self.added.sorted_after.partition_point(|&a| a < r) as u32,
            None => self.added.ranks[i - self.table.starts.len()],
        }
    }

    /// The text of name `id`, an id of this table.
    #[inline]
    pub fn resolve(&self, id: NameId) -> &str {
        let (i, t) = (id.index(), &self.table);
        match i.checked_sub(t.starts.len()) {
            None => span(&t.text, &t.starts, i),
            Some(k) => span(&self.added.text, &self.added.starts, k),
        }
    }

    /// How many names there are.
    pub fn len(&self) -> usize {
        self.table.starts.len() + self.added.starts.len()
    }

    /// Whether there are no names.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every name's text, in id order.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        (0..self.len()).map(|i| self.resolve(NameId::from_index(i)))
    }

    /// The id of the name whose text is `s`, reading every name: frozen
    /// names keep no lookup table (a step's few new names, not a load's).
    pub fn find(&self, s: &[u8]) -> Option<NameId> {
        let i = self.iter().position(|n| same(n.as_bytes(), s))?;
        Some(NameId::from_index(i))
    }

    /// Whether `other` shares these names' table (a query's profiles
    /// share their load's): none of its names was copied.
    pub fn shares_table(&self, other: &Names) -> bool {
        Arc::ptr_eq(&self.table, &other.table)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// `same` is `==` for names of every length around its words.
        #[test]
        fn same_is_equality(a in proptest::collection::vec(0u8..3, 0..20),
                            b in proptest::collection::vec(0u8..3, 0..20),
                            flip in 0usize..20) {
            proptest::prop_assert_eq!(same(&a, &b), a == b);
            // One byte changed anywhere, in the words' overlap or not.
            let mut near = a.clone();
            if let Some(x) = near.get_mut(flip) {
                *x ^= 1;
            }
            proptest::prop_assert_eq!(same(&a, &near), a == near);
        }
    }

    /// Ranks order names as their text orders, for every id of `i`.
    fn ranks_agree_with_text(i: Interner) {
        let texts: Vec<String> = i.names().map(String::from).collect();
        let names = i.freeze();
        let mut by_rank: Vec<usize> = (0..texts.len()).collect();
        by_rank.sort_by_key(|&k| names.rank(NameId::from_index(k)));
        let mut by_text = by_rank.clone();
        by_text.sort_by(|&a, &b| texts[a].cmp(&texts[b]));
        assert_eq!(by_rank, by_text);
    }

    proptest::proptest! {
        /// Names around the 16 bytes ranked as two words, NULs and
        /// prefixes of each other among them.
        #[test]
        fn ranks_follow_text_order_around_the_words(
            texts in proptest::collection::vec(proptest::collection::vec(0u8..3, 0..40), 0..60)
        ) {
            let mut i = Interner::default();
            for t in texts {
                let text: String = t.iter().map(|&b| ['\0', 'a', '\u{e9}'][b as usize]).collect();
                i.intern(&text);
            }
            ranks_agree_with_text(i);
        }
    }

    /// Enough names to be ranked on every core, most alike in 16 bytes.
    #[test]
    fn many_names_rank_in_text_order() {
        let mut i = Interner::default();
        for n in 0..150_000u32 {
            let lead = ["Function_", "Function_0000", "F", "Function_\0"][(n % 4) as usize];
            i.intern(&format!(
                "{lead}{:07}(int)",
                n.wrapping_mul(2_654_435_761) % 1_000_000
            ));
        }
        ranks_agree_with_text(i);
    }

    /// C++ names sharing prefixes of 12 to 60 bytes, some a prefix of
    /// another, rank in text order.
    #[test]
    fn names_sharing_long_prefixes_rank_in_text_order() {
        let mut i = Interner::default();
        let leads = [
            "std::basic_string<char,std::char_traits<char>>::",
            "std::basic_string<char,std::char_traits<char>>::append",
            "CWinThread::",
            "Concurrency::details::_TaskCollection::_Schedule",
        ];
        for n in 0..40_000u32 {
            let lead = leads[(n % 4) as usize];
            i.intern(&format!("{lead}{}", n.wrapping_mul(2_654_435_761) % 5000));
            i.intern(lead);
        }
        ranks_agree_with_text(i);
    }

    proptest::proptest! {
        /// A batch gets the ids interning its names one by one gives:
        /// names already in, names twice in the batch, and new ones.
        #[test]
        fn a_batch_interns_as_one_by_one(
            before in proptest::collection::vec(0u16..300, 0..100),
            batch in proptest::collection::vec(0u16..300, 0..400),
        ) {
            let name = |n: &u16| format!("f{n}");
            let mut table = Interner::default();
            for n in &before {
                table.intern(&name(n));
            }
            let mut one_by_one = table.clone();
            let texts: Vec<String> = batch.iter().map(name).collect();
            let ids = table.intern_all(texts.iter().map(String::as_str));
            let expected: Vec<NameId> = texts.iter().map(|t| one_by_one.intern(t)).collect();
            proptest::prop_assert_eq!(ids, expected);
            proptest::prop_assert_eq!(table.len(), one_by_one.len());
            for t in &texts {
                proptest::prop_assert_eq!(table.find(t.as_bytes()), one_by_one.find(t.as_bytes()));
            }
        }
    }

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

    /// Enough names to grow the table many times: each keeps its id
    /// through the rebuilds and resolves to its own text, prefixes and
    /// the empty name included.
    #[test]
    fn ids_survive_growth() {
        let mut i = Interner::default();
        let texts: Vec<String> = (0..50_000)
            .map(|n| "x".repeat(n % 7) + &n.to_string())
            .collect();
        let ids: Vec<_> = texts.iter().map(|t| i.intern(t)).collect();
        let empty = i.intern("");
        for (t, &id) in texts.iter().zip(&ids) {
            assert_eq!(i.intern(t), id);
            assert_eq!(i.resolve(id), t);
        }
        assert_eq!(i.len(), texts.len() + 1);
        let names = i.freeze();
        assert_eq!(names.resolve(ids[49_999]), texts[49_999]);
        assert_eq!(names.resolve(empty), "");
        assert_eq!(names.rank(empty), 0);
    }

    /// Ranks of frozen names order them as their text orders.
    fn frozen_ranks_agree_with_text(names: &Names) {
        let texts: Vec<&str> = names.iter().collect();
        let mut by_rank: Vec<usize> = (0..texts.len()).collect();
        by_rank.sort_by_key(|&k| (names.rank(NameId::from_index(k)), texts[k]));
        let mut by_text = by_rank.clone();
        by_text.sort_by(|&a, &b| texts[a].cmp(texts[b]));
        let ranked: Vec<&str> = by_rank.iter().map(|&k| texts[k]).collect();
        let sorted: Vec<&str> = by_text.iter().map(|&k| texts[k]).collect();
        assert_eq!(ranked, sorted);
        // Distinct names, distinct ranks (the empty one apart).
        for a in 0..texts.len() {
            for b in a + 1..texts.len() {
                let (ra, rb) = (names.rank(NameId(a as u32)), names.rank(NameId(b as u32)));
                assert!(
                    ra != rb || texts[a] == texts[b],
                    "{:?} {:?}",
                    texts[a],
                    texts[b]
                );
            }
        }
    }

    proptest::proptest! {
        /// Steps stacked on a load's names: each keeps every id of the
        /// names before it, shares the load's table, adds only names it has
        /// not, and ranks all of them in text order.
        #[test]
        fn names_added_on_a_shared_table_rank_among_it(
            loaded in proptest::collection::vec(proptest::collection::vec(0u8..3, 0..6), 0..30),
            steps in proptest::collection::vec(
                proptest::collection::vec(proptest::collection::vec(0u8..3, 0..6), 0..4), 1..4),
        ) {
            let text = |t: &Vec<u8>| -> String { t.iter().map(|&b| ['a', 'b', '\u{e9}'][b as usize]).collect() };
            let mut i = Interner::default();
            for t in &loaded {
                i.intern(&text(t));
            }
            let load = i.freeze();
            let mut names = load.clone();
            for step in &steps {
                let mut i = Interner::extending(&names);
                let mut ids = Vec::new();
                for t in step {
                    let t = text(t);
                    let id = i.intern(&t);
                    proptest::prop_assert_eq!(i.resolve(id), t.as_str());
                    proptest::prop_assert_eq!(i.find(t.as_bytes()), Some(id));
                    ids.push((id, t));
                }
                let next = i.freeze();
                proptest::prop_assert!(next.shares_table(&load));
                for k in 0..names.len() {
                    let id = NameId::from_index(k);
                    proptest::prop_assert_eq!(next.resolve(id), names.resolve(id));
                }
                for (id, t) in &ids {
                    proptest::prop_assert_eq!(next.resolve(*id), t.as_str());
                }
                let mut distinct: Vec<&str> = next.iter().collect();
                distinct.sort_unstable();
                distinct.dedup();
                proptest::prop_assert_eq!(distinct.len(), next.len());
                frozen_ranks_agree_with_text(&next);
                names = next;
            }
        }
    }

    /// A step that adds no name freezes to its input's names, shared.
    #[test]
    fn a_step_adding_no_name_adds_nothing() {
        let mut i = Interner::default();
        let (b, a) = (i.intern("b"), i.intern("a"));
        let load = i.freeze();
        let mut step = Interner::extending(&load);
        assert_eq!(step.intern("a"), a);
        assert_eq!(step.len(), 2);
        let names = step.freeze();
        assert!(names.shares_table(&load));
        assert_eq!((names.rank(a), names.rank(b)), (1, 2));
        assert_eq!(names.len(), 2);
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
