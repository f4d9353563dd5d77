//! The one answer to a query (issue 62, model.md § Queries): the app,
//! `report` and `export` run a query through [`Answer::run`] (or grow one
//! by [`Answer::push`]) and read what it gives, and nothing else.
//!
//! An answer holds two profiles: the **events'** (the thread choice's:
//! its packets, events, time order and threads, which no transform
//! changes) and the **paths'** (after the range and every step:
//! functions, lines, stacks, the tree, the flame, the butterfly). A time
//! range sits between them: like the thread choice it selects events (a
//! replay that cuts every interval at its edges), and every step applies
//! after it (model.md § Time ranges). Which one a view reads is
//! said once, by [`Reads`]. A function of the events' profile is an
//! [`EventFunc`], a type of its own: it becomes a function of the paths'
//! profile only through [`Answer::to_paths`], the one mapping (by name
//! and module, made once per answer, a look-up in constant time), which
//! says which step removed a function that has no place there.
//!
//! What differs between the app and a script is a [`Policy`] of this one
//! runner, not a second runner.

use super::paths::Dropped;
use super::{Query, QueryError, Step, choose_threads};
use crate::view::{Table, View};
use profx_model::{FuncId, PacketId, Profile, TimeRange, Watch};
use rustc_hash::FxHashMap;
use std::sync::{Arc, OnceLock};

/// How the runner treats a step that cannot mean what it says.
///
/// | a step that … | `App` | `Script` (`report`, `export`) |
/// |---|---|---|
/// | names what the profile lacks, needs paths it has none of | refused when asked; left out (kept, shown, applied again by the next thread choice) when a thread choice re-applies it | a usage error |
/// | changes no path | refused when asked; left out on a thread choice | applied, its profile the one before, with a note |
/// | leaves no function | refused when asked; left out on a thread choice | applied, an empty profile, with a note |
///
/// `Side` is `Script` for one side of a comparison (`profx diff`, model.md
/// § Comparisons): a step naming a function, path or module this side
/// lacks is left out of it (the other side may have it), every other
/// failure is `Script`'s error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// A person at the app: a step that means nothing is not worth a
    /// breadcrumb.
    App,
    /// A command line: the query means what it says, or is an error.
    Script,
    /// One side of a comparison: a step naming what this side lacks is
    /// left out of it, with why; otherwise `Script`.
    Side,
}

impl Policy {
    /// Whether a step failing with `e` is left out rather than an error.
    fn leaves_out(self, e: &QueryError) -> bool {
        match self {
            Policy::App => true,
            Policy::Script => false,
            Policy::Side => matches!(
                e,
                QueryError::NoFunction { .. }
                    | QueryError::NoModule { .. }
                    | QueryError::NoPath { .. }
                    | QueryError::RemovedBy { .. }
            ),
        }
    }
}

/// Which of an answer's profiles a view reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reads {
    /// The thread choice's: what happened in time (packets, events, the
    /// time order, the threads), which no transform changes.
    Events,
    /// The last step's: every number made from call paths.
    Paths,
}

impl Reads {
    /// The one place that says which profile a view reads: the Trace pane
    /// (`Table::Packets`), the threads list (`Table::Threads`) and the
    /// Timeline read the events; every other view the paths.
    pub fn of_view(view: View) -> Reads {
        match view {
            View::Table(Table::Packets | Table::Threads) | View::Timeline => Reads::Events,
            _ => Reads::Paths,
        }
    }

    /// The time order (the Flame pane's chart, the Chrome trace) is the
    /// events', drawn as they happened.
    pub const TIME_ORDER: Reads = Reads::Events;
}

/// One profile of the answer: the base (the thread choice's, or its
/// innermost range's), or a step's.
#[derive(Debug)]
pub struct Level {
    /// The step that gave it; `None` for the base.
    pub step: Option<Step>,
    /// The profile the views read at this level.
    pub profile: Arc<Profile>,
    /// What the step left out.
    pub dropped: Dropped,
    /// Why the step was left out (`Policy::App` on a thread choice): its
    /// profile is then the level's before it.
    pub left_out: Option<String>,
}

/// A function id of the events' profile. Only the answer makes one, and
/// only the answer turns one into a function of the paths' profile
/// ([`Answer::to_paths`]): after a step the two profiles number their
/// functions apart, and the compiler keeps them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EventFunc(FuncId);

