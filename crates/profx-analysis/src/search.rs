//! Search queries: fzf's extended syntax over fuzzy-matcher's skim algorithm.
//!
//! A query is terms separated by spaces, all of which must match (tui.md §
//! Search): a plain term matches fuzzily, `'word` as a substring, `^word`
//! at the start, `word$` at the end (`^word$` the whole name), and `!`
//! before any of the exact forms excludes the names it matches (`!word` is
//! fzf's inverse substring). Matching is case-insensitive unless the query
//! holds a capital letter (fzf's smart case, decided once for the query).
//! A `|` between terms makes them alternatives, as fzf's OR: `^core go$ |
//! rb$` matches names that start with `core` and end with `go` or `rb`.
//!
//! Results carry the matched character positions so views can highlight
//! them; positions count chars, not bytes, of the text matched.

use fuzzy_matcher::FuzzyMatcher;
use fuzzy_matcher::skim::SkimMatcherV2;
use profx_model::{NameId, Profile};
use rayon::prelude::*;
use std::sync::{Arc, Mutex};

/// Where an exact term must sit in the name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Anchor {
    Anywhere,
    Start,
    End,
    Whole,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Term {
    Fuzzy(String),
    Exact {
        text: String,
        anchor: Anchor,
        negated: bool,
    },
}

/// A parsed query; an empty query matches everything. Its groups must all
/// match; a group matches when one of its terms (alternatives joined by
/// `|`) does.
pub struct Query {
    terms: Vec<Vec<Term>>,
    case_sensitive: bool,
    matcher: SkimMatcherV2,
}

/// How well a name matched, and which of its chars did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    /// How well the name matched, higher better: its groups' scores added.
    pub score: i64,
    /// Char positions, ascending, without repeats.
    pub positions: Vec<usize>,
}

/// Score of one exactly matched char: exact terms rank above the fuzzy
/// matches of the same length, as in fzf.
const EXACT_CHAR_SCORE: i64 = 20;

impl std::fmt::Debug for Query {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Query")
            .field("terms", &self.terms)
            .field("case_sensitive", &self.case_sensitive)
            .finish()
    }
}

impl Query {
    /// The query `text` states (the module's syntax); blank text is the empty
    /// query.
    pub fn parse(text: &str) -> Query {
        let case_sensitive = text.chars().any(char::is_uppercase);
        let fold = |s: &str| {
            if case_sensitive {
                s.to_string()
            } else {
                s.to_lowercase()
            }
        };
        let terms = groups(text, fold);
        let matcher = if case_sensitive {
            SkimMatcherV2::default().respect_case()
        } else {
            SkimMatcherV2::default().ignore_case()
        };
        Query {
            terms,
            case_sensitive,
            matcher,
        }
    }

    /// Whether the query has no term: then it matches every name.
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// Whether `name` matches, without a score or positions: what a filter
    /// needs, a million times a keystroke. The answer is `matches(name)
    /// .is_some()` (tested on generated names and queries): a skim fuzzy
    /// match is the pattern's chars in order, so for ASCII names and fuzzy
    /// terms an ordered byte scan decides it without the scoring matrix;
    /// anything else asks `matches`.
    pub fn is_match(&self, name: &str) -> bool {
        if !name.is_ascii() {
            return self.matches(name).is_some();
        }
        self.is_match_ascii(name)
    }

    /// `is_match` for a name known to be ASCII.
    fn is_match_ascii(&self, name: &str) -> bool {
        self.terms.iter().all(|group| {
            group.iter().any(|t| match t {
                Term::Fuzzy(pat) if pat.is_ascii() => {
                    in_order(name.as_bytes(), pat.as_bytes(), self.case_sensitive)
                }
                _ => self.term_matches(name, t),
            })
        })
    }

    /// One term against an ASCII name, the slow way.
    fn term_matches(&self, name: &str, t: &Term) -> bool {
        let folded;
        let hay = if self.case_sensitive {
            name
        } else {
            folded = name.to_ascii_lowercase();
            &folded
        };
        match t {
            Term::Fuzzy(pat) => self.matcher.fuzzy_match(hay, pat).is_some(),
            Term::Exact {
                text,
                anchor,
                negated,
            } => exact(hay, text, *anchor).is_some() != *negated,
        }
    }

