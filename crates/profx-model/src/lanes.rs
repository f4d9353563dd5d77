//! A timed trace's threads across the run, in a few numbers a thread: the
//! Timeline pane's lanes (tui.md § Timeline), made by the trace feed while
//! it loads, whatever the trace's size and whether or not its calls are
//! kept in time order (`timeline.rs`).
//!
//! A thread's time is cut into at most [`BUCKETS`] buckets of one width,
//! from its first busy moment. Each bucket holds the time the thread had a
//! call open in it (busy time: the intervals the trace feed gives a top
//! frame, model.md § Intervals) and the function that was on top of the
//! stack for most of it. When a time passes the last bucket's end, the
//! buckets are merged in pairs and the width doubles, so a run of any
//! length fits, and a lane costs at most `BUCKETS` × 16 bytes.
//!
//! A thread's clock only moves forward, so only its last bucket is open:
//! while it is, every function's time on top in it is counted, and the
//! heaviest is exact. A bucket keeps only its heaviest function (and that
//! function's time) once closed: two merged buckets keep the heavier
//! function of the two (the one with more time on top; their times summed
//! when both name the same function). The function of a merged bucket is
//! then the heaviest of its parts' heaviest, which is not always the
//! heaviest of the whole. Its busy time stays exact: the buckets' busy
//! times add up to the thread's busy time (`ThreadInfo::busy_ms`).

use crate::FuncId;
use rustc_hash::FxHashMap;

/// The most buckets a lane has.
pub const BUCKETS: usize = 4096;

/// The first buckets' width, a power of two (exact sums of widths) near a
/// nanosecond when times are in ms: the width doubles from there, a few
/// dozen times for the longest run.
const FIRST_WIDTH: f64 = 1.0 / (1u64 << 20) as f64;

/// A bucket naming no function (no busy time).
const NO_FUNC: u32 = u32::MAX;

/// One stretch of a thread's time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bucket {
    /// Time with a call open, in the trace's unit.
    pub busy: f64,
    /// The time its function was on top: what two merged buckets compare.
    top: f32,
    func: u32,
}

impl Bucket {
    const EMPTY: Bucket = Bucket {
        busy: 0.0,
        top: 0.0,
        func: NO_FUNC,
    };

    /// The function on top of the stack for most of the bucket's busy
    /// time (see the module's doc for merged buckets).
    pub fn func(&self) -> Option<FuncId> {
        (self.func != NO_FUNC).then(|| FuncId::from_raw(self.func))
    }

    /// Two neighbours as one: their busy time summed, the heavier one's
    /// function kept.
    fn merge(self, other: Bucket) -> Bucket {
        let (func, top) = match (self.func, other.func) {
            (a, b) if a == b => (a, self.top + other.top),
            _ if other.top > self.top => (other.func, other.top),
            _ => (self.func, self.top),
        };
        Bucket {
            busy: self.busy + other.busy,
            top,
            func,
        }
    }
}

/// One thread's buckets.
#[derive(Clone, Debug, PartialEq)]
pub struct Lane {
    origin: f64,
    width: f64,
    buckets: Vec<Bucket>,
}

impl Default for Lane {
    fn default() -> Lane {
        Lane {
            origin: 0.0,
            width: FIRST_WIDTH,
            buckets: Vec::new(),
        }
    }
}

/// A stretch of time as the Timeline draws one cell: the busy time in it,
/// and the function on top for most of that.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Cell {
    /// Time with a call open.
    pub busy: f64,
    /// The function on top for most of it; `None` when idle.
    pub func: Option<FuncId>,
}

impl Lane {
    /// Where the first bucket starts: the thread's first busy moment.
    pub fn origin(&self) -> f64 {
        self.origin
    }

    /// Each bucket's width: the lane's resolution.
    pub fn width(&self) -> f64 {
        self.width
    }

    /// The buckets, from `origin` on, each `width` wide.
    pub fn buckets(&self) -> &[Bucket] {
        &self.buckets
    }

    /// The busy time of all the buckets: the thread's.
    pub fn busy(&self) -> f64 {
        self.buckets.iter().map(|b| b.busy).sum()
    }

