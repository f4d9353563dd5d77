//! The query the app answers (tui.md § The query): the loaded profile,
//! the threads chosen, then a stack of transforms, each kept with the
//! profile it gave and what the panes derived from that profile, so `u`
//! (pop the last step) and `U` (back to the loaded profile) are instant.
//! The rewrites themselves are `analysis::query`'s, the ones `report` and
//! `export` run; a step runs on a thread of its own (`QueryJob`), which any
//! key cancels, and the app keeps working while it runs.

use super::derived::Prepared;
use super::pane::{Ctx, Pane};
use crate::analysis::query::{self, Answer, Dropped, Policy, QueryError, Reads, Step, ThreadRow};
use crate::analysis::view::View;
use crate::model::{Profile, TimeRange, Watch};
use ratatui::layout::Rect;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a query runs before the footer says so: a step done sooner
/// shows only its answer.
pub(crate) const SHOW_AFTER: Duration = Duration::from_millis(250);

/// The loaded profile and the query's one answer on it (`analysis::query::
/// Answer`), with what the panes derived from each of its profiles, kept
/// so popping a step costs nothing.
pub struct Queried {
    answer: Answer,
    /// What the panes derive from each profile the answer holds (its
    /// events', each level's and those kept under its ranges: `Answer::
    /// held`), by profile.
    prepared: Vec<(Arc<Profile>, Arc<Prepared>)>,
    /// What the panes derived from the loaded profile, kept for when it
    /// is shown again.
    loaded_prepared: Arc<Prepared>,
    /// The loaded profile's threads list, made when first opened (its
    /// heaviest functions are a walk of every call in time order).
    thread_rows: std::sync::OnceLock<Vec<ThreadRow>>,
}

impl Queried {
    pub(super) fn new(loaded: Arc<Profile>, prepared: Arc<Prepared>) -> Queried {
        Queried {
            prepared: vec![(Arc::clone(&loaded), Arc::clone(&prepared))],
            answer: Answer::whole(loaded),
            loaded_prepared: prepared,
            thread_rows: std::sync::OnceLock::new(),
        }
    }

    /// The query's one answer, which every pane reads.
    pub fn answer(&self) -> &Answer {
        &self.answer
    }

    /// The profile as loaded: every thread, no step.
    pub fn loaded(&self) -> &Arc<Profile> {
        self.answer.loaded()
    }

    /// The thread ids chosen; `None`: all, merged.
    pub fn threads(&self) -> Option<&[u64]> {
        self.answer.threads()
    }

    /// What the panes derive from the profile `reads` names.
    pub(super) fn prepared(&self, reads: Reads) -> &Arc<Prepared> {
        let p = self.answer.profile(reads);
        self.prepared
            .iter()
            .find(|(q, _)| Arc::ptr_eq(q, p))
            .map_or(&self.loaded_prepared, |(_, made)| made)
    }

    /// Takes `answer` as the query's: what the panes derived from a
    /// profile it keeps is kept (a left-out step's profile is the one
    /// before it, and so are its panes'), `made` serves its paths' profile
    /// where that is new.
    pub(super) fn set(&mut self, answer: Answer, made: Option<Arc<Prepared>>) {
        let mut made = made;
        let mut next: Vec<(Arc<Profile>, Arc<Prepared>)> = Vec::new();
        for p in answer.held() {
            if next.iter().any(|(q, _)| Arc::ptr_eq(q, p)) {
                continue;
            }
            let kept = self.prepared.iter().find(|(q, _)| Arc::ptr_eq(q, p));
            let prepared = match kept {
                _ if Arc::ptr_eq(p, answer.loaded()) => Arc::clone(&self.loaded_prepared),
                Some((_, old)) => Arc::clone(old),
                None if Arc::ptr_eq(p, answer.paths()) => made.take().unwrap_or_default(),
                None => Arc::default(),
            };
            next.push((Arc::clone(p), prepared));
        }
        self.prepared = next;
        self.answer = answer;
    }

    /// The loaded profile's threads, as the threads list shows them.
    pub(super) fn thread_rows(&self) -> &[ThreadRow] {
        self.thread_rows
            .get_or_init(|| query::thread_rows(self.loaded()))
    }

    /// The steps applied, in order: the query `report --json` states.
    pub fn steps(&self) -> impl Iterator<Item = &Step> {
        self.answer.steps()
    }

    /// The steps left out of the threads chosen, as the breadcrumbs name
    /// them, each with why.
    pub fn left_out(&self) -> Vec<(String, String)> {
        self.answer
            .left_out_steps()
            .map(|(s, why)| {
                (
                    crate::text::visible(&s.label()).into_owned(),
                    why.to_string(),
                )
            })
            .collect()
    }

    /// Whether the loaded profile has threads to choose (a trace); every
    /// other profile has one implicit thread, and no thread crumb.
    pub fn has_threads(&self) -> bool {
        !self.loaded().threads().is_empty()
    }

    /// Whether the whole loaded profile is shown.
    pub fn is_whole(&self) -> bool {
        self.answer.is_whole()
    }

