//! The query the app answers (tui.md § The query): the loaded profile,
//! the threads chosen, then a stack of transforms, each kept with the
//! profile it gave and what the panes derived from that profile, so `u`
//! (pop the last step) and `U` (back to the loaded profile) are instant.
//! The rewrites themselves are `analysis::query`'s, the ones `report` and
//! `export` run; a step runs on a thread of its own (`QueryJob`), which any
//! key cancels, and the app keeps working while it runs.

use super::derived::Prepared;
use super::pane::{Ctx, Pane};
use crate::analysis::query::{self, Answer, Dropped, QueryError, Step, ThreadRow};
use crate::analysis::view::{Table, View};
use crate::model::{FuncId, Profile};
use ratatui::layout::Rect;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a query runs before the footer says so: a step done sooner
/// shows only its answer.
pub(crate) const SHOW_AFTER: Duration = Duration::from_millis(250);

/// One profile of the query: the thread choice's (the first) or a step's.
pub(super) struct Level {
    /// The step that gave it; `None` for the thread choice.
    pub step: Option<Step>,
    pub profile: Arc<Profile>,
    /// What the panes derive from it, kept so popping back costs nothing.
    pub prepared: Arc<Prepared>,
    /// What the step left out.
    pub dropped: Dropped,
    /// Why the step was left out of the threads chosen (a function they
    /// never call): it stays in the query, its profile the level's
    /// before it, and a new thread choice applies it again.
    pub left_out: Option<String>,
}

/// The loaded profile and the query on it.
pub struct Queried {
    /// The profile as loaded: every thread, no step.
    pub loaded: Arc<Profile>,
    /// The thread ids chosen; `None`: all, merged.
    pub threads: Option<Vec<u64>>,
    /// What the panes derived from the loaded profile, kept for when it
    /// is shown again.
    loaded_prepared: Arc<Prepared>,
    /// The thread choice's profile first, then each step's; never empty.
    levels: Vec<Level>,
    /// The loaded profile's threads list, made when first opened (its
    /// heaviest functions are a walk of every call in time order).
    thread_rows: std::sync::OnceLock<Vec<ThreadRow>>,
}

impl Queried {
    pub(super) fn new(loaded: Arc<Profile>, prepared: Arc<Prepared>) -> Queried {
        let first = Level {
            step: None,
            profile: Arc::clone(&loaded),
            prepared: Arc::clone(&prepared),
            dropped: Dropped::default(),
            left_out: None,
        };
        Queried {
            loaded,
            threads: None,
            loaded_prepared: prepared,
            levels: vec![first],
            thread_rows: std::sync::OnceLock::new(),
        }
    }

    /// A level of `answer`, what its panes derive made anew (the loaded
    /// profile's kept, a job's made ahead taken).
    fn level(&self, step: Option<Step>, answer: Answer, made: Option<Arc<Prepared>>) -> Level {
        let prepared = match (Arc::ptr_eq(&answer.profile, &self.loaded), made) {
            (true, _) => Arc::clone(&self.loaded_prepared),
            (false, Some(made)) => made,
            (false, None) => Arc::new(Prepared::default()),
        };
        Level {
            step,
            profile: answer.profile,
            prepared,
            dropped: answer.dropped,
            left_out: None,
        }
    }

    /// The profile every pane reads: the last step's.
    pub(super) fn top(&self) -> &Level {
        &self.levels[self.levels.len() - 1]
    }

    /// The threads chosen, before any transform: what the Trace pane and
    /// the time order read (a transform changes no event).
    pub(super) fn events(&self) -> &Level {
        &self.levels[0]
    }

    /// The loaded profile's threads, as the threads list shows them.
    pub(super) fn thread_rows(&self) -> &[ThreadRow] {
        self.thread_rows
            .get_or_init(|| query::thread_rows(&self.loaded))
    }

    /// The steps applied, in order: the query `report --json` states.
    pub fn steps(&self) -> impl Iterator<Item = &Step> {
        self.levels
            .iter()
            .filter(|l| l.left_out.is_none())
            .filter_map(|l| l.step.as_ref())
    }

    /// Every step asked, in order, those left out of the threads chosen
    /// too: what a new thread choice applies again.
    pub fn asked_steps(&self) -> impl Iterator<Item = &Step> {
        self.levels.iter().filter_map(|l| l.step.as_ref())
    }

