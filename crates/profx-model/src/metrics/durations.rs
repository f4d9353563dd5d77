//! The distribution of each function's call durations (model.md §
//! Per-call statistics): the median, 90th and 99th percentile of its
//! calls' inclusive and exclusive times, by nearest rank, a histogram of
//! the inclusive ones, and where its slowest call begins in the trace.
//!
//! The trace feed gives every call to [`Durations::call`] where the call
//! is counted to its function (`trace_acc.rs`, `Accs::add`): whatever
//! keeps a call out of its function's count keeps it out of here too.
//!
//! A percentile needs every call's value, so each call's two durations
//! are kept until the trace ends, then summarised and freed (a load that
//! shows none keeps only each function's shortest and longest,
//! `Durations::extremes_only`, in the same values). They are
//! kept as whole **steps** of the trace's clock in four bytes each (a
//! `u32`), with the function's number: 12 bytes a call, appended to a log
//! in segments (growing never copies it; a pop writes where the last one
//! did, not into its function's own array). A step is 10^-d ms, d the
//! fewest decimals that hold every duration so far: a whole-ms clock
//! (Xbase++'s) keeps d = 0, and 2³¹ steps of a ms are 24 days. A duration
//! that is no whole number of steps refines the step (every value kept
//! multiplied, down to a nanosecond). One that no step holds below 2³¹
//! (a clock finer than a ns, a span longer than 2³¹ steps, a sum of so
//! many intervals that its binary noise no longer rounds to a step) is
//! kept exactly, an `f64` in a list of its own, its four bytes the index
//! with the top bit set: no digit is lost, and such values, rare, cost 8
//! bytes more each. (Past 2³¹ of them, which no trace gives, the whole
//! log turns into `f64`s.) `f32` was not taken: its 24 bits lose a
//! whole-ms clock's digits past 4.6 hours, silently.
//!
//! A value within a millionth of a step of a whole number of steps is
//! that number (`ON_STEP`): the binary noise of subtracting two clock
//! readings (`1520.25 - 1519.1` is `1.1500000000000909`) stays below it
//! on any clock of a few decimals, and a digit of a clock down to a
//! nanosecond does not (it refines the step). So a percentile is written
//! at the clock's own decimals, never with binary noise; a whole-ms
//! clock's values, sums of whole numbers, have none.

use crate::ids::{FuncId, PacketId};
use crate::profile::Profile;
use std::cmp::Ordering;

/// How many decimals of a ms a step may have: a nanosecond.
const MAX_DECIMALS: u32 = 6;

/// How far from a whole number of steps a value may be, in steps, and
/// still be that number (the binary noise of a clock reading's difference).
const ON_STEP: f64 = 1e-6;

/// Calls a segment of the log holds.
const SEGMENT: usize = 1 << 16;

/// The percentiles a function's calls are summarised by: p, in %.
pub const PERCENTS: [u32; 3] = [50, 90, 99];

/// No event position known (a call entered before the feed counted
/// events, or past 2³² − 1 of them).
pub(super) const NO_EVENT: u64 = u64::MAX;

/// The index of the `p`th percentile of `n` sorted values by nearest
/// rank: `ceil(p/100 × n) − 1`, in integers (`0.99 × 100` is no whole
/// number in binary). `n` > 0.
pub fn nearest_rank(p: u32, n: usize) -> usize {
    let rank = (u128::from(p) * n as u128).div_ceil(100);
    (rank as usize).saturating_sub(1).min(n.saturating_sub(1))
}

/// One call: its function and its two durations.
#[derive(Clone, Copy, Debug)]
struct Entry<T> {
    func: u32,
    incl: T,
    excl: T,
}

/// A log of calls in fixed segments, freed a segment at a time as it is
/// read.
#[derive(Clone, Debug)]
struct Segments<T> {
    segs: Vec<Vec<T>>,
}

impl<T> Default for Segments<T> {
    fn default() -> Self {
        Segments { segs: Vec::new() }
    }
}

impl<T> Segments<T> {
    #[inline(always)]
    fn push(&mut self, e: T) {
        match self.segs.last_mut() {
            Some(s) if s.len() < SEGMENT => s.push(e),
            _ => self.grow(e),
        }
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self, e: T) {
        let mut s = Vec::with_capacity(SEGMENT);
        s.push(e);
        self.segs.push(s);
    }

    fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.segs.iter_mut().flat_map(|s| s.iter_mut())
    }
}

/// The calls kept so far: four-byte values while the exceptions' list
/// has room (always, in practice), else `f64`s; with each function's
/// shortest and longest call in the same values ([`Ext`]).
#[derive(Clone, Debug)]
enum Log {
    Steps(Steps),
    Exact(Segments<Entry<f64>>, Vec<Ext<f64>>),
}

/// A call of function `f` in a log of `f64`s: the call itself when `log`,
/// else only its function's extremes (as `Steps::keep`).
fn keep_exact(
    (calls, ext): (&mut Segments<Entry<f64>>, &mut Vec<Ext<f64>>),
    f: usize,
    [incl, excl]: [f64; 2],
    log: bool,
) {
    if log {
        calls.push(Entry {
            func: f as u32,
            incl,
            excl,
        });
        return;
    }
    if ext.len() <= f {
        ext.resize(f + 1, None);
    }
    note(&mut ext[f], [incl, excl], |a: f64, b| {
        a.total_cmp(&b).is_lt()
    });
}

/// A function's shortest and longest call, inclusive then exclusive:
/// `None` before its first call. [`note`] is the one way they are found,
/// over the function's calls kept when the trace ends (`summarise`), or
/// as they come when only they are kept (`Durations::extremes_only`).
type Ext<T> = Option<[T; 4]>;

