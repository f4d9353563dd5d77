//! The app's query (tui.md § The query), apart from `app.rs`: the step a
//! key makes of the selection, the `.` menu and the threads list it
//! opens, the step running on its thread and what its answer does to the
//! panes. The query applies to every pane at once, so it is the app's, not
//! a pane's; its state is `Queried` and `QueryJob` (`../query.rs`).

use super::super::intent::{Intent, Op};
use super::super::keymap::{Place, key_for};
use super::super::menu::{Chosen, Entry};
use super::super::pane::Pane;
use super::super::query::{Answered, Ask, Popped, QueryJob};
use super::super::threads::{Picked, ThreadsList};
use super::{App, Mode};
use crate::analysis::query::{QueryError, Reads, Step as QueryStep, spelling};
use crate::model::FuncId;

impl App {
    /// The function the selection is on, in the paths' profile (a row of
    /// the Trace pane crosses by the answer's mapping in `Pane::function`).
    pub(super) fn query_function(&self) -> Option<FuncId> {
        let cx = self.cx();
        // A Stacks row names its leaf: the function a step takes there
        // (Enter picks another of its frames).
        self.pane()
            .function(&cx)
            .or_else(|| self.pane().stack_leaf(&cx))
    }

    /// The query step `op` makes of the selection, or why there is none.
    pub(super) fn step_of(&self, op: Op) -> Result<QueryStep, String> {
        let p = self.profile().as_ref();
        if op.needs_paths() && p.stacks().is_empty() {
            return Err(format!(
                "{NEEDS_PATHS}; this {} profile has none",
                crate::text::visible(&p.format)
            ));
        }
        if op.on_node() {
            let path = self.pane().node_path(&self.cx())?;
            let frames = path.iter().map(|&f| spelling(p, f)).collect();
            return Ok(match op {
                Op::MergeNode => QueryStep::MergePath(frames),
                _ => QueryStep::FocusPath(frames),
            });
        }
        let Some(f) = self.query_function() else {
            return Err(match self.pane().removed(&self.cx()) {
                Some(r) => super::super::pane::removed_words(&r),
                None => SELECT_FIRST.into(),
            });
        };
        let t = spelling(p, f);
        Ok(match op {
            Op::Merge => QueryStep::Merge(t),
            Op::Focus => QueryStep::Focus(t),
            Op::Drop => QueryStep::Drop(t),
            Op::CollapseRecursion => QueryStep::CollapseRecursion(t),
            Op::CollapseDirectRecursion => QueryStep::CollapseDirectRecursion(t),
            Op::CollapseSubtree => QueryStep::CollapseSubtree(t),
            Op::CollapseModule => {
                let m = p.function_module(f);
                if m.is_empty() {
                    return Err(format!(
                        "{} has no module to collapse",
                        crate::text::visible(p.function_name(f))
                    ));
                }
                QueryStep::CollapseModule(m.to_string())
            }
            // Node steps returned above (`on_node`); a new one not placed
            // there says so rather than stopping the app.
            Op::MergeNode | Op::FocusNode => {
                return Err("select a call node".into());
            }
            // A range is asked by `transform`, never made a step.
            Op::Range => return Err("a range is no step of the paths".into()),
        })
    }

    /// A transform of the query on the selection, run on a thread.
    pub(super) fn transform(&mut self, op: Op) {
        if op == Op::Range {
            return match self.pane().call_span(&self.cx()) {
                Ok((from, until)) => self.ask_range(from, until),
                Err(why) => self.status = Some(why),
            };
        }
        match self.gone_step(op).unwrap_or_else(|| self.step_of(op)) {
            Ok(step) => self.ask(Ask::Push(step)),
            // A why that does not name the transform is said after it.
            Err(why) if why.starts_with(NEEDS_PATHS) || why == SELECT_FIRST => {
                self.status = Some(format!("{}: {why}", self.op_words(op)))
            }
            Err(why) => self.status = Some(why),
        }
    }

    /// What a transform is called, in the profile's own word for what its
    /// hits count: a trace's `d` drops calls, a sampled log's samples.
    pub fn op_words(&self, op: Op) -> String {
        let hits = self.profile().hits_count().name();
        op.words().replace("samples", hits)
    }

