//! How a step names a function (model.md § Queries): an exact name stands
//! for every function of that name whatever its module; `MODULE!NAME`, the
//! folded export's spelling, names one. Never a pattern: a query must mean
//! the same thing whatever else the profile holds.

use super::QueryError;
use fuzzy_matcher::FuzzyMatcher;
use fuzzy_matcher::skim::SkimMatcherV2;
use profx_model::{FuncId, Profile};

/// A function as a step names it: `NAME` or `MODULE!NAME`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Target(pub String);

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// How a step names `f`: its name, or `MODULE!NAME` where another
/// function shares the name (so the step means `f` alone).
pub fn spelling(p: &Profile, f: FuncId) -> Target {
    let name = p.function_name(f);
    match p.name_is_shared(f) {
        true => Target(format!("{}!{name}", p.function_module(f))),
        false => Target(name.to_string()),
    }
}

/// The functions `t` names in `p`: every function of that exact name;
/// else, split at a `!`, the function of that module and name. A name
/// holding `!` is tried whole first, so `operator!=` is itself.
pub fn resolve(p: &Profile, t: &Target) -> Result<Vec<FuncId>, QueryError> {
    let whole: Vec<FuncId> = p
        .function_ids()
        .filter(|&f| p.function_name(f) == t.0)
        .collect();
    if !whole.is_empty() {
        return Ok(whole);
    }
    for (i, _) in t.0.match_indices('!') {
        let (module, name) = (&t.0[..i], &t.0[i + 1..]);
        let one: Vec<FuncId> = p
            .function_ids()
            .filter(|&f| p.function_name(f) == name && p.function_module(f) == module)
            .collect();
        if !one.is_empty() {
            return Ok(one);
        }
    }
    Err(QueryError::NoFunction {
        name: t.0.clone(),
        closest: closest_names(p.function_ids().map(|f| p.function_name(f)), &t.0),
    })
}

/// Up to five of `names` closest to `asked`: fzf's score first (a typo
/// of a long name, a part of one), then names sharing its longest prefix.
pub fn closest_names<'a>(names: impl Iterator<Item = &'a str>, asked: &str) -> Vec<String> {
    let m = SkimMatcherV2::default();
    let mut scored: Vec<(i64, usize, &str)> = Vec::new();
    let mut alike: Vec<(usize, &str)> = Vec::new();
    let pairs = bigrams(asked);
    for n in names {
        let shared = bigrams(n).iter().filter(|b| pairs.contains(b)).count();
        if shared > 0 {
            alike.push((shared, n));
        }
        let prefix = n
            .chars()
            .zip(asked.chars())
            .take_while(|(a, b)| a.eq_ignore_ascii_case(b))
            .count();
        let score = m.fuzzy_match(n, asked).unwrap_or(0);
        if score > 0 || prefix > 0 {
            scored.push((score, prefix, n));
        }
    }
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.cmp(b.2)));
    if scored.is_empty() {
        // No name holds the letters asked in order (a typo): those sharing
        // the most letter pairs with it.
        alike.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
        alike.dedup_by(|a, b| a.1 == b.1);
        return alike.into_iter().take(5).map(|a| a.1.to_string()).collect();
    }
    scored.dedup_by(|a, b| a.2 == b.2);
    scored
        .into_iter()
        .take(5)
        .map(|s| s.2.to_string())
        .collect()
}

/// A name's pairs of adjacent letters, case folded.
fn bigrams(s: &str) -> Vec<(char, char)> {
    let c: Vec<char> = s.chars().flat_map(char::to_lowercase).collect();
    c.windows(2).map(|w| (w[0], w[1])).collect()
}