    /// `n` cells of equal width from `from` to `to`: each cell's busy time
    /// (a bucket's spread evenly over its width where a cell has part of
    /// it) and the function with the most time on top in it.
    pub fn cells(&self, (from, to): (f64, f64), n: usize) -> Vec<Cell> {
        let mut out = vec![Cell::default(); n];
        if n == 0
            || to.partial_cmp(&from) != Some(std::cmp::Ordering::Greater)
            || self.buckets.is_empty()
        {
            return out;
        }
        let dx = (to - from) / n as f64;
        let mut tops: Vec<(u32, f64)> = Vec::new();
        for (i, cell) in out.iter_mut().enumerate() {
            let a = from + dx * i as f64;
            let b = a + dx;
            let first = ((a - self.origin) / self.width).floor().max(0.0) as usize;
            let last =
                (((b - self.origin) / self.width).ceil().max(0.0) as usize).min(self.buckets.len());
            tops.clear();
            for k in first..last {
                let start = self.origin + self.width * k as f64;
                let part = b.min(start + self.width) - a.max(start);
                if part <= 0.0 {
                    continue;
                }
                let bucket = &self.buckets[k];
                let share = part / self.width;
                cell.busy += bucket.busy * share;
                if bucket.func != NO_FUNC {
                    let weight = f64::from(bucket.top) * share;
                    match tops.iter_mut().find(|t| t.0 == bucket.func) {
                        Some(t) => t.1 += weight,
                        None => tops.push((bucket.func, weight)),
                    }
                }
            }
            cell.func = heaviest(tops.iter().copied()).map(|(f, _)| FuncId::from_raw(f));
        }
        out
    }

    /// The bucket holding time `t`, if any.
    pub fn at(&self, t: f64) -> Option<&Bucket> {
        let k = (t - self.origin) / self.width;
        (k >= 0.0).then(|| self.buckets.get(k as usize)).flatten()
    }
}

/// The heaviest of `(function, time)` pairs; of equals, the lowest id, so
/// the choice never depends on an order of hashing.
fn heaviest(tops: impl Iterator<Item = (u32, f64)>) -> Option<(u32, f64)> {
    tops.filter(|t| t.1 > 0.0).reduce(|best, t| {
        match t.1 > best.1 || (t.1 == best.1 && t.0 < best.0) {
            true => t,
            false => best,
        }
    })
}

/// Every thread's lane, in the order of `Profile::threads` (the trace's
/// threads as first met); `Profile::lanes`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Lanes {
    lanes: Vec<Lane>,
}

impl Lanes {
    /// The lane of the thread at `thread` in `Profile::threads`.
    pub fn lane(&self, thread: usize) -> Option<&Lane> {
        self.lanes.get(thread)
    }

    /// Every lane, a thread each.
    pub fn lanes(&self) -> &[Lane] {
        &self.lanes
    }
}

/// A lane while the trace feed loads: its buckets, the open one, and each
/// function's time on top in the open one. What every event reads comes
/// first, in one cache line.
#[derive(Clone, Debug)]
#[repr(C)]
struct Growing {
    started: bool,
    /// Where the open bucket ends: an interval before it is the open
    /// bucket's (a thread's clock only moves forward).
    open_end: f64,
    /// The open bucket's busy time so far.
    busy: f64,
    tops: Tops,
    lane: Lane,
    open: usize,
    /// 1 / width: a bucket's index is a multiplication away.
    per: f64,
    /// Where the last bucket ends.
    end: f64,
}

impl Default for Growing {
    fn default() -> Growing {
        Growing {
            started: false,
            open_end: 0.0,
            busy: 0.0,
            tops: Tops::default(),
            lane: Lane::default(),
            open: 0,
            per: 1.0 / FIRST_WIDTH,
            end: FIRST_WIDTH * BUCKETS as f64,
        }
    }
}

/// How many functions' counts (8 bytes each) the lanes of a load keep by
/// id, all threads together; a thread's functions past them are counted
/// in a table.
const DENSE: usize = 1 << 22;