    /// The `.` menu's rows: each transform, its key, what it would do to
    /// the selection, or why it cannot.
    pub fn menu_entries(&self) -> Vec<Entry> {
        Op::ALL
            .iter()
            .map(|&op| {
                let key = super::super::keymap::label_of(Place::Query, &Intent::Transform(op))
                    .unwrap_or("");
                let (text, step, why_not) = match self.step_of(op) {
                    _ if op == Op::Range => self.range_entry(),
                    Ok(step) => (
                        crate::text::visible(&step.label()).into_owned(),
                        Some(step),
                        None,
                    ),
                    Err(why) => (self.op_words(op), None, Some(why)),
                };
                Entry {
                    op,
                    key,
                    text,
                    step,
                    why_not,
                }
            })
            .collect()
    }

    pub(super) fn menu(&mut self, intent: Intent) {
        let Mode::Menu(menu) = &mut self.mode else {
            return;
        };
        match menu.update(&intent) {
            Chosen::Stay => {}
            Chosen::Close => self.mode = Mode::Normal,
            Chosen::Quit => self.quit = true,
            Chosen::Apply(op) => {
                self.mode = Mode::Normal;
                self.transform(op);
            }
        }
    }

    /// `H`: the threads list, or why a profile has none.
    pub(super) fn open_threads(&mut self) {
        let rows = self.query.thread_rows().to_vec();
        match ThreadsList::new(self, rows) {
            Some(list) => self.mode = Mode::Threads(list),
            None => {
                let why = QueryError::NoThreads {
                    format: self.query.loaded().format.clone(),
                };
                self.status = Some(why.to_string());
            }
        }
    }

    pub(super) fn threads(&mut self, intent: Intent) {
        let Mode::Threads(list) = &mut self.mode else {
            return;
        };
        match list.update(&intent) {
            Picked::Stay => {}
            Picked::Close => self.mode = Mode::Normal,
            Picked::Quit => self.quit = true,
            Picked::Say(why) => self.status = Some(why),
            Picked::Exported(said) => (self.status, self.notice) = (Some(said), true),
            Picked::Threads(ids) => {
                self.mode = Mode::Normal;
                if ids.as_deref() == self.query.threads() {
                    self.status = Some("those threads are shown already".into());
                } else {
                    self.ask(Ask::Threads(ids));
                }
            }
        }
    }

    /// `u`: the last thing asked off, a step or a range (instant: the
    /// profiles before it were kept).
    pub(super) fn pop_step(&mut self) {
        if self.compared.is_some() {
            return self.compare_pop();
        }
        let before = self.before();
        match self.query.pop() {
            Some(Popped::Range(range)) => {
                self.query_changed_to(before, None);
                self.status = Some(format!(
                    "undone: {} · {}",
                    crate::analysis::query::range_label(range),
                    self.range_now()
                ));
            }
            Some(Popped::Step(step, left_out)) => {
                self.query_changed_to(before, None);
                let label = crate::text::visible(&step.label()).into_owned();
                self.status = Some(match left_out {
                    None => format!("undone: {label}"),
                    Some(_) => format!("undone: {label} (it was left out of these threads)"),
                });
            }
            None if self.query.threads().is_some() => {
                let clear = key_for(&Intent::ClearQuery, Place::Query);
                self.status = Some(format!("no step to undo: {clear} shows every thread again"))
            }
            None => self.status = Some("no query step to undo".into()),
        }
    }

    /// `U`: the loaded profile again.
    pub(super) fn clear_query(&mut self) {
        if self.compared.is_some() {
            return self.compare_clear();
        }
        let before = self.before();
        match self.query.clear() {
            true => {
                self.query_changed_to(before, None);
                self.status = Some("the whole profile again".into());
            }
            false => self.status = Some("the whole profile is shown already".into()),
        }
    }

    /// Starts a query step on its thread. One still running is cancelled
    /// and waited for first (a thread choice stops within a look at every
    /// 4 MiB of input): two never run at once.
    pub(super) fn ask(&mut self, ask: Ask) {
        if self.compared.is_some() {
            return self.compare_ask(ask);
        }
        if let Some(job) = self.query_job.take() {
            self.stopping = Some(job.cancel());
        }
        if let Some(old) = self.stopping.take() {
            let _ = old.join();
        }
        match QueryJob::start(&self.query, ask, self.tab(), self.size) {
            Ok(job) => self.query_job = Some(job),
            Err(done) => self.query_done(*done),
        }
    }