/// Why a function of the events has no place in the paths' profile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Removed {
    /// The function's name, as the events name it.
    pub name: String,
    /// The step that removed it, counted from 1 as the breadcrumbs are.
    pub step: usize,
    /// That step, in its breadcrumb's words.
    pub label: String,
    /// What it did to the function: `merged`, `dropped`, `left out`,
    /// `collapsed`.
    pub did: &'static str,
}

impl std::fmt::Display for Removed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {} by step {} ({})",
            profx_model::text::visible(&self.name),
            self.did,
            self.step,
            profx_model::text::visible(&self.label)
        )
    }
}

/// A range committed: the stretch as stated (cut to the run), what the
/// feed was given, and the levels from before it, kept so that taking it
/// off is instant.
#[derive(Debug)]
pub struct Ranged {
    /// The range cut to the run: what every output states.
    pub range: TimeRange,
    /// The range the replay was given (`Answer::entry_range`): `range`,
    /// reaching past the run's last event when it ends there, so calls
    /// entered at that last instant count.
    feed: TimeRange,
    /// Why the range stated is not the range asked, if it is not.
    pub note: Option<String>,
    /// The levels before it was committed (their base, then their steps).
    before: Vec<Arc<Level>>,
}

impl Ranged {
    /// The levels it keeps from before it was committed.
    pub fn before(&self) -> &[Arc<Level>] {
        &self.before
    }
}

/// The answer to a query: the events' profile (the thread choice's), the
/// ranges committed (nested: the innermost counts), its levels (the base,
/// then each step's), and the mapping from the events' functions to the
/// last level's, made once. Cloning shares every profile.
#[derive(Clone, Debug)]
pub struct Answer {
    loaded: Arc<Profile>,
    threads: Option<Vec<u64>>,
    events: Arc<Profile>,
    ranges: Vec<Arc<Ranged>>,
    levels: Vec<Arc<Level>>,
    map: Arc<OnceLock<Vec<u32>>>,
}

/// A function with no place in the paths' profile, in the mapping.
const GONE: u32 = u32::MAX;

impl Answer {
    /// The whole loaded profile: no thread chosen, no step.
    pub fn whole(loaded: Arc<Profile>) -> Answer {
        let first = Level {
            step: None,
            profile: Arc::clone(&loaded),
            dropped: Dropped::default(),
            left_out: None,
        };
        Answer::of(loaded, None, vec![Arc::new(first)])
    }

    /// The answer of a thread choice whose profile is the first level's.
    fn of(loaded: Arc<Profile>, threads: Option<Vec<u64>>, levels: Vec<Arc<Level>>) -> Answer {
        Answer {
            events: Arc::clone(&levels[0].profile),
            loaded,
            threads,
            ranges: Vec::new(),
            levels,
            map: Arc::new(OnceLock::new()),
        }
    }

    /// This answer with other levels (its thread choice and ranges kept).
    fn with_levels(&self, levels: Vec<Arc<Level>>) -> Answer {
        Answer {
            loaded: Arc::clone(&self.loaded),
            threads: self.threads.clone(),
            events: Arc::clone(&self.events),
            ranges: self.ranges.clone(),
            levels,
            map: Arc::new(OnceLock::new()),
        }
    }

    /// Runs `q` on the loaded profile: its threads, then its steps in
    /// order, each by `policy`. `watch` stops it and hears how far the
    /// thread choice has read.
    pub fn run(
        loaded: &Arc<Profile>,
        q: &Query,
        policy: Policy,
        watch: &Watch<'_>,
    ) -> Result<Answer, QueryError> {
        let base = choose_threads(loaded, q.threads.as_deref(), watch)?;
        let first = Level {
            step: None,
            profile: base,
            dropped: Dropped::default(),
            left_out: None,
        };
        let mut answer = Answer::of(Arc::clone(loaded), q.threads.clone(), vec![Arc::new(first)]);
        if let Some(range) = q.range {
            answer = answer.in_range(range, policy, watch)?;
        }
        answer.reapply(q.steps.iter().cloned(), policy, watch)
    }

