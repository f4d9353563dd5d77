//! The app on a trace followed as it is written (tui.md § Following a
//! trace): the follow thread's answers swapped in while the user keeps
//! their place, `L` to stop (the final read, calls still open closed with
//! their warning) and to go on.

use super::{App, Mode};
use crate::analysis::query::Answer;
use crate::analysis::query::Reads;
use crate::load::follow::Follower;
use crate::model::FuncId;
use crate::tui::derived::Prepared;
use crate::tui::follow::{Facts, Following, Live, Update};
use crate::tui::intent::Intent;
use crate::tui::keymap::{Place, key_for};
use crate::tui::pane::{Pane, Spot, Step};
use crate::tui::query::Queried;
use std::sync::Arc;

/// What an update keeps of a tab the user visited (`take_answer`).
struct Kept {
    tab: crate::analysis::view::View,
    spot: Spot,
    function: Option<FuncId>,
    trail: Vec<(Step, Spot, Option<FuncId>)>,
}

/// A trace followed: the thread following it, or the follower it handed
/// back when stopped (`L` goes on from there).
pub(in crate::tui) struct Follow {
    job: Option<Following>,
    idle: Option<Follower>,
    pub(in crate::tui) facts: Facts,
    /// An answer that came while a prompt was open: swapped in once it
    /// closes (a search being typed is never reset under the user).
    pending: Option<Box<Live>>,
}

impl App {
    /// Starts following with `follower` (`profx --follow FILE`).
    pub fn follow_with(&mut self, follower: Follower) {
        self.follow = Some(Follow {
            job: Some(Following::start(follower, self.query.query())),
            idle: None,
            facts: Facts::default(),
            pending: None,
        });
    }

    /// Whether a trace is being followed now.
    pub fn following(&self) -> bool {
        self.follow.as_ref().is_some_and(|f| f.job.is_some())
    }

    /// What the header says of following: `None` when nothing was.
    pub(in crate::tui) fn follow_state(&self) -> Option<(bool, &Facts)> {
        let f = self.follow.as_ref()?;
        if f.job.is_none() && f.idle.is_none() {
            // Refused (not a trace): there is nothing to go on with.
            return None;
        }
        Some((f.job.is_some(), &f.facts))
    }

    /// `L`: stop following (the final read), go on, or start on the input.
    pub(super) fn toggle_follow(&mut self) {
        let key = key_for(&Intent::Follow, Place::Everywhere);
        if self.compared.is_some() {
            self.status = Some("a comparison is of two finished runs: nothing to follow".into());
            return;
        }
        let Some(f) = self.follow.as_mut() else {
            return self.start_following(&key);
        };
        if let Some(job) = f.job.take() {
            f.idle = job.stop();
            f.pending = None;
            return self.stop_following(&key);
        }
        match f.idle.take() {
            Some(follower) => {
                f.job = Some(Following::start(follower, self.query.query()));
                self.status = Some(format!("following again · {key} stops"));
            }
            None => self.start_following(&key),
        }
    }

    /// `L` on a profile opened without `--follow`: its input followed, if
    /// it is a trace.
    fn start_following(&mut self, key: &str) {
        let p = self.query.loaded();
        if let Some(said) = p.meta.get(crate::report::fmt::WAITING) {
            // The file turned out to be no trace (`refused`).
            self.status = Some(format!("{key}: {said}"));
            return;
        }
        if p.format != crate::load::follow::FOLLOWED || p.sources.len() != 1 {
            self.status = Some(format!(
                "{key} follows a trace as the program writes it: this {} profile was written once, at the end of its run",
                p.format
            ));
            return;
        }
        let path = p.sources[0].clone();
        match Follower::new(&path, &Default::default()) {
            Ok(follower) => {
                self.follow_with(follower);
                self.status = Some(format!(
                    "following {} · {key} stops",
                    crate::text::visible(&path)
                ));
            }
            Err(e) => self.status = Some(crate::text::visible(&e.to_string()).into_owned()),
        }
    }