/// Takes a call's two values `[incl, excl]` into `ext`, by `less`: a value
/// replaces the shortest only when below it, the longest only when above
/// (values equal in the order are the same number).
#[inline(always)]
fn note<T: Copy>(ext: &mut Ext<T>, [i, e]: [T; 2], less: impl Fn(T, T) -> bool) {
    match ext {
        Some(x) => {
            if less(i, x[0]) {
                x[0] = i;
            }
            if less(x[1], i) {
                x[1] = i;
            }
            if less(e, x[2]) {
                x[2] = e;
            }
            if less(x[3], e) {
                x[3] = e;
            }
        }
        none => *none = Some([i, i, e, e]),
    }
}

/// Values of four bytes: a whole number of steps of 10^-decimals ms below
/// `EXCEPTION`, or, with that bit set, the index of an exact value in
/// `exact`.
#[derive(Clone, Debug)]
struct Steps {
    decimals: u32,
    /// 10^decimals: the steps a ms holds.
    scale: f64,
    calls: Segments<Entry<u32>>,
    exact: Vec<f64>,
    /// By function: its extremes, in these values, when only they are
    /// kept (no call in `calls`).
    ext: Vec<Ext<u32>>,
}

/// The bit of a four-byte value that makes it an index into the exact
/// values.
const EXCEPTION: u32 = 1 << 31;

/// `v` ms in whole steps of 1/scale ms, if it is one and fits below
/// `EXCEPTION`.
#[inline(always)]
fn in_steps(v: f64, scale: f64) -> Option<u32> {
    let x = v * scale;
    // Rounded half up by `as` (which truncates the non-negative sum):
    // `f64::round` is a library call here, at every call of the trace.
    if !(x > -0.5 && x < f64::from(EXCEPTION) - 0.5) {
        return None;
    }
    let k = (x + 0.5) as u32;
    ((x - f64::from(k)).abs() <= ON_STEP).then_some(k)
}

/// 10^d: the steps a ms holds.
fn scale(d: u32) -> f64 {
    10f64.powi(d as i32)
}

impl Steps {
    fn new() -> Steps {
        Steps {
            decimals: 0,
            scale: 1.0,
            calls: Segments::default(),
            exact: Vec::new(),
            ext: Vec::new(),
        }
    }

    /// How `a` and `b` are ordered, with the steps `scale` and the
    /// exceptions `exact`: steps as numbers, an exception by its value (as
    /// in ms). The one order of the values: the extremes' and the
    /// percentiles'.
    #[inline(always)]
    fn order(scale: f64, exact: &[f64], a: u32, b: u32) -> Ordering {
        if (a | b) & EXCEPTION == 0 {
            return a.cmp(&b);
        }
        let ms = |v: u32| match v & EXCEPTION {
            0 => f64::from(v) / scale,
            _ => exact[(v & !EXCEPTION) as usize],
        };
        ms(a).total_cmp(&ms(b))
    }

    /// A call of function `f` of these values: the call itself when `log`
    /// (for the percentiles), else only its function's extremes.
    #[inline(always)]
    fn keep(&mut self, f: usize, [incl, excl]: [u32; 2], log: bool) {
        if log {
            self.calls.push(Entry {
                func: f as u32,
                incl,
                excl,
            });
            return;
        }
        if self.ext.len() <= f {
            self.ext.resize(f + 1, None);
        }
        let (scale, exact) = (self.scale, &self.exact);
        note(&mut self.ext[f], [incl, excl], |a, b| {
            Steps::order(scale, exact, a, b).is_lt()
        });
    }

    /// A four-byte value in ms.
    fn ms(&self, v: u32) -> f64 {
        match v & EXCEPTION {
            0 => f64::from(v) / self.scale,
            _ => self.exact[(v & !EXCEPTION) as usize],
        }
    }

    /// `v` ms as four bytes: its steps, a finer step's where one holds it
    /// (every value kept refined to it), else an exception; `None` when
    /// the exceptions' list is full.
    #[inline(always)]
    fn encode(&mut self, v: f64) -> Option<u32> {
        match in_steps(v, self.scale) {
            Some(k) => Some(k),
            None => self.off_step(v),
        }
    }

    /// A call's two values: the inclusive again where the exclusive made
    /// the step finer.
    #[inline(always)]
    fn encode_both(&mut self, incl: f64, excl: f64) -> (Option<u32>, Option<u32>) {
        let before = self.decimals;
        let (i, e) = (self.encode(incl), self.encode(excl));
        match i {
            Some(k) if self.decimals != before && k & EXCEPTION == 0 => (self.encode(incl), e),
            _ => (i, e),
        }
    }

    #[cold]
    #[inline(never)]
    fn off_step(&mut self, v: f64) -> Option<u32> {
        let finer = (self.decimals + 1..=MAX_DECIMALS).find(|&d| in_steps(v, scale(d)).is_some());
        let Some(finer) = finer else {
            return self.exception(v);
        };
        let by = 10u64.pow(finer - self.decimals);
        // A value kept that the finer step cannot hold below `EXCEPTION`
        // becomes an exception: counted first, so that none is lost when
        // the list has no room for them all.
        // The calls kept and the extremes are refined alike.
        let too_long = |k: u32| k & EXCEPTION == 0 && u64::from(k) * by >= u64::from(EXCEPTION);
        let mut calls = std::mem::take(&mut self.calls);
        let mut ext = std::mem::take(&mut self.ext);
        let more: usize = calls
            .iter_mut()
            .map(|c| usize::from(too_long(c.incl)) + usize::from(too_long(c.excl)))
            .sum::<usize>()
            + ext
                .iter()
                .flatten()
                .map(|x| x.iter().filter(|&&k| too_long(k)).count())
                .sum::<usize>();
        if more >= (EXCEPTION as usize).saturating_sub(self.exact.len()) {
            (self.calls, self.ext) = (calls, ext);
            return None;
        }
        let mut refine = |k: &mut u32| {
            if *k & EXCEPTION != 0 {
                return;
            }
            let more = u64::from(*k) * by;
            *k = match u32::try_from(more).ok().filter(|&m| m < EXCEPTION) {
                Some(m) => m,
                // Exactly what it was: the room was counted above.
                None => self
                    .exception(f64::from(*k) / self.scale)
                    .unwrap_or(EXCEPTION),
            };
        };
        for c in calls.iter_mut() {
            refine(&mut c.incl);
            refine(&mut c.excl);
        }
        ext.iter_mut().flatten().flatten().for_each(refine);
        (self.calls, self.ext) = (calls, ext);
        (self.decimals, self.scale) = (finer, scale(finer));
        in_steps(v, self.scale)
    }