/// Each function's time on top in a thread's open bucket, by the
/// function's id: an event's count is an array's cell, not a hash's
/// lookup (the trace feed runs it for every event), while the load's
/// budget (`DENSE`) lasts; a table past it. The heaviest so far is kept
/// as counts grow (a count only grows, so it is the heaviest at the end),
/// and a count is of the open bucket only when it has the bucket's mark
/// (`Tops::mark`): closing a bucket reads one pair and changes one number,
/// whatever the functions it counted.
///
/// A count is an `f32`: it only picks the heaviest (a bucket's busy time is
/// summed in `f64`).
///
/// A thread's counts by id are read at random, and with a few threads they
/// outgrow the nearer caches: a count read at every event made the replay
/// wait for memory with the rest of the event behind it. So an event's
/// time by id waits in a short queue (`pending`), added a batch at a time,
/// where the reads overlap. Each function's count still gets its terms in
/// event order, and whether a term goes by id or to the table is decided
/// when it comes, so the counts are the same to the bit; the heaviest is
/// the greatest (time, lowest id) of the counts ever seen, whatever the
/// order they are seen in.
#[derive(Clone, Debug)]
#[repr(C)]
struct Tops {
    /// (time, the mark of the bucket it is of), by function id.
    dense: Vec<(f32, u32)>,
    mark: u32,
    /// How many of `pending` wait.
    waiting: u32,
    best: Option<(u32, f64)>,
    /// Terms by id not yet added: (function, time).
    pending: [(u32, f32); PENDING],
    spilled: FxHashMap<u32, f64>,
}

/// How many terms by id wait before they are added: enough reads to
/// overlap, few enough to stay in the nearest cache.
const PENDING: usize = 32;

impl Default for Tops {
    fn default() -> Tops {
        Tops {
            dense: Vec::new(),
            // Past the mark of a new count: every count starts as none.
            mark: 1,
            waiting: 0,
            best: None,
            pending: [(0, 0.0); PENDING],
            spilled: FxHashMap::default(),
        }
    }
}

impl Tops {
    #[inline(always)]
    fn add(&mut self, func: u32, d: f64, budget: &mut usize) {
        if func as usize >= self.dense.len() {
            return self.add_past(func, d, budget);
        }
        self.pending[self.waiting as usize] = (func, d as f32);
        self.waiting += 1;
        if self.waiting as usize == PENDING {
            self.drain();
        }
    }

    /// Adds the waiting terms by id, oldest first.
    #[inline(never)]
    fn drain(&mut self) {
        let mark = self.mark;
        let n = std::mem::take(&mut self.waiting) as usize;
        for k in 0..n {
            let (func, d) = self.pending[k];
            let Some(c) = self.dense.get_mut(func as usize) else {
                continue;
            };
            let before = if c.1 == mark { c.0 } else { 0.0 };
            *c = (before + d, mark);
            let t = f64::from(c.0);
            self.consider(func, t);
        }
    }

    /// `func`'s count is now `t`: the heaviest if no other's is more (of
    /// equals, the lowest id, as `heaviest` picks).
    #[inline(always)]
    fn consider(&mut self, func: u32, t: f64) {
        match self.best {
            Some((f, b)) if t < b || (t == b && f <= func) => {}
            _ => self.best = Some((func, t)),
        }
    }

    /// A function past the counts by id: they grow to hold it while the
    /// budget lasts, else a table counts it.
    #[cold]
    #[inline(never)]
    fn add_past(&mut self, func: u32, d: f64, budget: &mut usize) {
        let want = (func as usize + 1).next_power_of_two().max(64);
        let more = want - self.dense.len();
        if more <= *budget {
            *budget -= more;
            self.dense.resize(want, (0.0, 0));
            return self.add(func, d, budget);
        }
        let t = self.spilled.entry(func).or_insert(0.0);
        *t += d;
        let t = *t;
        self.consider(func, t);
    }

    /// The heaviest function and its time; every count back to none.
    fn take_heaviest(&mut self) -> Option<(u32, f64)> {
        self.drain();
        if self.mark == u32::MAX {
            self.dense.iter_mut().for_each(|c| c.1 = 0);
            self.mark = 0;
        }
        self.mark += 1;
        if !self.spilled.is_empty() {
            self.spilled.clear();
        }
        self.best.take().filter(|b| b.1 > 0.0)
    }
}