    /// Whether `name` matches every term, and how well.
    pub fn matches(&self, name: &str) -> Option<Match> {
        let folded;
        let hay = if self.case_sensitive {
            name
        } else {
            folded = name.to_lowercase();
            // Lowercasing can change the char count (rare: 'İ'); positions
            // would then point at the wrong chars, so match the name as is.
            if folded.chars().count() == name.chars().count() {
                &folded
            } else {
                name
            }
        };
        let mut m = Match {
            score: 0,
            positions: Vec::new(),
        };
        for group in &self.terms {
            // The first alternative that matches, as fzf takes it.
            let (score, positions) = group.iter().find_map(|t| self.term_match(hay, t))?;
            m.score += score;
            m.positions.extend(positions);
        }
        m.positions.sort_unstable();
        m.positions.dedup();
        Some(m)
    }
}

impl Query {
    /// One term against the (folded) name: its score and the positions it
    /// matched (none for an exclusion), or `None`.
    fn term_match(&self, hay: &str, t: &Term) -> Option<(i64, Vec<usize>)> {
        match t {
            Term::Fuzzy(pat) => self.matcher.fuzzy_indices(hay, pat),
            Term::Exact {
                text,
                anchor,
                negated,
            } => match (exact(hay, text, *anchor), negated) {
                (Some(_), true) | (None, false) => None,
                (None, true) => Some((0, Vec::new())),
                (Some(start), false) => {
                    let n = text.chars().count();
                    Some((EXACT_CHAR_SCORE * n as i64, (start..start + n).collect()))
                }
            },
        }
    }
}

/// The query's terms, grouped: a term a group, and the terms joined by a
/// `|` (a word of its own) one group of alternatives. A `|` with no term
/// on one side joins nothing.
fn groups(text: &str, fold: impl Fn(&str) -> String) -> Vec<Vec<Term>> {
    let mut out: Vec<Vec<Term>> = Vec::new();
    let mut join = false;
    for word in text.split_whitespace() {
        if word == "|" {
            join = !out.is_empty();
            continue;
        }
        let Some(t) = term(word, &fold) else {
            continue;
        };
        match (join, out.last_mut()) {
            (true, Some(group)) => group.push(t),
            _ => out.push(vec![t]),
        }
        join = false;
    }
    out
}

/// Whether `pat`'s bytes occur in `hay` in order (`pat` already folded
/// when the query ignores case).
fn in_order(hay: &[u8], pat: &[u8], case_sensitive: bool) -> bool {
    // Each byte is looked for with memchr, which skips what cannot match
    // many bytes at a time: a search scans millions of names a keystroke.
    let mut at = 0;
    for &c in pat {
        let rest = &hay[at..];
        // The next byte first: a query typed from a name's start (most
        // are) finds its chars one after another, and a call into memchr
        // costs more than the byte it would find.
        let next = rest.first().copied();
        if next == Some(c) || (!case_sensitive && next.map(|b| b.to_ascii_lowercase()) == Some(c)) {
            at += 1;
            continue;
        }
        let found = if case_sensitive || !c.is_ascii_lowercase() {
            memchr::memchr(c, rest)
        } else {
            memchr::memchr2(c, c.to_ascii_uppercase(), rest)
        };
        match found {
            Some(i) => at += i + 1,
            None => return false,
        }
    }
    true
}

/// Whether every name matching `new` also matches `old`, so a filter can
/// look only at what `old` kept: text added at the end narrows, unless
/// `old` has a `!` (an exclusion weakens as it grows) or a `$` (text after
/// it turns an anchored term into a fuzzy one), or `new` a `|` (an
/// alternative widens).
pub fn narrows(old: &str, new: &str) -> bool {
    // A `|` adds alternatives: what follows it widens.
    !old.is_empty() && new.starts_with(old) && !old.contains(['!', '$']) && !new.contains('|')
}