    /// This answer with `step` applied after its steps. A step that cannot
    /// mean what it says is an error, but by `Policy::Script` one that
    /// changes nothing or leaves nothing is applied with a note.
    pub fn push(
        &self,
        step: Step,
        policy: Policy,
        watch: &Watch<'_>,
    ) -> Result<Answer, QueryError> {
        let top = self.paths();
        let strict = policy == Policy::App;
        let (profile, dropped) = super::paths::apply(top, &step, &|| watch.cancelled(), strict)
            .map_err(|e| self.explained(&step, e))?;
        // Nothing rewritten: the profile it applied to, every number kept
        // (per-call statistics too).
        let profile = match dropped.unchanged {
            true => Arc::clone(top),
            false => Arc::new(profile),
        };
        let level = Level {
            step: Some(step),
            profile,
            dropped,
            left_out: None,
        };
        Ok(self.with_level(level))
    }

    /// `e`, said better where the step names what an earlier step removed
    /// (`--drop F --drop F`), or types a path as the breadcrumbs show it
    /// (`A>B`, where the command line spells `A;B`).
    fn explained(&self, step: &Step, e: QueryError) -> QueryError {
        let QueryError::NoFunction { name, .. } = &e else {
            return e;
        };
        let path_step = matches!(step, Step::MergePath(_) | Step::FocusPath(_));
        if path_step && name.contains('>') {
            let (_, given) = step.operand();
            return QueryError::PathSpelling {
                want: given
                    .split('>')
                    .map(str::trim)
                    .collect::<Vec<_>>()
                    .join(";"),
                given,
            };
        }
        let target = super::Target(name.clone());
        let mut named = super::resolve(&self.levels[0].profile, &target).is_ok();
        let applied = self.levels.iter().skip(1).filter(|l| l.left_out.is_none());
        for (k, l) in applied.enumerate() {
            let here = super::resolve(&l.profile, &target).is_ok();
            if named
                && !here
                && let Some(by) = &l.step
            {
                return QueryError::RemovedBy {
                    name: name.clone(),
                    step: k + 1,
                    label: by.label(),
                    did: by.did(),
                };
            }
            named = here;
        }
        e
    }

    /// This answer with `step` kept but not applied, saying why.
    fn left_out(&self, step: Step, why: QueryError) -> Answer {
        let level = Level {
            step: Some(step),
            profile: Arc::clone(self.paths()),
            dropped: Dropped::default(),
            left_out: Some(profx_model::text::visible(&why.to_string()).into_owned()),
        };
        self.with_level(level)
    }

    fn with_level(&self, level: Level) -> Answer {
        let mut levels = self.levels.clone();
        levels.push(Arc::new(level));
        self.with_levels(levels)
    }

    /// This answer without its last step (one left out too), with that
    /// step and why it was left out; `None` when it has no step, or when
    /// the last thing asked was a range (`last_asked_is_range`).
    pub fn pop(&self) -> Option<(Answer, Step, Option<String>)> {
        if self.last_asked_is_range() {
            return None;
        }
        let (last, rest) = self.levels.split_last()?;
        let step = last.step.clone()?;
        Some((self.with_levels(rest.to_vec()), step, last.left_out.clone()))
    }

    /// Whether the last thing asked was a range: no step was asked since
    /// the innermost range was committed.
    pub fn last_asked_is_range(&self) -> bool {
        self.ranges
            .last()
            .is_some_and(|r| self.levels.len() == r.before.len())
    }

    /// Every profile the answer holds: the events', those kept under its
    /// ranges, and each level's (one may appear more than once).
    pub fn held(&self) -> impl Iterator<Item = &Arc<Profile>> {
        let kept = self.ranges.iter().flat_map(|r| r.before.iter());
        std::iter::once(&self.events).chain(kept.chain(self.levels.iter()).map(|l| &l.profile))
    }

    /// The ranges committed, outermost first.
    pub fn ranges(&self) -> &[Arc<Ranged>] {
        &self.ranges
    }

    /// The range every number is cut to, as stated (cut to the run).
    pub fn range(&self) -> Option<TimeRange> {
        self.ranges.last().map(|r| r.range)
    }

    /// The range a call's entry lies in when the call counts: the range
    /// stated, reaching past the run's last event when it ends there, so a
    /// call entered at that last instant counts (model.md § Time ranges).
    /// Whoever reads the trace's calls beside this answer holds them to it.
    pub fn entry_range(&self) -> Option<TimeRange> {
        self.ranges.last().map(|r| r.feed)
    }

