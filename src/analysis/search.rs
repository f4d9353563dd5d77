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
}