/// Keeps the `rows` that `keep` says so, in order, in place; on every
/// core when there are enough rows to pay for the threads. In place,
/// because a search keeps millions of rows a keystroke: memory the
/// process has not written yet costs a page fault every 4 KiB, which came
/// to as much as reading the rows.
pub fn retain_rows(rows: &mut Vec<u32>, keep: impl Fn(u32) -> bool + Sync) {
    if !worth_splitting(rows.len()) {
        rows.retain(|&r| keep(r));
        return;
    }
    // Each part keeps its rows at its own start; then the parts' kept
    // rows are moved up to follow each other.
    let kept: Vec<usize> = rows
        .par_chunks_mut(PART)
        .map(|part| {
            let mut n = 0;
            for i in 0..part.len() {
                let r = part[i];
                if keep(r) {
                    part[n] = r;
                    n += 1;
                }
            }
            n
        })
        .collect();
    let mut end = 0;
    for (i, n) in kept.into_iter().enumerate() {
        rows.copy_within(i * PART..i * PART + n, end);
        end += n;
    }
    rows.truncate(end);
}

/// A profile's names made ready for searching, once: which of them are
/// printable ASCII, as most are (the screen shows such a name as it is,
/// and the matcher need not ask whether it is ASCII; asked of every name
/// at every keystroke, that was a fifth of a search's time), which
/// letters and digits each holds, and the results of the last few
/// queries, by their text: a longer query looks only at the names a
/// shorter one matched, and erasing back to a query takes its result as
/// it was.
pub struct NameScan {
    /// A word a name (`PLAIN` and `present_bit`s), read in place of its
    /// text: a query's letters that a name lacks rule it out at 8 bytes a
    /// name where its text averages dozens, and a query of one letter is
    /// decided by them alone. A name that is not plain has every letter's
    /// bit, so it is always matched in full.
    words: Vec<u64>,
    kept: Mutex<Vec<(String, Arc<Hits>)>>,
}

/// Which ids matched: a bit an id (4 M names' or rows' bits fit a core's
/// cache, their bytes do not). A query's result is one by name
/// (`NameScan::hits`); `by_row` makes one by row.
#[derive(Debug, PartialEq, Eq)]
pub struct Hits {
    bits: Vec<u64>,
}

impl Hits {
    /// Whether `id` matched (false past the end).
    pub fn get(&self, id: usize) -> bool {
        self.bits
            .get(id / 64)
            .is_some_and(|w| w >> (id % 64) & 1 == 1)
    }

    /// The hits of rows whose names are `by_row`, by row, on every core:
    /// rows look their names' hits up at random.
    pub fn by_row(&self, by_row: &[NameId]) -> Hits {
        let bits = each_word(by_row.len(), |first, out| {
            let rows = by_row.chunks(64).skip(first);
            for (o, names) in out.iter_mut().zip(rows) {
                *o = names
                    .iter()
                    .enumerate()
                    .fold(0, |bits, (i, n)| bits | u64::from(self.get(n.index())) << i);
            }
        });
        Hits { bits }
    }
}

/// A name's word's bit for "printable ASCII".
const PLAIN: u64 = 1 << 63;

/// A letter's or digit's bit in a name's word: 0–25 `a`–`z`, 26–51
/// `A`–`Z`, 52–61 `0`–`9`; other bytes have none.
const fn present_bit(b: u8) -> Option<u32> {
    match b {
        b'a'..=b'z' => Some((b - b'a') as u32),
        b'A'..=b'Z' => Some(26 + (b - b'A') as u32),
        b'0'..=b'9' => Some(52 + (b - b'0') as u32),
        _ => None,
    }
}

/// A byte's bits in a name's word (`present_bit`), and `UNPRINTABLE` for
/// a byte outside printable ASCII: a table, because every byte of every
/// name goes through it once.
const BYTE_BITS: [u64; 256] = {
    let mut t = [0; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        t[b] = if byte.wrapping_sub(b' ') >= 0x5f {
            UNPRINTABLE
        } else if let Some(bit) = present_bit(byte) {
            1 << bit
        } else {
            0
        };
        b += 1;
    }
    t
};

