//! The query of a comparison (tui.md § Comparisons): a step, a thread
//! choice or a range, `u` and `U`, asked of both runs at once. Each side
//! answers the same `Query` by the one runner's `Policy::Side`
//! (`diff::answer_sides`), so a step naming what one side lacks is left
//! out of that side with a note; the app's own answer stays NEW's. Both
//! sides are answered on a thread of their own (`CompareJob`), as a single
//! run's step is: the footer says so, any key cancels it.

use super::super::compare::Compared;
use super::super::intent::{Intent, Op};
use super::super::keymap::{Place, key_for};
use super::super::pane::{self, Ctx, Pane};
use super::super::query::Ask;
use super::App;
use crate::analysis::diff::Of;
use crate::analysis::diff::{self, Comparison, Which};
use crate::analysis::query::Reads;
use crate::analysis::query::{Query, Step as QueryStep};
use crate::analysis::view::{Table, View};
use crate::model::Watch;
use ratatui::layout::Rect;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Instant;

/// Both sides' answers to a comparison's query, running.
pub(in crate::tui) struct CompareJob {
    /// What it does, for the footer and the status line.
    pub what: String,
    pub started: Instant,
    query: Query,
    cancel: Arc<AtomicBool>,
    handle: JoinHandle<Result<Comparison, diff::DiffError>>,
}

impl std::fmt::Debug for CompareJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompareJob")
            .field("what", &self.what)
            .finish()
    }
}

impl CompareJob {
    pub(in crate::tui) fn is_finished(&self) -> bool {
        self.handle.is_finished()
    }

    /// Asks it to stop; its answer is never read (its thread ends at the
    /// runner's next look at the flag).
    pub(in crate::tui) fn cancel(self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    fn join(self) -> (Query, String, Result<Comparison, diff::DiffError>) {
        let done = self.handle.join().unwrap_or_else(|_| {
            Err(diff::DiffError::Side {
                side: Which::New,
                error: crate::analysis::query::QueryError::Replay(
                    "the comparison's thread stopped".into(),
                ),
            })
        });
        (self.query, self.what, done)
    }
}

/// Both sides' answers to `q`, compared.
fn compare(
    loaded: &[Arc<crate::model::Profile>; 2],
    q: &Query,
    stop: &AtomicBool,
) -> Result<Comparison, diff::DiffError> {
    let cancel = || stop.load(Ordering::Relaxed);
    let watch = Watch {
        cancel: &cancel,
        progress: &|_, _| {},
    };
    diff::answer_sides(&loaded[0], &loaded[1], q, &watch).and_then(Comparison::new)
}

impl App {
    /// What `ask` asks, of both sides of the comparison.
    pub(super) fn compare_ask(&mut self, ask: Ask) {
        let Some(c) = self.compared.clone() else {
            return;
        };
        let mut q = c.query().clone();
        let said = match ask {
            Ask::Push(step) => {
                let label = crate::text::visible(&step.label()).into_owned();
                q.steps.push(step);
                label
            }
            Ask::Threads(ids) => {
                q.threads = ids;
                super::super::query::threads_label(q.threads.as_deref())
            }
            Ask::Range(r) => {
                q.range = Some(r);
                format!("range {}", crate::analysis::query::range_label(r))
            }
            Ask::OutOfRange => {
                q.range = None;
                "the whole run".into()
            }
        };
        let undo = key_for(&Intent::PopStep, Place::Query);
        self.compare_on(q, format!("{said} (both runs) · {undo} undoes it"));
    }

    /// `u` in a comparison: the last step off both sides, else the range,
    /// else the thread choice.
    pub(super) fn compare_pop(&mut self) {
        let Some(c) = self.compared.clone() else {
            return;
        };
        let mut q = c.query().clone();
        let undone = match q.steps.pop() {
            Some(step) => crate::text::visible(&step.label()).into_owned(),
            None if q.range.is_some() => {
                q.range = None;
                "the range".into()
            }
            None if q.threads.is_some() => {
                q.threads = None;
                "the thread choice".into()
            }
            None => {
                self.status = Some("no query step to undo".into());
                return;
            }
        };
        self.compare_on(q, format!("undone: {undone} (both runs)"));
    }

    /// `U` in a comparison: both whole runs again.
    pub(super) fn compare_clear(&mut self) {
        let whole = self.compared.as_ref().is_some_and(|c| c.query().is_whole());
        match whole {
            true => self.status = Some("the whole runs are shown already".into()),
            false => self.compare_on(Query::default(), "both whole runs again".into()),
        }
    }