    /// `v` kept exactly, its index marked; `None` once 2³¹ are kept.
    fn exception(&mut self, v: f64) -> Option<u32> {
        let i = u32::try_from(self.exact.len())
            .ok()
            .filter(|&i| i < EXCEPTION)?;
        self.exact.push(v);
        Some(EXCEPTION | i)
    }
}

/// A function's calls, as the feed counted them (`Accs::add`, in the
/// function's row, where the call is counted): how many, and where its
/// slowest began.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Called {
    pub calls: u64,
    pub slowest: u64,
}

/// The feed's side: every call's durations while the trace is read, and
/// each thread's open calls' first events (where `w` lands).
#[derive(Clone, Debug)]
pub(super) struct Durations {
    timed: bool,
    /// Whether each call is kept for its function's percentiles and
    /// histogram; else only its extremes are (`extremes_only`).
    distributions: bool,
    log: Log,
    /// Events seen so far: the next event's position in the trace's
    /// packets, counted across them in input order.
    events: u64,
    /// Each thread's open calls' first events, as its frames (by thread
    /// index): kept apart from the frames, which stay 40 bytes, and in four
    /// bytes each (a trace of calls never returned holds one a call; past
    /// 2³² − 1 events a call's position is not known).
    open: Vec<Vec<u32>>,
}

impl Durations {
    /// Keeps nothing for an untimed trace, which has no durations.
    pub(super) fn new(timed: bool) -> Durations {
        Durations {
            timed,
            distributions: true,
            log: Log::Steps(Steps::new()),
            events: 0,
            open: Vec::new(),
        }
    }

    /// Keeps each function's shortest and longest call only, not every
    /// call: no percentile or histogram (`Profile::call_durations` is
    /// `None`), the same extremes (`Profile::per_call`).
    pub(super) fn extremes_only(&mut self) {
        self.distributions = false;
    }

    /// An event of the trace arrived (one of its packets' events).
    #[inline(always)]
    pub(super) fn event(&mut self) {
        self.events += 1;
    }

    /// A call opened on `thread` at the event just counted.
    #[inline(always)]
    pub(super) fn enter(&mut self, thread: usize) {
        if !self.timed {
            return;
        }
        if self.open.len() <= thread {
            self.open.resize_with(thread + 1, Vec::new);
        }
        let at = self
            .events
            .checked_sub(1)
            .and_then(|e| u32::try_from(e).ok());
        self.open[thread].push(at.unwrap_or(u32::MAX));
    }

    /// The top call of `thread` closed: the event it began at.
    #[inline(always)]
    pub(super) fn exit(&mut self, thread: usize) -> u64 {
        match self.open.get_mut(thread).and_then(Vec::pop) {
            Some(at) if at != u32::MAX => u64::from(at),
            _ => NO_EVENT,
        }
    }

    /// One call of `func`, counted to it: its span (`incl`) and its own
    /// time on top of the stack (`excl`).
    #[inline(always)]
    pub(super) fn call(&mut self, func: FuncId, incl: f64, excl: f64) {
        let f = func.index();
        let log = self.distributions;
        let kept = match &mut self.log {
            Log::Steps(steps) => match steps.encode_both(incl, excl) {
                (Some(incl), Some(excl)) => {
                    steps.keep(f, [incl, excl], log);
                    true
                }
                // Past 2³¹ exceptions: the log becomes `f64`s, this call with it.
                _ => false,
            },
            Log::Exact(calls, ext) => {
                keep_exact((calls, ext), f, [incl, excl], log);
                true
            }
        };
        if !kept {
            self.make_exact();
            if let Log::Exact(calls, ext) = &mut self.log {
                keep_exact((calls, ext), f, [incl, excl], log);
            }
        }
    }

    /// The log as `f64`s, a segment at a time: past 2³¹ exceptions, which
    /// no trace of this world gives.
    #[cold]
    #[inline(never)]
    fn make_exact(&mut self) {
        let Log::Steps(steps) = &mut self.log else {
            return;
        };
        let mut exact = Segments::default();
        for seg in std::mem::take(&mut steps.calls.segs) {
            for c in seg {
                exact.push(Entry {
                    func: c.func,
                    incl: steps.ms(c.incl),
                    excl: steps.ms(c.excl),
                });
            }
        }
        let ext = steps
            .ext
            .iter()
            .map(|x| x.map(|x| x.map(|k| steps.ms(k))))
            .collect();
        self.log = Log::Exact(exact, ext);
    }

    /// Each function's summary, `funcs` its calls as counted (each one
    /// given to `call` when the trace is timed); every call's values freed
    /// on the way.
    pub(super) fn finish(self, funcs: &[Called]) -> DurationTable {
        let Durations {
            log,
            timed,
            distributions,
            ..
        } = self;
        let mut table = DurationTable::default();
        if !timed || funcs.iter().all(|f| f.calls == 0) {
            return table;
        }
        table.distributions = distributions;
        let ext: Vec<Ext<f64>> = match log {
            Log::Steps(mut steps) => {
                let calls = std::mem::take(&mut steps.calls);
                let (scale, exact) = (steps.scale, &steps.exact);
                table.scale = Some(scale);
                let ms = |v: u32| match v & EXCEPTION {
                    0 => f64::from(v) / scale,
                    _ => exact[(v & !EXCEPTION) as usize],
                };
                if distributions {
                    let grouped = group(calls, funcs, 0u32);
                    let cmp = |a: &u32, b: &u32| Steps::order(scale, exact, *a, *b);
                    summarise(&mut table, funcs, &grouped, (cmp, ms));
                }
                steps.ext.iter().map(|x| x.map(|x| x.map(ms))).collect()
            }
            Log::Exact(calls, ext) => {
                if distributions {
                    let grouped = group(calls, funcs, 0f64);
                    summarise(&mut table, funcs, &grouped, (f64::total_cmp, |v| v));
                }
                ext
            }
        };
        if !distributions {
            table.rows = funcs
                .iter()
                .map(|f| Row {
                    calls: f.calls,
                    slowest: f.slowest,
                    ..Row::default()
                })
                .collect();
            for (row, x) in table.rows.iter_mut().zip(&ext) {
                if let Some(x) = x {
                    row.extremes = *x;
                }
            }
        }
        table
    }
}