const UNPRINTABLE: u64 = 1 << 62;

/// A name's word: `PLAIN` and its letters and digits when it is printable
/// ASCII (`text::is_printable_ascii`), every letter's bit otherwise.
fn word_of(name: &[u8]) -> u64 {
    let bits = name
        .iter()
        .fold(0, |set, &b| set | BYTE_BITS[usize::from(b)]);
    if bits & UNPRINTABLE == 0 {
        PLAIN | bits
    } else {
        !PLAIN
    }
}

/// What a query asks of a name's word: each mask must meet it (a query
/// char's bits: both cases when the query ignores case), and `decides`
/// when meeting them is the whole match (one fuzzy or `'` term of one
/// letter or digit).
struct Needs {
    masks: Vec<u64>,
    decides: bool,
}

impl Needs {
    fn of(q: &Query) -> Needs {
        let mut masks = Vec::new();
        let mut decides = q.terms.len() == 1;
        for group in &q.terms {
            // Alternatives ask nothing of a name's letters that all of
            // them ask: the text decides.
            let [t] = group.as_slice() else {
                decides = false;
                continue;
            };
            let text = match t {
                Term::Fuzzy(text) => text,
                Term::Exact {
                    text,
                    anchor,
                    negated: false,
                } => {
                    decides &= *anchor == Anchor::Anywhere;
                    text
                }
                Term::Exact { negated: true, .. } => {
                    decides = false;
                    continue;
                }
            };
            decides &= text.len() == 1;
            for b in text.bytes() {
                let mut mask = present_bit(b).map_or(0, |bit| 1u64 << bit);
                if !q.case_sensitive {
                    mask |= present_bit(b.to_ascii_uppercase()).map_or(0, |bit| 1u64 << bit);
                }
                // A char with no bit (punctuation, non-ASCII) asks nothing
                // of the set and leaves the match to the text.
                if mask == 0 {
                    decides = false;
                } else {
                    masks.push(mask);
                }
            }
        }
        Needs { masks, decides }
    }

    fn met_by(&self, word: u64) -> bool {
        self.masks.iter().all(|&m| word & m != 0)
    }
}

/// Query results a `NameScan` keeps: a bool a name each, 4 MB a result at
/// 4 M names.
const RESULTS_KEPT: usize = 8;

impl NameScan {
    /// Readies `p`'s names for searching, in one pass over them.
    pub fn new(p: &Profile) -> NameScan {
        let words = each_name(p.name_count(), |id| {
            word_of(p.name(NameId::from_index(id)).as_bytes())
        });
        NameScan {
            words,
            kept: Mutex::new(Vec::new()),
        }
    }

    /// Which names match the query `text` as the screen shows them
    /// (escapes included), by name id. Each name is matched once, however
    /// many rows show it, and the names are read in id order, the order
    /// their text lies in memory, on every core: matched row by row in a
    /// sorted order, each row was a cache miss for the row, another for
    /// where its name starts and a third for its text.
    pub fn hits(&self, p: &Profile, text: &str) -> Arc<Hits> {
        let (same, within) = match self.kept.lock() {
            Ok(kept) => (
                kept.iter()
                    .find(|(t, _)| t == text)
                    .map(|(_, h)| Arc::clone(h)),
                kept.iter()
                    .filter(|(t, _)| narrows(t, text))
                    .max_by_key(|(t, _)| t.len())
                    .map(|(_, h)| Arc::clone(h)),
            ),
            Err(_) => (None, None),
        };
        if let Some(hits) = same {
            return hits;
        }
        let hits = Arc::new(Hits {
            bits: self.matching(p, &Query::parse(text), within.as_deref()),
        });
        if let Ok(mut kept) = self.kept.lock() {
            if kept.len() >= RESULTS_KEPT {
                kept.remove(0);
            }
            kept.push((text.to_string(), Arc::clone(&hits)));
        }
        hits
    }

