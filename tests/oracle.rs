//! An oracle for model.md (issue 55): the rules of the trace and sample
//! feeds written the plain way, a call or a sample at a time, with no
//! arrays, queues or caches, and property tests that hold the builder (and
//! the call graph read from it) to them number by number.
//!
//! The plain way: every call is kept whole while it is open (its function,
//! when it began, its own time so far, where it was made from); at its end
//! it gives its numbers to its function, its path, its line and its edge.
//! Recursion counts once per thread: a call adds its span to its function's
//! inclusive time only when no call of the same function is open below it
//! on its thread; an edge F → G adds a call's span only when no F → G pair
//! is open below it; a line adds a call's span only when no call from the
//! same line (of the same caller) is open below it on its thread, and
//! counts every call.

use profx::analysis::callgraph::CallGraph;
use profx::model::metrics::{Sample, TraceTime};
use profx::model::{FuncId, Place, Profile, ProfileBuilder, TimeRange};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

/// One function's numbers as the oracle counts them.
#[derive(Debug, Default, Clone, PartialEq)]
struct Func {
    calls: u64,
    hits_self: u64,
    hits_total: u64,
    inclusive: f64,
    exclusive: f64,
    /// (min, max) of one call's span and of its own time.
    span: Option<(f64, f64)>,
    own: Option<(f64, f64)>,
}

/// One path's numbers.
#[derive(Debug, Default, Clone, PartialEq)]
struct Path {
    hits: u64,
    self_ms: f64,
    child_ms: f64,
}

/// One line's numbers: calls made there (or samples at it) and their time.
#[derive(Debug, Default, Clone, PartialEq)]
struct Site {
    hits: u64,
    ms: f64,
    called: BTreeSet<String>,
}

/// One edge's numbers.
#[derive(Debug, Default, Clone, PartialEq)]
struct EdgeSum {
    calls: u64,
    hits: u64,
    ms: f64,
}

#[derive(Debug, Default)]
struct Oracle {
    funcs: BTreeMap<String, Func>,
    paths: BTreeMap<Vec<String>, Path>,
    sites: BTreeMap<(String, u32), Site>,
    edges: BTreeMap<(String, String), EdgeSum>,
    session: f64,
    outside: f64,
    samples: u64,
}

fn min_max(m: &mut Option<(f64, f64)>, v: f64) {
    *m = Some(match *m {
        None => (v, v),
        Some((lo, hi)) => (lo.min(v), hi.max(v)),
    });
}

/// An op of a generated trace: on thread `thread`, after `dt` quarter
/// milliseconds (negative: the clock goes back), enter function `func`
/// from line `line` of its caller, or leave the top call.
#[derive(Debug, Clone)]
enum Op {
    Enter { func: usize, line: u32 },
    Exit,
}

#[derive(Debug, Clone)]
struct Event {
    thread: usize,
    dt: i32,
    op: Op,
}

/// An open call, kept whole.
struct Call {
    func: usize,
    began: f64,
    own: f64,
    /// (caller's name, line) it was made from.
    site: (String, u32),
    /// Whether its F → G edge is the outermost open on its thread.
    outer_edge: bool,
    /// Whether no call from its site was open on its thread when it was
    /// made: only then does its span go to its line (model.md § Intervals).
    outer_site: bool,
}

const TOP: &str = "(top level)";

fn name(f: usize) -> String {
    // Names alike in a long prefix, as real traces have them.
    format!("CUSTOMERDIALOG:HANDLEEVENTFROMTHEMAINWINDOW_{f}")
}

fn trace_oracle(events: &[Event], threads: usize) -> Oracle {
    trace_oracle_in(events, threads, TimeRange::ALL)
}

/// How much of [a, b) lies in `r`.
fn overlap(a: f64, b: f64, r: TimeRange) -> f64 {
    (b.min(r.until_ms) - a.max(r.from_ms)).max(0.0)
}