    /// The run the events' profile covers, first to last event of its
    /// threads (the threads chosen); `None` without a trace's times.
    pub fn run_span(&self) -> Option<TimeRange> {
        run_span(&self.events)
    }

    /// This answer cut to `asked` (inside the innermost range already
    /// committed: ranges nest), every step asked applied again on it by
    /// `policy`, as a new thread choice applies them.
    pub fn in_range(
        &self,
        asked: TimeRange,
        policy: Policy,
        watch: &Watch<'_>,
    ) -> Result<Answer, QueryError> {
        let within =
            self.range()
                .or_else(|| self.run_span())
                .ok_or_else(|| QueryError::NoTimes {
                    format: self.events.format.clone(),
                })?;
        let run = self.run_span().unwrap_or(within);
        let (range, feed, note) = cut_range(asked, within, run)?;
        // A range over the whole run is the whole profile: no replay.
        let base = if feed.from_ms <= run.from_ms && feed.until_ms == f64::INFINITY {
            Arc::clone(&self.events)
        } else {
            let replay = self
                .events
                .replay()
                .or(self.loaded.replay())
                .ok_or_else(|| {
                    QueryError::Replay("this profile keeps no way back to its events".into())
                })?;
            match replay.select(self.threads.as_deref(), Some(feed), watch) {
                Ok(p) => Arc::new(p),
                Err(_) if watch.cancelled() => return Err(QueryError::Cancelled),
                Err(why) => return Err(QueryError::Replay(why)),
            }
        };
        let first = Level {
            step: None,
            profile: base,
            dropped: Dropped::default(),
            left_out: None,
        };
        let mut ranges = self.ranges.clone();
        ranges.push(Arc::new(Ranged {
            range,
            feed,
            note,
            before: self.levels.clone(),
        }));
        let mut answer = Answer {
            ranges,
            ..self.with_levels(vec![Arc::new(first)])
        };
        answer = answer.reapply(self.asked_steps().cloned(), policy, watch)?;
        Ok(answer)
    }

    /// `steps` pushed in order by `policy` (left out, by `Policy::App`,
    /// where one cannot mean what it says; by `Policy::Side`, where one
    /// names what the profile lacks).
    fn reapply(
        mut self,
        steps: impl Iterator<Item = Step>,
        policy: Policy,
        watch: &Watch<'_>,
    ) -> Result<Answer, QueryError> {
        for step in steps {
            self = match self.push(step.clone(), policy, watch) {
                Ok(next) => next,
                Err(QueryError::Cancelled) => return Err(QueryError::Cancelled),
                Err(e) if policy.leaves_out(&e) => self.left_out(step, e),
                Err(e) => return Err(e),
            };
        }
        Ok(self)
    }

    /// This answer without its innermost range: the levels from before it
    /// when no step was asked since (instant), else those with the steps
    /// asked since applied again. `None` when it has no range.
    pub fn out_of_range(
        &self,
        policy: Policy,
        watch: &Watch<'_>,
    ) -> Option<Result<Answer, QueryError>> {
        let (last, outer) = self.ranges.split_last()?;
        let since: Vec<Step> = self
            .levels
            .iter()
            .skip(last.before.len())
            .filter_map(|l| l.step.clone())
            .collect();
        let back = Answer {
            ranges: outer.to_vec(),
            ..self.with_levels(last.before.clone())
        };
        Some(back.reapply(since.into_iter(), policy, watch))
    }

    /// The query with another thread choice, the range and every step
    /// asked (those left out too), run again by `policy`.
    pub fn rethread(
        &self,
        threads: Option<Vec<u64>>,
        policy: Policy,
        watch: &Watch<'_>,
    ) -> Result<Answer, QueryError> {
        let q = Query {
            threads,
            range: self.range(),
            steps: self.asked_steps().cloned().collect(),
        };
        Answer::run(&self.loaded, &q, policy, watch)
    }

    /// The profile as loaded: every thread, no step.
    pub fn loaded(&self) -> &Arc<Profile> {
        &self.loaded
    }

    /// The events' profile: the thread choice's.
    pub fn events(&self) -> &Arc<Profile> {
        &self.events
    }

