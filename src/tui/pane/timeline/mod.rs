//! The Timeline pane (tab 8, issue 65): a trace's threads across the run,
//! a lane each, each cell shaded by how busy its thread was there and
//! named by the function on top for most of it. It reads the answer's
//! events (the threads chosen, as they ran: a transform changes no event)
//! and their lanes (`Profile::lanes`, made while loading whatever the
//! trace's size); zoomed in past a lane's resolution, it reads the calls
//! in time order where the load kept them (`flame_chart::Chart`, made the
//! first time it is needed), else it shows busy time only and says so.
//!
//! A cursor moves along the run (`←`/`→`, a click); `+`/`-` zoom around
//! it, `Shift-←`/`Shift-→` pan the window (Perfetto's W/S/A/D, on keys the
//! query does not use). `v` marks a range's start, `v` again its end, and
//! `Enter` asks it (`App::ask_range`); `Esc` clears the marks, or with none
//! backs out the last range (`App::back_out_range`).

mod draw;

use super::{Ctx, Effect, inner};
use crate::analysis::flame_chart::Chart;
use crate::analysis::lanes_view;
use crate::analysis::query::Removed;
use crate::model::{FuncId, Profile};
use crate::tui::intent::Intent;
use crate::tui::keymap::{Place, key_for};
use crate::tui::layout::Areas;
use crate::tui::render::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use std::sync::Arc;

/// The narrowest cell a zoom makes, in the trace's unit (a nanosecond
/// when times are in ms): three decimals show no less.
const MIN_CELL: f64 = 1e-6;

/// Screen rows a lane takes: its title, then its cells.
pub(super) const LANE_ROWS: u16 = 2;

/// Where the user is on the timeline (`TimelinePane::spot`).
#[derive(Debug)]
pub struct Spot {
    /// The stretch shown, when zoomed in: `None` is the whole run.
    window: Option<(f64, f64)>,
    cursor: f64,
    thread: Option<u64>,
    marks: (Option<f64>, Option<f64>),
}

/// Where the Timeline is: its lanes (threads, by id), the run and the
/// window of it on screen, the cursor, the selected lane, the marks of a
/// range, and the calls in time order once they are read.
#[derive(Debug, Default)]
pub struct TimelinePane {
    /// The lanes' threads, indexes into `Profile::threads`, by their ids.
    pub order: Vec<usize>,
    /// The first event's time and the last's, of every thread.
    pub run: (f64, f64),
    /// The stretch of the run the width shows.
    pub window: (f64, f64),
    /// The time under the cursor.
    pub cursor: f64,
    /// The selected lane (index into `order`), and how many lanes are
    /// scrolled off the top.
    pub lane: usize,
    pub top: usize,
    /// A range's start, and its end once marked (`v`).
    pub marks: (Option<f64>, Option<f64>),
    /// The calls in time order, read when first zoomed in past a lane.
    pub chart: Option<Arc<Chart>>,
}

impl TimelinePane {
    pub fn new(cx: &Ctx) -> TimelinePane {
        let p = cx.profile;
        if p.lanes().is_none() {
            return TimelinePane::default();
        }
        let threads = p.threads();
        let mut order: Vec<usize> = (0..threads.len()).collect();
        order.sort_by_key(|&i| threads[i].id);
        let first = threads.iter().filter_map(|t| t.first_ms).reduce(f64::min);
        let last = threads.iter().filter_map(|t| t.last_ms).reduce(f64::max);
        let (a, b) = (first.unwrap_or(0.0), last.unwrap_or(0.0));
        // A run of one instant still has a width to draw.
        let run = (a, if b > a { b } else { a + 1.0 });
        // It opens on the query's range, as the time order does (tui.md §
        // Time ranges): the stretch every pane reads, `-` zooming out to
        // the whole run.
        let window = cx
            .answer
            .range()
            .map(|r| (r.from_ms.max(run.0), r.until_ms.min(run.1)))
            .filter(|(from, until)| from < until)
            .unwrap_or(run);
        TimelinePane {
            order,
            run,
            window,
            cursor: window.0,
            ..TimelinePane::default()
        }
    }

    /// Where the user is on the timeline, kept across a new profile of
    /// the run (`pane/spot.rs`): the stretch shown (or the whole run,
    /// which a growing trace lengthens), the cursor, the selected lane's
    /// thread and the marks.
    pub fn spot(&self, p: &crate::model::Profile) -> Spot {
        Spot {
            window: (self.window != self.run).then_some(self.window),
            cursor: self.cursor,
            thread: self
                .order
                .get(self.lane)
                .and_then(|&i| Some(p.threads().get(i)?.id)),
            marks: self.marks,
        }
    }

