//! A trace followed in the app (`profx --follow FILE`, `L`; tui.md §
//! Following a trace): a thread of its own looks at the files five times
//! a second (`load::follow::Follower`), and once a second that brought
//! records (less often for a trace whose update costs over a tenth of a
//! second: `next_update_after`) it makes the profile of the trace so far
//! and runs the app's
//! query on it (the one runner, `Policy::App`), so the app only swaps the
//! answer in; once an update's spacing passes with no record, it says the
//! writer is idle, and the rate shown goes. Stopping (`L` again) hands the follower back, whose final
//! read closes the calls still open, with their warning.

use crate::analysis::query::{Answer, Policy, Query};
use crate::load::follow::{Follower, OPEN_CALLS, Readiness, next_update_after};
use crate::model::{MetaValue, Profile, Watch};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime};

/// What the follow thread tells the app.
pub(super) enum Update {
    /// The trace so far and the query's answer on it.
    Live(Box<Live>),
    /// Nothing to show yet, and why ("the file is empty").
    Waiting(String),
    /// A look at the files failed (what was read is kept).
    Failed(String),
    /// What is there cannot be followed (another format): following ends.
    Refused(String),
    /// No byte came for two seconds since the last update: the writer is
    /// idle, and the last rate is no longer true; when the last byte came.
    Idle(Option<SystemTime>),
}

/// The trace so far, answered.
pub(super) struct Live {
    pub(super) answer: Answer,
    /// The query it answers: one the user has changed since is not shown.
    pub(super) query: Query,
    pub(super) facts: Facts,
}

/// What the header says of a followed trace.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Facts {
    /// Events a second, between the last two answers.
    pub(super) rate: Option<f64>,
    /// No record came for an update's spacing since the last answer: the
    /// header says so in place of the rate.
    pub(super) idle: bool,
    /// When the last byte came (wall clock).
    pub(super) last_data: Option<SystemTime>,
    /// Calls not yet returned (their time so far).
    pub(super) open: i64,
    /// Why nothing is shown yet.
    pub(super) waiting: Option<String>,
}

/// The follow thread, running.
pub(super) struct Following {
    stop: Arc<AtomicBool>,
    /// Ends the thread's wait for a change, so a stop is at once.
    waker: crate::load::wake::Waker,
    query: Arc<Mutex<Query>>,
    rx: Receiver<Update>,
    handle: Option<JoinHandle<Follower>>,
}

impl std::fmt::Debug for Following {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Following").finish()
    }
}

impl Following {
    /// Follows with `follower`, answering `query`.
    pub(super) fn start(follower: Follower, query: Query) -> Following {
        let stop = Arc::new(AtomicBool::new(false));
        let query = Arc::new(Mutex::new(query));
        let (tx, rx) = channel();
        let (s, q) = (Arc::clone(&stop), Arc::clone(&query));
        let waker = follower.waker();
        let handle = std::thread::Builder::new()
            .name("profx-follow".into())
            .spawn(move || run(follower, &s, &q, &|u| tx.send(u).is_ok()))
            .ok();
        Following {
            stop,
            waker,
            query,
            rx,
            handle,
        }
    }

    /// The query the next answers are of.
    pub(super) fn set_query(&self, q: Query) {
        if let Ok(mut held) = self.query.lock() {
            *held = q;
        }
    }

    /// Every update since the last call, oldest first.
    pub(super) fn updates(&self) -> Vec<Update> {
        self.rx.try_iter().collect()
    }

    /// Stops following; the follower and all it read, once its thread has
    /// ended (at once: its wait for a change is woken).
    pub(super) fn stop(mut self) -> Option<Follower> {
        self.stop.store(true, Ordering::Relaxed);
        self.waker.wake();
        self.handle.take()?.join().ok()
    }
}

