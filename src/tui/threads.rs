//! The threads list (`H`): a trace's threads as a table of the one table
//! code (`Table::Threads`: its columns `analysis::columns::ThreadColumn`,
//! its rows `analysis::query::thread_rows`), so it sorts, searches and
//! exports as every table does, drawn by the same widget; Space chooses
//! several, Enter shows the threads chosen (their numbers merged), `a`
//! every thread. An overlay over the pane rather than an eighth tab: a
//! thread choice is a question asked of every pane, not a view of its own,
//! and it is made and left in one gesture; and it lists the loaded
//! profile's threads, which the panes' profile (the query's) no longer
//! has once some are chosen.

use super::app::App;
use super::derived::Prepared;
use super::intent::Intent;
use super::keymap::{Place, key_for};
use super::pane::{Ctx, Effect, Extra, TablePane, Within};
use super::render::theme::Theme;
use crate::analysis::query::Answer;
use crate::analysis::query::ThreadRow;
use crate::analysis::view::Table;
use crate::model::Profile;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::{Clear, Widget};
use std::path::PathBuf;
use std::sync::Arc;

/// The list's state: the table of the threads, the threads chosen, and
/// whether keys type into its search.
pub struct ThreadsList {
    /// The profile as loaded, whose threads the list shows, as the whole
    /// answer a pane's `Ctx` reads.
    pub(super) loaded: Answer,
    /// What the table derives from it (its rows made, its columns, its
    /// orders): the list's own, as the loaded profile is no pane's once a
    /// query is asked.
    prepared: Arc<Prepared>,
    /// The threads as a table: sorted, searched, scrolled, drawn (boxed:
    /// the app's modes are kept small).
    pub table: Box<TablePane>,
    /// The ids chosen with Space, in the trace's order.
    pub chosen: Vec<u64>,
    /// The ids chosen when the list opened (the threads shown): while
    /// `chosen` is still these, Enter shows the thread under the cursor.
    pub opened: Vec<u64>,
    /// Keys type into the table's search (`/`) until Enter or Esc.
    pub searching: bool,
    /// The window, as the table's rows and clicks are laid out in it.
    size: Rect,
    /// The input's path: `e` writes `<path>.threads.csv` beside it.
    pub(super) export_base: PathBuf,
}

/// What the list asks of the app.
#[derive(Debug, PartialEq)]
pub enum Picked {
    Stay,
    Close,
    Quit,
    /// Show these threads (`None`: all, merged).
    Threads(Option<Vec<u64>>),
    /// A message for the status line (a key's why).
    Say(String),
    /// An export's result, which a key must not erase unseen.
    Exported(String),
}

/// What the list's table reads: the loaded profile and its own
/// derivations (fields apart, so the table can change while it reads).
fn cx<'a>(loaded: &'a Answer, prepared: &'a Arc<Prepared>, size: Rect) -> Ctx<'a> {
    Ctx::over(loaded, prepared, size)
}

impl ThreadsList {
    /// The list of the app's loaded profile (`rows`, its `thread_rows`),
    /// the threads chosen marked; `None` for a profile with one implicit
    /// thread.
    pub fn new(app: &App, rows: Vec<ThreadRow>) -> Option<ThreadsList> {
        let chosen = app.query.threads();
        let list = ThreadsList::of(app.query.loaded(), rows, chosen, app.size);
        list.map(|l| ThreadsList {
            export_base: app.export_base.clone(),
            ..l
        })
    }

    /// `new`, from its parts.
    pub fn of(
        loaded: &Arc<Profile>,
        rows: Vec<ThreadRow>,
        chosen: Option<&[u64]>,
        size: Rect,
    ) -> Option<ThreadsList> {
        if rows.is_empty() {
            return None;
        }
        // No choice made (every thread shown): every thread ticked.
        let chosen = match chosen {
            Some(ids) => ids.to_vec(),
            None => rows.iter().map(|r| r.info.id).collect(),
        };
        let prepared = Arc::new(Prepared::with_threads(rows));
        let loaded = Answer::whole(Arc::clone(loaded));
        // Opens on its first row: the busiest thread, the table's order.
        let table = TablePane::new(Table::Threads, Within::All, &cx(&loaded, &prepared, size));
        let table = Box::new(table);
        Some(ThreadsList {
            loaded,
            prepared,
            table,
            opened: chosen.clone(),
            chosen,
            searching: false,
            size,
            export_base: PathBuf::from(crate::demo::NAME),
        })
    }

