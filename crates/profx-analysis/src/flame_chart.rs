//! The Flame pane's time-order mode (speedscope's "time order", Chrome's
//! flame chart): x is time, each thread a band of rows, one row a depth,
//! each call a box from its start to its end. Where the flame graph merges
//! every call of a path into one frame, this keeps them apart, so the order
//! of the run shows: a loop is a row of boxes, a stall a gap.
//!
//! It reads the trace's timeline (`Profile::timeline`), whose opens and
//! closes are exactly the pushes and pops the metrics counted. Calls are
//! kept in the order they were opened; each level (thread, depth) is a run
//! of calls that do not overlap, in time order, so a window of time is
//! found in a level by binary search and a frame costs the cells it fills:
//! a run of calls thinner than a cell is one `…` cell, skipped over by a
//! second search, never visited call by call. No call is left out: every
//! cell a call covers is drawn, as its box or as a `…` where several calls
//! share it, and a call a cell wide or more always has a cell of its own,
//! so a busy thread never reads as a stalled one.

use super::flame_view::Block;
use profx_model::FuncId;
use profx_model::timeline::Timeline;

/// No parent: a call made with nothing open on its thread.
pub const NO_CALL: u32 = u32::MAX;

/// One call (32 bytes: a chart of a million calls holds 36 MB with its
/// levels): when it was opened and closed (milliseconds on the trace's
/// clock, or for an untimed trace the places of its marks), its function,
/// who called it, its thread (index into `Chart::bands`) and its depth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Call {
    /// When the call was opened.
    pub start: f64,
    /// When it was closed.
    pub end: f64,
    /// The function called.
    pub func: FuncId,
    /// The call that made it; `NO_CALL` for one made with nothing open.
    pub parent: u32,
    /// Its band: the index into `Chart::bands`.
    pub thread: u32,
    /// How many calls were open on its thread when it was made.
    pub depth: u32,
}

impl Call {
    /// How long the call was open: ms, or marks for an untimed trace.
    pub fn duration(&self) -> f64 {
        self.end - self.start
    }
}

/// One thread's band: the id the file gives it, and where its levels start
/// in `Chart::order`.
#[derive(Clone, Debug, PartialEq)]
pub struct Band {
    /// The id the file gives the thread.
    pub id: u64,
    /// Index of its depth-0 level in `Chart::level_start`.
    first_level: usize,
    /// How many depths it has (its deepest call's depth + 1).
    pub depths: usize,
    /// How many calls it made.
    pub calls: usize,
}

/// Every call of a trace, by level.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Chart {
    /// Whether x is time (else the order of the trace's events).
    pub timed: bool,
    /// Every call, in the order opened; a call's id is its index.
    pub calls: Vec<Call>,
    /// One band a thread, in ascending order of the file's thread ids.
    pub bands: Vec<Band>,
    /// Call ids, level by level (band by band, depth by depth), each level
    /// in time order.
    order: Vec<u32>,
    /// Where each level starts in `order`, and one past the last (calls
    /// are numbered in `u32`).
    level_start: Vec<u32>,
    /// The first mark's time and the last's: the full width.
    pub start: f64,
    /// The last mark's time: where the full width ends.
    pub end: f64,
}