/// The thread: looks, and answers once a second that brought records.
fn run(
    mut follower: Follower,
    stop: &AtomicBool,
    query: &Mutex<Query>,
    send: &dyn Fn(Update) -> bool,
) -> Follower {
    let mut fresh = false;
    // When the last answer was made and its events, and when the next may
    // be (an update costs a load of the trace so far: `next_update_after`).
    // `None` once the writer is idle: the first answer after an idle spell
    // has no rate, rather than its events spread over the spell.
    let mut answered: Option<(Instant, usize)> = None;
    let mut next: Option<Instant> = None;
    let mut said: Option<String> = None;
    // Whether the header was told the writer is idle since the last answer.
    let mut idle_said = false;
    while !stop.load(Ordering::Relaxed) {
        match follower.poll() {
            Ok(n) => fresh |= n > 0,
            Err(e) => {
                let _ = send(Update::Failed(e.to_string()));
            }
        }
        let due = next.is_none_or(|t| Instant::now() >= t);
        match follower.readiness() {
            Ok(Readiness::Waiting(why)) if said.as_ref() != Some(&why) => {
                said = Some(why.clone());
                if !send(Update::Waiting(why)) {
                    break;
                }
            }
            Ok(Readiness::Ready) if fresh && due => {
                let q = query.lock().map(|q| q.clone()).unwrap_or_default();
                let start = Instant::now();
                if let Some(live) = answer(&mut follower, q, answered) {
                    next = Some(start + next_update_after(start.elapsed()));
                    answered = Some((Instant::now(), live.answer.events().event_count()));
                    (fresh, idle_said) = (false, false);
                    if !send(Update::Live(Box::new(live))) {
                        break;
                    }
                }
            }
            // No byte for `IDLE_AFTER`: the rate the app shows would be a
            // writer's that has stopped. Said once, on this thread's own
            // look (which costs nothing, however far off the next update
            // is), so the app needs no timer.
            Ok(Readiness::Ready) if !fresh && !idle_said && quiet(&follower) => {
                (answered, idle_said) = (None, true);
                if !send(Update::Idle(wall_clock(follower.last_data()))) {
                    break;
                }
            }
            Err(e) => {
                let _ = send(Update::Refused(e.to_string()));
                break;
            }
            Ok(_) => {}
        }
        follower.wait();
    }
    follower
}

/// The trace so far answered; `before`: when the last answer was made and
/// how many events it had, for the rate.
fn answer(follower: &mut Follower, query: Query, before: Option<(Instant, usize)>) -> Option<Live> {
    let loaded = Arc::new(follower.profile().ok()?);
    let answer = Answer::run(&loaded, &query, Policy::App, &Watch::NONE).ok()?;
    let events = loaded.event_count();
    let rate = before.map(|(at, n)| {
        let secs = at.elapsed().as_secs_f64().max(1e-3);
        events.saturating_sub(n) as f64 / secs
    });
    let last_data = wall_clock(follower.last_data());
    Some(Live {
        answer,
        query,
        facts: Facts {
            rate,
            last_data,
            open: open_calls(&loaded),
            idle: false,
            waiting: None,
        },
    })
}

/// How long no byte may come before the writer is said to be idle: longer
/// than a look's spacing, so a writer flushing every look is never idle.
const IDLE_AFTER: Duration = Duration::from_secs(2);

/// Whether no byte came for `IDLE_AFTER`.
fn quiet(follower: &Follower) -> bool {
    follower
        .last_data()
        .is_none_or(|at| at.elapsed() >= IDLE_AFTER)
}

/// A moment as the wall clock gives it.
fn wall_clock(at: Option<Instant>) -> Option<SystemTime> {
    at.map(|at| SystemTime::now() - at.elapsed())
}

/// The calls a live profile says are still open.
pub(super) fn open_calls(p: &Profile) -> i64 {
    match p.meta.get(OPEN_CALLS) {
        Some(MetaValue::Int(n)) => *n,
        _ => 0,
    }
}