    /// What the table reads.
    pub fn cx(&self) -> Ctx<'_> {
        cx(&self.loaded, &self.prepared, self.size)
    }

    /// The threads, in the trace's order (the table's rows index them).
    pub fn rows(&self) -> &[ThreadRow] {
        self.prepared.thread_rows(self.loaded.loaded())
    }

    /// The thread under the cursor.
    pub fn current(&self) -> Option<&ThreadRow> {
        self.rows().get(self.table.selected()? as usize)
    }

    /// The threads in the order shown (filtered and sorted as on screen).
    pub fn shown(&self) -> Vec<u32> {
        (0..self.table.rows.len())
            .filter_map(|i| self.table.rows.get(i))
            .collect()
    }

    /// Takes a key's intent.
    pub fn update(&mut self, intent: &Intent) -> Picked {
        if self.searching {
            return self.search(intent);
        }
        match intent {
            Intent::Toggle => self.toggle(),
            Intent::Accept => return self.accept(),
            Intent::AllThreads => return Picked::Threads(None),
            // A filter goes first, as a pane's does at its start.
            Intent::Cancel if !self.table.search.text.is_empty() => {
                let cx = cx(&self.loaded, &self.prepared, self.size);
                self.table.set_search("", false, &cx);
            }
            Intent::Cancel | Intent::Threads => return Picked::Close,
            Intent::Quit => return Picked::Quit,
            Intent::Search => self.searching = true,
            Intent::Export => return Picked::Exported(super::export::threads(self)),
            Intent::Resize { width, height } => self.size = Rect::new(0, 0, *width, *height),
            other => {
                let cx = cx(&self.loaded, &self.prepared, self.size);
                if let Effect::Say(why) = self.table.update(other, &cx) {
                    return Picked::Say(why);
                }
            }
        }
        let cx = cx(&self.loaded, &self.prepared, self.size);
        self.table.keep_visible(&cx);
        Picked::Stay
    }

    /// Space: the thread under the cursor chosen, or no longer; the cursor
    /// to the next.
    fn toggle(&mut self) {
        if let Some(id) = self.current().map(|r| r.info.id) {
            match self.chosen.iter().position(|&c| c == id) {
                Some(i) => {
                    self.chosen.remove(i);
                }
                None => self.chosen.push(id),
            }
            // In the trace's order, as `--thread` lists them.
            let rows = self.prepared.thread_rows(self.loaded.loaded());
            let rank = |id: &u64| rows.iter().position(|r| r.info.id == *id);
            self.chosen.sort_by_key(rank);
        }
        let cx = cx(&self.loaded, &self.prepared, self.size);
        self.table.update(&Intent::Move(1), &cx);
    }

    /// Enter: the threads chosen, once Space changed them; else (none
    /// newly chosen) the one under the cursor.
    fn accept(&self) -> Picked {
        let ids = match self.newly_chosen() {
            false => self.current().map(|r| vec![r.info.id]).unwrap_or_default(),
            true => self.chosen.clone(),
        };
        // Every thread chosen is all of them, merged: the loaded profile
        // itself, no replay.
        match ids.len() == self.rows().len() {
            true => Picked::Threads(None),
            false => Picked::Threads(Some(ids)),
        }
    }

    /// A key while the search is typed: the prompt's keys edit it (as the
    /// panes' prompt does), moves still move.
    fn search(&mut self, intent: &Intent) -> Picked {
        let old = self.table.search.text.clone();
        let mut text = old.clone();
        match intent {
            Intent::Input(c) => text.push(*c),
            Intent::Paste(p) => text.push_str(&p.0),
            Intent::Erase => {
                text.pop();
            }
            Intent::ClearInput => text.clear(),
            Intent::Accept => self.searching = false,
            Intent::Cancel => {
                self.searching = false;
                text.clear();
            }
            Intent::Quit => return Picked::Quit,
            Intent::Move(_) | Intent::PageUp | Intent::PageDown | Intent::Resize { .. } => {
                self.searching = false;
                let picked = self.update(intent);
                self.searching = true;
                return picked;
            }
            _ => {}
        }
        if text != old {
            let narrowing = crate::analysis::search::narrows(&old, &text);
            let cx = cx(&self.loaded, &self.prepared, self.size);
            self.table.set_search(&text, narrowing, &cx);
        }
        Picked::Stay
    }

    /// Whether Space changed the threads chosen since the list opened
    /// (and some are chosen): Enter shows them rather than the cursor's.
    pub fn newly_chosen(&self) -> bool {
        !self.chosen.is_empty() && self.chosen != self.opened
    }

    /// What the keys do now, longest wording first, each key as the
    /// keymap binds it.
    pub fn said(&self) -> Vec<String> {
        let key = |i: Intent| key_for(&i, Place::Threads);
        let (space, enter, all) = (
            key(Intent::Toggle),
            key(Intent::Accept),
            key(Intent::AllThreads),
        );
        match self.newly_chosen() {
            false => vec![
                format!(
                    "{space} chooses threads · {enter} shows the one under the cursor · {all}: all, merged"
                ),
                format!("{space} chooses · {enter}: the cursor's thread · {all}: all, merged"),
                format!("{space} chooses · {enter}: cursor's · {all}: all"),
            ],
            true => {
                let n = crate::report::fmt::counted(self.chosen.len() as u64, "threads");
                vec![
                    format!("{n} chosen · {enter} shows them, merged · {all}: all"),
                    format!("{n} chosen · {enter} shows them · {all}: all"),
                    format!("{n} chosen"),
                ]
            }
        }
    }

    /// Draws the list over the pane: the table widget every table is
    /// drawn by, the threads chosen ticked, what is shown (`showing`, the
    /// query's thread crumb) and what the keys do on its frame.
    pub fn render(&self, buf: &mut Buffer, showing: &str, theme: Theme) {
        let cx = self.cx();
        let area = cx.areas().table;
        Clear.render(area, buf);
        let rows = self.rows();
        let ticked = |row: u32| {
            rows.get(row as usize)
                .is_some_and(|r| self.chosen.contains(&r.info.id))
        };
        let extra = Extra {
            ticked: Some(&ticked),
            top: vec![format!("showing {showing}"), showing.to_string()],
            bottom: self.said(),
        };
        self.table.render_framed(buf, area, (&cx, theme), &extra);
    }
}