impl Chart {
    /// Pairs the timeline's opens and closes, thread by thread. A close
    /// with nothing open (which the trace feed never writes) is left out.
    pub fn from_timeline(tl: &Timeline) -> Chart {
        let threads = tl.threads.len();
        // Bands in id order, as profx lists threads everywhere (the
        // timeline lists them as they first appear).
        let by_id = crate::query::by_id(tl.threads.iter().map(|t| t.id));
        let mut band_of = vec![0u32; threads];
        for (b, &t) in by_id.iter().enumerate() {
            band_of[t] = b as u32;
        }
        let mut open: Vec<Vec<u32>> = vec![Vec::new(); threads];
        let mut calls: Vec<Call> = Vec::new();
        let mut depths = vec![0usize; threads];
        for m in &tl.marks {
            let Some(stack) = open.get_mut(m.thread as usize) else {
                continue;
            };
            if m.open() {
                let Ok(id) = u32::try_from(calls.len()) else {
                    break;
                };
                let depth = stack.len();
                let band = band_of[m.thread as usize];
                depths[band as usize] = depths[band as usize].max(depth + 1);
                calls.push(Call {
                    start: m.at,
                    end: m.at,
                    func: m.func(),
                    parent: stack.last().copied().unwrap_or(NO_CALL),
                    thread: band,
                    depth: u32::try_from(depth).unwrap_or(u32::MAX),
                });
                stack.push(id);
            } else if let Some(id) = stack.pop() {
                calls[id as usize].end = m.at;
            }
        }
        // Levels by a counting sort on (band, depth); calls were opened in
        // time order, so each level comes out in time order.
        let mut bands = Vec::with_capacity(threads);
        let mut first = 0;
        for (b, &t) in by_id.iter().enumerate() {
            bands.push(Band {
                id: tl.threads[t].id,
                first_level: first,
                depths: depths[b],
                calls: 0,
            });
            first += depths[b];
        }
        let mut level_start = vec![0u32; first + 1];
        for c in &calls {
            level_start[bands[c.thread as usize].first_level + c.depth as usize + 1] += 1;
            bands[c.thread as usize].calls += 1;
        }
        for i in 1..level_start.len() {
            level_start[i] += level_start[i - 1];
        }
        let mut fill = level_start.clone();
        let mut order = vec![0u32; calls.len()];
        for (id, c) in calls.iter().enumerate() {
            let level = bands[c.thread as usize].first_level + c.depth as usize;
            order[fill[level] as usize] = id as u32;
            fill[level] += 1;
        }
        let (start, end) = tl
            .threads
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), t| {
                (a.min(t.first), b.max(t.last))
            });
        let (start, end) = if start <= end {
            (start, end)
        } else {
            (0.0, 0.0)
        };
        Chart {
            timed: tl.timed,
            calls,
            bands,
            order,
            level_start,
            start,
            end,
        }
    }

    /// Call `id`.
    pub fn call(&self, id: u32) -> &Call {
        &self.calls[id as usize]
    }

    /// The calls of a band at a depth, in time order.
    pub fn level(&self, band: usize, depth: usize) -> &[u32] {
        let Some(b) = self.bands.get(band) else {
            return &[];
        };
        if depth >= b.depths {
            return &[];
        }
        let l = b.first_level + depth;
        &self.order[self.level_start[l] as usize..self.level_start[l + 1] as usize]
    }

    /// The rows the chart has: a band's title row, then one a depth.
    pub fn rows(&self) -> usize {
        self.bands.iter().map(|b| 1 + b.depths).sum()
    }

    /// The row of a band's title.
    pub fn band_row(&self, band: usize) -> usize {
        self.bands[..band.min(self.bands.len())]
            .iter()
            .map(|b| 1 + b.depths)
            .sum()
    }

    /// The row a call is drawn on.
    pub fn row_of(&self, id: u32) -> usize {
        let c = self.call(id);
        self.band_row(c.thread as usize) + 1 + c.depth as usize
    }

    /// What a row shows: a band's title or a level.
    pub fn row(&self, mut row: usize) -> Option<Row> {
        for (b, band) in self.bands.iter().enumerate() {
            if row == 0 {
                return Some(Row::Band(b));
            }
            if row <= band.depths {
                return Some(Row::Level(b, row - 1));
            }
            row -= 1 + band.depths;
        }
        None
    }

    /// The call that made `id`; `None` for one made with nothing open.
    pub fn parent(&self, id: u32) -> Option<u32> {
        Some(self.call(id).parent).filter(|&p| p != NO_CALL)
    }

    /// The calls `id` made (the next level's calls within its span).
    pub fn children(&self, id: u32) -> &[u32] {
        let c = self.call(id);
        let level = self.level(c.thread as usize, c.depth as usize + 1);
        let from = level.partition_point(|&k| self.call(k).start < c.start);
        let to = level.partition_point(|&k| self.call(k).start <= c.end);
        let kids = &level[from..to.max(from)];
        // Equal times: a call opened at its caller's close belongs to the
        // next caller; only the caller's own are kept.
        let first = kids.iter().position(|&k| self.call(k).parent == id);
        let last = kids.iter().rposition(|&k| self.call(k).parent == id);
        match (first, last) {
            (Some(a), Some(b)) => &kids[a..=b],
            _ => &[],
        }
    }

    /// The call before (`-1`) or after (`1`) on the same row.
    pub fn neighbour(&self, id: u32, dir: isize) -> Option<u32> {
        let c = self.call(id);
        let level = self.level(c.thread as usize, c.depth as usize);
        // Calls of no duration may share a start: the first with it, then
        // along to `id`.
        let first = level.partition_point(|&k| self.call(k).start < c.start);
        let pos = first + level[first..].iter().position(|&k| k == id)?;
        level.get(pos.checked_add_signed(dir)?).copied()
    }

    /// The first call (in time) at or after `at` on a band's top row,
    /// else its last.
    pub fn first_from(&self, band: usize, at: f64) -> Option<u32> {
        let level = self.level(band, 0);
        let i = level.partition_point(|&k| self.call(k).end <= at);
        level.get(i).or(level.last()).copied()
    }
}