    /// The follower's last read, every byte as a load of the final files
    /// reads it, answered and swapped in.
    fn stop_following(&mut self, key: &str) {
        let Some(follower) = self.follow.as_ref().and_then(|f| f.idle.as_ref()) else {
            return;
        };
        let q = self.query.query();
        let done = follower.finish().map_err(|e| e.to_string()).and_then(|p| {
            let loaded = Arc::new(p);
            let policy = crate::analysis::query::Policy::App;
            Answer::run(&loaded, &q, policy, &crate::model::Watch::NONE).map_err(|e| e.to_string())
        });
        match done {
            Ok(answer) => {
                let unclosed = answer
                    .loaded()
                    .warnings()
                    .iter()
                    .any(|w| w.kind == crate::model::WarningKind::Unclosed);
                self.take_answer(answer);
                if let Some(f) = self.follow.as_mut() {
                    f.facts = Facts::default();
                }
                let info = crate::tui::keymap::pane_key(crate::analysis::view::View::Info);
                let closed = match unclosed {
                    false => String::new(),
                    true => format!(
                        " (calls still open closed at their thread's last event: a warning, in Info, {info})"
                    ),
                };
                self.status = Some(format!(
                    "stopped following: the trace read whole{closed} · {key} goes on"
                ));
            }
            Err(e) => {
                self.status = Some(format!("stopped following: {}", crate::text::visible(&e)))
            }
        }
    }

    /// What came from the follow thread since the last look, taken; true
    /// when the screen changes. The query the thread answers is kept the
    /// app's own.
    pub fn follow_tick(&mut self) -> bool {
        let q = self.query.query();
        let prompt = !matches!(self.mode, Mode::Normal | Mode::Help(_));
        let Some(f) = self.follow.as_mut() else {
            return false;
        };
        let Some(job) = &f.job else {
            return false;
        };
        job.set_query(q.clone());
        let mut changed = false;
        for u in job.updates() {
            changed = true;
            match u {
                Update::Live(live) => f.pending = Some(live),
                Update::Waiting(why) => f.facts.waiting = Some(why),
                Update::Idle(last_data) => {
                    // An answer held for a prompt is older still.
                    let held = f.pending.as_mut().map(|l| &mut l.facts);
                    for facts in std::iter::once(&mut f.facts).chain(held) {
                        (facts.rate, facts.idle) = (None, true);
                        facts.last_data = facts.last_data.or(last_data);
                    }
                }
                Update::Failed(why) => self.status = Some(crate::text::visible(&why).into_owned()),
                Update::Refused(why) => {
                    // Nothing this follower reads can be shown: it stops.
                    self.status = Some(crate::text::visible(&why).into_owned());
                    if let Some(job) = f.job.take() {
                        f.idle = None;
                        drop(job.stop());
                    }
                    f.facts = Facts::default();
                    self.refused(&why);
                    return true;
                }
            }
        }
        if prompt || self.querying() {
            return changed;
        }
        let Some(f) = self.follow.as_mut() else {
            return changed;
        };
        let Some(live) = f.pending.take() else {
            return changed;
        };
        // An answer to a query the user has changed since is not theirs:
        // the next (within a second of new records) is.
        if live.query != q {
            return changed;
        }
        f.facts = live.facts;
        self.take_answer(live.answer);
        true
    }

    /// The profile shown while waiting for a trace, once what came is no
    /// trace: it says why in every pane, under no format's name (its
    /// header's format was the trace's the file was expected to be).
    fn refused(&mut self, why: &str) {
        if !self
            .query
            .loaded()
            .meta
            .contains_key(crate::report::fmt::WAITING)
        {
            return;
        }
        let mut b = crate::model::ProfileBuilder::new("not followed");
        let said = format!("nothing to show: {}", crate::text::visible(why));
        b.set_meta(
            crate::report::fmt::WAITING,
            crate::model::MetaValue::Text(said),
        );
        self.take_answer(Answer::whole(Arc::new(b.finish())));
    }

    /// A followed trace's update, as the follow thread's would be taken.
    #[cfg(test)]
    pub(crate) fn take_followed(&mut self, answer: Answer) {
        self.take_answer(answer);
    }