    /// The steps left out of the threads chosen, as the breadcrumbs name
    /// them, each with why.
    pub fn left_out(&self) -> Vec<(String, String)> {
        self.levels
            .iter()
            .filter_map(|l| Some((l.step.as_ref()?, l.left_out.as_ref()?)))
            .map(|(s, why)| (crate::text::visible(&s.label()).into_owned(), why.clone()))
            .collect()
    }

    /// Whether the loaded profile has threads to choose (a trace); every
    /// other profile has one implicit thread, and no thread crumb.
    pub fn has_threads(&self) -> bool {
        !self.loaded.threads().is_empty()
    }

    /// Whether the whole loaded profile is shown.
    pub fn is_whole(&self) -> bool {
        self.threads.is_none() && self.levels.len() == 1
    }

    /// The query as `report --json` states it.
    pub fn query(&self) -> query::Query {
        query::Query {
            threads: self.threads.clone(),
            steps: self.steps().cloned().collect(),
        }
    }

    /// The breadcrumbs: the threads (where the profile has threads to
    /// choose), then each step's label; names pass through
    /// `text::visible`.
    pub fn crumbs(&self) -> Vec<String> {
        self.thread_crumb()
            .into_iter()
            .chain(
                self.steps()
                    .map(|s| crate::text::visible(&s.label()).into_owned()),
            )
            .collect()
    }

    /// The thread choice's crumb, none for a profile of one implicit
    /// thread.
    pub fn thread_crumb(&self) -> Option<String> {
        self.has_threads()
            .then(|| threads_label(self.threads.as_deref()))
    }

    /// What the steps left out, summed (as `report --json` sums it).
    pub fn dropped(&self) -> Dropped {
        let answers: Vec<Answer> = self
            .levels
            .iter()
            .filter(|l| l.left_out.is_none())
            .map(|l| Answer {
                profile: Arc::clone(&l.profile),
                dropped: l.dropped.clone(),
            })
            .collect();
        query::Asked::of(&self.query(), &answers).dropped
    }

    /// Puts a step's answer on the stack.
    /// `made`: what its panes derive, made ahead by the job.
    pub(super) fn push(&mut self, step: Step, answer: Answer, made: Option<Arc<Prepared>>) {
        let level = self.level(Some(step), answer, made);
        self.levels.push(level);
    }

    /// Takes the last step off (one left out too), with why it was left
    /// out; `None` when there is none.
    pub(super) fn pop(&mut self) -> Option<(Step, Option<String>)> {
        match self.levels.len() {
            1 => None,
            _ => self.levels.pop().and_then(|l| Some((l.step?, l.left_out))),
        }
    }

    /// Back to the loaded profile; false when it was shown already.
    pub(super) fn clear(&mut self) -> bool {
        if self.is_whole() {
            return false;
        }
        self.levels.truncate(1);
        if self.threads.take().is_some() {
            let all = Answer {
                profile: Arc::clone(&self.loaded),
                dropped: Dropped::default(),
            };
            self.levels[0] = self.level(None, all, None);
        }
        true
    }

    /// A new thread choice with every step asked, each applied or left
    /// out (with why), replacing the query; `made`: what the last
    /// profile's panes derive, made ahead by the job.
    pub(super) fn rethread(
        &mut self,
        threads: Option<Vec<u64>>,
        base: Arc<Profile>,
        steps: Vec<(Step, Result<Answer, String>)>,
        made: Option<Arc<Prepared>>,
    ) {
        self.threads = threads;
        self.levels.clear();
        let applied = steps.iter().filter(|(_, a)| a.is_ok()).count();
        let mut made = made;
        let first = self.level(
            None,
            Answer {
                profile: base,
                dropped: Dropped::default(),
            },
            made.take().filter(|_| applied == 0),
        );
        self.levels.push(first);
        let mut at = 0;
        for (s, a) in steps {
            match a {
                Ok(a) => {
                    at += 1;
                    let m = match at == applied {
                        true => made.take(),
                        false => None,
                    };
                    self.push(s, a, m);
                }
                Err(why) => {
                    let top = self.top();
                    let level = Level {
                        step: Some(s),
                        profile: Arc::clone(&top.profile),
                        prepared: Arc::clone(&top.prepared),
                        dropped: Dropped::default(),
                        left_out: Some(why),
                    };
                    self.levels.push(level);
                }
            }
        }
    }
}