/// What a row of the chart shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    /// A band's title: the thread.
    Band(usize),
    /// A band's calls at a depth.
    Level(usize, usize),
}

/// The blocks of one level within the window `[from, to)` on `width`
/// cells, so that every cell a call covers is drawn and no call is lost.
///
/// A call claims the cells `[round(start), round(end))` of the window
/// (the same rounding for every call, so back-to-back calls share their
/// boundaries and never overlap); one that rounds to no cell claims the
/// cell it lies in. A cell claimed by one call is that call's box; a cell
/// claimed by several is a `…` (several calls here), and such cells side by
/// side are one `…` block. A call at least a cell wide always keeps a cell
/// of its own, even where calls too thin to see share it, and keeps its
/// first cell where they show in the cell before it too (so its width
/// stays true). A run of calls
/// inside one cell is skipped over by a binary search, never visited call
/// by call: a frame costs the cells it fills.
pub fn blocks(c: &Chart, level: &[u32], (from, to): (f64, f64), width: u16) -> Vec<Block> {
    let mut row = RowMaker::default();
    if width == 0 {
        return row.out;
    }
    let w = f64::from(width);
    let scale = w / (to - from).max(f64::MIN_POSITIVE);
    let cells = |t: f64| ((t - from) * scale).round().clamp(0.0, w) as u16;
    let end = |k: &u32| c.call(*k).end;
    let mut i = level.partition_point(|&k| left_of(c.call(k), from));
    while let Some(&id) = level.get(i) {
        let call = c.call(id);
        if right_of(call, to) {
            break;
        }
        let (x0, x1) = (cells(call.start), cells(call.end));
        if x1 > x0 {
            // What shows of it in the window, in cells.
            let shown = (call.end.min(to) - call.start.max(from)) * scale;
            row.claim(Some(id), (x0, x1), shown >= 1.0);
            i += 1;
            continue;
        }
        // Inside cell x0, and with it every later call that ends before
        // the next cell (ends are in order within a level). The window's
        // last half cell rounds past the last cell: it is drawn in it.
        let next = level.partition_point(|k| cells(end(k)) <= x0).max(i + 1);
        let alone = next == i + 1;
        let x = x0.min(width - 1);
        row.claim(alone.then_some(id), (x, x + 1), false);
        i = next;
    }
    row.out
}

/// A row of blocks as it is made, left to right.
#[derive(Default)]
struct RowMaker {
    out: Vec<Block>,
    /// The last block is the one cell of a call at least a cell wide: it
    /// is never shared.
    locked: bool,
}

impl RowMaker {
    /// Adds the cells `[x0, x1)` of a call (`None`: several calls) to the
    /// row, whose last block may already hold `x0` (calls before it lay
    /// inside that cell). The shared cell goes to the new call when it is
    /// at least a cell wide (`wide`) and either has no other cell or the
    /// calls before it show in the cell before too; otherwise it is a `…`
    /// (several calls), or stays the last block's when that is the one
    /// cell of a call a cell wide.
    fn claim(&mut self, node: Option<u32>, (x0, x1): (u16, u16), wide: bool) {
        let out = &mut self.out;
        let last = out.last().copied();
        let shared = last.is_some_and(|b| x0 < b.x + b.width);
        let mut x = x0;
        if shared && self.locked {
            x = x0 + 1;
        } else if let Some(b) = last.filter(|_| shared) {
            let shown_before = b.node.is_none() && b.width >= 2;
            if let Some(l) = out.last_mut() {
                l.width -= 1;
            }
            if out.last().is_some_and(|b| b.width == 0) {
                out.pop();
            }
            if !(wide && (x1 == x0 + 1 || shown_before)) {
                push_several(out, x0);
                self.locked = false;
                x = x0 + 1;
            }
        }
        if x1 <= x {
            return;
        }
        match node {
            Some(_) => out.push(Block {
                node,
                x,
                width: x1 - x,
                outside: false,
            }),
            None => push_several(out, x),
        }
        self.locked = node.is_some() && wide && x1 - x == 1;
    }
}

