//! Sample feed: model.md § Samples (BR timed and sampled profiles).
//!
//! Each sample is one root-first stack with an optional weight. Hits and
//! times go to the leaf as self values and, once per sample however often a
//! function recurs in it, to every function on the stack as total values.
//!
//! A sample only adds to its stack (and line) as it comes; the functions'
//! numbers are folded from the stacks when the profile is finished. Samples
//! with one stack give every function of it the same numbers, so the fold
//! walks each distinct stack once instead of every frame of every sample (a
//! log has ten samples a stack and more). In a profile fed samples, every
//! stack's hits and time are its samples': no loader mixes the feeds.
//!
//! Times are summed exactly: while samples come, every time field they add
//! to holds whole nanoseconds (an `f64` adds whole numbers without rounding
//! below 2^53 ns, 104 days), turned into milliseconds once at the end. So a
//! sum does not depend on its order, and a profile that keeps no stacks
//! (`ProfileBuilder::skip_stacks`: its functions summed sample by sample,
//! not folded from stacks) has the same numbers to the bit.

use crate::ProfileBuilder;
use crate::func_table::{FunctionTable, Which};
use crate::ids::{FuncId, LineId, StackId};
use crate::metrics::add_opt;

/// Whether any sample came, so `finish` knows to fold; and, for a
/// profile without stacks, each function's sums so far.
#[derive(Clone, Debug, Default)]
pub struct SampleState {
    fed: bool,
    /// By function, without stacks: plain numbers, not the rows' options,
    /// which every sample would otherwise unwrap and rewrap.
    sums: Vec<FuncSums>,
}

/// A function's samples, without stacks.
#[derive(Clone, Copy, Debug, Default)]
struct FuncSums {
    /// The number of the last sample that counted it (the sample count
    /// once that sample was counted): recursion once.
    counted_in: u64,
    hits_total: u64,
    hits_self: u64,
    inclusive_ns: f64,
    exclusive_ns: f64,
    /// Some sample of it had a time (else its times stay absent).
    timed: bool,
}

/// One sample as a loader hands it over.
#[derive(Clone, Copy, Debug)]
pub struct Sample<'a> {
    /// Root first, leaf last; never empty.
    pub frames: &'a [FuncId],
    /// The sample's time in nanoseconds for timed profiles, `None` when
    /// only sampled.
    pub time_ns: Option<u64>,
    /// The leaf frame's line, made by `ProfileBuilder::line` (a loader that
    /// meets the same line again keeps its id instead of looking it up).
    pub line: Option<LineId>,
}

/// A sample whose stack's hash its reader made (`ProfileBuilder::
/// stack_hash`), perhaps on another thread, as a sampled log's loader
/// does for the same few stacks met again and again.
#[derive(Clone, Copy, Debug)]
pub struct HashedSample<'a> {
    /// Root first, leaf last; a sample of none is not added.
    pub frames: &'a [FuncId],
    /// The hash of `frames`, as `ProfileBuilder::stack_hash` makes it.
    pub hash: u32,
    /// The sample's time in nanoseconds for timed profiles, `None` when only
    /// sampled.
    pub time_ns: Option<u64>,
    /// The leaf frame's line, made by `ProfileBuilder::line`.
    pub line: Option<LineId>,
}