/// A thread choice as the breadcrumbs say it: `all threads`, `thread 2`,
/// `threads 1,3`.
pub(super) fn threads_label(ids: Option<&[u64]>) -> String {
    match ids {
        None => "all threads".to_string(),
        Some([one]) => format!("thread {one}"),
        Some(ids) => format!(
            "threads {}",
            ids.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
        ),
    }
}

/// The same function in another profile of the query (a step rebuilds
/// the profile, so its ids are its own): the one of that name and module.
pub(super) fn same_function(from: &Profile, f: FuncId, to: &Profile) -> Option<FuncId> {
    if f.index() >= from.functions().len() {
        return None;
    }
    let (name, module) = (from.function_name(f), from.function_module(f));
    if f.index() < to.functions().len()
        && to.function_name(f) == name
        && to.function_module(f) == module
    {
        return Some(f);
    }
    to.function_ids()
        .find(|&g| to.function_name(g) == name && to.function_module(g) == module)
}

/// What a job asks.
#[derive(Clone, Debug)]
pub(super) enum Ask {
    /// A transform of the query's last profile.
    Push(Step),
    /// Another thread choice, the steps applied again after it.
    Threads(Option<Vec<u64>>),
}

/// What a job answers.
pub(super) enum Done {
    Pushed(Step, Answer),
    Threads {
        threads: Option<Vec<u64>>,
        base: Arc<Profile>,
        /// Every step asked, applied again, or why it means nothing in the
        /// threads chosen (a function they never call): left out, kept in
        /// the query for the next thread choice.
        steps: Vec<(Step, Result<Answer, String>)>,
    },
}

/// What a job makes ahead for the answer's first frame, on its own
/// thread: the profile's derived columns and orders, and the root pane of
/// the tab on screen (on a large profile, a sort of millions of rows the
/// app would otherwise wait for).
pub(super) struct Warm {
    pub prepared: Arc<Prepared>,
    pub pane: Box<Pane>,
}

/// A job's answer, and what it made ahead.
pub(super) type Answered = Result<(Done, Option<Warm>), QueryError>;

/// A query step running on a thread of its own.
pub(super) struct QueryJob {
    /// What it does, for the footer: "merge FNPRICE".
    pub what: String,
    pub started: Instant,
    cancel: Arc<AtomicBool>,
    handle: JoinHandle<Answered>,
}

impl std::fmt::Debug for QueryJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QueryJob")
            .field("what", &self.what)
            .finish()
    }
}

impl QueryJob {
    /// Starts `ask` on `q` on a thread, and makes the root pane of `tab`
    /// (in a window of `size`) on the answer; `Err` with the answer
    /// already made when no thread starts (the step then ran on this one).
    pub(super) fn start(
        q: &Queried,
        ask: Ask,
        tab: View,
        size: Rect,
    ) -> Result<QueryJob, Box<Answered>> {
        let what = match &ask {
            Ask::Push(s) => crate::text::visible(&s.label()).into_owned(),
            Ask::Threads(ids) => threads_label(ids.as_deref()),
        };
        let cancel = Arc::new(AtomicBool::new(false));
        let loaded = Arc::clone(&q.loaded);
        let top = Arc::clone(&q.top().profile);
        let events = Arc::clone(&q.events().profile);
        let steps: Vec<Step> = q.asked_steps().cloned().collect();
        let flag = Arc::clone(&cancel);
        let work = move || {
            let stop = || flag.load(Ordering::Relaxed);
            let done = run(&loaded, &top, &steps, ask, &stop)?;
            let warm = warm(&done, (&loaded, &events), tab, size);
            Ok((done, warm))
        };
        let (tx, rx) = std::sync::mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name("profx-query".into())
            .spawn(move || {
                // The work is handed over only once the thread started, so
                // it can run here instead when none does.
                let work: Box<dyn FnOnce() -> Answered + Send> =
                    rx.recv().map_err(|_| QueryError::Cancelled)?;
                work()
            });
        match spawned {
            Ok(handle) => {
                let _ = tx.send(Box::new(work) as Box<dyn FnOnce() -> _ + Send>);
                Ok(QueryJob {
                    what,
                    started: Instant::now(),
                    cancel,
                    handle,
                })
            }
            Err(_) => Err(Box::new(work())),
        }
    }

    pub(super) fn is_finished(&self) -> bool {
        self.handle.is_finished()
    }

