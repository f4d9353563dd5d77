//! A query: the narrower question every view answers (model.md § Queries).
//! The loaded profile, then the threads chosen (a replay of their events
//! through the format's rules, `Profile::replay`), then a stack of
//! transforms of the call paths, each a new `Profile` rebuilt through
//! `ProfileBuilder`'s path feed, so the panes, the tree, the flame, the
//! butterfly, `report` and `export` read a query's numbers by the same code
//! as a load's. The app keeps every step's profile, so popping a step is
//! instant.
//!
//! The transforms are Firefox Profiler's (merge function, merge call
//! node, focus on function, focus on subtree, drop samples with a
//! function, collapse recursion, collapse direct recursion, collapse a
//! library, collapse a function's subtree), on the call paths of
//! `paths.rs`, the rewrites themselves in `rewrite.rs`.

mod answer;
mod names;
mod paths;
mod rewrite;
mod threads;

pub use answer::{Answer, EventFunc, Level, Policy, Reads, Removed};
pub use names::{Target, closest_names, resolve, spelling};
pub use paths::Dropped;
pub(crate) use paths::each_path;
pub(crate) use rewrite::Frame;
pub use threads::{ThreadRow, by_id, thread_rows, threads_by_id};

use profx_model::TimeRange;
use profx_model::{Profile, Watch};
use std::sync::Arc;

/// One transform of the call paths, naming its functions as the user
/// typed them (`Target`): a step is resolved against the profile it
/// applies to, so it means the same after the steps before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Merge function F: F leaves every path, its own time goes to its
    /// caller.
    Merge(Target),
    /// Merge one call node: the node at this path leaves the paths under
    /// it, its own time goes to its parent.
    MergePath(Vec<Target>),
    /// Drop F: every path through F leaves, with its time.
    Drop(Target),
    /// Focus on F: only paths through F, each from its outermost F.
    Focus(Target),
    /// Focus on a subtree: only paths under this path, each from its last
    /// frame.
    FocusPath(Vec<Target>),
    /// Collapse recursion of F: the frames after the outermost F up to and
    /// including the innermost F leave each path.
    CollapseRecursion(Target),
    /// Collapse direct recursion of F: an F called by F leaves each path.
    CollapseDirectRecursion(Target),
    /// Collapse module M: each run of consecutive frames of M becomes one
    /// frame named after M.
    CollapseModule(String),
    /// Collapse F's subtree: its callees' time joins it.
    CollapseSubtree(Target),
}

impl Step {
    /// The step's name in `--json` (`"op"`) and in the breadcrumbs' words.
    pub fn op(&self) -> &'static str {
        match self {
            Step::Merge(_) => "merge",
            Step::MergePath(_) => "merge_path",
            Step::Drop(_) => "drop",
            Step::Focus(_) => "focus",
            Step::FocusPath(_) => "focus_path",
            Step::CollapseRecursion(_) => "collapse_recursion",
            Step::CollapseDirectRecursion(_) => "collapse_direct_recursion",
            Step::CollapseModule(_) => "collapse_module",
            Step::CollapseSubtree(_) => "collapse_subtree",
        }
    }

    /// What the step names: `("function", F)`, `("path", "A;B;C")` or
    /// `("module", M)`, as `--json` writes it.
    pub fn operand(&self) -> (&'static str, String) {
        match self {
            Step::Merge(t)
            | Step::Drop(t)
            | Step::Focus(t)
            | Step::CollapseRecursion(t)
            | Step::CollapseDirectRecursion(t)
            | Step::CollapseSubtree(t) => ("function", t.0.clone()),
            Step::MergePath(p) | Step::FocusPath(p) => ("path", join_path(p)),
            Step::CollapseModule(m) => ("module", m.clone()),
        }
    }

    /// What the step does, in the words the breadcrumbs and messages use.
    pub fn verb(&self) -> &'static str {
        match self {
            Step::Merge(_) => "merge",
            Step::MergePath(_) => "merge node",
            Step::Drop(_) => "drop",
            Step::Focus(_) => "focus",
            Step::FocusPath(_) => "focus subtree",
            Step::CollapseRecursion(_) => "collapse recursion",
            Step::CollapseDirectRecursion(_) => "collapse direct recursion",
            Step::CollapseModule(_) => "collapse module",
            Step::CollapseSubtree(_) => "collapse subtree",
        }
    }

    /// A short label for the breadcrumbs: `merge F`, `focus A>B`.
    pub fn label(&self) -> String {
        let (what, operand) = self.operand();
        let operand = match what {
            "path" => operand.replace(';', ">"),
            _ => operand,
        };
        format!("{} {operand}", self.verb())
    }

    /// What the step does to a function it removes, in the words a
    /// message uses (`MAIN: merged by step 1`).
    pub fn did(&self) -> &'static str {
        match self {
            Step::Merge(_) | Step::MergePath(_) => "merged",
            Step::Drop(_) => "dropped",
            Step::Focus(_) | Step::FocusPath(_) => "left out",
            Step::CollapseRecursion(_)
            | Step::CollapseDirectRecursion(_)
            | Step::CollapseModule(_)
            | Step::CollapseSubtree(_) => "collapsed",
        }
    }

    /// The command line's flag for the step (`--merge`).
    pub fn flag(&self) -> String {
        format!("--{}", self.op().replace('_', "-"))
    }

    /// Whether the step rewrites call paths, so a profile without any has
    /// nothing for it to do (merge and drop also apply to functions).
    pub fn needs_paths(&self) -> bool {
        !matches!(self, Step::Merge(_) | Step::Drop(_))
    }
}