    /// Puts `spot` back on this timeline, made of `p`: a stretch within
    /// the run, the lane of the same thread.
    pub fn put_spot(&mut self, spot: Spot, p: &crate::model::Profile) {
        if !self.timed() {
            return;
        }
        let (a, b) = self.run;
        if let Some((from, until)) = spot.window.map(|(f, u)| (f.max(a), u.min(b)))
            && from < until
        {
            self.window = (from, until);
        }
        self.cursor = spot.cursor.clamp(a, b);
        self.marks = spot.marks;
        let threads = p.threads();
        if let Some(lane) = (spot.thread).and_then(|id| {
            self.order
                .iter()
                .position(|&i| threads.get(i).map(|t| t.id) == Some(id))
        }) {
            self.lane = lane;
        }
    }

    /// Whether there is a timeline to draw: a timed trace's lanes.
    pub fn timed(&self) -> bool {
        !self.order.is_empty()
    }

    pub fn render(&self, buf: &mut Buffer, a: &Areas, cx: &Ctx, theme: Theme) {
        draw::pane(buf, a.table, self, cx, theme);
    }

    /// Where the axis and the lanes are drawn: the pane's inside less its
    /// status line.
    pub fn area(cx: &Ctx) -> Rect {
        let i = inner(cx.areas().table);
        Rect::new(i.x, i.y, i.width, i.height.saturating_sub(1))
    }

    /// How many lanes fit below the axis.
    pub fn shown(cx: &Ctx) -> usize {
        usize::from(Self::area(cx).height.saturating_sub(1) / LANE_ROWS).max(1)
    }

    /// A cell's width in time.
    pub fn cell(&self, cx: &Ctx) -> f64 {
        let n = f64::from(Self::area(cx).width.max(1));
        (self.window.1 - self.window.0) / n
    }

    /// The cell of time `t`, if it is in the window (its end in the last
    /// cell).
    pub fn cell_of(&self, t: f64, cx: &Ctx) -> Option<u16> {
        let n = Self::area(cx).width;
        let i = ((t - self.window.0) / self.cell(cx)).floor();
        let inside = i >= 0.0 && t <= self.window.1 && n > 0;
        inside.then(|| (i as u16).min(n - 1))
    }

    /// Whether lane `th` (a thread's index) is drawn past its resolution:
    /// a cell narrower than its buckets.
    pub fn past(&self, p: &Profile, th: usize, cx: &Ctx) -> bool {
        let lane = p.lanes().and_then(|l| l.lane(th));
        lane.is_some_and(|l| !l.buckets().is_empty() && self.cell(cx) < l.width())
    }

    /// The chart's band of a thread (bands are in the order of ids).
    pub fn band(&self, p: &Profile, th: usize) -> Option<usize> {
        let id = p.threads().get(th)?.id;
        self.chart.as_deref()?.bands.iter().position(|b| b.id == id)
    }

    /// What ran on the selected lane at the cursor: the function on top
    /// there, read from the calls (zoomed in past the lane, where they
    /// are kept), else the cursor's cell as the lane draws it.
    pub fn under_cursor(&self, cx: &Ctx) -> Option<Under> {
        let p = cx.profile;
        let &th = self.order.get(self.lane)?;
        let dx = self.cell(cx);
        let at = self.window.0 + dx * f64::from(self.cell_of(self.cursor, cx)?);
        let past = self.past(p, th, cx);
        if past && let (Some(c), Some(band)) = (self.chart.as_deref(), self.band(p, th)) {
            return Some(Under {
                func: lanes_view::running_at(c, band, self.cursor),
                exact: true,
                busy: lanes_view::cells(c, band, (at, at + dx), 1)[0].busy / dx,
            });
        }
        let cell = p.lanes()?.lane(th)?.cells((at, at + dx), 1)[0];
        Some(Under {
            func: cell.func.filter(|_| !past),
            exact: false,
            busy: cell.busy / dx,
        })
    }

    /// The function under the cursor, in the events' profile.
    fn running(&self, cx: &Ctx) -> Option<FuncId> {
        self.under_cursor(cx)?.func
    }