    /// Whether it has run long enough for the footer to say so.
    pub(super) fn shown(&self) -> bool {
        self.started.elapsed() >= SHOW_AFTER
    }

    /// Its answer, waiting for it.
    pub(super) fn join(self) -> Answered {
        match self.handle.join() {
            Ok(done) => done,
            Err(_) => Err(QueryError::Replay("the query's thread stopped".into())),
        }
    }

    /// Asks it to stop; its thread ends at its next look at the flag, and
    /// its answer is never read.
    pub(super) fn cancel(self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// The root pane of `tab` on the answer's profile, made ahead; none for
/// the Trace pane (its profile is the threads', unchanged by a step) or
/// the loaded profile (its own is kept).
fn warm(
    done: &Done,
    (loaded, events): (&Arc<Profile>, &Arc<Profile>),
    tab: View,
    size: Rect,
) -> Option<Warm> {
    let (profile, events) = match done {
        Done::Pushed(_, a) => (&a.profile, events),
        Done::Threads { base, steps, .. } => {
            let last = steps.iter().rev().find_map(|(_, a)| a.as_ref().ok());
            (last.map_or(base, |a| &a.profile), base)
        }
    };
    if tab == View::Table(Table::Packets) || Arc::ptr_eq(profile, loaded) {
        return None;
    }
    let prepared = Arc::new(Prepared::default());
    let cx = Ctx {
        profile,
        prepared: &prepared,
        events,
        opening: None,
        size,
    };
    let pane = Box::new(Pane::root(tab, &cx));
    Some(Warm { prepared, pane })
}

/// The job's work: a step on the last profile, or the threads chosen
/// from the loaded profile and the steps again after them.
fn run(
    loaded: &Arc<Profile>,
    top: &Arc<Profile>,
    steps: &[Step],
    ask: Ask,
    cancel: &(dyn Fn() -> bool + Sync),
) -> Result<Done, QueryError> {
    match ask {
        Ask::Push(step) => {
            let answer = query::apply(top, &step, cancel)?;
            Ok(Done::Pushed(step, answer))
        }
        Ask::Threads(threads) => {
            let watch = crate::model::Watch {
                cancel: &cancel,
                progress: &|_, _| {},
            };
            let base = query::choose_threads(loaded, threads.as_deref(), &watch)?;
            let mut at = Arc::clone(&base);
            let mut all = Vec::new();
            for step in steps {
                match query::apply(&at, step, cancel) {
                    Ok(a) => {
                        at = Arc::clone(&a.profile);
                        all.push((step.clone(), Ok(a)));
                    }
                    Err(QueryError::Cancelled) => return Err(QueryError::Cancelled),
                    Err(e) => {
                        let why = crate::text::visible(&e.to_string()).into_owned();
                        all.push((step.clone(), Err(why)));
                    }
                }
            }
            Ok(Done::Threads {
                threads,
                base,
                steps: all,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::query::Target;

    #[test]
    fn a_step_pops_back_to_the_same_profile() {
        let p = Arc::new(crate::tui::tests::demo_profile());
        let mut q = Queried::new(Arc::clone(&p), Arc::new(Prepared::default()));
        assert!(q.is_whole());
        let step = Step::Drop(Target("FNPRICE".into()));
        let a = query::apply(&p, &step, &|| false).expect("drop applies");
        q.push(step, a, None);
        assert!(!q.is_whole());
        assert_eq!(q.crumbs(), ["drop FNPRICE"], "no thread crumb: no threads");
        assert!(!Arc::ptr_eq(&q.top().profile, &p));
        assert!(q.pop().is_some());
        assert!(
            Arc::ptr_eq(&q.top().profile, &p),
            "the loaded profile itself"
        );
        assert!(q.pop().is_none(), "the thread choice is never popped");
        assert!(!q.clear(), "nothing to clear");
    }

    #[test]
    fn the_same_function_is_found_by_name_and_module() {
        let p = crate::tui::tests::demo_profile();
        let f = p
            .function_ids()
            .find(|&f| p.function_name(f) == "FNPRICE")
            .expect("the demo has FNPRICE");
        let a = query::apply(&p, &Step::Merge(Target("FNREADCUST".into())), &|| false)
            .expect("merge applies");
        let g = same_function(&p, f, &a.profile).expect("FNPRICE is kept");
        assert_eq!(a.profile.function_name(g), "FNPRICE");
    }
}