impl std::fmt::Debug for ThreadsList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ThreadsList")
            .field("table", &self.table)
            .field("chosen", &self.chosen)
            .field("searching", &self.searching)
            .finish_non_exhaustive()
    }
}

/// Two lists are alike when they show the same threads the same way with
/// the same chosen (what a test of the app's mode compares).
impl PartialEq for ThreadsList {
    fn eq(&self, other: &ThreadsList) -> bool {
        Arc::ptr_eq(self.loaded.loaded(), other.loaded.loaded())
            && self.chosen == other.chosen
            && self.opened == other.opened
            && self.searching == other.searching
            && self.table.cursor == other.table.cursor
            && self.table.sort == other.table.sort
            && self.table.search.text == other.table.search.text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::columns::ThreadColumn;
    use crate::analysis::query::thread_rows;
    use crate::tui::columns::Col;

    fn list(rows: impl FnOnce(&Profile) -> Vec<ThreadRow>) -> ThreadsList {
        let p = Arc::new(crate::tui::tests::fixture_timed("xpp/two-threads.prf"));
        let rows = rows(&p);
        ThreadsList::of(&p, rows, None, Rect::new(0, 0, 100, 30)).expect("a trace of two threads")
    }

    fn two() -> ThreadsList {
        list(thread_rows)
    }

    #[test]
    fn a_profile_of_one_implicit_thread_has_no_list() {
        let p = Arc::new(crate::tui::tests::demo_profile());
        let size = Rect::new(0, 0, 80, 24);
        assert!(ThreadsList::of(&p, thread_rows(&p), None, size).is_none());
    }

    /// Every thread shown (no choice made) opens every thread ticked;
    /// Space unticks one, and Enter shows those still chosen; with the
    /// ticks as they opened, Enter shows the thread under the cursor.
    #[test]
    fn enter_shows_the_thread_under_the_cursor_or_those_chosen() {
        let mut l = two();
        let ids: Vec<u64> = l.rows().iter().map(|r| r.info.id).collect();
        assert_eq!(l.chosen, ids, "all shown: all ticked");
        let first = l.current().expect("a row").info.id;
        assert_eq!(
            l.update(&Intent::Accept),
            Picked::Threads(Some(vec![first]))
        );
        l.update(&Intent::Toggle);
        let second = l.current().expect("a row").info.id;
        assert_eq!(l.chosen, [second], "Space unticks the first");
        assert_eq!(
            l.update(&Intent::Accept),
            Picked::Threads(Some(vec![second])),
            "the one still chosen"
        );
        l.update(&Intent::First);
        l.update(&Intent::Toggle);
        assert_eq!(l.chosen.len(), 2, "Space ticks it again");
        assert_eq!(
            l.update(&Intent::Accept),
            Picked::Threads(Some(vec![second])),
            "as opened: the cursor's"
        );
        l.update(&Intent::Toggle);
        l.update(&Intent::First);
        l.update(&Intent::Toggle);
        assert!(l.chosen.is_empty(), "none chosen");
        let at = l.current().expect("a row").info.id;
        assert_eq!(
            l.update(&Intent::Accept),
            Picked::Threads(Some(vec![at])),
            "none chosen: the cursor's"
        );
        assert_eq!(l.update(&Intent::AllThreads), Picked::Threads(None));
    }

    /// A thread choice shown opens the list with those threads ticked;
    /// choosing the others too is every thread, merged.
    #[test]
    fn a_choice_shown_opens_ticked() {
        let p = Arc::new(crate::tui::tests::fixture_timed("xpp/two-threads.prf"));
        let rows = thread_rows(&p);
        let (one, other) = (rows[0].info.id, rows[1].info.id);
        let size = Rect::new(0, 0, 100, 30);
        let mut l = ThreadsList::of(&p, rows, Some(&[one]), size).expect("a list");
        assert_eq!(l.chosen, [one]);
        while l.current().map(|r| r.info.id) != Some(other) {
            l.update(&Intent::Move(1));
        }
        l.update(&Intent::Toggle);
        assert_eq!(
            l.update(&Intent::Accept),
            Picked::Threads(None),
            "both: all"
        );
    }

    #[test]
    fn the_list_opens_busiest_first_on_its_first_row() {
        // The less busy thread first in the rows, as a trace may have it.
        let l = list(|p| thread_rows(p).into_iter().rev().collect());
        let shown = l.shown();
        let busy = |i: usize| l.rows()[shown[i] as usize].info.busy_ms;
        assert!(busy(0) > busy(1), "{:?} > {:?}", busy(0), busy(1));
        assert_eq!(l.current().and_then(|r| r.info.busy_ms), busy(0));
    }

    #[test]
    fn sorting_keeps_the_cursor_on_its_thread() {
        let mut l = two();
        l.update(&Intent::Move(1));
        let id = l.current().expect("a row").info.id;
        let n = l.cx().columns(Table::Threads).cols.len();
        for _ in 0..n {
            l.update(&Intent::SortNext);
            assert_eq!(l.current().expect("a row").info.id, id);
        }
        assert_eq!(
            l.table.sort.map(|s| s.0),
            Some(Col::T(ThreadColumn::BusyMs)),
            "round the columns"
        );
        l.update(&Intent::Reverse);
        let shown = l.shown();
        let busy = |i: usize| l.rows()[shown[i] as usize].info.busy_ms;
        assert!(busy(0) <= busy(shown.len() - 1), "least busy first");
    }

    /// `/` types into the list's search, which keeps the threads whose
    /// heaviest function matches; Esc clears it, then closes the list.
    #[test]
    fn the_list_searches_as_a_table() {
        let mut l = two();
        let heaviest = |l: &ThreadsList| {
            let p = l.loaded.loaded();
            l.current()
                .and_then(|r| r.heaviest)
                .map(|(f, _)| p.function_name(f).to_string())
        };
        let other = {
            l.update(&Intent::Move(1));
            heaviest(&l).expect("a heaviest function")
        };
        l.update(&Intent::Search);
        for c in other.chars() {
            assert_eq!(l.update(&Intent::Input(c)), Picked::Stay);
        }
        l.update(&Intent::Accept);
        assert!(!l.searching);
        assert_eq!(l.shown().len(), 1, "one thread's heaviest matches");
        assert_eq!(heaviest(&l), Some(other));
        assert_eq!(l.update(&Intent::Cancel), Picked::Stay, "Esc clears");
        assert_eq!(l.shown().len(), 2);
        assert_eq!(l.update(&Intent::Cancel), Picked::Close);
    }
}