    /// Both sides' answers to `q`, compared, in place of the comparison
    /// shown (the Functions tab keeps its look), and `said` on the status
    /// line with what a side left out; why not where a side cannot take
    /// it (the comparison shown stays).
    fn compare_on(&mut self, q: Query, said: String) {
        let Some(c) = self.compared.clone() else {
            return;
        };
        if let Some(job) = self.compare_job.take() {
            job.cancel();
        }
        let loaded = Which::BOTH.map(|w| Arc::clone(c.comparison().side(w).loaded()));
        let cancel = Arc::new(AtomicBool::new(false));
        let (flag, asked) = (Arc::clone(&cancel), q.clone());
        let spawned = std::thread::Builder::new()
            .name("profx-compare".into())
            .spawn(move || compare(&loaded, &asked, &flag));
        match spawned {
            Ok(handle) => {
                self.compare_job = Some(CompareJob {
                    what: said,
                    started: Instant::now(),
                    query: q,
                    cancel,
                    handle,
                })
            }
            Err(_) => {
                let loaded = Which::BOTH.map(|w| Arc::clone(c.comparison().side(w).loaded()));
                let done = compare(&loaded, &q, &AtomicBool::new(false));
                self.compare_done(q, said, done);
            }
        }
    }

    /// An intent while both sides are answered: the end taken at a tick,
    /// a key or a click cancels it and does nothing else (q quits). True
    /// when the intent is used up.
    pub(super) fn compare_intent(&mut self, intent: &Intent) -> bool {
        let Some(job) = self.compare_job.take() else {
            return false;
        };
        match intent {
            Intent::Tick if job.is_finished() => {
                let (q, said, done) = job.join();
                self.compare_done(q, said, done);
                true
            }
            Intent::Tick => {
                self.compare_job = Some(job);
                true
            }
            Intent::Resize { .. } => {
                self.compare_job = Some(job);
                false
            }
            Intent::Quit => {
                job.cancel();
                false
            }
            _ => {
                self.status = Some(format!("{}: cancelled (both runs as they were)", job.what));
                self.notice = false;
                job.cancel();
                true
            }
        }
    }

    /// Waits for both sides' answers, and takes them.
    pub(super) fn settle_compare(&mut self) {
        if let Some(job) = self.compare_job.take() {
            let (q, said, done) = job.join();
            self.compare_done(q, said, done);
        }
    }

    /// Both sides' answers taken: the comparison shown replaced, or why
    /// not (the comparison shown stays).
    fn compare_done(
        &mut self,
        q: Query,
        said: String,
        compared: Result<Comparison, diff::DiffError>,
    ) {
        let Some(c) = self.compared.clone() else {
            return;
        };
        let comparison = match compared {
            Ok(comparison) => comparison,
            Err(diff::DiffError::Side {
                error: crate::analysis::query::QueryError::Cancelled,
                ..
            }) => return,
            Err(e) => {
                self.status = Some(crate::text::visible(&e.to_string()).into_owned());
                self.notice = true;
                return;
            }
        };
        let next = Arc::new(c.with(comparison, q));
        let before = self.before();
        let look = self.history.first().and_then(|p| match p {
            super::super::pane::Pane::Compare(p) => Some(p.look()),
            _ => None,
        });
        self.query
            .set(next.comparison().side(Which::New).clone(), None);
        self.compared = Some(Arc::clone(&next));
        self.query_changed_to(before, None);
        if let (Some(look), Some(super::super::pane::Pane::Compare(p))) =
            (look, self.history.first_mut())
        {
            p.set_look(look);
        }
        let mut words = vec![said];
        words.extend(next.left_out());
        self.status = Some(words.join(" · "));
    }
}

impl App {
    /// `b` in a comparison's flame graph: BASE's widths ⇄ NEW's, each
    /// frame coloured by its change either way.
    pub(super) fn base_widths(&mut self) {
        let b = key_for(&Intent::BaseWidths, Place::FlameCompared);
        if self.compared.is_none() || !matches!(self.pane(), Pane::Flame(_)) {
            self.status = Some(format!(
                "{b} draws BASE's widths in a comparison's flame graph (profx diff BASE NEW)"
            ));
            return;
        }
        self.flame_base = !self.flame_base;
        self.history = vec![self.root_pane(crate::analysis::view::View::Flame)];
        self.forward.clear();
        self.status = Some(match self.flame_base {
            true => format!("BASE's widths, coloured by NEW's change · {b}: NEW's"),
            false => format!("NEW's widths, coloured by the change from BASE · {b}: BASE's"),
        });
    }