/// The oracle for the part of the run in `r` (model.md § Time ranges):
/// every interval counts its overlap with `r`, a call counts where it
/// began inside `r`, and what has neither a call nor time there is not in
/// the profile.
fn trace_oracle_in(events: &[Event], threads: usize, r: TimeRange) -> Oracle {
    let mut o = Oracle::default();
    let mut stacks: Vec<Vec<Call>> = (0..threads).map(|_| Vec::new()).collect();
    let mut clocks: Vec<Option<(f64, f64)>> = vec![None; threads];
    let close = |o: &mut Oracle, stack: &mut Vec<Call>, clock: f64| {
        let Some(c) = stack.pop() else { return };
        let f = name(c.func);
        let span = overlap(c.began, clock, r);
        let counted = u64::from(r.from_ms <= c.began && c.began < r.until_ms);
        let recursive = stack.iter().any(|below| below.func == c.func);
        let mut path: Vec<String> = stack.iter().map(|b| name(b.func)).collect();
        path.push(f.clone());
        let e = o.funcs.entry(f.clone()).or_default();
        e.calls += counted;
        e.exclusive += c.own;
        if !recursive {
            e.inclusive += span;
        }
        if counted == 1 {
            min_max(&mut e.span, span);
            min_max(&mut e.own, c.own);
        }
        let p = o.paths.entry(path).or_default();
        p.hits += counted;
        p.self_ms += c.own;
        p.child_ms += span - c.own;
        let s = o.sites.entry(c.site.clone()).or_default();
        s.hits += counted;
        if c.outer_site {
            s.ms += span;
        }
        s.called.insert(f.clone());
        if let Some(caller) = stack.last() {
            let edge = o.edges.entry((name(caller.func), f)).or_default();
            edge.calls += counted;
            if c.outer_edge {
                edge.ms += span;
            }
        }
    };
    for ev in events {
        let th = ev.thread;
        let stack = &mut stacks[th];
        // The clock: an interval goes to the stack in effect, a time
        // before the clock is an interval of 0.
        let clock = match clocks[th] {
            None => {
                let t = f64::from(ev.dt.max(0)) * 0.25;
                clocks[th] = Some((t, t));
                t
            }
            Some((first, now)) => {
                let t = now + f64::from(ev.dt) * 0.25;
                if t >= now {
                    match stack.last_mut() {
                        Some(top) => top.own += overlap(now, t, r),
                        None => o.outside += overlap(now, t, r),
                    }
                    clocks[th] = Some((first, t));
                    t
                } else {
                    now
                }
            }
        };
        match ev.op {
            Op::Enter { func, line } => {
                let caller = stack.last().map_or(TOP.to_string(), |c| name(c.func));
                let outer_edge = match stack.last() {
                    None => false,
                    Some(top) => !stack
                        .windows(2)
                        .any(|w| w[0].func == top.func && w[1].func == func),
                };
                let site = (caller, line);
                let outer_site = !stack.iter().any(|below| below.site == site);
                stack.push(Call {
                    func,
                    began: clock,
                    own: 0.0,
                    site,
                    outer_edge,
                    outer_site,
                });
            }
            Op::Exit => close(&mut o, stack, clock),
        }
    }
    for (th, stack) in stacks.iter_mut().enumerate() {
        let clock = clocks[th].map_or(0.0, |c| c.1);
        while !stack.is_empty() {
            close(&mut o, stack, clock);
        }
        if let Some((first, last)) = clocks[th] {
            o.session += overlap(first, last, r);
        }
    }
    // What had neither a call nor time in the range is not in it.
    o.funcs
        .retain(|_, f| f.calls > 0 || f.inclusive != 0.0 || f.exclusive != 0.0);
    // A path kept keeps every path above it (a tree has no path without
    // its callers), even one with no call entered and no time in the
    // range: a call entered at the run's last instant under calls whose
    // clock went backwards holds a hit and nothing else.
    // Each path kept marks its callers up to the first already marked
    // (whose own callers are then marked too): every path once, however
    // deep the recursion.
    let mut kept: std::collections::BTreeSet<Vec<String>> = Default::default();
    let held = o
        .paths
        .iter()
        .filter(|(_, p)| p.hits > 0 || p.self_ms != 0.0 || p.child_ms != 0.0);
    for (path, _) in held {
        let mut n = path.len();
        while n > 0 && kept.insert(path[..n].to_vec()) {
            n -= 1;
        }
    }
    o.paths.retain(|path, _| kept.contains(path));
    o.sites.retain(|_, s| s.hits > 0 || s.ms != 0.0);
    // The call graph's edges are the kept paths' (model.md § The call
    // graph): a caller and callee on a kept path stay, with what they hold.
    let on_paths: std::collections::BTreeSet<(String, String)> = kept
        .iter()
        .filter(|path| path.len() > 1)
        .map(|path| (path[path.len() - 2].clone(), path[path.len() - 1].clone()))
        .collect();
    o.edges
        .retain(|key, e| e.calls > 0 || e.ms != 0.0 || on_paths.contains(key));
    o
}