/// A `…` cell at `x`, joined to a `…` block just before it.
fn push_several(out: &mut Vec<Block>, x: u16) {
    match out.last_mut() {
        Some(b) if b.node.is_none() && b.x + b.width == x => b.width += 1,
        _ => out.push(Block {
            node: None,
            x,
            width: 1,
            outside: false,
        }),
    }
}

/// Whether a call lies left of a window starting at `from`: it ends
/// before it, or at its first instant after starting earlier (a call of no
/// duration at that instant is in it). Within a level this holds for a
/// run of calls from the first, so a binary search finds where it ends.
fn left_of(call: &Call, from: f64) -> bool {
    call.end < from || (call.end == from && call.start < from)
}

/// Whether a call lies right of a window ending at `to`: it starts after
/// it, or at its last instant and goes on past it.
fn right_of(call: &Call, to: f64) -> bool {
    call.start > to || (call.start == to && call.end > to)
}

/// The cell a call is in on a row of `width` cells showing `window`: its
/// first, where it is drawn, or the one it lies in when it is thinner than
/// a cell (drawn there as a `…` or under a wider call); `None` when it is
/// outside the window.
pub fn cell_of(c: &Chart, id: u32, (from, to): (f64, f64), width: u16) -> Option<u16> {
    let call = c.call(id);
    if width == 0 || left_of(call, from) || right_of(call, to) {
        return None;
    }
    let w = f64::from(width);
    let scale = w / (to - from).max(f64::MIN_POSITIVE);
    let x = ((call.start - from) * scale).round().clamp(0.0, w) as u16;
    Some(x.min(width - 1))
}

/// The call drawn at column `x` of a row's blocks.
pub fn call_at(row: &[Block], x: u16) -> Option<u32> {
    row.iter()
        .find(|b| x >= b.x && x < b.x + b.width)
        .and_then(|b| b.node)
}

/// The window that shows `id` whole when it is not shown in `window`:
/// `window` moved, its width kept (or widened to the call).
pub fn reveal(c: &Chart, id: u32, (from, to): (f64, f64)) -> (f64, f64) {
    let call = c.call(id);
    if call.start >= from && call.end <= to {
        return (from, to);
    }
    let width = (to - from).max(call.duration());
    let mid = (call.start + call.end) / 2.0;
    let from = (mid - width / 2.0).min(c.end - width).max(c.start);
    (from, from + width)
}

#[cfg(test)]
mod tests {
    use super::*;
    use profx_model::timeline::{Mark, ThreadSpan};
    use proptest::prelude::*;

    fn f(i: usize) -> FuncId {
        FuncId::from_index(i)
    }

    /// A timeline of one thread from (function or close, time) steps.
    fn timeline(steps: &[(Option<usize>, f64)]) -> Timeline {
        let mut open = Vec::new();
        let mut marks = Vec::new();
        for &(s, at) in steps {
            match s {
                Some(func) => {
                    open.push(func);
                    marks.push(Mark::new(0, f(func), true, at).unwrap());
                }
                None => {
                    if let Some(func) = open.pop() {
                        marks.push(Mark::new(0, f(func), false, at).unwrap());
                    }
                }
            }
        }
        let last = steps.last().map_or(0.0, |s| s.1);
        while let Some(func) = open.pop() {
            marks.push(Mark::new(0, f(func), false, last).unwrap());
        }
        Timeline {
            timed: true,
            threads: vec![ThreadSpan {
                id: 7,
                first: steps.first().map_or(0.0, |s| s.1),
                last,
            }],
            marks,
        }
    }

