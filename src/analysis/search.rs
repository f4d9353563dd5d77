//! Search queries: fzf's extended syntax over fuzzy-matcher's skim algorithm.
//!
//! A query is terms separated by spaces, all of which must match (tui.md §
//! Search): a plain term matches fuzzily, `'word` as a substring, `^word`
//! at the start, `word$` at the end (`^word$` the whole name), and `!`
//! before any of the exact forms excludes the names it matches (`!word` is
//! fzf's inverse substring). Matching is case-insensitive unless the query
//! holds a capital letter (fzf's smart case, decided once for the query).
//! `|` (fzf's OR) is not supported: it is searched for as a character.
//!
//! Results carry the matched character positions so views can highlight
//! them; positions count chars, not bytes, of the text matched.

use fuzzy_matcher::FuzzyMatcher;
use fuzzy_matcher::skim::SkimMatcherV2;

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

/// A parsed query; an empty query matches everything.
pub struct Query {
    terms: Vec<Term>,
    case_sensitive: bool,
    matcher: SkimMatcherV2,
}

/// How well a name matched, and which of its chars did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
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
    pub fn parse(text: &str) -> Query {
        let case_sensitive = text.chars().any(char::is_uppercase);
        let fold = |s: &str| {
            if case_sensitive {
                s.to_string()
            } else {
                s.to_lowercase()
            }
        };
        let terms = text
            .split_whitespace()
            .filter_map(|t| term(t, fold))
            .collect();
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
        self.terms.iter().all(|t| match t {
            Term::Fuzzy(pat) if pat.is_ascii() => {
                in_order(name.as_bytes(), pat.as_bytes(), self.case_sensitive)
            }
            _ => self.term_matches(name, t),
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
        for t in &self.terms {
            match t {
                Term::Fuzzy(pat) => {
                    let (score, pos) = self.matcher.fuzzy_indices(hay, pat)?;
                    m.score += score;
                    m.positions.extend(pos);
                }
                Term::Exact {
                    text,
                    anchor,
                    negated,
                } => match (exact(hay, text, *anchor), negated) {
                    (Some(_), true) | (None, false) => return None,
                    (None, true) => {}
                    (Some(start), false) => {
                        let n = text.chars().count();
                        m.score += EXACT_CHAR_SCORE * n as i64;
                        m.positions.extend(start..start + n);
                    }
                },
            }
        }
        m.positions.sort_unstable();
        m.positions.dedup();
        Some(m)
    }
}

/// Whether `pat`'s bytes occur in `hay` in order (`pat` already folded
/// when the query ignores case).
fn in_order(hay: &[u8], pat: &[u8], case_sensitive: bool) -> bool {
    // Each byte is looked for with memchr, which skips what cannot match
    // many bytes at a time: a search scans millions of names a keystroke.
    let mut at = 0;
    for &c in pat {
        let rest = &hay[at..];
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
/// it turns an anchored term into a fuzzy one).
pub fn narrows(old: &str, new: &str) -> bool {
    !old.is_empty() && new.starts_with(old) && !old.contains(['!', '$'])
}

/// `rows` kept where `keep` says so, in order; on every core when there
/// are enough rows to pay for the threads.
pub fn filter_rows(rows: &[u32], keep: impl Fn(u32) -> bool + Sync) -> Vec<u32> {
    const PER_THREAD: usize = 20_000;
    let threads = crate::load::parallel::workers().min(rows.len() / PER_THREAD);
    if threads < 2 {
        return rows.iter().copied().filter(|&r| keep(r)).collect();
    }
    let keep = &keep;
    std::thread::scope(|s| {
        let parts: Vec<_> = rows
            .chunks(rows.len().div_ceil(threads))
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .copied()
                        .filter(|&r| keep(r))
                        .collect::<Vec<u32>>()
                })
            })
            .collect();
        parts
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

/// One space-separated term; `None` for a term that is only operators
/// (a lone `!` or `^` while typing), which constrains nothing.
fn term(t: &str, fold: impl Fn(&str) -> String) -> Option<Term> {
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
        let p = crate::fixture_gen::large::profile(3000);
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
        assert!(narrows("ord", "ord rd"));
        assert!(narrows("'ord", "'ords"));
        assert!(narrows("ord", "ordR"), "a capital only makes it stricter");
        assert!(!narrows("", "o"));
        assert!(!narrows("ord", "or"));
        assert!(!narrows("!ord", "!orde"));
        assert!(!narrows("ord$", "ord$x"));
    }

    #[test]
    fn parallel_filter_keeps_order() {
        let rows: Vec<u32> = (0..100_000).collect();
        let kept = filter_rows(&rows, |r| r % 3 == 0);
        assert_eq!(
            kept,
            (0..100_000).filter(|r| r % 3 == 0).collect::<Vec<u32>>()
        );
    }
}