    /// The paths' profile: the last step's.
    pub fn paths(&self) -> &Arc<Profile> {
        &self.levels[self.levels.len() - 1].profile
    }

    /// The profile `reads` names.
    pub fn profile(&self, reads: Reads) -> &Arc<Profile> {
        match reads {
            Reads::Events => self.events(),
            Reads::Paths => self.paths(),
        }
    }

    /// The profile `view` reads (`Reads::of_view`).
    pub fn for_view(&self, view: View) -> &Arc<Profile> {
        self.profile(Reads::of_view(view))
    }

    /// The levels: the base (the thread choice's, or its innermost
    /// range's), then every step asked.
    pub fn levels(&self) -> &[Arc<Level>] {
        &self.levels
    }

    /// The thread ids chosen; `None`: all, merged.
    pub fn threads(&self) -> Option<&[u64]> {
        self.threads.as_deref()
    }

    /// Whether it is the whole loaded profile.
    pub fn is_whole(&self) -> bool {
        self.threads.is_none() && self.ranges.is_empty() && self.levels.len() == 1
    }

    /// The steps applied, in order (a step left out is not).
    pub fn steps(&self) -> impl Iterator<Item = &Step> {
        self.levels
            .iter()
            .filter(|l| l.left_out.is_none())
            .filter_map(|l| l.step.as_ref())
    }

    /// Every step asked, those left out too.
    pub fn asked_steps(&self) -> impl Iterator<Item = &Step> {
        self.levels.iter().filter_map(|l| l.step.as_ref())
    }

    /// The steps left out, each with why.
    pub fn left_out_steps(&self) -> impl Iterator<Item = (&Step, &str)> {
        self.levels
            .iter()
            .filter_map(|l| Some((l.step.as_ref()?, l.left_out.as_deref()?)))
    }

    /// The query this answer answers: the threads and the steps applied
    /// (what every output states; a step left out is not in it).
    pub fn query(&self) -> Query {
        Query {
            threads: self.threads.clone(),
            range: self.range(),
            steps: self.steps().cloned().collect(),
        }
    }

    /// What the steps applied dropped, summed, and their notes.
    pub fn dropped(&self) -> Dropped {
        let mut d = Dropped::default();
        d.notes
            .extend(self.ranges.last().and_then(|r| r.note.clone()));
        for l in self.levels.iter().filter(|l| l.left_out.is_none()) {
            d.paths += l.dropped.paths;
            if let Some(ms) = l.dropped.ms {
                d.ms = Some(d.ms.unwrap_or(0.0) + ms);
            }
            if let Some(h) = l.dropped.hits {
                d.hits = Some(d.hits.unwrap_or(0) + h);
            }
            for n in &l.dropped.notes {
                if !d.notes.contains(n) {
                    d.notes.push(n.clone());
                }
            }
        }
        d
    }

    /// The query and what it dropped, as `--json` states them.
    pub fn asked(&self) -> super::Asked {
        super::Asked {
            query: self.query(),
            dropped: self.dropped(),
        }
    }

    /// The query in words for the first line of an output (`thread 2 ›
    /// merge F`); `None` for the whole profile.
    pub fn label(&self) -> Option<String> {
        self.query().describe()
    }

    /// The function of event `index` of packet `k` of the events' profile.
    pub fn event_function(&self, k: PacketId, index: usize) -> Option<EventFunc> {
        let p = self.events();
        (k.index() < p.packets().len())
            .then(|| p.packet(k).events.function(index))
            .flatten()
            .map(EventFunc)
    }

    /// A function of the events' time order (`Timeline`'s calls), which
    /// number functions as the events' profile does.
    pub fn time_order_function(&self, f: FuncId) -> EventFunc {
        EventFunc(f)
    }

    /// An events' function's name.
    pub fn event_name(&self, f: EventFunc) -> &str {
        self.events().function_name(f.0)
    }

    /// The events' function `f` in the paths' profile: the function of
    /// the same name and module, or which step removed it.
    pub fn to_paths(&self, f: EventFunc) -> Result<FuncId, Removed> {
        let events = self.events();
        if Arc::ptr_eq(events, self.paths()) {
            return Ok(f.0);
        }
        let map = self.map.get_or_init(|| mapping(events, self.paths()));
        match map.get(f.0.index()) {
            Some(&g) if g != GONE => Ok(FuncId::from_raw(g)),
            _ => Err(self.removed_by(f)),
        }
    }