    /// An intent while a query step runs: its end taken at a tick (or
    /// first, when it ended before the intent came), a key or a click
    /// cancels it and does nothing else. True when the intent is used up.
    pub(super) fn query_intent(&mut self, intent: &Intent) -> bool {
        let Some(job) = self.query_job.take() else {
            return false;
        };
        match intent {
            Intent::Tick if job.is_finished() => {
                self.query_done(job.join());
                true
            }
            Intent::Tick => {
                self.query_job = Some(job);
                // A cancelled one gone by now needs no waiting for.
                if self.stopping.as_ref().is_some_and(QueryJob::is_finished) {
                    self.stopping = None;
                }
                true
            }
            Intent::Resize { .. } => {
                self.query_job = Some(job);
                false
            }
            // q and Ctrl-C cancel it and quit, as they do an export.
            Intent::Quit => {
                self.stopping = Some(job.cancel());
                false
            }
            _ => {
                let what = job.what.clone();
                self.stopping = Some(job.cancel());
                self.status = Some(format!("{what}: cancelled"));
                self.notice = false;
                true
            }
        }
    }

    /// Waits for the query step running, and takes its answer.
    pub fn settle_query(&mut self) {
        if let Some(job) = self.query_job.take() {
            self.query_done(job.join());
        }
        self.settle_compare();
    }

    /// Whether a query step is running.
    pub fn querying(&self) -> bool {
        self.query_job.is_some() || self.compare_job.is_some()
    }

    /// "⠹ thread 2… read 96 of 256 MiB (37%) · any key cancels", once a
    /// step has run a quarter of a second; how much of the input a thread
    /// choice has read, once it says.
    pub fn query_progress(&self) -> Option<String> {
        const SPIN: [char; 10] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
        if let Some(job) = &self.compare_job {
            let shown = job.started.elapsed() >= super::super::query::SHOW_AFTER;
            let at = (job.started.elapsed().as_millis() / 100) as usize % SPIN.len();
            return shown.then(|| format!("{} {}… · any key cancels", SPIN[at], job.what));
        }
        let job = self.query_job.as_ref().filter(|j| j.shown())?;
        let at = (job.started.elapsed().as_millis() / 100) as usize % SPIN.len();
        let read = job.read().map_or(String::new(), |(done, of)| {
            let mib = |b: u64| b as f64 / f64::from(1 << 20);
            let pct = (done.min(of) as f64 * 100.0 / of as f64).floor();
            format!(" read {:.0} of {:.0} MiB ({pct}%)", mib(done), mib(of))
        });
        Some(format!(
            "{} {}…{read} · any key cancels",
            SPIN[at], job.what
        ))
    }

    /// A step's answer: the query changed, or why not.
    pub(super) fn query_done(&mut self, done: Answered) {
        let (ask, answer, warm) = match done {
            Ok(done) => done,
            Err(e) => {
                self.status = Some(crate::text::visible(&e.to_string()).into_owned());
                return;
            }
        };
        // The root pane made ahead serves only if the tab is still the
        // one it was made for.
        let (made, pane) = match warm {
            Some(w) if w.pane.tab() == self.tab() => (Some(w.prepared), Some(*w.pane)),
            Some(w) => (Some(w.prepared), None),
            None => (None, None),
        };
        let said = match ask {
            Ask::Push(step) => {
                let last = answer.levels().last().map(|l| l.dropped.clone());
                let words = dropped_words(&last.unwrap_or_default(), answer.events());
                let before = self.before();
                self.query.set(answer, made);
                self.query_changed_to(before, pane);
                self.pushed_words(&step, words)
            }
            Ask::Threads(threads) => {
                let before = self.before();
                self.query.set(answer, made);
                self.query_changed_to(before, pane);
                self.threads_words(threads.is_none())
            }
            Ask::Range(_) | Ask::OutOfRange => {
                let before = self.before();
                self.query.set(answer, made);
                self.query_changed_to(before, pane);
                self.range_words()
            }
        };
        self.status = Some(said);
    }

    /// What a step pushed says: its label, what it dropped and its notes
    /// (those the header leaves out: the crumbs come first there), and how
    /// to undo it where that fits on the line.
    fn pushed_words(&mut self, step: &QueryStep, words: Vec<String>) -> String {
        let label = crate::text::visible(&step.label()).into_owned();
        let shown = super::super::render::header_shows(self);
        let mut said = vec![label];
        said.extend(words.into_iter().filter(|w| {
            let dropped = w.starts_with("dropped ");
            !shown
                .iter()
                .any(|f| f == w || (dropped && f.starts_with("dropped ")))
        }));
        let undo = key_for(&Intent::PopStep, Place::Query);
        let with_hint = format!("{} · {undo} undoes it", said.join(" · "));
        self.status = Some(with_hint.clone());
        match self.status_boxed() {
            true => said.join(" · "),
            false => with_hint,
        }
    }