    /// The function under the cursor, in the query's profile (through the
    /// answer's one mapping), for the query's keys and `t`, `f`, `y`.
    pub fn function(&self, cx: &Ctx) -> Option<FuncId> {
        let f = self.running(cx)?;
        cx.answer.to_paths(cx.answer.time_order_function(f)).ok()
    }

    /// Which step removed the function under the cursor, if one did.
    pub fn removed(&self, cx: &Ctx) -> Option<Removed> {
        let f = self.running(cx)?;
        cx.answer.to_paths(cx.answer.time_order_function(f)).err()
    }

    /// `y`: the name of the function under the cursor.
    pub fn copy_text(&self, cx: &Ctx) -> Option<String> {
        let f = self.running(cx)?;
        Some(cx.profile.function_name(f).to_string())
    }

    /// Keeps the selected lane on a lane and on screen.
    pub fn keep_visible(&mut self, cx: &Ctx) {
        let len = self.order.len();
        super::keep_visible(&mut self.lane, &mut self.top, len, Self::shown(cx));
    }

    pub fn update(&mut self, intent: &Intent, cx: &Ctx) -> Effect {
        if !self.timed() {
            return match intent {
                Intent::Cursor(_)
                | Intent::ZoomTime(_)
                | Intent::Pan(_)
                | Intent::MarkRange
                | Intent::CommitRange => Effect::Say(no_times(cx.profile)),
                _ => Effect::Ignored,
            };
        }
        let effect = self.take(intent, cx);
        self.read_calls(cx);
        effect
    }

    /// An intent on a timed trace's lanes.
    fn take(&mut self, intent: &Intent, cx: &Ctx) -> Effect {
        let dx = self.cell(cx);
        match intent {
            Intent::Cursor(d) => self.put_cursor(self.cursor + dx * *d as f64),
            Intent::First => self.put_cursor(self.run.0),
            Intent::Last => self.put_cursor(self.run.1),
            Intent::ZoomTime(z) => return self.zoom(*z, cx),
            Intent::Pan(d) => {
                let w = self.window.1 - self.window.0;
                self.show_from(self.window.0 + w / 4.0 * *d as f64);
                self.cursor = self.cursor.clamp(self.window.0, self.window.1);
            }
            Intent::Move(d) => self.lane = super::step(self.lane, *d, self.order.len()),
            Intent::Wheel { rows, .. } => {
                self.lane = super::step(self.lane, rows.signum(), self.order.len())
            }
            Intent::PageUp | Intent::PageDown => {
                let page = Self::shown(cx) as isize;
                let d = if *intent == Intent::PageUp {
                    -page
                } else {
                    page
                };
                self.lane = super::step(self.lane, d, self.order.len());
            }
            Intent::Click { x, y } => return self.click(*x, *y, cx),
            Intent::MarkRange => return self.mark(cx),
            Intent::CommitRange => return self.commit(),
            Intent::BackOutRange if self.marks.0.is_some() => {
                self.marks = (None, None);
                return Effect::Say("the range's marks are cleared".into());
            }
            Intent::BackOutRange => return Effect::BackOutRange,
            _ => return Effect::Ignored,
        }
        Effect::Done
    }

    /// The cursor at `t` (within the run), the window moved to show it.
    fn put_cursor(&mut self, t: f64) {
        self.cursor = t.clamp(self.run.0, self.run.1);
        let w = self.window.1 - self.window.0;
        if self.cursor < self.window.0 {
            self.show_from(self.cursor);
        } else if self.cursor > self.window.1 {
            self.show_from(self.cursor - w);
        }
    }

    /// The window, its width kept, from `from` (within the run).
    fn show_from(&mut self, from: f64) {
        let w = self.window.1 - self.window.0;
        let from = from.min(self.run.1 - w).max(self.run.0);
        self.window = (from, from + w);
    }

    /// `+` (`z` > 0) or `-`: half or twice the window's width, the cursor
    /// where it was on screen.
    fn zoom(&mut self, z: isize, cx: &Ctx) -> Effect {
        let w = self.window.1 - self.window.0;
        let cells = f64::from(Self::area(cx).width.max(1));
        let run = self.run.1 - self.run.0;
        let new = if z > 0 { w / 2.0 } else { w * 2.0 };
        if z > 0 && w / cells <= MIN_CELL {
            let unit = cx.profile.time_unit_name();
            return Effect::Say(format!(
                "zoomed in as far as it goes: a cell is {MIN_CELL} {unit}"
            ));
        }
        // Halved and doubled, a width comes back to the run's but for
        // its last bits.
        let whole = run * (1.0 - 1e-9);
        if z < 0 && w >= whole {
            return Effect::Say("the whole run is shown".into());
        }
        if new >= whole {
            self.window = self.run;
            return Effect::Done;
        }
        let new = new.max(MIN_CELL * cells);
        let from = self.cursor - (self.cursor - self.window.0) * (new / w);
        self.window = (from, from + new);
        self.show_from(from);
        Effect::Done
    }