/// The lanes as the trace feed makes them (`metrics/trace.rs` calls
/// [`LaneFeed::add`] for every interval it gives a thread).
#[derive(Clone, Debug)]
pub(crate) struct LaneFeed {
    threads: Vec<Growing>,
    /// Counts by function id the threads may still make (`DENSE`).
    budget: usize,
}

impl Default for LaneFeed {
    fn default() -> LaneFeed {
        LaneFeed {
            threads: Vec::new(),
            budget: DENSE,
        }
    }
}

impl LaneFeed {
    /// The interval `from`–`to` of the thread at index `thread`, with
    /// `func` on top of its stack (an interval with no call open is no
    /// busy time, and none of a lane's).
    #[inline(always)]
    pub(crate) fn add(&mut self, thread: usize, from: f64, to: f64, func: FuncId) {
        if to.partial_cmp(&from) != Some(std::cmp::Ordering::Greater) {
            return;
        }
        let budget = &mut self.budget;
        let Some(g) = self.threads.get_mut(thread).filter(|g| g.started) else {
            return self.first(thread, from, to, func);
        };
        if to < g.open_end {
            g.busy += to - from;
            g.tops.add(func.raw(), to - from, budget);
            return;
        }
        g.spread(from, to, func.raw(), budget);
    }

    /// Brings in the count of `func` on the thread at `thread`, which has
    /// just come on top of its stack: the thread's next interval adds to
    /// it, after the other threads' events have given the read time.
    #[inline(always)]
    pub(crate) fn ahead(&self, thread: usize, func: FuncId) {
        if let Some(c) = self
            .threads
            .get(thread)
            .and_then(|g| g.tops.dense.get(func.index()))
        {
            profx_sys::prefetch::prefetch(c);
        }
    }

    /// A thread's first busy interval: its lane starts there.
    #[cold]
    #[inline(never)]
    fn first(&mut self, thread: usize, from: f64, to: f64, func: FuncId) {
        if self.threads.len() <= thread {
            self.threads.resize_with(thread + 1, Growing::default);
        }
        let g = &mut self.threads[thread];
        g.started = true;
        g.lane.origin = from;
        g.end = from + g.lane.width * BUCKETS as f64;
        g.open_end = from + g.lane.width;
        g.spread(from, to, func.raw(), &mut self.budget);
    }

    /// Every thread's lane, for the trace's `threads` threads, each open
    /// bucket closed.
    pub(crate) fn finish(mut self, threads: usize) -> Lanes {
        if self.threads.len() < threads {
            self.threads.resize_with(threads, Growing::default);
        }
        let lanes = self
            .threads
            .into_iter()
            .map(|mut g| {
                g.close();
                g.lane
            })
            .collect();
        Lanes { lanes }
    }
}

impl Growing {
    /// Adds an interval that may cross buckets' ends or the last one's.
    #[inline(never)]
    fn spread(&mut self, from: f64, to: f64, func: u32, budget: &mut usize) {
        while to >= self.end {
            self.double(budget);
        }
        let w = self.lane.width;
        let o = self.lane.origin;
        let index = |t: f64| (((t - o) * self.per).max(0.0) as usize).min(BUCKETS - 1);
        // Never before the open bucket: the clock moved forward.
        let (first, last) = (index(from).max(self.open), index(to).max(self.open));
        for k in first..=last {
            let lo = if k == first { from } else { o + w * k as f64 };
            let hi = if k == last {
                to
            } else {
                o + w * (k + 1) as f64
            };
            if hi > lo {
                self.open_at(k);
                self.busy += hi - lo;
                self.tops.add(func, hi - lo, budget);
            }
        }
    }

    /// Bucket `k` becomes the open one, the one before it closed.
    fn open_at(&mut self, k: usize) {
        if self.lane.buckets.len() <= k {
            self.lane.buckets.resize(k + 1, Bucket::EMPTY);
        }
        if k != self.open {
            self.close();
            self.open = k;
        }
        self.open_end = self.lane.origin + self.lane.width * (k + 1) as f64;
    }