/// The same events through the builder's trace feed, as a loader feeds it.
fn trace_profile(events: &[Event], threads: usize, funcs: usize, stacks: bool) -> Profile {
    trace_profile_in(events, (threads, funcs), stacks, None)
}

/// `trace_profile`, its numbers cut to `range` where one is given.
fn trace_profile_in(
    events: &[Event],
    (threads, funcs): (usize, usize),
    stacks: bool,
    range: Option<TimeRange>,
) -> Profile {
    let mut b = ProfileBuilder::new("oracle");
    if let Some(r) = range {
        b.cut_to(r);
    }
    if !stacks {
        b.skip_stacks();
    }
    let module = b.intern("");
    let ids: Vec<FuncId> = (0..funcs)
        .map(|f| {
            let n = b.intern(&name(f));
            b.function(n, module)
        })
        .collect();
    let top = b.intern(TOP);
    b.trace_begin(TraceTime::Timed);
    // Thread ids far apart and out of order, as files number them.
    let handles: Vec<_> = (0..threads)
        .map(|t| b.trace_thread(1000 - 7 * t as u64))
        .collect();
    let mut clocks: Vec<Option<f64>> = vec![None; threads];
    let mut depth = vec![Vec::<usize>::new(); threads];
    for (i, ev) in events.iter().enumerate() {
        let th = handles[ev.thread];
        let t = match clocks[ev.thread] {
            None => f64::from(ev.dt.max(0)) * 0.25,
            Some(now) => now + f64::from(ev.dt) * 0.25,
        };
        // The feed keeps the clock at the latest time it has seen, and so
        // does the generator: the next time is written from there.
        clocks[ev.thread] = Some(clocks[ev.thread].map_or(t, |now| t.max(now)));
        b.trace_time(th, t, || Place::Line(i as u64 + 1));
        match ev.op {
            Op::Enter { func, line } => {
                let caller = depth[ev.thread].last().map(|&f| ids[f]);
                let site = b.trace_site(caller, line, top);
                b.trace_enter(th, ids[func], 0, Some(site));
                depth[ev.thread].push(func);
            }
            Op::Exit => {
                if depth[ev.thread].pop().is_some() {
                    b.trace_exit(th);
                }
            }
        }
    }
    b.trace_close_open();
    b.finish()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

fn close_opt(a: Option<f64>, b: f64) -> bool {
    a.is_some_and(|a| close(a, b))
}

fn function_of(p: &Profile, n: &str) -> Option<FuncId> {
    p.function_ids().find(|&f| p.function_name(f) == n)
}

fn path_of(p: &Profile, s: profx::model::StackId) -> Vec<String> {
    p.frames(s)
        .iter()
        .map(|&f| p.function_name(f).to_string())
        .collect()
}

/// Holds the profile's functions, stacks, lines, totals and edges to the
/// oracle's; `trace` when the numbers came from the trace feed.
fn agree(p: &Profile, o: &Oracle, trace: bool, stacks: bool) -> Result<(), TestCaseError> {
    // A total of nothing may be stated as 0 or not at all.
    let total =
        |got: Option<f64>, want: f64| close_opt(got, want) || (want == 0.0 && got.is_none());
    prop_assert!(
        total(p.totals.elapsed_inclusive_ms, o.session),
        "session {:?}",
        p.totals
    );
    if trace {
        prop_assert!(
            total(p.totals.outside_ms, o.outside),
            "outside {:?}",
            p.totals
        );
    } else {
        // A profile fed no sample has no sample count, not a count of 0.
        prop_assert_eq!(p.totals.samples, (o.samples > 0).then_some(o.samples));
    }
    for (n, want) in &o.funcs {
        let f = function_of(p, n).ok_or_else(|| TestCaseError::fail(format!("no {n}")))?;
        let got = p.function(f);
        let what = format!("{n}: {got:?} against {want:?}");
        prop_assert!(
            close_opt(got.time.elapsed_inclusive, want.inclusive),
            "{}",
            what
        );
        prop_assert!(
            close_opt(got.time.elapsed_exclusive, want.exclusive),
            "{}",
            what
        );
        if trace {
            prop_assert_eq!(got.calls, Some(want.calls), "{}", what);
            let per = p.per_call(f);
            // A function with no call entered in a range has no single call.
            let extremes = |lo: Option<f64>, hi: Option<f64>, want: Option<(f64, f64)>| match want {
                Some((a, b)) => close_opt(lo, a) && close_opt(hi, b),
                None => lo.is_none() && hi.is_none(),
            };
            prop_assert!(
                extremes(per.min_inclusive, per.max_inclusive, want.span),
                "{}",
                what
            );
            prop_assert!(
                extremes(per.min_exclusive, per.max_exclusive, want.own),
                "{}",
                what
            );
        } else {
            prop_assert_eq!(got.hits_self, Some(want.hits_self), "{}", what);
            prop_assert_eq!(got.hits_total, Some(want.hits_total), "{}", what);
        }
    }
    let listed = p
        .functions()
        .iter()
        .filter(|f| f.calls.is_some() || f.hits_total.is_some());
    prop_assert_eq!(listed.count(), o.funcs.len());
    if stacks {
        let mut seen = BTreeMap::new();
        for s in p.stack_ids() {
            let st = p.stack(s);
            seen.insert(path_of(p, s), (st.hits, st.self_ms, st.child_ms));
        }
        prop_assert_eq!(seen.len(), o.paths.len());
        for (path, want) in &o.paths {
            let got = seen.get(path);
            prop_assert!(got.is_some(), "no stack {:?}", path);
            let (hits, self_ms, child_ms) = got.copied().unwrap_or_default();
            prop_assert_eq!(hits, Some(want.hits), "{:?}", path);
            prop_assert!(close_opt(self_ms, want.self_ms), "{:?} {:?}", path, self_ms);
            if trace {
                prop_assert!(
                    close_opt(child_ms, want.child_ms),
                    "{:?} {:?}",
                    path,
                    child_ms
                );
            } else {
                prop_assert_eq!(child_ms, None);
            }
        }
        let graph = CallGraph::build(p);
        let mut edges = BTreeMap::new();
        for e in graph.edges() {
            let key = (
                p.function_name(e.caller).to_string(),
                p.function_name(e.callee).to_string(),
            );
            edges.insert(key, e.values);
        }
        prop_assert_eq!(edges.len(), o.edges.len());
        for (key, want) in &o.edges {
            let got = edges.get(key);
            prop_assert!(got.is_some(), "no edge {:?}", key);
            let got = got.copied().unwrap_or_default();
            if trace {
                prop_assert_eq!(got.calls, Some(want.calls), "{:?}", key);
            } else {
                prop_assert_eq!(got.hits, Some(want.hits), "{:?}", key);
            }
            prop_assert!(
                close_opt(got.elapsed_inclusive_ms, want.ms),
                "{:?} {:?}",
                key,
                got
            );
        }
    }
    let mut lines = BTreeMap::new();
    for l in p.lines() {
        lines.insert((p.name(l.file).to_string(), l.line), l.clone());
    }
    prop_assert_eq!(lines.len(), o.sites.len());
    for (key, want) in &o.sites {
        let got = lines.get(key);
        prop_assert!(got.is_some(), "no line {:?}", key);
        let got = got.cloned().ok_or_else(|| TestCaseError::fail("checked"))?;
        prop_assert_eq!(got.hits, Some(want.hits), "{:?}", key);
        prop_assert!(
            close_opt(got.time_ms, want.ms),
            "{:?} {:?}",
            key,
            got.time_ms
        );
        if trace {
            let called: Vec<String> = want.called.iter().cloned().collect();
            let mut shown: Vec<String> = got
                .called
                .map(|n| p.name(n).split(", ").map(String::from).collect())
                .unwrap_or_default();
            shown.sort();
            prop_assert_eq!(shown, called, "{:?}", key);
        }
    }
    Ok(())
}

fn events(threads: usize, funcs: usize) -> impl Strategy<Value = Vec<Event>> {
    let op = prop_oneof![
        3 => (0..funcs, 1..4u32).prop_map(|(func, line)| Op::Enter { func, line }),
        2 => Just(Op::Exit),
    ];
    // Mostly forward, now and then back in time.
    let dt = prop_oneof![8 => 0..12i32, 1 => -6..0i32];
    proptest::collection::vec(
        (0..threads, dt, op).prop_map(|(thread, dt, op)| Event { thread, dt, op }),
        0..160,
    )
}

/// Deep recursion of one function and of a pair, on one thread.
fn deep(depth: usize) -> Vec<Event> {
    let mut out = Vec::new();
    for d in 0..depth {
        let func = if d % 3 == 2 { 1 } else { 0 };
        out.push(Event {
            thread: 0,
            dt: 1,
            op: Op::Enter { func, line: 1 },
        });
    }
    out.extend((0..depth).map(|_| Event {
        thread: 0,
        dt: 3,
        op: Op::Exit,
    }));
    out
}

/// Recursion through one call site of a deep stack, on two threads at
/// once: each level calls a helper (func 2, from line 2) and then itself
/// (from line 1), so recursion begins (and the feed starts counting open
/// calls by site) under calls already open, and a call from line 2 has no
/// call from its line open below it however deep the stack.
fn deep_with_helpers(depth: usize) -> Vec<Event> {
    let mut one = Vec::new();
    let mut step = |dt, op| one.push((dt, op));
    step(1, Op::Enter { func: 1, line: 7 });
    for _ in 0..depth {
        step(1, Op::Enter { func: 2, line: 2 });
        step(2, Op::Exit);
        step(1, Op::Enter { func: 0, line: 1 });
    }
    for _ in 0..depth {
        step(3, Op::Exit);
        step(1, Op::Enter { func: 2, line: 2 });
        step(1, Op::Exit);
    }
    step(1, Op::Exit);
    // Thread 1 starts a few events later, so the two interleave.
    let mut out = Vec::new();
    for i in 0..one.len() + 3 {
        for (thread, at) in [(0, Some(i)), (1, i.checked_sub(3))] {
            if let Some((dt, op)) = at.and_then(|k| one.get(k)).cloned() {
                out.push(Event { thread, dt, op });
            }
        }
    }
    out
}

/// model.md § Intervals' example of recursion at one call site, number by
/// number: MAIN calls F from line 5, F calls itself twice from line 20.
#[test]
fn a_call_site_counts_recursion_through_it_once() {
    let ev = |dt, op| Event { thread: 0, dt, op };
    let enter = |func, line| Op::Enter { func, line };
    // Quarter milliseconds: MAIN 0–17, F 1–16, 3–14, 5–13.
    let evs = [
        ev(0, enter(0, 1)),
        ev(4, enter(1, 5)),
        ev(8, enter(1, 20)),
        ev(8, enter(1, 20)),
        ev(32, Op::Exit),
        ev(4, Op::Exit),
        ev(8, Op::Exit),
        ev(4, Op::Exit),
    ];
    let o = trace_oracle(&evs, 1);
    let (main, f) = (name(0), name(1));
    let site = &o.sites[&(f.clone(), 20)];
    // Two calls; 11 ms, the outer one's span (5–13 lies within 3–14), not
    // 19: no more than F's 15 ms in all.
    assert_eq!((site.hits, site.ms), (2, 11.0));
    assert_eq!(o.sites[&(main.clone(), 5)].ms, 15.0);
    assert_eq!((o.funcs[&f].calls, o.funcs[&f].inclusive), (3, 15.0));
    assert_eq!(o.edges[&(f.clone(), f.clone())].ms, 11.0);
    assert_eq!(o.edges[&(f.clone(), f.clone())].calls, 2);
    for stacks in [true, false] {
        let p = trace_profile(&evs, 1, 2, stacks);
        if let Err(e) = agree(&p, &o, true, stacks) {
            panic!("stacks {stacks}: {e}");
        }
    }
}

#[test]
fn deep_recursion_through_one_site_on_two_threads_agrees_with_the_oracle() {
    for depth in [1, 2, 40, 600] {
        let evs = deep_with_helpers(depth);
        let o = trace_oracle(&evs, 2);
        // Each thread: depth − 1 calls down, depth − 1 back up.
        let helper = o.sites.get(&(name(0), 2)).map_or(0, |s| s.hits);
        assert_eq!(helper, 4 * (depth as u64 - 1), "every call counted");
        for stacks in [true, false] {
            let p = trace_profile(&evs, 2, 3, stacks);
            if let Err(e) = agree(&p, &o, true, stacks) {
                panic!("depth {depth}, stacks {stacks}: {e}");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The trace feed gives every function, path, line, total and edge the
    /// plain reading of model.md gives, over up to twelve threads, with
    /// clocks that go back, recursion and calls left open.
    #[test]
    fn the_trace_feed_agrees_with_the_oracle(
        (threads, funcs, evs) in (1..13usize, 1..5usize)
            .prop_flat_map(|(t, f)| (Just(t), Just(f), events(t, f))),
    ) {
        let o = trace_oracle(&evs, threads);
        agree(&trace_profile(&evs, threads, funcs, true), &o, true, true)?;
        // Without stacks, the same functions, lines and totals.
        agree(&trace_profile(&evs, threads, funcs, false), &o, true, false)?;
    }
}

/// A range of a generated trace's run: edges on an eighth of a ms, so
/// some fall on events (a quarter of a ms apart) and some between them;
/// the end now and then past every event.
fn ranges() -> impl Strategy<Value = TimeRange> {
    (0..1600u32, 1..1600u32, any::<bool>()).prop_map(|(from, len, to_end)| TimeRange {
        from_ms: f64::from(from) * 0.125,
        until_ms: match to_end {
            true => f64::INFINITY,
            false => f64::from(from + len) * 0.125,
        },
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Issue 65: a trace cut to a range gives every function, path, line,
    /// total and edge the oracle's reading of the range gives: intervals
    /// cut at its edges, a call counted where it was entered inside it,
    /// and nothing of what neither ran nor was called there.
    #[test]
    fn a_range_agrees_with_the_oracle(
        (threads, funcs, evs) in (1..6usize, 1..5usize)
            .prop_flat_map(|(t, f)| (Just(t), Just(f), events(t, f))),
        range in ranges(),
    ) {
        let o = trace_oracle_in(&evs, threads, range);
        agree(&trace_profile_in(&evs, (threads, funcs), true, Some(range)), &o, true, true)?;
        agree(&trace_profile_in(&evs, (threads, funcs), false, Some(range)), &o, true, false)?;
    }

    /// Issue 65: two ranges that cut the run at one time add up to the
    /// whole run: the session, the time with no call open, each function's
    /// calls and own time, each path's calls and own time.
    #[test]
    fn ranges_that_cut_the_run_add_up_to_it(
        (threads, funcs, evs) in (1..6usize, 1..5usize)
            .prop_flat_map(|(t, f)| (Just(t), Just(f), events(t, f))),
        cut in 0..1600u32,
    ) {
        let at = f64::from(cut) * 0.125;
        let whole = trace_profile(&evs, threads, funcs, true);
        let parts = [
            TimeRange { from_ms: f64::NEG_INFINITY, until_ms: at },
            TimeRange { from_ms: at, until_ms: f64::INFINITY },
        ]
        .map(|r| trace_profile_in(&evs, (threads, funcs), true, Some(r)));
        let sum = |get: &dyn Fn(&Profile) -> Option<f64>| parts.iter().filter_map(get).sum::<f64>();
        let total = |got: f64, want: Option<f64>| close(got, want.unwrap_or(0.0));
        prop_assert!(total(sum(&|p| p.totals.elapsed_inclusive_ms), whole.totals.elapsed_inclusive_ms));
        prop_assert!(total(sum(&|p| p.totals.outside_ms), whole.totals.outside_ms));
        for f in whole.function_ids() {
            let n = whole.function_name(f);
            let of = |p: &Profile| function_of(p, n).map(|g| p.function(g).clone());
            let calls: u64 = parts.iter().filter_map(of).filter_map(|g| g.calls).sum();
            prop_assert_eq!(calls, whole.function(f).calls.unwrap_or(0), "{}", n);
            let own = sum(&|p| of(p).and_then(|g| g.time.elapsed_exclusive));
            prop_assert!(total(own, whole.function(f).time.elapsed_exclusive), "{}", n);
        }
        for s in whole.stack_ids() {
            let path = path_of(&whole, s);
            let of = |p: &Profile| p.stack_ids().find(|&t| path_of(p, t) == path).map(|t| p.stack(t).clone());
            let hits: u64 = parts.iter().filter_map(of).filter_map(|t| t.hits).sum();
            prop_assert_eq!(hits, whole.stack(s).hits.unwrap_or(0), "{:?}", path);
            let own = sum(&|p| of(p).and_then(|t| t.self_ms));
            prop_assert!(total(own, whole.stack(s).self_ms), "{:?}", path);
        }
    }
}

/// A range over the whole run is the whole profile, number for number.
#[test]
fn a_range_over_the_whole_run_is_the_whole_profile() {
    let evs = deep_with_helpers(40);
    let whole = trace_profile(&evs, 2, 3, true);
    let o = trace_oracle(&evs, 2);
    for r in [
        TimeRange {
            from_ms: 0.0,
            until_ms: f64::INFINITY,
        },
        TimeRange::ALL,
    ] {
        let p = trace_profile_in(&evs, (2, 3), true, Some(r));
        if let Err(e) = agree(&p, &o, true, true) {
            panic!("{r:?}: {e}");
        }
        assert_eq!(p.functions(), whole.functions());
    }
}

#[test]
fn deep_recursion_agrees_with_the_oracle() {
    for depth in [1, 2, 3, 50, 3000] {
        let evs = deep(depth);
        let o = trace_oracle(&evs, 1);
        for stacks in [true, false] {
            let p = trace_profile(&evs, 1, 2, stacks);
            if let Err(e) = agree(&p, &o, true, stacks) {
                panic!("depth {depth}, stacks {stacks}: {e}");
            }
        }
    }
}

/// A generated sample: root-first frames, a time in ns, a line of the leaf.
#[derive(Debug, Clone)]
struct Sampled {
    frames: Vec<usize>,
    ns: u64,
    line: u32,
}

fn sample_oracle(samples: &[Sampled]) -> Oracle {
    let mut o = Oracle::default();
    let mut ns_by_path: BTreeMap<Vec<String>, u64> = BTreeMap::new();
    let mut ns_by_func: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    let mut ns_by_edge: BTreeMap<(String, String), u64> = BTreeMap::new();
    let mut ns_by_line: BTreeMap<(String, u32), u64> = BTreeMap::new();
    let mut total = 0u64;
    for s in samples {
        let names: Vec<String> = s.frames.iter().map(|&f| name(f)).collect();
        let Some(leaf) = names.last().cloned() else {
            continue;
        };
        o.samples += 1;
        total += s.ns;
        let distinct: BTreeSet<&String> = names.iter().collect();
        for n in &distinct {
            let f = o.funcs.entry((*n).clone()).or_default();
            f.hits_total += 1;
            ns_by_func.entry((*n).clone()).or_default().1 += s.ns;
        }
        o.funcs.entry(leaf.clone()).or_default().hits_self += 1;
        ns_by_func.entry(leaf.clone()).or_default().0 += s.ns;
        let pairs: BTreeSet<(String, String)> = names
            .windows(2)
            .map(|w| (w[0].clone(), w[1].clone()))
            .collect();
        for pair in pairs {
            o.edges.entry(pair.clone()).or_default().hits += 1;
            *ns_by_edge.entry(pair).or_default() += s.ns;
        }
        let p = o.paths.entry(names.clone()).or_default();
        p.hits += 1;
        *ns_by_path.entry(names).or_default() += s.ns;
        let key = ("M.BR".to_string(), s.line);
        o.sites.entry(key.clone()).or_default().hits += 1;
        *ns_by_line.entry(key).or_default() += s.ns;
    }
    // Times are summed in whole nanoseconds, as the feed sums them.
    let ms = |ns: u64| ns as f64 / 1e6;
    for (n, (own, all)) in ns_by_func {
        if let Some(f) = o.funcs.get_mut(&n) {
            (f.exclusive, f.inclusive) = (ms(own), ms(all));
        }
    }
    for (k, ns) in ns_by_path {
        if let Some(p) = o.paths.get_mut(&k) {
            p.self_ms = ms(ns);
        }
    }
    for (k, ns) in ns_by_edge {
        if let Some(e) = o.edges.get_mut(&k) {
            e.ms = ms(ns);
        }
    }
    for (k, ns) in ns_by_line {
        if let Some(l) = o.sites.get_mut(&k) {
            l.ms = ms(ns);
        }
    }
    o.session = ms(total);
    o
}

fn sample_profile(samples: &[Sampled], funcs: usize, stacks: bool) -> Profile {
    let mut b = ProfileBuilder::new("oracle");
    if !stacks {
        b.skip_stacks();
    }
    let module = b.intern("");
    let file = b.intern("M.BR");
    let ids: Vec<FuncId> = (0..funcs)
        .map(|f| {
            let n = b.intern(&name(f));
            b.function(n, module)
        })
        .collect();
    for s in samples {
        let frames: Vec<FuncId> = s.frames.iter().map(|&f| ids[f]).collect();
        let Some(&leaf) = frames.last() else { continue };
        let line = b.line(file, s.line, Some(leaf));
        b.add_sample(Sample {
            frames: &frames,
            time_ns: Some(s.ns),
            line: Some(line),
        });
    }
    b.finish()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The sample feed folds samples into functions (recursion once a
    /// sample), stacks, lines, totals and edges as the plain reading does.
    #[test]
    fn the_sample_feed_agrees_with_the_oracle(
        (funcs, samples) in (1..6usize).prop_flat_map(|f| (
            Just(f),
            proptest::collection::vec(
                (proptest::collection::vec(0..f, 1..9), 0..5_000_000u64, 1..6u32)
                    .prop_map(|(frames, ns, line)| Sampled { frames, ns, line }),
                0..80,
            ),
        )),
    ) {
        let o = sample_oracle(&samples);
        agree(&sample_profile(&samples, funcs, true), &o, false, true)?;
        agree(&sample_profile(&samples, funcs, false), &o, false, false)?;
    }
}