    /// Thread 2 ran first, then thread 1: the chart draws thread 1's band
    /// above thread 2's, each call in its own thread's band.
    #[test]
    fn bands_go_by_thread_id() {
        let span = |id, first, last| ThreadSpan { id, first, last };
        let tl = Timeline {
            timed: true,
            threads: vec![span(2, 0.0, 4.0), span(1, 1.0, 3.0)],
            marks: vec![
                Mark::new(0, f(0), true, 0.0).unwrap(),
                Mark::new(1, f(1), true, 1.0).unwrap(),
                Mark::new(1, f(2), true, 1.5).unwrap(),
                Mark::new(1, f(2), false, 2.0).unwrap(),
                Mark::new(1, f(1), false, 3.0).unwrap(),
                Mark::new(0, f(0), false, 4.0).unwrap(),
            ],
        };
        let c = Chart::from_timeline(&tl);
        let ids: Vec<u64> = c.bands.iter().map(|b| b.id).collect();
        assert_eq!(ids, [1, 2]);
        assert_eq!((c.bands[0].depths, c.bands[1].depths), (2, 1));
        let band_of = |func: usize| c.calls.iter().find(|k| k.func == f(func)).unwrap().thread;
        assert_eq!((band_of(0), band_of(1), band_of(2)), (1, 0, 0));
        assert_eq!(c.level(0, 0), &[1]);
        assert_eq!(c.level(1, 0), &[0]);
    }

    #[test]
    fn calls_pair_opens_and_closes_into_levels() {
        // main [0, 10) calls a [1, 3) and b [4, 9), b calls a [5, 6).
        let c = Chart::from_timeline(&timeline(&[
            (Some(0), 0.0),
            (Some(1), 1.0),
            (None, 3.0),
            (Some(2), 4.0),
            (Some(1), 5.0),
            (None, 6.0),
            (None, 9.0),
            (None, 10.0),
        ]));
        assert_eq!(c.calls.len(), 4);
        assert_eq!(c.bands[0].depths, 3);
        assert_eq!(c.rows(), 4);
        assert_eq!(c.level(0, 1), &[1, 2]);
        assert_eq!(c.children(0), &[1, 2]);
        assert_eq!(c.children(2), &[3]);
        assert_eq!(c.parent(3), Some(2));
        assert_eq!(c.neighbour(1, 1), Some(2));
        assert_eq!(c.neighbour(1, -1), None);
        assert_eq!((c.call(2).start, c.call(2).end), (4.0, 9.0));
        assert_eq!(c.row_of(3), 3);
        assert_eq!(c.row(0), Some(Row::Band(0)));
        assert_eq!(c.row(2), Some(Row::Level(0, 1)));
        // On 10 cells, a cell a millisecond.
        let row = blocks(&c, c.level(0, 1), (0.0, 10.0), 10);
        let spans: Vec<(u16, u16)> = row.iter().map(|b| (b.x, b.width)).collect();
        assert_eq!(spans, [(1, 2), (4, 5)]);
        assert_eq!(call_at(&row, 5), Some(2));
        assert_eq!(call_at(&row, 3), None);
    }

    #[test]
    fn thin_calls_are_one_ellipsis_a_cell_and_wide_ones_after_them_stay() {
        // 100 calls of 0.002 ms in [0, 0.4), then one of [1.004, 8).
        let mut steps = vec![(Some(0), 0.0)];
        for i in 0..100 {
            let at = f64::from(i) * 0.004;
            steps.push((Some(1), at));
            steps.push((None, at + 0.002));
        }
        steps.push((Some(2), 1.004));
        steps.push((None, 8.0));
        steps.push((None, 10.0));
        let c = Chart::from_timeline(&timeline(&steps));
        let row = blocks(&c, c.level(0, 1), (0.0, 10.0), 10);
        assert_eq!(row[0].node, None);
        assert_eq!((row[0].x, row[0].width), (0, 1));
        let wide = row.iter().find(|b| b.node == Some(101)).expect("drawn");
        assert_eq!((wide.x, wide.width), (1, 7));
        assert_eq!(row.len(), 2);
    }

    #[test]
    fn a_zoomed_window_cuts_calls_at_its_edges() {
        let c = Chart::from_timeline(&timeline(&[
            (Some(0), 0.0),
            (Some(1), 2.0),
            (None, 8.0),
            (None, 10.0),
        ]));
        let row = blocks(&c, c.level(0, 1), (4.0, 6.0), 20);
        assert_eq!(row.len(), 1);
        assert_eq!((row[0].x, row[0].width), (0, 20));
        assert!(blocks(&c, c.level(0, 1), (8.5, 9.5), 20).is_empty());
        assert_eq!(reveal(&c, 1, (0.0, 1.0)), (2.0, 8.0));
        assert_eq!(reveal(&c, 1, (0.0, 10.0)), (0.0, 10.0));
    }