/// A path as the command line and `--json` spell it: frames joined by `;`
/// (the folded export's separator).
pub fn join_path(p: &[Target]) -> String {
    p.iter().map(|t| t.0.as_str()).collect::<Vec<_>>().join(";")
}

/// A path spelled `A;B;C`: its frames.
pub fn split_path(s: &str) -> Vec<Target> {
    s.split(';').map(|f| Target(f.to_string())).collect()
}

/// The whole question: the threads chosen (`None`: all, merged), the
/// stretch of their run (`None`: all of it), then the steps in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Query {
    /// The thread ids chosen, as the trace records them; `None` for all.
    pub threads: Option<Vec<u64>>,
    /// The time range (model.md § Time ranges): like the thread choice it
    /// selects events, before every step. An answer states it cut to the
    /// run; asked, an edge may be infinite (`--from` or `--until` alone).
    pub range: Option<TimeRange>,
    /// The transforms, applied in this order after the thread choice.
    pub steps: Vec<Step>,
}

impl Query {
    /// Whether it asks the whole profile (no thread choice, no range, no
    /// step).
    pub fn is_whole(&self) -> bool {
        self.threads.is_none() && self.range.is_none() && self.steps.is_empty()
    }

    /// The query in words, as every output's first line states it after
    /// its row count: the threads chosen, then each step's label, joined
    /// by ` › ` (`thread 2 › merge F`); `None` for the whole profile.
    /// Names pass through `text::visible`.
    pub fn describe(&self) -> Option<String> {
        let threads = self.threads.as_deref().map(threads_label);
        let range = self.range.map(range_label);
        let steps = self
            .steps
            .iter()
            .map(|s| profx_model::text::visible(&s.label()).into_owned());
        let words: Vec<String> = threads.into_iter().chain(range).chain(steps).collect();
        (!words.is_empty()).then(|| words.join(" › "))
    }

    /// The command line's arguments that ask this query, in its order:
    /// `--thread 2 --merge F --focus-path A;B` (each value one argument,
    /// unquoted: [`shell_words`] quotes them for a shell).
    pub fn to_args(&self) -> Vec<String> {
        let mut out = Vec::new();
        for id in self.threads.iter().flatten() {
            out.push("--thread".to_string());
            out.push(id.to_string());
        }
        // Each edge as the shortest decimal that reads back to the same
        // number: taken as given, never rounded to the trace's clock.
        if let Some(r) = self.range {
            for (flag, ms) in [("--from", r.from_ms), ("--until", r.until_ms)] {
                if ms.is_finite() {
                    out.push(flag.to_string());
                    out.push(ms.to_string());
                }
            }
        }
        for s in &self.steps {
            out.push(s.flag());
            out.push(s.operand().1);
        }
        out
    }
}

/// A range in words, each edge with every digit it has (never fewer than
/// three decimals): `5,336.000–10,633.000 ms`, `… from 12.5 ms`.
pub fn range_label(r: TimeRange) -> String {
    use crate::report::fmt::grouped_exact;
    match (r.from_ms.is_finite(), r.until_ms.is_finite()) {
        (true, true) => format!(
            "{}–{} ms",
            grouped_exact(r.from_ms),
            grouped_exact(r.until_ms)
        ),
        (true, false) => format!("from {} ms", grouped_exact(r.from_ms)),
        (false, true) => format!("until {} ms", grouped_exact(r.until_ms)),
        (false, false) => "the whole run".to_string(),
    }
}

/// A thread choice in words: `all threads`, `thread 2`, `threads 1,3`.
pub fn threads_label(ids: &[u64]) -> String {
    match ids {
        [one] => format!("thread {one}"),
        ids => format!(
            "threads {}",
            ids.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
        ),
    }
}

