//! Call paths with one weight each: what a flame graph draws (folded stacks,
//! speedscope's sampled profiles).
//!
//! The paths are the nodes of the calling-context tree every view reads
//! (`cct`), each weighted by its own weight: the stacks, a stated node's
//! `(unlisted)` time, and under the root `(no call path)` each function's
//! self weight no stack holds (a PLIST listing stacks for some functions
//! only, a VS report without call paths). A trace's time with no call
//! open (model.md's outside time) becomes the path `(outside)`. So the
//! weights add up to the profile's total, which is what a flame graph's
//! width means, and a path's prefix weighs what the tree says it totals.
//!
//! So for time the weights add up to the session total of samples and
//! traces; for summary formats, to each function's exclusive time or its
//! stacks' self time, the larger, with the unlisted time a file states;
//! for hits to the number of samples; for calls to each function's calls
//! or its stacks', the larger.

use super::cct::{Cct, Label, Weigh};
use profx_model::{NodeId, Profile};

/// The frame name given to a trace's time outside any call.
pub use super::cct::OUTSIDE;

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

    /// The weight's name, as `--weight` takes it.
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
    /// A node of the calling-context tree the views share (`cct::Cct`):
    /// the path from its root to it.
    Node(u32),
    /// A trace's time with no call open.
    Outside,
}

/// A path and what it weighs: a line of folded stacks, a sample of
/// speedscope's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weighted {
    /// The frames the weight is on.
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
    /// The profile's format name.
    pub format: String,
    /// What it records none of, in words (`times`, `hits (samples)`, ...).
    pub what: &'static str,
    /// A weight it does record, as `--weight` names it; `None` where it records
    /// none.
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

/// The tree's unit for a weight.
pub fn weigh(w: Weight) -> Weigh {
    match w {
        Weight::Time => Weigh::Ms,
        Weight::Hits => Weigh::Hits,
        Weight::Calls => Weigh::Calls,
    }
}

/// The weighted paths: every node of the calling-context tree with a
/// positive own weight, in the order of paths (root first, children by
/// name, as inferno draws them), then outside time; with the tree they
/// are nodes of.
pub fn weighted_paths(p: &Profile, w: Weight) -> Result<(Cct, Vec<Weighted>), NoSuchWeight> {
    check(p, w)?;
    let cct = Cct::build_as(p, weigh(w));
    let kids = &cct.kids;
    let mut out = Vec::new();
    let mut todo: Vec<NodeId> = kids.of(None).iter().rev().copied().collect();
    while let Some(n) = todo.pop() {
        push(
            &mut out,
            Path::Node(n.raw()),
            cct.own(p, n.raw()).unwrap_or(0.0),
        );
        todo.extend(kids.of(Some(n)).iter().rev());
    }
    if w == Weight::Time {
        push(&mut out, Path::Outside, cct.outside);
    }
    Ok((cct, out))
}

fn push(out: &mut Vec<Weighted>, path: Path, weight: f64) {
    if weight > 0.0 && weight.is_finite() {
        out.push(Weighted { path, weight });
    }
}

/// The frames of a path, root first; `None` for outside time.
pub fn frames(p: &Profile, cct: &Cct, path: Path) -> Option<Vec<Label>> {
    match path {
        Path::Node(n) => {
            let mut out = Vec::new();
            let mut at = Some(n);
            while let Some(x) = at {
                out.push(cct.label(p, x));
                at = cct.parent_of(p, x);
            }
            out.reverse();
            Some(out)
        }
        Path::Outside => None,
    }
}