    /// The query as `report --json` states it: the threads and the steps
    /// applied.
    pub fn query(&self) -> query::Query {
        self.answer.query()
    }

    /// The breadcrumbs: the threads (where the profile has threads to
    /// choose), the range, then each step's label; names pass through
    /// `text::visible`.
    pub fn crumbs(&self) -> Vec<String> {
        self.thread_crumb()
            .into_iter()
            .chain(self.answer.range().map(query::range_label))
            .chain(
                self.steps()
                    .map(|s| crate::text::visible(&s.label()).into_owned()),
            )
            .collect()
    }

    /// The crumbs of what selects the events, the thread choice's and the
    /// range's (`thread 2 › 5,336.000–10,633.000 ms`): the header keeps
    /// them whole ahead of the steps'.
    pub fn selection_crumb(&self) -> Option<String> {
        let parts: Vec<String> = self
            .thread_crumb()
            .into_iter()
            .chain(self.answer.range().map(query::range_label))
            .collect();
        (!parts.is_empty()).then(|| parts.join(" › "))
    }

    /// The thread choice's crumb, none for a profile of one implicit
    /// thread.
    pub fn thread_crumb(&self) -> Option<String> {
        self.has_threads().then(|| threads_label(self.threads()))
    }

    /// What the steps left out, summed (as `report --json` sums it).
    pub fn dropped(&self) -> Dropped {
        self.answer.dropped()
    }

    /// Takes the last thing asked off: a step (one left out too, with
    /// why it was left out), or a range asked after every step (instant:
    /// the levels from before it were kept); `None` when there is none.
    pub(super) fn pop(&mut self) -> Option<Popped> {
        if self.answer.last_asked_is_range() {
            let range = self.answer.range()?;
            // No step was asked since: the levels from before it come back
            // as they were, nothing is run.
            let back = self.answer.out_of_range(Policy::App, &Watch::NONE)?.ok()?;
            self.set(back, None);
            return Some(Popped::Range(range));
        }
        let (answer, step, why) = self.answer.pop()?;
        self.set(answer, None);
        Some(Popped::Step(step, why))
    }

    /// Back to the loaded profile; false when it was shown already.
    pub(super) fn clear(&mut self) -> bool {
        if self.is_whole() {
            return false;
        }
        self.set(Answer::whole(Arc::clone(self.loaded())), None);
        true
    }
}

/// What `u` took off.
pub(super) enum Popped {
    /// A step, and why it had been left out, if it had.
    Step(Step, Option<String>),
    /// A range.
    Range(TimeRange),
}

/// A thread choice as the breadcrumbs say it: `all threads`, `thread 2`,
/// `threads 1,3`.
pub(super) fn threads_label(ids: Option<&[u64]>) -> String {
    ids.map_or("all threads".to_string(), query::threads_label)
}

/// What a job asks.
#[derive(Clone, Debug)]
pub(super) enum Ask {
    /// A transform of the query's last profile.
    Push(Step),
    /// Another thread choice, the steps applied again after it.
    Threads(Option<Vec<u64>>),
    /// A range, nested in the one in effect, the steps applied again
    /// after it.
    Range(TimeRange),
    /// The innermost range taken off, the steps asked since applied again.
    OutOfRange,
}

/// What a job makes ahead for the answer's first frame, on its own
/// thread: the profile's derived columns and orders, and the root pane of
/// the tab on screen (on a large profile, a sort of millions of rows the
/// app would otherwise wait for).
pub(super) struct Warm {
    pub prepared: Arc<Prepared>,
    pub pane: Box<Pane>,
}

/// A job's answer, what it asked, and what it made ahead.
pub(super) type Answered = Result<(Ask, Answer, Option<Warm>), QueryError>;