impl ProfileBuilder {
    /// Adds the samples `sample(0)` to `sample(count - 1)` in order, as
    /// `add_sample` would each. Their stacks are found among a million or
    /// more, each lookup a miss in every cache, and their lines among as
    /// many: what each will read is asked for some samples ahead (so
    /// `sample` is called more than once an index, and should be cheap).
    pub fn add_hashed_samples<'a>(
        &mut self,
        count: usize,
        sample: impl Fn(usize) -> HashedSample<'a>,
    ) {
        const AHEAD: usize = 16;
        let stacks = self.stacks_wanted;
        for i in 0..count {
            // The stack's slot in the index first; its frames and row once
            // the slot has had time to come in, with the line's row.
            if stacks && i + AHEAD < count {
                self.prefetch_stack_slot(sample(i + AHEAD).hash);
            }
            if i + AHEAD / 2 < count {
                let next = sample(i + AHEAD / 2);
                if stacks {
                    self.prefetch_stack_rows(next.hash);
                }
                if let Some(line) = next.line {
                    self.prefetch_line(line);
                }
            }
            let s = sample(i);
            if s.frames.is_empty() {
                continue;
            }
            if stacks {
                let stack = self.stack_hashed(s.frames, s.hash);
                self.add_stack_sample(stack, s.time_ns, s.line);
            } else {
                self.add_unstacked_sample(s.frames, s.time_ns, s.line);
            }
        }
    }

    /// Adds one sample; returns its stack, or `None` for an empty stack or
    /// a profile that keeps no stacks.
    pub fn add_sample(&mut self, s: Sample<'_>) -> Option<StackId> {
        if s.frames.is_empty() {
            return None;
        }
        if !self.stacks_wanted {
            self.add_unstacked_sample(s.frames, s.time_ns, s.line);
            return None;
        }
        let stack = self.stack(s.frames);
        self.add_stack_sample(stack, s.time_ns, s.line);
        Some(stack)
    }

    /// Adds one sample whose stack the loader already has.
    pub fn add_stack_sample(&mut self, stack: StackId, time_ns: Option<u64>, line: Option<LineId>) {
        let (ns, _) = self.count_sample(time_ns, line);
        self.stack_summary(stack, Some(1), ns, None);
    }

    /// Adds one sample of a profile that keeps no stacks: its functions
    /// get their numbers now, as the fold would give them.
    pub fn add_unstacked_sample(
        &mut self,
        frames: &[FuncId],
        time_ns: Option<u64>,
        line: Option<LineId>,
    ) {
        let Some(&leaf) = frames.last() else {
            return;
        };
        let (w, stamp) = self.count_sample(time_ns, line);
        let (ns, timed) = (w.unwrap_or(0.0), w.is_some());
        let st = &mut self.sample_state;
        if st.sums.len() < self.functions.len() {
            st.sums.resize(self.functions.len(), FuncSums::default());
        }
        for &id in frames {
            let Some(f) = st.sums.get_mut(id.index()) else {
                continue;
            };
            if f.counted_in != stamp {
                f.counted_in = stamp;
                f.hits_total += 1;
                f.inclusive_ns += ns;
                f.timed |= timed;
            }
        }
        if let Some(f) = st.sums.get_mut(leaf.index()) {
            f.hits_self += 1;
            f.exclusive_ns += ns;
        }
    }

    /// A sample's share of the totals and of its line; its time as the
    /// nanoseconds the time fields hold while samples come, and how many
    /// samples there are with it (its number, from 1).
    fn count_sample(&mut self, time_ns: Option<u64>, line: Option<LineId>) -> (Option<f64>, u64) {
        self.sample_state.fed = true;
        let ns = time_ns.map(|ns| ns as f64);
        let count = self.totals.samples.unwrap_or(0) + 1;
        self.totals.samples = Some(count);
        self.totals.elapsed_inclusive_ms = add_opt(self.totals.elapsed_inclusive_ms, ns);
        if let Some(id) = line {
            self.line_summary(id, Some(1), ns);
        }
        (ns, count)
    }

    /// Gives each function the numbers of the stacks it is on (once a
    /// stack, however often it recurs there) and of those it is the leaf
    /// of, and turns every time the samples summed into milliseconds.
    pub(crate) fn finish_samples(&mut self) {
        if !self.sample_state.fed {
            return;
        }
        // A stack fed samples counts samples, whoever fed it.
        self.hits_count(crate::HitsCount::Samples);
        // The last stack that counted each function: recursion once.
        let mut seen = vec![usize::MAX; self.functions.len()];
        let mut frames = Vec::new();
        for i in 0..self.stacks.len() {
            self.frames_of(StackId::from_index(i), &mut frames);
            let s = &self.stacks[i];
            let (hits, w) = (s.hits, s.self_ms);
            for &id in &frames {
                if std::mem::replace(&mut seen[id.index()], i) == i {
                    continue;
                }
                on_stack(&mut self.functions, id.index(), hits, w);
            }
            if let Some(&leaf) = frames.last() {
                at_leaf(&mut self.functions, leaf.index(), hits, w);
            }
        }
        self.add_unstacked_sums();
        self.sample_times_in_ms();
    }

    /// Adds the sums of the samples added without stacks to their
    /// functions' rows, as the fold from stacks would have: the times are
    /// whole nanoseconds, so one sum equals those of its stacks.
    fn add_unstacked_sums(&mut self) {
        let sums = std::mem::take(&mut self.sample_state.sums);
        let t = &mut self.functions;
        for (i, s) in sums.iter().enumerate().take(t.len()) {
            if s.hits_total == 0 {
                continue;
            }
            let w = |ns: f64| s.timed.then_some(ns);
            t.add_hits_total(i, Some(s.hits_total));
            t.add_hits_self(i, Some(s.hits_self));
            t.add_time(i, Which::ElapsedInclusive, w(s.inclusive_ns));
            t.add_time(i, Which::ElapsedExclusive, w(s.exclusive_ns));
        }
    }

    fn sample_times_in_ms(&mut self) {
        let ms = |t: &mut Option<f64>| *t = t.map(|ns| ns / 1e6);
        ms(&mut self.totals.elapsed_inclusive_ms);
        for s in &mut self.stacks {
            ms(&mut s.self_ms);
        }
        for l in &mut self.lines {
            ms(&mut l.time_ms);
        }
        self.functions.elapsed_ns_to_ms();
    }
}

