//! The threads list (`H`): a trace's threads with their span, busy time,
//! events, calls and heaviest function (`analysis::query::thread_rows`),
//! sortable; Space chooses several, Enter shows the threads chosen (their
//! numbers merged), `a` every thread. A picker over the panes rather than
//! an eighth tab: a thread choice is a question asked of every pane, not a
//! view of its own, and it is made and left in one gesture.

use super::intent::Intent;
use crate::analysis::query::ThreadRow;
#[cfg(test)]
use crate::analysis::query::thread_rows;
use crate::model::Profile;
use crate::text::visible;
use std::cmp::Ordering;

/// A column of the list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreadCol {
    Id,
    First,
    Last,
    Busy,
    Events,
    Calls,
    Heaviest,
}

impl ThreadCol {
    /// The columns, left to right.
    pub const ALL: [ThreadCol; 7] = [
        ThreadCol::Id,
        ThreadCol::First,
        ThreadCol::Last,
        ThreadCol::Busy,
        ThreadCol::Events,
        ThreadCol::Calls,
        ThreadCol::Heaviest,
    ];

    /// Its heading.
    pub fn title(self) -> &'static str {
        match self {
            ThreadCol::Id => "thread",
            ThreadCol::First => "first",
            ThreadCol::Last => "last",
            ThreadCol::Busy => "busy",
            ThreadCol::Events => "events",
            ThreadCol::Calls => "calls",
            ThreadCol::Heaviest => "heaviest function",
        }
    }
}

/// The list's state: its rows, their order, the cursor and the threads
/// chosen.
#[derive(Debug, PartialEq)]
pub struct ThreadsList {
    pub rows: Vec<ThreadRow>,
    /// Each row's heaviest function, shown (through `text::visible`).
    pub heaviest: Vec<String>,
    /// Its own time, grouped: a cell cuts the name, never this.
    pub heaviest_ms: Vec<Option<String>>,
    /// The name after each time: the profile's time unit's.
    pub time_unit: &'static str,
    /// The rows in the order shown.
    pub order: Vec<usize>,
    pub sort: ThreadCol,
    /// Largest first.
    pub descending: bool,
    /// The cursor's place in `order`.
    pub cursor: usize,
    /// The ids chosen with Space, in the rows' order.
    pub chosen: Vec<u64>,
    /// The ids chosen when the list opened (the threads shown): while
    /// `chosen` is still these, Enter shows the thread under the cursor.
    pub opened: Vec<u64>,
}

/// What the list asks of the app.
#[derive(Debug, PartialEq)]
pub enum Picked {
    Stay,
    Close,
    Quit,
    /// Show these threads (`None`: all, merged).
    Threads(Option<Vec<u64>>),
}

impl ThreadsList {
    /// The list of `loaded`'s threads (`rows`, `thread_rows`'), the ids of
    /// `chosen` marked; `None` for a profile with one implicit thread.
    pub fn new(
        loaded: &Profile,
        rows: Vec<ThreadRow>,
        chosen: Option<&[u64]>,
    ) -> Option<ThreadsList> {
        if rows.is_empty() {
            return None;
        }
        let heaviest = rows
            .iter()
            .map(|r| match r.heaviest {
                Some((f, _)) => visible(loaded.function_name(f)).into_owned(),
                None => String::new(),
            })
            .collect();
        let heaviest_ms = rows
            .iter()
            .map(|r| {
                r.heaviest
                    .map(|(_, t)| crate::report::fmt::grouped_time(loaded, t))
            })
            .collect();
        let chosen = chosen.map(<[u64]>::to_vec).unwrap_or_default();
        let mut list = ThreadsList {
            order: (0..rows.len()).collect(),
            rows,
            heaviest,
            heaviest_ms,
            time_unit: loaded.time_unit_name(),
            sort: ThreadCol::Busy,
            descending: true,
            cursor: 0,
            opened: chosen.clone(),
            chosen,
        };
        list.sort();
        // On the first row shown (the busiest thread), whichever appeared
        // first in the trace.
        list.cursor = 0;
        Some(list)
    }