/// A query running on a thread of its own: the one runner
/// (`Answer::push`, `Answer::rethread`) by the app's policy.
pub(super) struct QueryJob {
    /// What it does, for the footer: "merge FNPRICE".
    pub what: String,
    pub started: Instant,
    cancel: Arc<AtomicBool>,
    /// Bytes of input a thread choice has read, and of how many.
    read: Arc<[AtomicU64; 2]>,
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
    /// Starts `ask` on `q`'s answer on a thread, and makes the root pane
    /// of `tab` (in a window of `size`) on the new answer; `Err` with the
    /// answer already made when no thread starts (it then ran on this
    /// one).
    pub(super) fn start(
        q: &Queried,
        ask: Ask,
        tab: View,
        size: Rect,
    ) -> Result<QueryJob, Box<Answered>> {
        let what = match &ask {
            Ask::Push(s) => crate::text::visible(&s.label()).into_owned(),
            Ask::Threads(ids) => threads_label(ids.as_deref()),
            Ask::Range(r) => query::range_label(*r),
            Ask::OutOfRange => "out of the range".to_string(),
        };
        let cancel = Arc::new(AtomicBool::new(false));
        let read: Arc<[AtomicU64; 2]> = Arc::new([AtomicU64::new(0), AtomicU64::new(0)]);
        let answer = q.answer().clone();
        let (flag, at) = (Arc::clone(&cancel), Arc::clone(&read));
        let work = move || {
            let stop = || flag.load(Ordering::Relaxed);
            let heard = |done: u64, of: u64| {
                at[0].store(done, Ordering::Relaxed);
                at[1].store(of, Ordering::Relaxed);
            };
            let watch = Watch {
                cancel: &stop,
                progress: &heard,
            };
            let next = match &ask {
                Ask::Push(step) => answer.push(step.clone(), Policy::App, &watch)?,
                Ask::Threads(ids) => answer.rethread(ids.clone(), Policy::App, &watch)?,
                Ask::Range(r) => answer.in_range(*r, Policy::App, &watch)?,
                Ask::OutOfRange => match answer.out_of_range(Policy::App, &watch) {
                    Some(back) => back?,
                    None => answer.clone(),
                },
            };
            let warm = warm(&next, tab, size);
            Ok((ask, next, warm))
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
                    read,
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

    /// How much of its input a thread choice has read: `(done, of)`
    /// bytes; `None` before it says.
    pub(super) fn read(&self) -> Option<(u64, u64)> {
        let of = self.read[1].load(Ordering::Relaxed);
        (of > 0).then(|| (self.read[0].load(Ordering::Relaxed), of))
    }

    /// Its answer, waiting for it.
    pub(super) fn join(self) -> Answered {
        match self.handle.join() {
            Ok(done) => done,
            Err(_) => Err(QueryError::Replay("the query's thread stopped".into())),
        }
    }

    /// Asks it to stop; its thread ends at its next look at the flag
    /// (a thread choice looks every 4 MiB of input), and its answer is
    /// never read. The job is handed back to be waited for before another
    /// starts: never two at once.
    pub(super) fn cancel(self) -> QueryJob {
        self.cancel.store(true, Ordering::Relaxed);
        self
    }
}

/// The root pane of `tab` on the answer's paths' profile, made ahead;
/// none for a tab reading the events (what is made ahead serves the paths'
/// profile: `Queried::set` gives it to the last level) or for the loaded
/// profile (its own is kept).
fn warm(answer: &Answer, tab: View, size: Rect) -> Option<Warm> {
    let profile = answer.paths();
    if Reads::of_view(tab) != Reads::Paths || Arc::ptr_eq(profile, answer.loaded()) {
        return None;
    }
    let prepared = Arc::new(Prepared::default());
    let cx = Ctx {
        profile,
        prepared: &prepared,
        answer,
        opening: None,
        size,
        // A Flame pane keeps no look of its own: it reads the app's from
        // the `Ctx` of each key and frame, not from this one.
        flame: Default::default(),
    };
    let pane = Box::new(Pane::root(tab, &cx));
    Some(Warm { prepared, pane })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::query::Target;

    #[test]
    fn a_step_pops_back_to_the_same_profile_and_its_panes() {
        let p = Arc::new(crate::tui::tests::demo_profile());
        let mut q = Queried::new(Arc::clone(&p), Arc::new(Prepared::default()));
        assert!(q.is_whole());
        let step = Step::Drop(Target("FNPRICE".into()));
        let a = q
            .answer()
            .push(step, Policy::App, &Watch::NONE)
            .expect("drop applies");
        let made = Arc::new(Prepared::default());
        q.set(a, Some(Arc::clone(&made)));
        assert!(!q.is_whole());
        assert_eq!(q.crumbs(), ["drop FNPRICE"], "no thread crumb: no threads");
        assert!(!Arc::ptr_eq(q.answer().paths(), &p));
        assert!(Arc::ptr_eq(q.prepared(Reads::Paths), &made));
        assert!(Arc::ptr_eq(q.answer().events(), &p), "events untouched");
        assert!(matches!(q.pop(), Some(Popped::Step(..))));
        assert!(
            Arc::ptr_eq(q.answer().paths(), &p),
            "the loaded profile itself"
        );
        assert!(Arc::ptr_eq(q.prepared(Reads::Paths), &q.loaded_prepared));
        assert!(q.pop().is_none(), "the thread choice is never popped");
        assert!(!q.clear(), "nothing to clear");
    }

    /// What a job makes ahead serves the paths' profile alone: a tab that
    /// reads the events (the Trace pane) gets nothing made ahead once the
    /// thread choice's profile and the paths' differ.
    #[test]
    fn only_a_tab_of_the_paths_is_made_ahead() {
        use crate::analysis::view::Table;
        let p = Arc::new(crate::tui::tests::fixture_timed("xpp/two-threads.prf"));
        let a = Answer::whole(p)
            .rethread(Some(vec![1]), Policy::App, &Watch::NONE)
            .expect("thread 1")
            .push(
                Step::Merge(Target("WAITFOR".into())),
                Policy::App,
                &Watch::NONE,
            )
            .expect("merge");
        assert!(!Arc::ptr_eq(a.events(), a.paths()));
        let size = Rect::new(0, 0, 80, 24);
        assert!(warm(&a, View::Table(Table::Packets), size).is_none());
        assert!(warm(&a, View::Table(Table::Functions), size).is_some());
    }
}
