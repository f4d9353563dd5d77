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

use crate::model::ProfileBuilder;
use crate::model::ids::{FuncId, LineId, StackId};
use crate::model::metrics::{add_count, add_opt};

/// Whether any sample came, so `finish` knows to fold.
#[derive(Debug, Default)]
pub struct SampleState {
    fed: bool,
}

/// One sample as a loader hands it over.
#[derive(Clone, Copy, Debug)]
pub struct Sample<'a> {
    /// Root first, leaf last; never empty.
    pub frames: &'a [FuncId],
    /// The sample's time in ms for timed profiles, `None` when only sampled.
    pub time_ms: Option<f64>,
    /// The leaf frame's line, made by `ProfileBuilder::line` (a loader that
    /// meets the same line again keeps its id instead of looking it up).
    pub line: Option<LineId>,
}

impl ProfileBuilder {
    /// Adds one sample; returns its stack, or `None` for an empty stack.
    pub fn add_sample(&mut self, s: Sample<'_>) -> Option<StackId> {
        if s.frames.is_empty() {
            return None;
        }
        let stack = self.stack(s.frames);
        self.add_stack_sample(stack, s.time_ms, s.line);
        Some(stack)
    }

    /// Adds one sample whose stack the loader already has.
    pub fn add_stack_sample(&mut self, stack: StackId, time_ms: Option<f64>, line: Option<LineId>) {
        self.sample_state.fed = true;
        self.totals.samples = Some(self.totals.samples.unwrap_or(0) + 1);
        self.totals.elapsed_inclusive_ms = add_opt(self.totals.elapsed_inclusive_ms, time_ms);
        self.stack_summary(stack, Some(1), time_ms, None);
        if let Some(id) = line {
            self.line_summary(id, Some(1), time_ms);
        }
    }

    /// Gives each function the numbers of the stacks it is on (once a
    /// stack, however often it recurs there) and of those it is the leaf of.
    pub(crate) fn finish_samples(&mut self) {
        if !self.sample_state.fed {
            return;
        }
        // The last stack that counted each function: recursion once.
        let mut seen = vec![usize::MAX; self.functions.len()];
        for (i, s) in self.stacks.iter().enumerate() {
            let frames = &self.frames[s.frames.start as usize..s.frames.end as usize];
            let (hits, w) = (s.hits, s.self_ms);
            for &id in frames {
                if std::mem::replace(&mut seen[id.index()], i) == i {
                    continue;
                }
                let f = &mut self.functions[id.index()];
                f.hits_total = add_count(f.hits_total, hits);
                // A function that is never a leaf still has 0 self hits, not none.
                f.hits_self = add_count(f.hits_self, Some(0));
                f.time.elapsed_inclusive = add_opt(f.time.elapsed_inclusive, w);
                f.time.elapsed_exclusive = add_opt(f.time.elapsed_exclusive, w.map(|_| 0.0));
            }
            if let Some(&leaf) = frames.last() {
                let f = &mut self.functions[leaf.index()];
                f.hits_self = add_count(f.hits_self, hits);
                f.time.elapsed_exclusive = add_opt(f.time.elapsed_exclusive, w);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Profile;

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
            time_ms: Some(2.0),
            line: Some(l10),
        });
        b.add_sample(Sample {
            frames: &[a, bb],
            time_ms: Some(3.0),
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
        for (frames, ms) in [(&[a, bb, a][..], 1.0), (&[a, bb, a], 2.0), (&[bb], 4.0)] {
            b.add_sample(Sample {
                frames,
                time_ms: Some(ms),
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

    #[test]
    fn sampled_only_profile_has_hits_but_no_times() {
        let mut b = ProfileBuilder::new("test");
        let (n, m) = (b.intern("A"), b.intern(""));
        let a = b.function(n, m);
        b.add_sample(Sample {
            frames: &[a],
            time_ms: None,
            line: None,
        });
        let p = b.finish();
        assert_eq!(p.totals.elapsed_inclusive_ms, None);
        assert_eq!(p.function(a).time.elapsed_inclusive, None);
        assert_eq!(p.percents(a).hits_self, Some(100.0));
        assert_eq!(p.percents(a).elapsed_inclusive, None);
    }
}