    fn cmp(&self, a: usize, b: usize) -> Ordering {
        let (x, y) = (&self.rows[a].info, &self.rows[b].info);
        let num = |u: Option<f64>, v: Option<f64>| match (u, v) {
            (Some(u), Some(v)) => u.total_cmp(&v),
            (u, v) => u.is_some().cmp(&v.is_some()),
        };
        match self.sort {
            ThreadCol::Id => x.id.cmp(&y.id),
            ThreadCol::First => num(x.first_ms, y.first_ms),
            ThreadCol::Last => num(x.last_ms, y.last_ms),
            ThreadCol::Busy => num(x.busy_ms, y.busy_ms),
            ThreadCol::Events => x.events.cmp(&y.events),
            ThreadCol::Calls => x.calls.cmp(&y.calls),
            ThreadCol::Heaviest => self.heaviest[a].cmp(&self.heaviest[b]),
        }
    }

    /// Orders the rows by the sort column; ties keep the trace's order.
    fn sort(&mut self) {
        let at = self.order.get(self.cursor).copied();
        let mut order: Vec<usize> = (0..self.rows.len()).collect();
        order.sort_by(|&a, &b| {
            let o = self.cmp(a, b);
            match self.descending {
                true => o.reverse(),
                false => o,
            }
            .then(a.cmp(&b))
        });
        self.order = order;
        self.cursor = at
            .and_then(|r| self.order.iter().position(|&o| o == r))
            .unwrap_or(0);
    }

    /// The thread under the cursor.
    pub fn current(&self) -> Option<&ThreadRow> {
        self.rows.get(*self.order.get(self.cursor)?)
    }

    /// Takes a key's intent.
    pub fn update(&mut self, intent: &Intent) -> Picked {
        let last = self.rows.len().saturating_sub(1);
        match intent {
            Intent::Move(n) => self.cursor = super::pane::step(self.cursor, *n, self.rows.len()),
            Intent::PageDown => self.cursor = (self.cursor + 10).min(last),
            Intent::PageUp => self.cursor = self.cursor.saturating_sub(10),
            Intent::First => self.cursor = 0,
            Intent::Last => self.cursor = last,
            Intent::Toggle => {
                if let Some(id) = self.current().map(|r| r.info.id) {
                    match self.chosen.iter().position(|&c| c == id) {
                        Some(i) => {
                            self.chosen.remove(i);
                        }
                        None => self.chosen.push(id),
                    }
                    // In the trace's order, as `--thread` lists them.
                    let rank = |id: &u64| self.rows.iter().position(|r| r.info.id == *id);
                    let mut chosen = std::mem::take(&mut self.chosen);
                    chosen.sort_by_key(rank);
                    self.chosen = chosen;
                }
                self.cursor = (self.cursor + 1).min(last);
            }
            Intent::Accept => {
                // The threads chosen, once Space changed them; else (none
                // newly chosen) the one under the cursor.
                let ids = match self.newly_chosen() {
                    false => self.current().map(|r| vec![r.info.id]).unwrap_or_default(),
                    true => self.chosen.clone(),
                };
                // Every thread chosen is all of them, merged: the loaded
                // profile itself, no replay.
                return match ids.len() == self.rows.len() {
                    true => Picked::Threads(None),
                    false => Picked::Threads(Some(ids)),
                };
            }
            Intent::AllThreads => return Picked::Threads(None),
            Intent::SortNext | Intent::SortPrev => {
                let n = ThreadCol::ALL.len();
                let at = ThreadCol::ALL
                    .iter()
                    .position(|&c| c == self.sort)
                    .unwrap_or(0);
                let next = match intent {
                    Intent::SortNext => (at + 1) % n,
                    _ => (at + n - 1) % n,
                };
                self.sort = ThreadCol::ALL[next];
                // Numbers largest first, names and ids from the start.
                self.descending = !matches!(self.sort, ThreadCol::Id | ThreadCol::Heaviest);
                self.sort();
            }
            Intent::Reverse => {
                self.descending = !self.descending;
                self.sort();
            }
            Intent::Cancel | Intent::Threads => return Picked::Close,
            Intent::Quit => return Picked::Quit,
            _ => {}
        }
        Picked::Stay
    }