    /// The open bucket takes its busy time and its heaviest function.
    fn close(&mut self) {
        let best = self.tops.take_heaviest();
        let busy = std::mem::take(&mut self.busy);
        let Some(b) = self.lane.buckets.get_mut(self.open) else {
            return;
        };
        b.busy += busy;
        if let Some((func, top)) = best {
            b.func = func;
            b.top = top as f32;
        }
    }

    /// Twice the width: the buckets merged in pairs. The open bucket's
    /// closed partner gives its function's time to the counts of the open
    /// one, so the bucket they make still picks its heaviest (the open
    /// one's busy time so far is `busy`'s, not yet its bucket's).
    fn double(&mut self, budget: &mut usize) {
        let b = &mut self.lane.buckets;
        if self.open % 2 == 1
            && let Some(partner) = b
                .get(self.open - 1)
                .filter(|p| p.func != NO_FUNC && p.top > 0.0)
        {
            let (func, top) = (partner.func, f64::from(partner.top));
            self.tops.add(func, top, budget);
        }
        let half = b.len().div_ceil(2);
        for k in 0..half {
            let pair = b.get(2 * k + 1).copied().unwrap_or(Bucket::EMPTY);
            b[k] = b[2 * k].merge(pair);
        }
        b.truncate(half);
        self.open /= 2;
        self.lane.width *= 2.0;
        self.per = 1.0 / self.lane.width;
        self.end = self.lane.origin + self.lane.width * BUCKETS as f64;
        self.open_end = self.lane.origin + self.lane.width * (self.open + 1) as f64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ProfileBuilder;
    use crate::metrics::TraceTime;
    use crate::testing::new_function;

    fn f(i: u32) -> FuncId {
        FuncId::from_raw(i)
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
    }

    /// Intervals in one bucket, then past the last: the busy time is kept
    /// through every doubling, and the open bucket's heaviest function is
    /// exact.
    #[test]
    fn doubling_keeps_the_busy_time_and_the_heaviest_function() {
        let mut feed = LaneFeed::default();
        feed.add(0, 0.0, 1e-7, f(1));
        feed.add(0, 1e-7, 3e-7, f(2));
        feed.add(0, 3e-7, 3.5e-7, f(1));
        // Far past the first buckets' end: many doublings.
        feed.add(0, 3.5e-7, 5.0, f(3));
        feed.add(0, 6.0, 100.0, f(4));
        let lanes = feed.finish(2);
        assert_eq!(lanes.lanes().len(), 2, "a lane for every thread");
        let lane = lanes.lane(0).unwrap();
        assert!(close(lane.busy(), 5.0 + 94.0), "{}", lane.busy());
        assert!(lane.buckets().len() <= BUCKETS);
        assert!(lane.width() * BUCKETS as f64 > 100.0);
        // The stretch before 5: F3 held nearly all of it.
        let cells = lane.cells((0.0, 100.0), 20);
        assert_eq!(cells[0].func, Some(f(3)));
        assert_eq!(cells[1].func, Some(f(4)), "5–6 idle, then F4");
        assert!(close(cells[1].busy, 4.0), "{}", cells[1].busy);
        assert_eq!(cells[19].func, Some(f(4)));
        let total: f64 = cells.iter().map(|c| c.busy).sum();
        assert!(close(total, 99.0), "{total}");
        assert_eq!(lanes.lane(1).unwrap().busy(), 0.0);
    }

    /// The open bucket counts every function's time on top: G's one call
    /// holds more of it than F's three, though F was first and last; the
    /// same with the counts by id spent (a table holds them).
    #[test]
    fn the_open_bucket_picks_its_heaviest_function_exactly() {
        for budget in [DENSE, 0] {
            let mut feed = LaneFeed {
                threads: Vec::new(),
                budget,
            };
            // Buckets a ms wide from here on.
            feed.add(0, 0.0, 4000.0, f(9));
            let mut t = 4000.0;
            for (func, d) in [(1, 0.05), (2, 0.25), (1, 0.05), (1, 0.05)] {
                feed.add(0, t, t + d, f(func));
                t += d;
            }
            let lanes = feed.finish(1);
            let lane = lanes.lane(0).unwrap();
            assert_eq!(lane.width(), 1.0);
            let b = lane.at(4000.2).unwrap();
            assert_eq!(b.func(), Some(f(2)), "budget {budget}");
            assert!(close(b.busy, 0.4));
            assert_eq!(lane.at(3999.5).unwrap().func(), Some(f(9)));
        }
    }

    /// Many more terms than wait at once, in one bucket: each function's
    /// count is the `f32` sum of its terms in order, and the heaviest of
    /// equal counts is the lowest id, as when every term was added at once.
    #[test]
    fn queued_terms_give_the_counts_and_heaviest_of_direct_ones() {
        let mut feed = LaneFeed::default();
        // Buckets a ms wide from here on.
        feed.add(0, 0.0, 4000.0, f(9));
        let (mut t, mut sums) = (4000.0, [0f32; 3]);
        for k in 0..(PENDING * 5 + 3) {
            let func = [2u32, 1, 0][k % 3];
            let d = 1e-4 * (1 + k % 7) as f64;
            feed.add(0, t, t + d, f(func));
            // The feed's term is the interval's length, as the clock has it.
            sums[func as usize] += ((t + d) - t) as f32;
            t += d;
        }
        let lanes = feed.finish(1);
        let b = lanes.lane(0).unwrap().at(4000.0).unwrap();
        let top = sums.iter().copied().fold(0f32, f32::max);
        let want = sums.iter().position(|&s| s == top).unwrap() as u32;
        assert_eq!((b.func(), b.top), (Some(f(want)), top));
    }

    /// A trace's lanes add up to each thread's busy time, whatever the
    /// run's length and the threads' clocks.
    #[test]
    fn busy_sums_equal_each_threads_busy_time() {
        let mut b = ProfileBuilder::new("test");
        let funcs: Vec<FuncId> = (0..5)
            .map(|i| new_function(&mut b, &format!("F{i}")))
            .collect();
        b.trace_begin(TraceTime::Timed);
        let threads = [b.trace_thread(7), b.trace_thread(3), b.trace_thread(9)];
        let mut clocks = [0.0, 1000.0, 0.5];
        let mut depth = [0usize; 3];
        let mut seed = 12345u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed >> 33
        };
        for _ in 0..20_000 {
            let i = (next() % 3) as usize;
            let t = threads[i];
            // Steps from a microsecond to a second: many doublings.
            clocks[i] += (next() % 1000) as f64 * 10f64.powi((next() % 4) as i32 - 3);
            b.trace_time(t, clocks[i], || crate::Place::Line(1));
            if depth[i] > 0 && next() % 2 == 0 {
                b.trace_exit(t);
                depth[i] -= 1;
            } else if next() % 5 > 0 {
                b.trace_enter(t, funcs[(next() % 5) as usize], 0, None);
                depth[i] += 1;
            }
        }
        b.trace_close_open();
        let p = b.finish();
        let lanes = p.lanes().expect("a timed trace has lanes");
        assert_eq!(lanes.lanes().len(), p.threads().len());
        for (i, th) in p.threads().iter().enumerate() {
            let lane = lanes.lane(i).unwrap();
            let busy = th.busy_ms.unwrap();
            assert!(busy > 0.0);
            assert!(
                close(lane.busy(), busy),
                "thread {}: {} against {busy}",
                th.id,
                lane.busy()
            );
            // Cells over the lane's buckets, each cut anywhere, hold it all.
            let end = lane.origin() + lane.width() * lane.buckets().len() as f64;
            assert!(end >= th.last_ms.unwrap() && lane.origin() >= th.first_ms.unwrap());
            let cells: f64 = lane
                .cells((lane.origin(), end), 97)
                .iter()
                .map(|c| c.busy)
                .sum();
            assert!(close(cells, busy), "cells {cells} against {busy}");
        }
    }

    /// An untimed trace, and a profile of no trace, have no lanes.
    #[test]
    fn untimed_traces_have_no_lanes() {
        let mut b = ProfileBuilder::new("test");
        let a = new_function(&mut b, "A");
        b.trace_begin(TraceTime::Untimed);
        let t = b.trace_thread(1);
        b.trace_enter(t, a, 0, None);
        b.trace_exit(t);
        assert!(b.finish().lanes().is_none());
        assert!(ProfileBuilder::new("test").finish().lanes().is_none());
    }
}