    /// The names matching `q`, as `Hits`' bits; `wanted`, when given,
    /// names the only ids to look at (the others are false).
    fn matching(&self, p: &Profile, q: &Query, wanted: Option<&Hits>) -> Vec<u64> {
        let needs = Needs::of(q);
        let word = |id: usize| self.words.get(id).copied().unwrap_or(!PLAIN);
        // A name whose word meets the needs, matched.
        // The name is looked up only when its text is read: a one-letter
        // query is decided by the words, and where a name's text starts is
        // another read a name.
        let name = |id: usize| p.name(NameId::from_index(id));
        let text = |word: u64, id: usize| {
            if word & PLAIN != 0 {
                needs.decides || q.is_match_ascii(name(id))
            } else {
                q.is_match(&profx_model::text::visible(name(id)))
            }
        };
        let n = p.name_count();
        let Some(wanted) = wanted else {
            return each_word(n, |first, out| {
                for (w, o) in out.iter_mut().enumerate() {
                    let base = (first + w) * 64;
                    *o = (0..64.min(n - base)).fold(0, |bits, i| {
                        let word = word(base + i);
                        let hit = needs.met_by(word) && text(word, base + i);
                        bits | u64::from(hit) << i
                    });
                }
            });
        };
        // A narrower query reads only the names a shorter one matched.
        each_word(n, |first, out| {
            for (w, o) in out.iter_mut().enumerate() {
                let mut want = wanted.bits.get(first + w).copied().unwrap_or(0);
                while want != 0 {
                    let i = want.trailing_zeros();
                    want &= want - 1;
                    let id = (first + w) * 64 + i as usize;
                    let word = word(id);
                    let hit = needs.met_by(word) && text(word, id);
                    *o |= u64::from(hit) << i;
                }
            }
        })
    }
}

/// `one(id)` for every id below `n`, in order, on every core when there
/// are enough to pay for the threads.
fn each_name<T: Copy + Default + Send>(n: usize, one: impl Fn(usize) -> T + Sync) -> Vec<T> {
    each_part(n, |start, part| {
        for (j, o) in part.iter_mut().enumerate() {
            *o = one(start + j);
        }
    })
}

/// The bits of `n` names, a word of 64 a time: `fill(first, words)` sets
/// the words from `first` on, on every core when there are enough names
/// to pay for the threads.
fn each_word(n: usize, fill: impl Fn(usize, &mut [u64]) + Sync) -> Vec<u64> {
    each_part(n.div_ceil(64), fill)
}

/// `fill(start, part)` for parts of the indices below `n`, on every core
/// when there are enough to pay for the threads: `part` holds the
/// answers for the indices from `start` on.
fn each_part<T: Copy + Default + Send>(n: usize, fill: impl Fn(usize, &mut [T]) + Sync) -> Vec<T> {
    let mut out = vec![T::default(); n];
    if worth_splitting(n) {
        out.par_chunks_mut(PART)
            .enumerate()
            .for_each(|(i, part)| fill(i * PART, part));
    } else {
        fill(0, &mut out);
    }
    out
}

