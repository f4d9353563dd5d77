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
        closest: closest_names(p.functions().iter().map(|f| p.name(f.name)), &t.0),
    })
}

/// Up to five of `names` closest to `asked`: those sharing its longest
/// prefix (three letters or more, case folded); else fzf's score (a part
/// of a name); else the most letter pairs shared (a typo). Each pass reads
/// every name, so the cheap one goes first: a profile has millions.
pub fn closest_names<'a>(names: impl Iterator<Item = &'a str> + Clone, asked: &str) -> Vec<String> {
    let top = |mut v: Vec<(i64, &str)>| -> Vec<String> {
        v.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
        v.dedup_by(|a, b| a.1 == b.1);
        v.into_iter().take(5).map(|s| s.1.to_string()).collect()
    };
    let prefix = |n: &str| {
        n.chars()
            .zip(asked.chars())
            .take_while(|(a, b)| a.eq_ignore_ascii_case(b))
            .count()
    };
    let best = names.clone().map(prefix).max().unwrap_or(0);
    if best >= 3.min(asked.chars().count()) && best > 0 {
        let near = names.clone().filter(|n| prefix(n) == best).map(|n| (0, n));
        return top(near.collect());
    }
    let m = SkimMatcherV2::default();
    let scored: Vec<(i64, &str)> = names
        .clone()
        .filter_map(|n| Some((m.fuzzy_match(n, asked)?, n)))
        .collect();
    if !scored.is_empty() {
        return top(scored);
    }
    let pairs = bigrams(asked);
    let alike = names.filter_map(|n| {
        let shared = bigrams(n).iter().filter(|b| pairs.contains(b)).count();
        (shared > 0).then_some((shared as i64, n))
    });
    top(alike.collect())
}

/// A name's pairs of adjacent letters, case folded.
fn bigrams(s: &str) -> Vec<(char, char)> {
    let c: Vec<char> = s.chars().flat_map(char::to_lowercase).collect();
    c.windows(2).map(|w| (w[0], w[1])).collect()
}