/// `args` as one line a POSIX shell reads back as the same arguments:
/// each quoted in `'…'` unless it is made only of characters no shell
/// treats specially (`'` itself written `'\''`).
pub fn shell_words<S: AsRef<str>>(args: &[S]) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c);
    args.iter()
        .map(|a| {
            let a = a.as_ref();
            match !a.is_empty() && a.chars().all(plain) {
                true => a.to_string(),
                false => format!("'{}'", a.replace('\'', "'\\''")),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Why a query has no answer.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum QueryError {
    /// A step names a function the profile does not have.
    #[error("no function is named {name:?}{}", closest_words(.closest))]
    NoFunction {
        /// The name asked for.
        name: String,
        /// The closest names the profile has.
        closest: Vec<String>,
    },
    /// `collapse_module` names a module no function is in.
    #[error("no function is in module {name:?}{}", closest_words(.closest))]
    NoModule {
        /// The module asked for.
        name: String,
        /// The modules the profile has, closest first.
        closest: Vec<String>,
    },
    /// A step names a function an earlier step of the query removed.
    #[error("{name:?} was {did} by step {step} ({label}): no function is named so after it")]
    RemovedBy {
        /// The name asked for.
        name: String,
        /// The earlier step that removed it, counted from 1.
        step: usize,
        /// That step's label.
        label: String,
        /// What it did (`Step::did`).
        did: &'static str,
    },
    /// A path typed as the breadcrumbs write it (`A>B`), where the command
    /// line spells one `A;B;C`.
    #[error("no call path is {given:?}: a path is spelled with `;` between its frames ({want:?})")]
    PathSpelling {
        /// The path as given.
        given: String,
        /// The spelling wanted.
        want: String,
    },
    /// A path step's path is no call path of the profile.
    #[error("no call path is {path:?}")]
    NoPath {
        /// The path asked for, `A;B;C`.
        path: String,
    },
    /// The step rewrites call paths, and the profile has none.
    #[error(
        "{verb} needs call paths, and this {format} profile has none (merge and drop apply to its functions)"
    )]
    NeedsPaths {
        /// What the step does (`Step::verb`).
        verb: &'static str,
        /// The profile's format.
        format: String,
    },
    /// The step would leave no function: nothing would be left to show.
    #[error("{step} would leave no function (it drops every path); not applied")]
    LeavesNothing {
        /// The step's label.
        step: String,
    },
    /// The step changes no path (no recursion to collapse, a focus on the
    /// only root): it is not stacked.
    #[error("{step} changes nothing here; not applied")]
    ChangesNothing {
        /// The step's label.
        step: String,
    },
    /// A thread id the trace does not have.
    #[error("no thread {id}; the trace's threads are {}", list_ids(.known))]
    NoThread {
        /// The id asked for.
        id: u64,
        /// The ids the trace has.
        known: Vec<u64>,
    },
    /// Threads were chosen in a profile that has none to choose.
    #[error("this {format} profile has one implicit thread: there is none to choose")]
    NoThreads {
        /// The profile's format.
        format: String,
    },
    /// A range asked of a profile without a trace's times.
    #[error(
        "a time range needs a trace's times, and this {format} profile has none (summaries, a trace without a time column and a BR log have no clock)"
    )]
    NoTimes {
        /// The profile's format.
        format: String,
    },
    /// A range that is empty, reversed or wholly outside the run.
    #[error("the range {} is {why}; the run is {} (the trace's own clock, as the Trace pane shows times)", range_label(*.asked), range_label(*.run))]
    RangeOutside {
        /// The range as asked.
        asked: TimeRange,
        /// Why it selects nothing: `empty`, `reversed`, `outside the run`.
        why: &'static str,
        /// The run's first and last event.
        run: TimeRange,
    },
    /// The replay of the chosen threads failed (the input changed?).
    #[error("replaying the chosen threads failed: {0}")]
    Replay(String),
    /// The user cancelled it.
    #[error("cancelled")]
    Cancelled,
}

/// `; the closest are "A", "B"`, or nothing: a usage error's hint, the
/// query's and a `--fail-if` condition's alike.
pub(crate) fn closest_words(closest: &[String]) -> String {
    match closest {
        [] => String::new(),
        names => format!(
            "; the closest are {}",
            names
                .iter()
                .map(|n| format!("{:?}", profx_model::text::visible(n)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

fn list_ids(ids: &[u64]) -> String {
    ids.iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A query as a report states it: what was asked, and what its steps
/// dropped, summed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Asked {
    /// The query.
    pub query: Query,
    /// What its steps dropped, summed, and their notes.
    pub dropped: Dropped,
}

/// The thread ids a trace records, in id order (`by_id`); empty for a
/// profile with one implicit thread.
pub fn thread_ids(p: &Profile) -> Vec<u64> {
    threads_by_id(p).iter().map(|t| t.id).collect()
}

/// Chooses `ids` of `p`'s threads: the profile of a trace holding only
/// their events, replayed through the format's rules. `None` (all
/// threads) is `p` itself.
pub fn choose_threads(
    p: &Arc<Profile>,
    ids: Option<&[u64]>,
    watch: &Watch<'_>,
) -> Result<Arc<Profile>, QueryError> {
    let Some(ids) = ids else {
        return Ok(p.clone());
    };
    let known = thread_ids(p);
    if known.is_empty() {
        return Err(QueryError::NoThreads {
            format: p.format.clone(),
        });
    }
    if let Some(&id) = ids.iter().find(|i| !known.contains(i)) {
        return Err(QueryError::NoThread { id, known });
    }
    let Some(replay) = p.replay() else {
        return Err(QueryError::Replay(
            "this profile keeps no way back to its events".into(),
        ));
    };
    match replay.threads(ids, watch) {
        Ok(q) => Ok(Arc::new(q)),
        Err(_) if watch.cancelled() => Err(QueryError::Cancelled),
        Err(why) => Err(QueryError::Replay(why)),
    }
}

#[cfg(test)]
mod tests;