    /// What a thread choice says: the threads, the steps left out and why.
    fn threads_words(&self, every: bool) -> String {
        let mut said = vec![match every {
            true => "all threads, merged".to_string(),
            false => self.query.thread_crumb().unwrap_or_default(),
        }];
        let left_out = self.query.left_out();
        said.extend(
            left_out
                .iter()
                .map(|(step, why)| format!("{step} left out: {why}")),
        );
        let clear = key_for(&Intent::ClearQuery, Place::Query);
        match (left_out.is_empty(), every) {
            (true, true) => {}
            (true, false) => said.push(format!("{clear}: every thread again")),
            (false, _) => said.push("kept: a thread choice applies it again".into()),
        }
        said.join(" · ")
    }

    /// The answer on screen and the selection's function, before the
    /// query changes: what `query_changed_to` carries over.
    pub(super) fn before(&self) -> (crate::analysis::query::Answer, Option<FuncId>) {
        (self.query.answer().clone(), self.query_function())
    }
    /// A tab's new `root` put where the user was in the old one: on
    /// `was` (a function of `old`'s paths), found by the new answer's one
    /// mapping, and in its `spot` (a comparison's panes keep none).
    pub(super) fn placed(
        &self,
        mut root: Pane,
        old: &crate::analysis::query::Answer,
        was: Option<FuncId>,
        spot: Option<super::super::pane::Spot>,
    ) -> Pane {
        let again = was.and_then(|f| self.query.answer().carried(old, f));
        if let Some(g) = again {
            root.show_function(g, &self.cx_of(Reads::Paths));
        }
        if let (None, Some(spot)) = (&self.compared, spot) {
            root.put_spot(spot, again, &self.cx_of(root.reads()));
        }
        root
    }

    /// Every pane anew on the query's new answer, as after a load: the tab
    /// on screen at its root (on the same function where it is a table of
    /// functions, carried from the answer `before` by name and module),
    /// the other tabs' trails and the steps gone back from forgotten
    /// (their rows were another profile's); `made`: the tab's root pane
    /// made ahead.
    pub(super) fn query_changed_to(
        &mut self,
        before: (crate::analysis::query::Answer, Option<FuncId>),
        made: Option<Pane>,
    ) {
        let (old, was) = before;
        // Where the user was in the tab's root, put back in the new root
        // by identity: the panes' own to say (`pane/spot.rs`).
        let spot = self.history.first().map(|root| root.spot(old.paths()));
        self.prepared().start_graph(self.profile());
        self.opening = None;
        let tab = self.tab();
        self.saved = Default::default();
        self.forward.clear();
        let root = match made {
            Some(pane) if self.compared.is_none() => pane,
            _ => self.root_pane(tab),
        };
        self.history = vec![self.placed(root, &old, was, spot)];
        if matches!(self.mode, Mode::Finder(_) | Mode::Search) {
            self.mode = Mode::Normal;
        }
    }
}

/// Why a transform that rewrites call paths cannot run on a profile
/// without any.
const NEEDS_PATHS: &str = "needs call paths";

/// Why a function's transform cannot run with no function selected.
const SELECT_FIRST: &str = "select a function first";

/// What a step dropped, in words: `dropped 786.262 ms (33.64%)` (of
/// `chosen`'s total, the threads chosen, in its time unit), then its
/// notes; nothing when it dropped nothing.
pub(in crate::tui) fn dropped_words(
    d: &crate::analysis::query::Dropped,
    chosen: &crate::model::Profile,
) -> Vec<String> {
    use crate::report::fmt::{grouped, grouped_time};
    let whole = chosen.totals.elapsed_inclusive_ms;
    let mut out = Vec::new();
    if let Some(ms) = d.ms.filter(|&ms| ms > 0.0) {
        let share = match d.pct_of(whole) {
            Some(pct) => format!(
                " ({}%)",
                crate::report::fmt::cell(crate::analysis::columns::Value::Pct(Some(pct)))
            ),
            None => String::new(),
        };
        out.push(format!("dropped {}{share}", grouped_time(chosen, ms)));
    } else if let Some(h) = d.hits.filter(|&h| h > 0) {
        out.push(format!("dropped {}", grouped(h)));
    }
    out.extend(d.notes.iter().map(|n| crate::text::visible(n).into_owned()));
    out
}