    /// With BASE's widths drawn, a key that acts on a function of the
    /// query (NEW's run: a step, the tree, a sandwich) says how to get
    /// back to NEW's frames instead; true when it did.
    pub(super) fn on_news_function(&mut self, intent: &Intent) -> bool {
        let acts = matches!(
            intent,
            Intent::Transform(_)
                | Intent::Transforms
                | Intent::ShowInTree
                | Intent::Sandwich
                | Intent::Open
        );
        if acts {
            let b = key_for(&Intent::BaseWidths, Place::FlameCompared);
            self.status = Some(format!(
                "BASE's frames are drawn: {b} draws NEW's, which this key acts on"
            ));
        }
        acts
    }
}

impl App {
    /// The step `op` makes of a comparison's row gone from NEW's run: its
    /// function is BASE's (the query names it as BASE spells it, and the
    /// step is left out of NEW, which lacks it); `None` for any other
    /// selection, which the usual way takes.
    pub(super) fn gone_step(&self, op: Op) -> Option<Result<QueryStep, String>> {
        use crate::analysis::query::spelling;
        let compared = self.compared.as_ref()?;
        let f = match self.pane() {
            Pane::Compare(p) if p.pairs().is_none() => {
                let c = p.comparison();
                let r = c.rows().get(p.focused_row()?)?;
                r.base.filter(|_| r.new.is_none())?
            }
            // A node step on a path only BASE has is the tree's to refuse
            // (`TreePane::node_path` says why), not a table's.
            Pane::Tree(_) if op.on_node() => return None,
            // A path only BASE has, in the compared Call tree.
            Pane::Tree(t) => t.gone_function()?,
            _ => return None,
        };
        let base = compared.comparison().profile(Which::Base);
        let t = spelling(base, f);
        Some(Ok(match op {
            Op::Merge => QueryStep::Merge(t),
            Op::Focus => QueryStep::Focus(t),
            Op::Drop => QueryStep::Drop(t),
            Op::CollapseRecursion => QueryStep::CollapseRecursion(t),
            Op::CollapseDirectRecursion => QueryStep::CollapseDirectRecursion(t),
            Op::CollapseSubtree => QueryStep::CollapseSubtree(t),
            Op::CollapseModule => match base.function_module(f) {
                "" => return Some(Err(format!("{} has no module to collapse", t.0))),
                m => QueryStep::CollapseModule(m.to_string()),
            },
            // A call node's step is the Call tree's or the flame graph's.
            _ => return Some(Err(super::super::intent::Why::NodeSteps.into())),
        }))
    }
}

// The app on a comparison: built, its tabs' root panes, what BASE's
// flame graph reads (moved here from app.rs: the comparison is this
// module's concern, not the event loop's).
impl App {
    /// The app on a comparison of two runs (`profx diff BASE NEW`): the
    /// query is NEW's answer (every pane that is not compared reads NEW's
    /// run), the Functions tab the comparison's.
    pub fn comparing(compared: Compared, size: Rect, color: bool) -> App {
        let new = compared.comparison().side(Which::New).clone();
        let title = compared.title();
        // No first view ordered on a thread: the comparison's is made.
        let mut app = App::on(Arc::clone(new.loaded()), &title, size, color, false);
        app.query.set(new, None);
        app.compared = Some(Arc::new(compared));
        app.history = vec![app.root_pane(View::Table(Table::Functions))];
        app.prepared().start_graph(app.profile());
        app
    }

    /// The comparison shown, if the app shows one.
    pub fn compared(&self) -> Option<&Compared> {
        self.compared.as_deref()
    }

    /// A tab's root pane: the comparison's Functions pane in a
    /// comparison, else the tab's own on the query's answer.
    pub(super) fn root_pane(&self, tab: View) -> Pane {
        let pane = self.made_root_pane(tab);
        // A pane of a large profile sorts and measures millions of rows in
        // memory it then frees: given back, not left resident.
        profx_sys::heap::give_back_freed();
        pane
    }

    fn made_root_pane(&self, tab: View) -> Pane {
        match &self.compared {
            Some(c) if tab == View::Table(Table::Functions) => {
                Pane::Compare(pane::ComparePane::new(Arc::clone(c)))
            }
            Some(c) if tab == View::Table(Table::Stacks) => {
                Pane::Compare(pane::ComparePane::of(Arc::clone(c), Of::Stacks))
            }
            Some(c) if tab == View::Table(Table::Lines) => {
                Pane::Compare(pane::ComparePane::of(Arc::clone(c), Of::Lines))
            }
            Some(c) if tab == View::Flame && self.flame_base => {
                let mut f = pane::FlamePane::new(None, &base_cx(c, (self.size, self.flame)));
                (f.against, f.base_drawn) = (Some(c.tree_new()), true);
                Pane::Flame(f)
            }
            _ => self.against(Pane::root(tab, &self.cx_of(Reads::of_view(tab)))),
        }
    }

    /// A pane of the comparison shown, if any: a Call tree pane then shows
    /// BASE's totals beside NEW's, a Flame pane colours each frame by its
    /// change.
    pub(super) fn against(&self, mut pane: Pane) -> Pane {
        match (&self.compared, &mut pane) {
            (Some(c), Pane::Tree(t)) => {
                let cx = self.cx_of(Reads::of_view(View::Tree));
                t.set_against(c.tree_base(), cx.profile);
            }
            (Some(c), Pane::Flame(f)) => f.against = Some(c.tree_base()),
            _ => {}
        }
        pane
    }

    /// Whether the pane on screen is a comparison's flame graph drawn
    /// with BASE's widths: it reads BASE's profile.
    pub(super) fn base_drawn(&self) -> bool {
        self.flame_base && matches!(self.history.last(), Some(Pane::Flame(_)))
    }
}

/// What a comparison's flame graph drawn with BASE's widths reads:
/// BASE's answer and profile.
pub(super) fn base_cx(c: &Compared, (size, flame): (Rect, pane::flame::Look)) -> Ctx<'_> {
    Ctx {
        profile: c.comparison().profile(Which::Base),
        prepared: c.base_prepared(),
        answer: c.comparison().side(Which::Base),
        opening: None,
        size,
        flame,
    }
}