/// A function on a stack with `hits` samples weighing `w`: a function
/// that is never a leaf still has 0 self hits, not none.
fn on_stack(t: &mut FunctionTable, i: usize, hits: Option<u64>, w: Option<f64>) {
    t.add_hits_total(i, hits);
    t.add_hits_self(i, Some(0));
    t.add_time(i, Which::ElapsedInclusive, w);
    t.add_time(i, Which::ElapsedExclusive, w.map(|_| 0.0));
}

/// The leaf of such a stack.
fn at_leaf(t: &mut FunctionTable, i: usize, hits: Option<u64>, w: Option<f64>) {
    t.add_hits_self(i, hits);
    t.add_time(i, Which::ElapsedExclusive, w);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Profile;

    /// A function's self and total hits, inclusive and exclusive times.
    fn numbers(p: &Profile, f: FuncId) -> (Option<u64>, Option<u64>, Option<f64>, Option<f64>) {
        let f = p.function(f);
        let t = f.time;
        (
            f.hits_self,
            f.hits_total,
            t.elapsed_inclusive,
            t.elapsed_exclusive,
        )
    }

    #[test]
    fn recursion_counts_once_and_leaf_gets_self() {
        let mut b = ProfileBuilder::new("test");
        let m = b.intern("");
        let (na, nb) = (b.intern("A"), b.intern("B"));
        let (a, bb) = (b.function(na, m), b.function(nb, m));
        let file = b.intern("x.br");
        let (l10, l20) = (b.line(file, 10, Some(a)), b.line(file, 20, Some(bb)));
        b.add_sample(Sample {
            frames: &[a, bb, a],
            time_ns: Some(2_000_000),
            line: Some(l10),
        });
        b.add_sample(Sample {
            frames: &[a, bb],
            time_ns: Some(3_000_000),
            line: Some(l20),
        });
        let p = b.finish();
        assert_eq!(numbers(&p, a), (Some(1), Some(2), Some(5.0), Some(2.0)));
        assert_eq!(numbers(&p, bb), (Some(1), Some(2), Some(5.0), Some(3.0)));
        assert_eq!(p.totals.samples, Some(2));
        assert_eq!(p.totals.elapsed_inclusive_ms, Some(5.0));
        assert_eq!(p.percents(a).hits_total, Some(100.0));
        assert_eq!(p.percents(bb).elapsed_exclusive, Some(60.0));
        assert_eq!(p.lines().len(), 2);
        assert_eq!(p.stacks().len(), 2);
        assert!(p.stacks().iter().all(|s| s.child_ms.is_none()));
    }

    /// Samples sharing a stack are folded once per stack; a recursive
    /// stack still counts its function once; a function on no sample
    /// keeps no numbers.
    #[test]
    fn samples_of_one_stack_fold_into_functions_once_a_stack() {
        let mut b = ProfileBuilder::new("test");
        let m = b.intern("");
        let names = ["A", "B", "C"].map(|n| b.intern(n));
        let [a, bb, c] = names.map(|n| b.function(n, m));
        for (frames, ms) in [(&[a, bb, a][..], 1), (&[a, bb, a], 2), (&[bb], 4)] {
            b.add_sample(Sample {
                frames,
                time_ns: Some(ms * 1_000_000),
                line: None,
            });
        }
        let p = b.finish();
        assert_eq!(numbers(&p, a), (Some(2), Some(2), Some(3.0), Some(3.0)));
        assert_eq!(numbers(&p, bb), (Some(1), Some(3), Some(7.0), Some(4.0)));
        assert_eq!(p.function(c).hits_total, None);
        let hits: Vec<_> = p.stacks().iter().map(|s| s.hits).collect();
        assert_eq!(hits, [Some(2), Some(1)]);
    }

    /// Times add up exactly, in whole nanoseconds: 0.1 ms and 0.2 ms make
    /// 0.3 ms (added as milliseconds, 0.30000000000000004), with stacks
    /// or without them, where recursion still counts once.
    #[test]
    fn times_add_up_exactly_with_stacks_or_without() {
        use crate::testing::{builder, new_function};
        for stacks in [true, false] {
            let mut b = builder(stacks);
            let (a, bb) = (new_function(&mut b, "A"), new_function(&mut b, "B"));
            let l = b.intern("x.br");
            let line = b.line(l, 1, Some(a));
            for (frames, ns) in [(&[a, bb, a][..], 100_000), (&[a, bb], 200_000)] {
                let got = b.add_sample(Sample {
                    frames,
                    time_ns: Some(ns),
                    line: Some(line),
                });
                assert_eq!(got.is_some(), stacks);
            }
            let p = b.finish();
            assert_eq!(numbers(&p, a), (Some(1), Some(2), Some(0.3), Some(0.1)));
            assert_eq!(numbers(&p, bb), (Some(1), Some(2), Some(0.3), Some(0.2)));
            assert_eq!(p.totals.elapsed_inclusive_ms, Some(0.3));
            assert_eq!(p.lines()[0].time_ms, Some(0.3));
            assert_eq!(p.stacks().len(), if stacks { 2 } else { 0 });
        }
    }

    /// Samples added a batch at a time with their stacks' hashes (more
    /// than the look-ahead, stacks repeating, one of no frames) give the
    /// profile that adding them one by one gives, with stacks or without.
    #[test]
    fn hashed_batches_add_as_samples_one_by_one() {
        use crate::testing::{builder, new_function};
        for stacks in [true, false] {
            let (mut one, mut batch) = (builder(stacks), builder(stacks));
            let mut paths: Vec<Vec<FuncId>> = Vec::new();
            let mut lines = Vec::new();
            for b in [&mut one, &mut batch] {
                let f: Vec<FuncId> = (0..5).map(|i| new_function(b, &format!("F{i}"))).collect();
                let file = b.intern("x.br");
                lines = (0..5)
                    .map(|i| b.line(file, i, Some(f[i as usize])))
                    .collect();
                paths = (0..40)
                    .map(|i: usize| (0..i % 7).map(|d| f[(i + d) % 5]).collect())
                    .collect();
            }
            let sample = |i: usize| {
                (
                    i as u64 * 1000,
                    Some(lines[i % 5]).filter(|_| !i.is_multiple_of(3)),
                )
            };
            for (i, frames) in paths.iter().enumerate() {
                let (ns, line) = sample(i);
                one.add_sample(Sample {
                    frames,
                    time_ns: Some(ns),
                    line,
                });
            }
            batch.add_hashed_samples(paths.len(), |i| {
                let (ns, line) = sample(i);
                HashedSample {
                    frames: &paths[i],
                    hash: ProfileBuilder::stack_hash(&paths[i]),
                    time_ns: Some(ns),
                    line,
                }
            });
            let (one, batch) = (one.finish(), batch.finish());
            // The stacks may be numbered apart; every number must agree.
            let seen = |p: &crate::Profile| {
                let mut paths = crate::testing::stack_paths(p);
                paths.sort();
                let stacks: Vec<_> = p.stacks().iter().map(|s| (s.hits, s.self_ms)).collect();
                let funcs: Vec<_> = p.functions().iter().map(|f| format!("{f:?}")).collect();
                let lines = format!("{:?}", p.lines());
                (paths, stacks.len(), funcs, lines, format!("{:?}", p.totals))
            };
            assert_eq!(seen(&batch), seen(&one), "stacks {stacks}");
            assert_eq!(batch.totals.samples, Some(34));
        }
    }

    #[test]
    fn sampled_only_profile_has_hits_but_no_times() {
        let mut b = ProfileBuilder::new("test");
        let (n, m) = (b.intern("A"), b.intern(""));
        let a = b.function(n, m);
        b.add_sample(Sample {
            frames: &[a],
            time_ns: None,
            line: None,
        });
        let p = b.finish();
        assert_eq!(p.totals.elapsed_inclusive_ms, None);
        assert_eq!(p.function(a).time.elapsed_inclusive, None);
        assert_eq!(p.percents(a).hits_self, Some(100.0));
        assert_eq!(p.percents(a).elapsed_inclusive, None);
    }
}
