//! Call paths with one weight each: what a flame graph draws (folded stacks,
//! speedscope's sampled profiles).
//!
//! The paths are the profile's stacks, weighted by their own numbers. Two
//! things a stack list can miss are added so that the weights add up to the
//! profile's total, which is what a flame graph's width means:
//! - a function's self weight that no stack ending in it accounts for (a
//!   PLIST listing stacks for some functions only, a VS summary without a
//!   call tree) becomes a path of that function alone;
//! - a trace's time with no call open (model.md's outside time) becomes the
//!   path `(outside)`.
//!
//! So for time the weights add up to the session total of samples and
//! traces, and to the sum of the functions' exclusive times for summary
//! formats; for hits to the number of samples; for calls to the sum of the
//! functions' calls.

use super::sort::{canonical_functions, canonical_stacks};
use crate::model::{FuncId, Profile, StackId};
use std::borrow::Cow;

/// The frame name given to a trace's time outside any call.
pub const OUTSIDE: &str = "(outside)";

/// What a path's weight counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weight {
    /// Self time (ms in the model).
    Time,
    /// Samples whose leaf is the path's.
    Hits,
    /// Entries into exactly the path.
    Calls,
}

impl Weight {
    /// Time where the profile has it, else hits where it has samples, else
    /// calls; an error when it has none of them (a PLIST line-count
    /// listing has lines only).
    pub fn default_for(p: &Profile) -> Result<Weight, NoSuchWeight> {
        ALL.into_iter()
            .find(|&w| records(p, w))
            .ok_or(NoSuchWeight {
                format: p.format.clone(),
                what: "function times, hits or calls",
                instead: None,
            })
    }

    pub fn name(self) -> &'static str {
        match self {
            Weight::Time => "time",
            Weight::Hits => "hits",
            Weight::Calls => "calls",
        }
    }
}

/// The frames of a weighted path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    Stack(StackId),
    /// A function alone: its self weight no stack accounts for.
    Function(FuncId),
    /// A trace's time with no call open.
    Outside,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weighted {
    pub path: Path,
    /// In the model's unit: ms for time, a count otherwise.
    pub weight: f64,
}

const ALL: [Weight; 3] = [Weight::Time, Weight::Hits, Weight::Calls];

/// A weight the profile does not record, and one it does if any.
#[derive(Debug, thiserror::Error)]
#[error("this {format} profile records no {what}; {}", match instead {
    Some(w) => format!("use --weight {w}"),
    None => "nothing to draw (--to csv --view lines exports its lines)".to_string(),
})]
pub struct NoSuchWeight {
    pub format: String,
    pub what: &'static str,
    pub instead: Option<&'static str>,
}

fn has_time(p: &Profile) -> bool {
    p.functions()
        .iter()
        .any(|f| f.time.elapsed_exclusive.is_some())
        || p.stacks().iter().any(|s| s.self_ms.is_some())
}

fn has_calls(p: &Profile) -> bool {
    p.totals.samples.is_none() && p.functions().iter().any(|f| f.calls.is_some())
}

/// Checks that the profile records `w`.
pub fn check(p: &Profile, w: Weight) -> Result<(), NoSuchWeight> {
    if records(p, w) {
        return Ok(());
    }
    let what = match w {
        Weight::Time => "times",
        Weight::Hits => "hits (samples)",
        Weight::Calls => "calls",
    };
    Err(NoSuchWeight {
        format: p.format.clone(),
        what,
        instead: Weight::default_for(p).ok().map(Weight::name),
    })
}

fn records(p: &Profile, w: Weight) -> bool {
    match w {
        Weight::Time => has_time(p),
        Weight::Hits => p.totals.samples.is_some(),
        Weight::Calls => has_calls(p),
    }
}

/// Every path with a positive weight: stacks in canonical order, then the
/// functions' unaccounted self weight, then outside time.
pub fn weighted_paths(p: &Profile, w: Weight) -> Result<Vec<Weighted>, NoSuchWeight> {
    check(p, w)?;
    let mut out = Vec::new();
    let mut by_leaf = vec![0.0; p.functions().len()];
    for s in canonical_stacks(p) {
        let weight = stack_weight(p, s, w);
        by_leaf[p.stack_leaf(s).index()] += weight;
        push(&mut out, Path::Stack(s), weight);
    }
    for f in canonical_functions(p) {
        let rest = function_weight(p, f, w) - by_leaf[f.index()];
        // Float sums of the same times differ in their last bits.
        let noise = 1e-9 * by_leaf[f.index()].abs().max(1.0);
        if rest > noise {
            push(&mut out, Path::Function(f), rest);
        }
    }
    if w == Weight::Time {
        push(&mut out, Path::Outside, p.totals.outside_ms.unwrap_or(0.0));
    }
    Ok(out)
}

fn push(out: &mut Vec<Weighted>, path: Path, weight: f64) {
    if weight > 0.0 && weight.is_finite() {
        out.push(Weighted { path, weight });
    }
}

fn stack_weight(p: &Profile, s: StackId, w: Weight) -> f64 {
    let st = p.stack(s);
    match w {
        Weight::Time => st.self_ms.unwrap_or(0.0),
        Weight::Hits | Weight::Calls => st.hits.unwrap_or(0) as f64,
    }
}

fn function_weight(p: &Profile, f: FuncId, w: Weight) -> f64 {
    let func = p.function(f);
    match w {
        Weight::Time => func.time.elapsed_exclusive.unwrap_or(0.0),
        Weight::Hits => func.hits_self.unwrap_or(0) as f64,
        Weight::Calls => func.calls.unwrap_or(0) as f64,
    }
}

/// The frames of a path, root first; `None` for outside time.
pub fn frames(p: &Profile, path: Path) -> Option<Cow<'_, [FuncId]>> {
    match path {
        Path::Stack(s) => Some(Cow::Owned(p.frames(s))),
        Path::Function(f) => Some(Cow::Owned(vec![f])),
        Path::Outside => None,
    }
}