/// The calls' values by function, each function's together, in function
/// order: read from the log a segment at a time, each freed once read.
/// The grouped array's pages are written as the log's are freed, so the
/// two together hold little more than the log did.
fn group<T: Copy>(calls: Segments<Entry<T>>, funcs: &[Called], zero: T) -> Vec<[T; 2]> {
    let mut at: Vec<usize> = Vec::with_capacity(funcs.len());
    let mut n = 0usize;
    for f in funcs {
        at.push(n);
        n += f.calls as usize;
    }
    let mut grouped = vec![[zero; 2]; n];
    for seg in calls.segs {
        for c in &seg {
            let slot = &mut at[c.func as usize];
            grouped[*slot] = [c.incl, c.excl];
            *slot += 1;
        }
    }
    grouped
}

/// Each function's percentiles, extremes (`note`) and histogram from its grouped
/// calls, on every core: a function at a time, each column's values
/// copied into a scratch list as long as the function's calls (four
/// bytes a value: with the grouped calls, no more than the log held) and
/// selected there. `cmp` orders values as `ms` does, which gives them in
/// ms.
fn summarise<T, C, M>(
    table: &mut DurationTable,
    funcs: &[Called],
    grouped: &[[T; 2]],
    (cmp, ms): (C, M),
) where
    T: Copy + Send + Sync,
    C: Fn(&T, &T) -> Ordering + Sync,
    M: Fn(T) -> f64 + Sync,
{
    use rayon::prelude::*;
    let mut starts = Vec::with_capacity(funcs.len());
    let mut at = 0usize;
    for f in funcs {
        starts.push(at);
        at += f.calls as usize;
    }
    let one = |(scratch, buckets): &mut (Vec<T>, Buckets), i: usize| {
        let f = funcs[i];
        let calls = &grouped[starts[i]..starts[i] + f.calls as usize];
        let mut row = Row {
            calls: f.calls,
            slowest: f.slowest,
            ..Row::default()
        };
        if calls.is_empty() {
            return (row, Vec::new());
        }
        let mut ext = None;
        for &[i, e] in calls {
            note(&mut ext, [i, e], |a, b| cmp(&a, &b).is_lt());
        }
        if let Some(x) = ext {
            row.extremes = x.map(&ms);
        }
        let mut hist = Vec::new();
        for c in [1, 0] {
            scratch.clear();
            scratch.extend(calls.iter().map(|x| x[c]));
            if c == 0 {
                (hist, row.first_exp) = buckets.count(scratch.iter().map(|&v| ms(v)));
            }
            let at = percentiles(scratch, &cmp).map(&ms);
            match c {
                0 => row.incl = at,
                _ => row.excl = at,
            }
        }
        (row, hist)
    };
    let rows: Vec<(Row, Vec<u64>)> = (0..funcs.len())
        .into_par_iter()
        .map_init(|| (Vec::new(), Buckets::new()), one)
        .collect();
    table.rows = Vec::with_capacity(rows.len());
    for (mut row, hist) in rows {
        row.hist_at = table.hist.len();
        row.hist_len = hist.len().saturating_sub(1) as u16;
        table.hist.extend(hist);
        table.rows.push(row);
    }
}

/// The values of `v` (non-empty) at [`PERCENTS`], by nearest rank:
/// selected in place, each in what the one before left above it.
fn percentiles<T: Copy>(v: &mut [T], cmp: &impl Fn(&T, &T) -> Ordering) -> [T; 3] {
    let n = v.len();
    let mut out = [v[0]; 3];
    let mut from = 0;
    for (k, &p) in PERCENTS.iter().enumerate() {
        let i = nearest_rank(p, n);
        if i >= from {
            v[from..].select_nth_unstable_by(i - from, cmp);
            from = i + 1;
        }
        out[k] = v[i];
    }
    out
}

/// floor(log2(v)) for a positive finite `v`, from its bits: exact where
/// `log2` may round across a power of two.
fn exponent(v: f64) -> i32 {
    let bits = v.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    match biased {
        0 => -1074 + 63 - (bits & ((1 << 52) - 1)).leading_zeros() as i32,
        _ => biased - 1023,
    }
}

/// A count for every power of two a float can be in, reused function
/// after function (only the buckets used are cleared).
struct Buckets(Vec<u64>);

impl Buckets {
    /// Where 2^-1074, a float's least power of two, is counted.
    const LEAST: i32 = -1074;

    fn new() -> Buckets {
        Buckets(vec![0; 2100])
    }

    /// A histogram of `values`: the count of no time (or no finite time)
    /// first, then by powers of two from the first that holds one to the
    /// last; and that first power.
    fn count(&mut self, values: impl Iterator<Item = f64>) -> (Vec<u64>, i16) {
        let (mut zero, mut lo, mut hi) = (0, i32::MAX, i32::MIN);
        for v in values {
            if !(v > 0.0 && v.is_finite()) {
                zero += 1;
                continue;
            }
            let e = exponent(v);
            (lo, hi) = (lo.min(e), hi.max(e));
            self.0[(e - Self::LEAST) as usize] += 1;
        }
        let mut hist = vec![zero];
        if lo <= hi {
            let used = &mut self.0[(lo - Self::LEAST) as usize..=(hi - Self::LEAST) as usize];
            hist.extend_from_slice(used);
            used.fill(0);
            return (hist, lo as i16);
        }
        (hist, 0)
    }
}