    /// A busy caller: calls of a few microseconds between calls a little
    /// wider than a cell (the real trace's `CUSTOMER:LOAD` among
    /// thousands of small ones). Each wider call keeps a box of its own,
    /// and every cell from the first call to the last is drawn.
    #[test]
    fn a_busy_row_leaves_no_cell_blank_and_no_wide_call_out() {
        let mut steps = vec![(Some(0), 0.0)];
        let mut at = 0.0;
        let mut wide = Vec::new();
        for i in 0..40 {
            for _ in 0..50 {
                steps.push((Some(1), at));
                at += 0.001;
                steps.push((None, at));
            }
            if i % 3 == 0 {
                wide.push(steps.iter().filter(|s| s.0.is_some()).count());
                steps.push((Some(2), at));
                at += 1.2;
                steps.push((None, at));
            }
        }
        steps.push((None, at));
        let c = Chart::from_timeline(&timeline(&steps));
        // A cell a millisecond.
        let width = at.round() as u16;
        let row = blocks(&c, c.level(0, 1), (0.0, at), width);
        let mut x = 0;
        for b in &row {
            assert_eq!(b.x, x, "a blank cell at {x}: {row:?}");
            x += b.width;
        }
        assert_eq!(x, width);
        for id in wide {
            assert!(
                row.iter().any(|b| b.node == Some(id as u32)),
                "call {id} has no box: {row:?}"
            );
        }
        // A thin call selected is found in the `…` it is drawn in (the
        // first after the first wide call: cell 1 holds it and 149 more).
        let x = cell_of(&c, 52, (0.0, at), width).expect("in the window");
        assert_eq!(x, 1);
        assert_eq!(call_at(&row, x), None);
        assert!(
            row.iter()
                .any(|b| b.node.is_none() && b.x <= x && x < b.x + b.width)
        );
    }

    /// Random well-nested runs: (Some(function) opens, None closes, gap).
    fn runs() -> impl Strategy<Value = Vec<(Option<usize>, u8)>> {
        prop::collection::vec((prop::option::of(0usize..4), 0u8..4), 1..120)
    }

    proptest! {
        /// Every call lies within its caller; each level's blocks are in
        /// order, within the width and apart; every call wide enough to
        /// own a cell of its own is drawn.
        #[test]
        fn blocks_keep_order_and_calls_nest(run in runs(), width in 1u16..90, cut in 0.0f64..0.9) {
            let mut at = 0.0;
            let steps: Vec<(Option<usize>, f64)> = run
                .iter()
                .map(|&(s, gap)| {
                    at += f64::from(gap);
                    (s, at)
                })
                .collect();
            let c = Chart::from_timeline(&timeline(&steps));
            for (id, call) in c.calls.iter().enumerate() {
                prop_assert!(call.start <= call.end);
                if let Some(p) = c.parent(id as u32) {
                    let p = c.call(p);
                    prop_assert!(p.start <= call.start && call.end <= p.end);
                    prop_assert!(c.children(call.parent).contains(&(id as u32)));
                }
            }
            let span = c.end - c.start;
            let window = (c.start + span * cut / 2.0, c.end - span * cut / 2.0);
            let scale = f64::from(width) / (window.1 - window.0).max(f64::MIN_POSITIVE);
            for depth in 0..c.bands.first().map_or(0, |b| b.depths) {
                let level = c.level(0, depth);
                let row = blocks(&c, level, window, width);
                let mut free = 0;
                for b in &row {
                    prop_assert!(b.x >= free && b.width >= 1);
                    prop_assert!(b.x + b.width <= width);
                    free = b.x + b.width;
                }
                let covered = |x: u16| row.iter().any(|b| b.x <= x && x < b.x + b.width);
                for &id in level {
                    let call = c.call(id);
                    let shown = (call.end.min(window.1) - call.start.max(window.0)) * scale;
                    // A cell wide in the window: a box of its own.
                    if shown >= 1.0 {
                        prop_assert!(row.iter().any(|blk| blk.node == Some(id)), "call {} lost", id);
                    }
                    // Every call in the window is drawn where it is: its
                    // cell is a box or a `…`, never blank.
                    if let Some(x) = cell_of(&c, id, window, width) {
                        prop_assert!(covered(x), "call {} at {} not drawn: {:?}", id, x, row);
                    }
                }
            }
        }
    }
}