/// One space-separated term; `None` for a term that is only operators
/// (a lone `!` or `^` while typing), which constrains nothing.
fn term(t: &str, fold: &impl Fn(&str) -> String) -> Option<Term> {
    let (negated, t) = match t.strip_prefix('!') {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    let (quoted, t) = match t.strip_prefix('\'') {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    let (start, t) = match t.strip_prefix('^') {
        Some(rest) if !quoted => (true, rest),
        _ => (false, t),
    };
    let (end, t) = match t.strip_suffix('$') {
        Some(rest) if !quoted && !rest.is_empty() => (true, rest),
        _ => (false, t),
    };
    if t.is_empty() {
        return None;
    }
    let anchor = match (start, end) {
        (true, true) => Anchor::Whole,
        (true, false) => Anchor::Start,
        (false, true) => Anchor::End,
        (false, false) => Anchor::Anywhere,
    };
    let text = fold(t);
    if !negated && !quoted && anchor == Anchor::Anywhere {
        return Some(Term::Fuzzy(text));
    }
    Some(Term::Exact {
        text,
        anchor,
        negated,
    })
}

/// Char position where `needle` sits in `hay` under `anchor`.
fn exact(hay: &str, needle: &str, anchor: Anchor) -> Option<usize> {
    let byte = match anchor {
        Anchor::Anywhere => hay.find(needle)?,
        Anchor::Start => hay.starts_with(needle).then_some(0)?,
        Anchor::End => hay.ends_with(needle).then(|| hay.len() - needle.len())?,
        Anchor::Whole => (hay == needle).then_some(0)?,
    };
    Some(hay[..byte].chars().count())
}

/// Items a thread of a search takes at a time.
const PART: usize = 20_000;

/// Whether `n` items pay for waking the pool's threads: a part for two
/// of them at least.
fn worth_splitting(n: usize) -> bool {
    n >= 2 * PART && rayon::current_num_threads() >= 2
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hits(q: &str, names: &[&str]) -> Vec<String> {
        let q = Query::parse(q);
        names
            .iter()
            .filter(|n| q.matches(n).is_some())
            .map(|n| n.to_string())
            .collect()
    }

    const NAMES: &[&str] = &[
        "ReadOrders",
        "readline",
        "WriteOrders",
        "orders_read",
        "FN8",
    ];

    #[test]
    fn plain_terms_match_fuzzily_and_all_must_match() {
        assert_eq!(hits("rdo", NAMES), ["ReadOrders"]);
        assert_eq!(
            hits("ord rd", NAMES),
            ["ReadOrders", "WriteOrders", "orders_read"]
        );
        assert_eq!(hits("", NAMES).len(), NAMES.len());
    }

    #[test]
    fn exact_prefix_suffix_and_negation() {
        assert_eq!(hits("'line", NAMES), ["readline"]);
        assert_eq!(hits("^read", NAMES), ["ReadOrders", "readline"]);
        assert_eq!(hits("orders$", NAMES), ["ReadOrders", "WriteOrders"]);
        assert_eq!(hits("^fn8$", NAMES), ["FN8"]);
        assert_eq!(hits("ord !write", NAMES), ["ReadOrders", "orders_read"]);
        assert_eq!(hits("!^read !8$", NAMES), ["WriteOrders", "orders_read"]);
    }

    /// Each operator of fzf's extended syntax, one assertion a form.
    #[test]
    fn every_operator_of_fzfs_extended_syntax() {
        let names = ["FN5", "FN6", "FN7", "main.prg", "mainloop", "sbtrkt"];
        // A fuzzy term: its letters in order.
        assert_eq!(hits("sbtrkt", &names), ["sbtrkt"]);
        assert_eq!(hits("mprg", &names), ["main.prg"]);
        // 'exact: a substring.
        assert_eq!(hits("'loop", &names), ["mainloop"]);
        // ^prefix, suffix$, ^whole$.
        assert_eq!(hits("^main", &names), ["main.prg", "mainloop"]);
        assert_eq!(hits(".prg$", &names), ["main.prg"]);
        assert_eq!(hits("^fn6$", &names), ["FN6"]);
        // !inverse-exact, !^inverse-prefix, !inverse-suffix$.
        assert_eq!(hits("!fn", &names), ["main.prg", "mainloop", "sbtrkt"]);
        assert_eq!(hits("!^main !^fn", &names), ["sbtrkt"]);
        assert_eq!(hits("main !.prg$", &names), ["mainloop"]);
        // | : alternatives, in a group the other terms still must match.
        assert_eq!(hits("FN5 | FN6", &names), ["FN5", "FN6"]);
        assert_eq!(
            hits("^main .prg$ | loop$", &names),
            ["main.prg", "mainloop"]
        );
        assert_eq!(hits("^fn | ^sb !7", &names), ["FN5", "FN6", "sbtrkt"]);
        // A space-separated list without `|`: every term must match.
        assert_eq!(hits("FN5 FN6", &names), Vec::<String>::new());
    }

    #[test]
    fn smart_case() {
        assert_eq!(hits("^Read", NAMES), ["ReadOrders"]);
        assert_eq!(hits("^read", NAMES), ["ReadOrders", "readline"]);
    }

    #[test]
    fn lone_operators_constrain_nothing() {
        assert_eq!(hits("! ^ '", NAMES).len(), NAMES.len());
    }

    #[test]
    fn positions_are_chars_of_the_name() {
        let q = Query::parse("^ré");
        assert_eq!(q.matches("réseau").map(|m| m.positions), Some(vec![0, 1]));
        let q = Query::parse("au$");
        assert_eq!(q.matches("réseau").map(|m| m.positions), Some(vec![4, 5]));
        let fuzzy = Query::parse("rs").matches("réseau").expect("matches");
        assert_eq!(fuzzy.positions, [0, 2]);
    }

    #[test]
    fn exact_terms_outrank_scattered_fuzzy_ones() {
        let q = Query::parse("'ord");
        let a = q.matches("orders_read").map(|m| m.score);
        assert!(a.is_some_and(|s| s > 0));
    }

    /// `is_match` gives `matches`' answer: generated names (ASCII and
    /// not) against queries of every kind, typed a character at a time.
    #[test]
    fn is_match_agrees_with_matches() {
        let p = profx_fixtures::large::profile(3000);
        let mut names: Vec<String> = p
            .function_ids()
            .map(|f| p.function_name(f).to_string())
            .collect();
        names.extend(
            [
                "Café_Latte",
                "İstanbul",
                "naïve_Sort",
                "表示関数",
                "a\u{1b}[31mb",
            ]
            .map(String::from),
        );
        names.extend(NAMES.iter().map(|n| n.to_string()));
        let queries = [
            "inv7",
            "Inv",
            "orders post",
            "lib/ trim",
            "'voice",
            "^lib",
            "7$",
            "^SORT_1$",
            "!lib",
            "!'Post sort",
            "oRd",
            "é",
            "caf",
            "İ",
            "表",
            "ive_s",
            "p o s t",
            "zzz",
            "_",
            "inv7 | ^lib",
            "^SORT | zzz | 7$",
            "| orders |",
            "!lib | post",
        ];
        for full in queries {
            for end in 1..=full.len() {
                let Some(text) = full.get(..end) else {
                    continue;
                };
                let q = Query::parse(text);
                for name in &names {
                    assert_eq!(
                        q.is_match(name),
                        q.matches(name).is_some(),
                        "{text:?} on {name:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn narrowing_is_only_claimed_where_it_holds() {
        assert!(narrows("ord", "orde"));
        assert!(!narrows("ord", "ord | x"), "an alternative widens");
        assert!(narrows("ord", "ord rd"));
        assert!(narrows("'ord", "'ords"));
        assert!(narrows("ord", "ordR"), "a capital only makes it stricter");
        assert!(!narrows("", "o"));
        assert!(!narrows("ord", "or"));
        assert!(!narrows("!ord", "!orde"));
        assert!(!narrows("ord$", "ord$x"));
    }

    #[test]
    fn parallel_retain_keeps_order() {
        for n in [0, 7, 100_000, 100_003] {
            let mut rows: Vec<u32> = (0..n).rev().collect();
            retain_rows(&mut rows, |r| r % 3 == 0 || r > n - n / 5);
            let want: Vec<u32> = (0..n)
                .rev()
                .filter(|r| r % 3 == 0 || *r > n - n / 5)
                .collect();
            assert_eq!(rows, want, "{n} rows");
        }
    }

    /// A name's word holds exactly its letters and digits, and marks it
    /// plain only when every byte is printable ASCII.
    #[test]
    fn a_names_word_is_its_letters_and_digits() {
        let bits = |chars: &str| {
            chars
                .bytes()
                .fold(0, |w, b| w | 1 << present_bit(b).unwrap())
        };
        assert_eq!(word_of(b"aZ9"), PLAIN | 1 | 1 << 51 | 1 << 61);
        assert_eq!(word_of(b"aZ9"), PLAIN | bits("aZ9"));
        assert_eq!(word_of(b"a::b<c> (int)"), PLAIN | bits("abcint"));
        assert_eq!(word_of(b"~!@"), PLAIN);
        assert_eq!(word_of(b""), PLAIN);
        for name in ["a\tb", "a\x7fb", "caf\u{e9}", "\u{1b}[2J"] {
            assert_eq!(word_of(name.as_bytes()), !PLAIN, "{name:?}");
        }
    }

    /// Names ruled out or decided by their words alone match exactly as
    /// the names read one by one: single letters and digits in both cases
    /// (smart case), punctuation, which has no bit, and names that are not
    /// plain, which are always read.
    #[test]
    fn words_rule_out_and_decide_only_what_the_text_would() {
        let names = [
            "CWinThread::Run",
            "cwin",
            "Wc",
            "x9",
            "X9",
            "a::b",
            "caf\u{e9}",
            "tab\there",
            "C\u{1b}W",
            "",
            "ÉCOLE",
            "école",
            "_",
            "9",
        ];
        let mut b = profx_model::testing::builder(true);
        for n in names {
            profx_model::testing::new_function(&mut b, n);
        }
        let p = b.finish();
        let queries = [
            "c",
            "C",
            "w",
            "W",
            "cw",
            "CW",
            "9",
            "x",
            "X",
            "::",
            ":",
            "'a:",
            "é",
            "É",
            "e",
            "_",
            "c !w",
            "^c",
            "n$",
            "'9",
            "c w",
            "\\",
            "x9 !X",
            "c | w",
            "x | 9",
            "^c | n$ w",
        ];
        for text in queries {
            let q = Query::parse(text);
            let scan = NameScan::new(&p);
            let hits = scan.hits(&p, text);
            for id in 0..p.name_count() {
                let name = p.name(NameId::from_index(id));
                assert_eq!(
                    hits.get(id),
                    q.is_match(&profx_model::text::visible(name)),
                    "{text:?} on {name:?}"
                );
            }
        }
    }

    /// A query's names found through the kept results (narrowed from a
    /// shorter query's, or taken as they were when erasing back) are the
    /// names a fresh scan finds, whatever the path: typing, erasing,
    /// exclusions and anchors, which do not narrow, included.
    #[test]
    fn kept_results_are_what_a_fresh_scan_finds() {
        let p = profx_fixtures::large::profile(50_000);
        let scan = NameScan::new(&p);
        let typed = [
            "o", "or", "ord", "orde", "ord", "or", "or !", "or !p", "or !po", "or !p", "Or",
            "Ord$", "Ord", "Orders", "Orders:", "Orders::", "Orders:", "^Or", "^Orx",
        ];
        let mut some = 0;
        for text in typed {
            let kept = scan.hits(&p, text);
            let fresh = NameScan::new(&p).hits(&p, text);
            assert_eq!(kept, fresh, "after {text:?}");
            let q = Query::parse(text);
            let by_name: Vec<bool> = (0..p.name_count())
                .map(|i| q.is_match(&profx_model::text::visible(p.name(NameId::from_index(i)))))
                .collect();
            let kept: Vec<bool> = (0..p.name_count()).map(|i| kept.get(i)).collect();
            assert_eq!(kept, by_name, "{text:?} name by name");
            some += usize::from(kept.iter().any(|&h| h) && !kept.iter().all(|&h| h));
        }
        assert!(some > 10, "most queries keep some names and not others");
    }

    /// Rows' bits say what their names' hits say, across the threads'
    /// parts and a last word only partly filled.
    #[test]
    fn rows_hits_are_their_names_hits() {
        let p = profx_fixtures::large::profile(50_000);
        let hits = NameScan::new(&p).hits(&p, "o");
        for rows in [0, 1, 63, 64, 65, 100_003] {
            let by_row: Vec<NameId> = (0..rows)
                .map(|r| NameId::from_index((r * 7919) % p.name_count()))
                .collect();
            let bits = hits.by_row(&by_row);
            assert_eq!(bits.bits.len(), rows.div_ceil(64));
            for (r, n) in by_row.iter().enumerate() {
                assert_eq!(bits.get(r), hits.get(n.index()), "row {r}");
            }
            for past in rows..rows.next_multiple_of(64) + 64 {
                assert!(!bits.get(past), "no bit past the rows: {past}");
            }
        }
    }
}