/// A function's summary as the profile keeps it.
#[derive(Clone, Copy, Debug, Default)]
struct Row {
    calls: u64,
    incl: [f64; 3],
    excl: [f64; 3],
    /// The shortest and longest call, inclusive then exclusive: of the
    /// same values as the percentiles, by one rule (`note`), so none is
    /// ever above the longest.
    extremes: [f64; 4],
    slowest: u64,
    /// Its histogram in `DurationTable::hist`: the calls of no time at
    /// `hist_at`, then `hist_len` buckets from 2^first_exp.
    hist_at: usize,
    hist_len: u16,
    first_exp: i16,
}

/// Every function's summary, by function id; empty where the profile has
/// none (every format but a timed trace, and a query's step).
#[derive(Clone, Debug, Default)]
pub(crate) struct DurationTable {
    rows: Vec<Row>,
    hist: Vec<u64>,
    /// The steps a ms held when the trace ended (`Steps::scale`); `None`
    /// where the values were kept exactly.
    scale: Option<f64>,
    /// Whether the rows hold percentiles and histograms, or only each
    /// function's calls and extremes (`Durations::extremes_only`).
    distributions: bool,
}

/// The median, 90th and 99th percentile of a function's calls' times
/// (nearest rank), in the profile's time unit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Percentiles {
    /// The median.
    pub p50: f64,
    /// The 90th percentile.
    pub p90: f64,
    /// The 99th percentile.
    pub p99: f64,
}

impl DurationTable {
    /// The rows of the functions `keep` keeps, by their new ids (a range's
    /// profile dropping the functions that did not run in it).
    pub(crate) fn keep(&mut self, keep: &[bool]) {
        let rows = std::mem::take(&mut self.rows);
        self.rows = rows
            .into_iter()
            .enumerate()
            .filter_map(|(i, r)| keep.get(i).copied().unwrap_or(false).then_some(r))
            .collect();
    }

    /// Function `f`'s shortest and longest call (model.md § Per-call
    /// statistics); absent without calls.
    pub(super) fn per_call(&self, f: usize) -> super::PerCall {
        match self.rows.get(f).filter(|r| r.calls > 0) {
            Some(r) => super::PerCall {
                min_inclusive: Some(r.extremes[0]),
                max_inclusive: Some(r.extremes[1]),
                min_exclusive: Some(r.extremes[2]),
                max_exclusive: Some(r.extremes[3]),
            },
            None => super::PerCall::default(),
        }
    }
}

impl Percentiles {
    fn of(v: [f64; 3]) -> Percentiles {
        Percentiles {
            p50: v[0],
            p90: v[1],
            p99: v[2],
        }
    }

    /// The three, in [`PERCENTS`]'s order.
    pub fn all(&self) -> [f64; 3] {
        [self.p50, self.p90, self.p99]
    }
}

/// How a function's calls' inclusive times fall: how many took no time,
/// then how many in each power of two of the time unit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Histogram<'a> {
    /// Calls whose span is 0 (on a whole-ms clock, under a ms).
    pub zero: u64,
    /// `counts[i]` is the calls of at least 2^(first_exp + i) and under
    /// twice that.
    pub first_exp: i32,
    /// Calls by bucket, from the first that holds one to the last.
    pub counts: &'a [u64],
}

/// The distribution of one function's calls' durations.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CallDurations<'a> {
    /// How many calls it summarises (the function's calls).
    pub calls: u64,
    /// Each call's span, from its entry to its exit.
    pub inclusive: Percentiles,
    /// Each call's own time on top of the stack.
    pub exclusive: Percentiles,
    /// Where its slowest call (the longest span; the first of equal ones)
    /// begins among the trace's events, counted across its packets in
    /// input order (`Profile::event_at`); `None` where not known.
    pub slowest_event: Option<u64>,
    /// Its calls' spans by powers of two.
    pub histogram: Histogram<'a>,
}