    /// `answer` (on a new loaded profile) in place of the query's: the tab
    /// on screen at its root, on the same function (by name and module),
    /// a table in the same sort and search, a tree with the same rows open
    /// and the cursor on the same row, a flame graph zoomed to the same
    /// frame (rows and frames by their path of names); then the panes the
    /// user had drilled down to from the root, each opened again by the
    /// step that opened it and put back in its place; and every other tab
    /// the user had visited, the same way.
    fn take_answer(&mut self, answer: Answer) {
        let mut before = self.before();
        // The root's own row, not a caller or callee its split's list has
        // the keyboard on: the list's place is the table's to put back.
        before.1 =
            (self.history.first()).and_then(|root| root.row_function(&self.cx_of(root.reads())));
        let old = before.0.clone();
        let trail = self.trail(&self.history[1..], &old);
        // The other tabs' trails, as they were: a change of the query
        // forgets them (their rows were another profile's).
        let saved: Vec<(usize, Vec<Pane>)> = (0..self.saved.len())
            .filter_map(|i| Some((i, self.saved[i].take()?)))
            .collect();
        let others: Vec<(usize, Kept)> = (saved.iter())
            .map(|(i, panes)| (*i, self.kept(panes, &old)))
            .collect();
        // The tab's root first: a pane drilled down to is opened again
        // from it, under the same tab (the Stacks of a function shown
        // from Functions stay the Functions tab's).
        self.history.truncate(1);
        let loaded = Arc::clone(answer.loaded());
        self.query = Queried::new(loaded, Arc::new(Prepared::default()));
        self.query.set(answer, None);
        self.query_changed_to(before, None);
        let panes = self.retake(&old, trail);
        self.history.extend(panes);
        for (i, kept) in others {
            self.saved[i] = Some(self.remade(&old, kept));
        }
        let (pane, cx) = self.split();
        pane.keep_visible(&cx);
    }

    /// What is kept of a tab's trail `panes` (of `old`'s profiles) across
    /// an update: its root's tab, place and function, and its trail.
    fn kept(&self, panes: &[Pane], old: &Answer) -> Kept {
        let root = &panes[0];
        let cx = self.cx_of(root.reads());
        Kept {
            tab: root.tab(),
            spot: root.spot(old.paths()),
            function: root.function(&cx),
            trail: self.trail(&panes[1..], old),
        }
    }

    /// A tab's trail made again on the new answer from what was `kept`.
    fn remade(&self, old: &Answer, kept: Kept) -> Vec<Pane> {
        let root = self.root_pane(kept.tab);
        let mut panes = vec![self.placed(root, old, kept.function, Some(kept.spot))];
        panes.extend(self.retake(old, kept.trail));
        panes
    }

    /// The panes of a tab's trail after its root, as far as a step opens
    /// them: each one's step, place and selected function (of `old`'s
    /// profiles).
    fn trail(&self, panes: &[Pane], old: &Answer) -> Vec<(Step, Spot, Option<FuncId>)> {
        (panes.iter())
            .map_while(|p| {
                let cx = self.cx_of(p.reads());
                Some((p.step_of()?, p.spot(old.paths()), p.function(&cx)))
            })
            .collect()
    }

    /// The `trail` taken again on the new answer, each function carried
    /// from `old` by name and module; it stops at a step the new answer
    /// has nothing for (a function gone, a packet not there).
    fn retake(&self, old: &Answer, trail: Vec<(Step, Spot, Option<FuncId>)>) -> Vec<Pane> {
        let mut panes = Vec::new();
        for (step, spot, f) in trail {
            let now = self.query.answer();
            let carry = |g| now.carried(old, g);
            let Some(step) = step.carried(carry) else {
                break;
            };
            let again = f.and_then(carry);
            let cx = self.cx_of(Reads::of_view(step.tab()));
            if let Step::Events(k) | Step::Event(k, _) = step
                && k.index() >= cx.profile.packets().len()
            {
                break;
            }
            let mut pane = Pane::step(step, &cx);
            pane.put_spot(spot, again, &cx);
            panes.push(self.against(pane));
        }
        panes
    }
}