    /// A click on a lane: the cursor there, on its thread.
    fn click(&mut self, x: u16, y: u16, cx: &Ctx) -> Effect {
        let area = Self::area(cx);
        if !area.contains(Position::new(x, y)) {
            return Effect::Ignored;
        }
        let dx = self.cell(cx);
        self.cursor = self.window.0 + dx * (f64::from(x - area.x) + 0.5);
        if let Some(row) = (y - area.y).checked_sub(1) {
            let lane = self.top + usize::from(row / LANE_ROWS);
            if lane < self.order.len() {
                self.lane = lane;
            }
        }
        Effect::Done
    }

    /// `v`: a range's start at the cursor; again, its end (a third time,
    /// a new start).
    fn mark(&mut self, cx: &Ctx) -> Effect {
        // A mark is the time the status line shows (to the thousandth of
        // the trace's unit): a range is asked with the edges a person read,
        // not a cell's position to the last bit.
        self.cursor = (self.cursor * 1000.0).round() / 1000.0;
        let p = cx.profile;
        let t = |x: f64| crate::report::fmt::grouped_time(p, x);
        let v = key_for(&Intent::MarkRange, Place::Timeline);
        match self.marks {
            (Some(a), None) => {
                self.marks.1 = Some(self.cursor);
                let (a, b) = ordered(a, self.cursor);
                let enter = key_for(&Intent::CommitRange, Place::Timeline);
                let esc = key_for(&Intent::BackOutRange, Place::Timeline);
                Effect::Say(format!(
                    "range {}–{} · {enter} asks it, {esc} clears it",
                    t(a),
                    t(b)
                ))
            }
            _ => {
                self.marks = (Some(self.cursor), None);
                Effect::Say(format!(
                    "range from {} · {v} again marks its end",
                    t(self.cursor)
                ))
            }
        }
    }

    /// `Enter`: the range marked, asked of the query.
    fn commit(&mut self) -> Effect {
        let v = key_for(&Intent::MarkRange, Place::Timeline);
        match self.marks {
            (Some(a), Some(b)) if a != b => {
                self.marks = (None, None);
                let (a, b) = ordered(a, b);
                Effect::AskRange(a, b)
            }
            (Some(_), Some(_)) => Effect::Say(format!(
                "the range marked is an instant: {v} marks a start and an end apart"
            )),
            (Some(_), None) => Effect::Say(format!("{v} marks the range's end first")),
            (None, _) => {
                let enter = key_for(&Intent::CommitRange, Place::Timeline);
                Effect::Say(format!(
                    "no range marked: {v} marks its start at the cursor, {v} again its end, {enter} asks it"
                ))
            }
        }
    }

    /// Reads the calls in time order once a lane is drawn past its
    /// resolution, where the load kept them.
    fn read_calls(&mut self, cx: &Ctx) {
        if self.chart.is_some() {
            return;
        }
        let p = cx.profile;
        let Some(tl) = p.timeline() else {
            return;
        };
        if self.order.iter().any(|&th| self.past(p, th, cx)) {
            self.chart = Some(Arc::new(Chart::from_timeline(tl)));
        }
    }
}

/// What ran on the selected lane at the cursor (`under_cursor`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Under {
    /// The function on top (for most of the cursor's cell, unless
    /// `exact`); `None` when idle, or when only busy time is known.
    pub func: Option<FuncId>,
    /// Whether `func` is the one on top at the cursor's very time.
    pub exact: bool,
    /// The share of the cursor's cell the thread was busy, 0 to 1.
    pub busy: f64,
}

/// Two times, earlier first.
fn ordered(a: f64, b: f64) -> (f64, f64) {
    if a <= b { (a, b) } else { (b, a) }
}

/// Why a profile has no timeline.
pub(super) fn no_times(p: &Profile) -> String {
    match p.threads().is_empty() {
        true => format!(
            "no timeline: this {} profile has no times per thread (a trace of events has)",
            p.format
        ),
        false => "no timeline: this trace records no times".into(),
    }
}