    /// Whether Space changed the threads chosen since the list opened
    /// (and some are chosen): Enter shows them rather than the cursor's.
    pub fn newly_chosen(&self) -> bool {
        !self.chosen.is_empty() && self.chosen != self.opened
    }

    /// A row's heaviest function in `room` columns: `NAME (39.0 ms)`, the
    /// name cut (in the middle, as the tables cut one), never the time.
    pub fn heaviest_cell(&self, row: usize, room: usize) -> String {
        use unicode_width::UnicodeWidthStr;
        let name = &self.heaviest[row];
        let Some(ms) = &self.heaviest_ms[row] else {
            return crate::tui::fit::fit_name(name, room);
        };
        let time = format!(" ({ms})");
        match room.checked_sub(time.width()) {
            Some(left) if left >= 1 => {
                format!("{}{time}", crate::tui::fit::fit_name(name, left))
            }
            // Too narrow for the time: the name alone, cut.
            _ => crate::tui::fit::fit_name(name, room),
        }
    }

    /// A row's cells, as the list shows them.
    pub fn cells(&self, row: usize) -> Vec<String> {
        let r = &self.rows[row];
        let ms = |v: Option<f64>| {
            v.map_or("–".to_string(), |t| {
                crate::report::fmt::grouped_in(t, self.time_unit)
            })
        };
        vec![
            r.info.id.to_string(),
            ms(r.info.first_ms),
            ms(r.info.last_ms),
            ms(r.info.busy_ms),
            crate::report::fmt::grouped(r.info.events),
            crate::report::fmt::grouped(r.info.calls),
            self.heaviest_cell(row, usize::MAX),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two() -> ThreadsList {
        let p = crate::tui::tests::fixture_timed("xpp/two-threads.prf");
        ThreadsList::new(&p, thread_rows(&p), None).expect("a trace of two threads")
    }

    #[test]
    fn a_profile_of_one_implicit_thread_has_no_list() {
        let p = crate::tui::tests::demo_profile();
        assert!(ThreadsList::new(&p, thread_rows(&p), None).is_none());
    }

    #[test]
    fn enter_shows_the_thread_under_the_cursor_or_those_chosen() {
        let mut l = two();
        let first = l.current().expect("a row").info.id;
        assert_eq!(
            l.update(&Intent::Accept),
            Picked::Threads(Some(vec![first]))
        );
        l.update(&Intent::Toggle);
        l.update(&Intent::Toggle);
        assert_eq!(l.chosen.len(), 2);
        assert_eq!(
            l.update(&Intent::Accept),
            Picked::Threads(None),
            "both: all"
        );
        l.update(&Intent::First);
        l.update(&Intent::Toggle);
        assert_eq!(l.chosen.len(), 1, "Space again unchooses");
        assert_eq!(l.update(&Intent::AllThreads), Picked::Threads(None));
    }

    #[test]
    fn the_list_opens_busiest_first_on_its_first_row() {
        // The less busy thread first in the rows, as a trace may have it.
        let p = crate::tui::tests::fixture_timed("xpp/two-threads.prf");
        let rows: Vec<ThreadRow> = thread_rows(&p).into_iter().rev().collect();
        let l = ThreadsList::new(&p, rows, None).expect("a trace of two threads");
        let busy = |i: usize| l.rows[l.order[i]].info.busy_ms;
        assert!(busy(0) > busy(1), "{:?} > {:?}", busy(0), busy(1));
        assert_eq!(l.current().and_then(|r| r.info.busy_ms), busy(0));
    }

    #[test]
    fn sorting_keeps_the_cursor_on_its_thread() {
        let mut l = two();
        l.update(&Intent::Move(1));
        let id = l.current().expect("a row").info.id;
        for _ in 0..ThreadCol::ALL.len() {
            l.update(&Intent::SortNext);
            assert_eq!(l.current().expect("a row").info.id, id);
        }
        assert_eq!(l.sort, ThreadCol::Busy, "round the columns");
        l.update(&Intent::Reverse);
        assert!(!l.descending);
        let busy = |i: usize| l.rows[l.order[i]].info.busy_ms;
        assert!(busy(0) <= busy(l.rows.len() - 1), "least busy first");
    }
}