impl Profile {
    /// The distribution of `f`'s calls' durations: for a timed trace's
    /// functions with calls; absent elsewhere, after a query's step (a
    /// rewrite does not know which call a path's time was) and from a load
    /// that kept only the extremes (`ProfileBuilder::skip_durations`).
    pub fn call_durations(&self, f: FuncId) -> Option<CallDurations<'_>> {
        let t = &self.durations;
        if !t.distributions {
            return None;
        }
        let r = t.rows.get(f.index()).filter(|r| r.calls > 0)?;
        let hist = t
            .hist
            .get(r.hist_at..r.hist_at + 1 + usize::from(r.hist_len))?;
        Some(CallDurations {
            calls: r.calls,
            inclusive: Percentiles::of(r.incl),
            exclusive: Percentiles::of(r.excl),
            slowest_event: (r.slowest != NO_EVENT).then_some(r.slowest),
            histogram: Histogram {
                zero: hist[0],
                first_exp: i32::from(r.first_exp),
                counts: &hist[1..],
            },
        })
    }

    /// A call's duration `v` as its function's durations hold it: the
    /// whole steps of the trace's clock where it is on one (its binary
    /// noise gone, as in the percentiles), else exactly `v`. Per-call rows
    /// written elsewhere (the `calls` table) so equal the minimum, maximum
    /// and percentiles to the bit.
    pub fn call_time(&self, v: f64) -> f64 {
        match self
            .durations
            .scale
            .and_then(|s| Some((in_steps(v, s)?, s)))
        {
            Some((k, scale)) => f64::from(k) / scale,
            None => v,
        }
    }

    /// Whether some function has durations ([`Profile::call_durations`]).
    pub fn has_call_durations(&self) -> bool {
        self.durations.distributions && !self.durations.rows.is_empty()
    }

    /// The packet and index of the trace's event at `position`, counted
    /// across its packets in input order (`CallDurations::slowest_event`).
    pub fn event_at(&self, position: u64) -> Option<(PacketId, usize)> {
        let mut left = usize::try_from(position).ok()?;
        for k in self.packet_ids() {
            let n = self.packet(k).events.len();
            if left < n {
                return Some((k, left));
            }
            left -= n;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The percentile the plain way: sort, then `sorted[ceil(p/100 × n) − 1]`.
    fn by_sort(values: &[u32], p: u32) -> u32 {
        let mut v = values.to_vec();
        v.sort_unstable();
        let rank = ((f64::from(p) / 100.0) * v.len() as f64).ceil() as usize;
        v[rank - 1]
    }

    /// The feed as `Accs::add` drives it: each call counted to its
    /// function (with its slowest so far) and given to the log.
    struct Feed {
        d: Durations,
        funcs: Vec<(Called, f64)>,
    }

    impl Feed {
        fn new() -> Feed {
            Feed {
                d: Durations::new(true),
                funcs: Vec::new(),
            }
        }

        fn call(&mut self, f: u32, incl: f64, excl: f64, began: u64) {
            let i = f as usize;
            if self.funcs.len() <= i {
                self.funcs.resize(i + 1, Default::default());
            }
            let (c, longest) = &mut self.funcs[i];
            c.calls += 1;
            if c.calls == 1 || incl > *longest {
                (*longest, c.slowest) = (incl, began);
            }
            self.d.call(FuncId(f), incl, excl);
        }

        fn finish(self) -> DurationTable {
            let called: Vec<Called> = self.funcs.iter().map(|f| f.0).collect();
            self.d.finish(&called)
        }
    }

    /// A feed of `calls` (function, incl, excl), each beginning at the
    /// event of its place in the list, and its table.
    fn fed(calls: &[(u32, f64, f64)]) -> DurationTable {
        let mut d = Feed::new();
        for (i, &(f, incl, excl)) in calls.iter().enumerate() {
            d.call(f, incl, excl, i as u64);
        }
        d.finish()
    }

    fn row(t: &DurationTable, f: usize) -> Row {
        t.rows[f]
    }

    #[test]
    fn nearest_rank_at_its_edges() {
        // n = 1: every percentile is the one value.
        assert_eq!(PERCENTS.map(|p| nearest_rank(p, 1)), [0, 0, 0]);
        // n = 2: ceil(1.0) = 1, ceil(1.8) = 2, ceil(1.98) = 2.
        assert_eq!(PERCENTS.map(|p| nearest_rank(p, 2)), [0, 1, 1]);
        // n = 100: exactly the 50th, 90th and 99th values.
        assert_eq!(PERCENTS.map(|p| nearest_rank(p, 100)), [49, 89, 98]);
        assert_eq!(PERCENTS.map(|p| nearest_rank(p, 101)), [50, 90, 99]);
        assert_eq!(nearest_rank(100, 7), 6);
    }

    #[test]
    fn percentiles_are_the_sorted_values_at_nearest_rank() {
        // A fixed pseudo-random sequence, with repeats, over sizes that
        // cross the ranks' edges.
        let mut x = 12345u64;
        for n in [1usize, 2, 3, 10, 99, 100, 101, 1000, 4321] {
            let values: Vec<u32> = (0..n)
                .map(|_| {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((x >> 33) % 500) as u32
                })
                .collect();
            let calls: Vec<(u32, f64, f64)> = values
                .iter()
                .map(|&v| (0, f64::from(v), f64::from(v / 3)))
                .collect();
            let t = fed(&calls);
            let r = row(&t, 0);
            let excl: Vec<u32> = values.iter().map(|v| v / 3).collect();
            for (k, &p) in PERCENTS.iter().enumerate() {
                assert_eq!(r.incl[k], f64::from(by_sort(&values, p)), "n {n} p{p}");
                assert_eq!(r.excl[k], f64::from(by_sort(&excl, p)), "n {n} p{p} excl");
            }
            assert_eq!(r.calls, n as u64);
        }
    }

    #[test]
    fn each_function_gets_its_own_calls_and_slowest() {
        let t = fed(&[
            (2, 5.0, 1.0),
            (0, 1.0, 1.0),
            (2, 9.0, 2.0),
            (2, 9.0, 3.0),
            (0, 3.0, 0.0),
        ]);
        assert_eq!(t.rows.len(), 3);
        assert_eq!(row(&t, 1).calls, 0);
        assert_eq!((row(&t, 0).incl, row(&t, 0).slowest), ([1.0, 3.0, 3.0], 4));
        // The first of the two longest.
        assert_eq!((row(&t, 2).incl, row(&t, 2).slowest), ([9.0, 9.0, 9.0], 2));
        assert_eq!(row(&t, 2).excl, [2.0, 3.0, 3.0]);
    }

    /// A clock with decimals: the step refines, the values kept are
    /// multiplied, and every value comes back at the clock's decimals
    /// (no binary noise of the subtraction).
    #[test]
    fn a_finer_clock_refines_the_step_without_losing_a_digit() {
        let noisy = 1520.25 - 1519.1;
        assert_ne!(noisy, 1.15);
        let t = fed(&[(0, 4.0, 1.0), (0, noisy, 0.5), (0, 0.125, 0.125)]);
        assert_eq!(row(&t, 0).incl, [1.15, 4.0, 4.0]);
        assert_eq!(row(&t, 0).excl, [0.5, 1.0, 1.0]);
        // The shortest and longest are of the same values: none above p99.
        let pc = t.per_call(0);
        assert_eq!(
            (pc.min_inclusive, pc.max_inclusive),
            (Some(0.125), Some(4.0))
        );
        assert_eq!(
            (pc.min_exclusive, pc.max_exclusive),
            (Some(0.125), Some(1.0))
        );
        assert!(t.per_call(1).is_absent());
        let mut d = Feed::new();
        d.call(0, 7.0, 7.0, 0);
        d.call(0, 0.001, 0.0, 1);
        assert!(matches!(&d.d.log, Log::Steps(s) if s.decimals == 3 && s.exact.is_empty()));
    }

    /// What no step up to a ns holds below 2³¹ steps is kept exactly, as
    /// an exception: every value as it came, the others still in steps.
    #[test]
    fn what_no_step_holds_is_kept_exactly() {
        let long = 5e9; // 58 days of ms
        let fine = 1.0 / 3.0;
        let calls = [
            (0, 2.0, 2.0),
            (0, long, 1.0),
            (1, fine, fine),
            (1, 0.5, 0.25),
        ];
        let mut d = Feed::new();
        for (i, &(f, incl, excl)) in calls.iter().enumerate() {
            d.call(f, incl, excl, i as u64);
        }
        let kept = |s: &Steps| s.decimals == 2 && s.exact == [long, fine, fine];
        assert!(matches!(&d.d.log, Log::Steps(s) if kept(s)));
        let t = d.finish();
        assert_eq!(row(&t, 0).incl, [2.0, long, long]);
        assert_eq!(row(&t, 1).incl, [fine, 0.5, 0.5]);
        assert_eq!(row(&t, 1).excl, [0.25, fine, fine]);
        // A finer step that the values kept outgrow: they become exact.
        let t = fed(&[(0, 4e6, 1.0), (0, 0.0001, 0.0)]);
        assert_eq!(row(&t, 0).incl, [0.0001, 4e6, 4e6]);
        assert_eq!(row(&t, 0).excl, [0.0, 1.0, 1.0]);
    }

    /// The last resort, past 2³¹ exceptions: every value as an f64.
    #[test]
    fn a_log_made_exact_keeps_every_value() {
        let mut d = Feed::new();
        d.call(0, 1.5, 0.25, 0);
        d.call(0, 1.0 / 3.0, 0.0, 1);
        d.d.make_exact();
        d.call(0, 7.0, 2.0, 2);
        assert!(matches!(d.d.log, Log::Exact(..)));
        let t = d.finish();
        assert_eq!(row(&t, 0).incl, [1.5, 7.0, 7.0]);
        assert_eq!(row(&t, 0).excl, [0.25, 2.0, 2.0]);
    }

    /// Each function's extremes, kept alone (`extremes_only`), are those
    /// of the full log to the bit, through every way a value is kept:
    /// steps, a step refined, an exception, a value outgrowing a finer
    /// step, a log made exact; and such a table says it has no
    /// distribution.
    #[test]
    fn extremes_kept_alone_are_the_full_logs() {
        let noisy = 1520.25 - 1519.1;
        let runs: [&[(u32, f64, f64)]; 4] = [
            &[
                (0, 4.0, 1.0),
                (0, noisy, 0.5),
                (2, 0.125, 0.125),
                (0, 3.0, 0.0),
            ],
            &[
                (0, 2.0, 2.0),
                (0, 5e9, 1.0),
                (1, 1.0 / 3.0, 1.0 / 3.0),
                (1, 0.5, 0.25),
            ],
            &[
                (0, 4e6, 1.0),
                (0, 0.0001, 0.0),
                (0, 4e6, 4e6),
                (1, 7.0, 7.0),
            ],
            &[
                (0, 1.5, 0.25),
                (0, 1.0 / 3.0, 0.0),
                (0, 7.0, 2.0),
                (0, 0.5, 0.5),
            ],
        ];
        for (n, calls) in runs.iter().enumerate() {
            let (mut full, mut alone) = (Feed::new(), Feed::new());
            alone.d.extremes_only();
            for (i, &(f, incl, excl)) in calls.iter().enumerate() {
                for d in [&mut full, &mut alone] {
                    if n == 3 && i == 2 {
                        d.d.make_exact();
                    }
                    d.call(f, incl, excl, i as u64);
                }
            }
            let (a, b) = (full.finish(), alone.finish());
            assert!(a.distributions && !b.distributions, "run {n}");
            for f in 0..3 {
                let bits = |p: super::super::PerCall| {
                    [
                        p.min_inclusive,
                        p.max_inclusive,
                        p.min_exclusive,
                        p.max_exclusive,
                    ]
                    .map(|v| v.map(f64::to_bits))
                };
                assert_eq!(bits(a.per_call(f)), bits(b.per_call(f)), "run {n}, {f}");
                // And they are the least and greatest of the function's
                // values as the table's clock holds them.
                let held = |v: f64| {
                    a.scale
                        .and_then(|s| Some(f64::from(in_steps(v, s)?) / s))
                        .unwrap_or(v)
                };
                let of = |c: fn(&(u32, f64, f64)) -> f64| {
                    let v: Vec<f64> = calls
                        .iter()
                        .filter(|x| x.0 == f as u32)
                        .map(|x| held(c(x)))
                        .collect();
                    let lo = v.iter().copied().min_by(f64::total_cmp);
                    (lo, v.iter().copied().max_by(f64::total_cmp))
                };
                let ((i0, i1), (e0, e1)) = (of(|x| x.1), of(|x| x.2));
                let want = [i0, i1, e0, e1].map(|v| v.map(f64::to_bits));
                assert_eq!(bits(b.per_call(f)), want, "run {n}, {f}");
            }
            assert!(!a.per_call(0).is_absent());
        }
    }

    #[test]
    fn an_exponent_is_floor_log2_to_the_bit() {
        for e in -1021..1024 {
            let v = 2f64.powi(e);
            assert_eq!(exponent(v), e, "2^{e}");
            assert_eq!(exponent(v * 1.5), e, "1.5 × 2^{e}");
            let below = f64::from_bits(v.to_bits() - 1);
            assert_eq!(exponent(below), e - 1, "below 2^{e}");
        }
        // Below the normal numbers: by the mantissa's highest bit.
        assert_eq!(exponent(f64::from_bits(1)), -1074);
        assert_eq!(exponent(f64::from_bits(3 << 50)), -1023);
        assert_eq!(exponent(3.0), 1);
        assert_eq!(exponent(f64::MAX), 1023);
    }

    #[test]
    fn a_histogram_buckets_by_powers_of_two() {
        let t = fed(&[
            (0, 0.0, 0.0),
            (0, 1.0, 0.0),
            (0, 3.0, 0.0),
            (0, 2.0, 0.0),
            (0, 40.0, 0.0),
            (0, 0.5, 0.0),
        ]);
        let r = row(&t, 0);
        let h = &t.hist[r.hist_at..r.hist_at + 1 + usize::from(r.hist_len)];
        // 0 | [0.5,1) [1,2) [2,4) [4,8) [8,16) [16,32) [32,64)
        assert_eq!(r.first_exp, -1);
        assert_eq!(h, [1, 1, 1, 2, 0, 0, 0, 1]);
    }

    #[test]
    fn an_untimed_feed_or_no_call_keeps_nothing() {
        let mut d = Durations::new(false);
        d.event();
        d.enter(0);
        assert_eq!(d.exit(0), NO_EVENT);
        let one = [Called {
            calls: 1,
            slowest: 0,
        }];
        assert!(d.finish(&one).rows.is_empty(), "untimed");
        assert!(Durations::new(true).finish(&[]).rows.is_empty());
    }

    #[test]
    fn a_call_begins_at_the_event_it_was_entered_at() {
        let mut d = Durations::new(true);
        d.event();
        d.enter(1); // event 0 on thread 1
        d.event();
        d.event();
        d.enter(1); // event 2
        assert_eq!((d.exit(1), d.exit(1), d.exit(1)), (2, 0, NO_EVENT));
        assert_eq!(d.exit(7), NO_EVENT);
    }

    /// A's calls of `trace.rs`'s shortest-and-longest example: spans 40
    /// (from event 0), 20 (event 1) and 1 (event 6); own times 19, 20
    /// and 1. Each event asks for its thread, as a loader's do.
    #[test]
    fn the_trace_feed_gives_each_call_where_it_counts_it() {
        use crate::ProfileBuilder;
        use crate::metrics::TraceTime;
        use crate::warning::Place;
        for timed in [TraceTime::Timed, TraceTime::Untimed] {
            let mut b = ProfileBuilder::new("test");
            let m = b.intern("");
            let (na, nb) = (b.intern("A"), b.intern("B"));
            let (a, bb) = (b.function(na, m), b.function(nb, m));
            b.trace_begin(timed);
            let events = [
                (0.0, Some(a)),
                (10.0, Some(a)),
                (30.0, None),
                (32.0, Some(bb)),
                (33.0, None),
                (40.0, None),
                (50.0, Some(a)),
                (51.0, None),
            ];
            for (t, e) in events {
                let th = b.trace_thread(1);
                b.trace_time(th, t, || Place::Line(1));
                match e {
                    Some(f) => b.trace_enter(th, f, 0, None),
                    None => drop(b.trace_exit(th)),
                }
            }
            let p = b.finish();
            if timed == TraceTime::Untimed {
                assert!(p.call_durations(a).is_none() && !p.has_call_durations());
                continue;
            }
            let d = p.call_durations(a).expect("A's calls");
            assert_eq!(d.calls, 3);
            assert_eq!(d.inclusive.all(), [20.0, 40.0, 40.0]);
            assert_eq!(d.exclusive.all(), [19.0, 20.0, 20.0]);
            assert_eq!(d.slowest_event, Some(0));
            assert_eq!(d.histogram.counts.iter().sum::<u64>(), 3);
            let e = p.call_durations(bb).expect("B's call");
            assert_eq!((e.slowest_event, e.inclusive.p99), (Some(3), 1.0));
        }
    }

    /// A range counts the calls entered in it (`trace_acc.rs`, where the
    /// call is counted): A ran before it, B's first call inside it and
    /// its second ends past it (its span cut there); A's row goes with A
    /// (`Profile::keep_ran`), B's follows B's new id.
    #[test]
    fn a_range_keeps_the_calls_entered_in_it() {
        use crate::metrics::TraceTime;
        use crate::{ProfileBuilder, TimeRange, warning::Place};
        let mut b = ProfileBuilder::new("test");
        b.cut_to(TimeRange {
            from_ms: 10.0,
            until_ms: 30.0,
        });
        let m = b.intern("");
        let (na, nb) = (b.intern("A"), b.intern("B"));
        let (a, bb) = (b.function(na, m), b.function(nb, m));
        b.trace_begin(TraceTime::Timed);
        let calls = [(a, 0.0, 5.0), (bb, 12.0, 15.0), (bb, 20.0, 40.0)];
        for (f, from, to) in calls {
            let th = b.trace_thread(1);
            b.trace_time(th, from, || Place::Line(1));
            b.trace_enter(th, f, 0, None);
            let th = b.trace_thread(1);
            b.trace_time(th, to, || Place::Line(1));
            b.trace_exit(th);
        }
        let p = b.finish();
        assert_eq!(p.functions().len(), 1, "A did not run in the range");
        let d = p.call_durations(FuncId(0)).expect("B's calls");
        assert_eq!((d.calls, d.inclusive.all()), (2, [3.0, 10.0, 10.0]));
        assert_eq!(d.slowest_event, Some(4));
        assert_eq!(p.per_call(FuncId(0)).max_inclusive, Some(10.0));
    }

    /// A position counts events across packets, in input order.
    #[test]
    fn an_event_position_finds_its_packet() {
        use crate::profile::{Event, EventSource, Packet};
        #[derive(Debug)]
        struct N(usize);
        impl EventSource for N {
            fn len(&self) -> usize {
                self.0
            }
            fn get(&self, _: usize) -> Option<Event> {
                None
            }
        }
        let mut b = crate::ProfileBuilder::new("test");
        for n in [3, 0, 2] {
            b.add_packet(Packet {
                source: "t".into(),
                first_ms: None,
                last_ms: None,
                events: std::sync::Arc::new(N(n)),
            });
        }
        let p = b.finish();
        let at = |i| p.event_at(i).map(|(k, j)| (k.index(), j));
        assert_eq!(
            (at(0), at(2), at(3), at(4)),
            (Some((0, 0)), Some((0, 2)), Some((2, 0)), Some((2, 1)))
        );
        assert_eq!(at(5), None);
    }
}