    /// `f` of `before`'s paths' profile in this answer's: the function of
    /// the same name and module, where it has one (the query changed under
    /// a selection). A look at every function, once per change.
    pub fn carried(&self, before: &Answer, f: FuncId) -> Option<FuncId> {
        let (from, to) = (before.paths(), self.paths());
        if Arc::ptr_eq(from, to) {
            return Some(f);
        }
        if f.index() >= from.functions().len() {
            return None;
        }
        let key = (from.function_name(f), from.function_module(f));
        to.function_ids()
            .find(|&g| (to.function_name(g), to.function_module(g)) == key)
    }

    /// Which step removed `f`: the first whose profile has no function of
    /// its name and module (a look at each level, asked only when a key
    /// acts on a removed function).
    fn removed_by(&self, f: EventFunc) -> Removed {
        let events = self.events();
        let key = (events.function_name(f.0), events.function_module(f.0));
        let mut n = 0;
        for l in self.levels.iter().skip(1) {
            let Some(step) = &l.step else { continue };
            if l.left_out.is_some() {
                continue;
            }
            n += 1;
            let p = &l.profile;
            let kept = p
                .function_ids()
                .any(|g| (p.function_name(g), p.function_module(g)) == key);
            if !kept {
                return Removed {
                    name: key.0.to_string(),
                    step: n,
                    label: step.label(),
                    did: step.did(),
                };
            }
        }
        Removed {
            name: key.0.to_string(),
            step: n,
            label: String::new(),
            did: "removed",
        }
    }
}

/// The first to the last event of `p`'s threads; `None` without times.
fn run_span(p: &Profile) -> Option<TimeRange> {
    let threads = p.threads();
    let first = threads.iter().filter_map(|t| t.first_ms).reduce(f64::min)?;
    let last = threads.iter().filter_map(|t| t.last_ms).reduce(f64::max)?;
    Some(TimeRange {
        from_ms: first,
        until_ms: last,
    })
}

/// `asked` cut to `within` (the run, or the range it nests in): the range
/// stated, the range the feed is given (past the run's last event when it
/// reaches it) and a note when the range stated is not the one asked; or
/// why it selects nothing (model.md § Time ranges).
fn cut_range(
    asked: TimeRange,
    within: TimeRange,
    run: TimeRange,
) -> Result<(TimeRange, TimeRange, Option<String>), QueryError> {
    let refuse = |why| QueryError::RangeOutside { asked, why, run };
    if asked.from_ms.is_nan() || asked.until_ms.is_nan() {
        return Err(refuse("not a number"));
    }
    if asked.from_ms > asked.until_ms {
        return Err(refuse("reversed"));
    }
    if asked.from_ms == asked.until_ms {
        return Err(refuse("empty"));
    }
    let range = TimeRange {
        from_ms: asked.from_ms.max(within.from_ms),
        until_ms: asked.until_ms.min(within.until_ms),
    };
    if range.from_ms >= range.until_ms {
        return Err(refuse("outside the run"));
    }
    let cut = |given: f64, to: f64| given.is_finite() && given != to;
    let note =
        (cut(asked.from_ms, range.from_ms) || cut(asked.until_ms, range.until_ms)).then(|| {
            format!(
                "the range {} was cut to {}, inside the run {}",
                super::range_label(asked),
                super::range_label(range),
                super::range_label(run)
            )
        });
    let feed = TimeRange {
        until_ms: match range.until_ms >= run.until_ms {
            true => f64::INFINITY,
            false => range.until_ms,
        },
        ..range
    };
    Ok((range, feed, note))
}

/// Each events' function's id in the paths' profile (`GONE` where it has
/// none), by name and module.
fn mapping(from: &Profile, to: &Profile) -> Vec<u32> {
    let mut index: FxHashMap<(&str, &str), u32> = FxHashMap::default();
    index.reserve(to.functions().len());
    for g in to.function_ids() {
        index.insert((to.function_name(g), to.function_module(g)), g.raw());
    }
    from.function_ids()
        .map(|f| {
            let key = (from.function_name(f), from.function_module(f));
            index.get(&key).copied().unwrap_or(GONE)
        })
        .collect()
}
