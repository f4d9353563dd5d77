//! Sample feed: model.md § Samples (BR timed and sampled profiles).
//!
//! Each sample is one root-first stack with an optional weight. Hits and
//! times go to the leaf as self values and, once per sample however often a
//! function recurs in it, to every function on the stack as total values.

use crate::model::ProfileBuilder;
use crate::model::ids::{FuncId, LineId, StackId};
use crate::model::metrics::{add_count, add_opt};

/// Marks which functions a sample has already counted (recursion once)
/// without clearing a set per sample.
#[derive(Debug, Default)]
pub struct SampleState {
    seen: Vec<u32>,
    stamp: u32,
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
        let &leaf = s.frames.last()?;
        let w = s.time_ms;
        self.totals.samples = Some(self.totals.samples.unwrap_or(0) + 1);
        self.totals.elapsed_inclusive_ms = add_opt(self.totals.elapsed_inclusive_ms, w);
        self.count_totals_once(s.frames, w);
        let f = &mut self.functions[leaf.index()];
        f.hits_self = add_count(f.hits_self, Some(1));
        f.time.elapsed_exclusive = add_opt(f.time.elapsed_exclusive, w);
        let stack = self.stack(s.frames);
        self.stack_summary(stack, Some(1), w, None);
        if let Some(id) = s.line {
            self.line_summary(id, Some(1), w);
        }
        Some(stack)
    }

    fn count_totals_once(&mut self, frames: &[FuncId], w: Option<f64>) {
        let st = &mut self.sample_state;
        st.stamp = st.stamp.wrapping_add(1);
        if st.stamp == 0 {
            st.seen.iter_mut().for_each(|s| *s = 0);
            st.stamp = 1;
        }
        if st.seen.len() < self.functions.len() {
            st.seen.resize(self.functions.len(), 0);
        }
        for &id in frames {
            if st.seen[id.index()] == st.stamp {
                continue;
            }
            st.seen[id.index()] = st.stamp;
            let f = &mut self.functions[id.index()];
            f.hits_total = add_count(f.hits_total, Some(1));
            // A function that is never a leaf still has 0 self hits, not none.
            f.hits_self = add_count(f.hits_self, Some(0));
            f.time.elapsed_inclusive = add_opt(f.time.elapsed_inclusive, w);
            f.time.elapsed_exclusive = add_opt(f.time.elapsed_exclusive, w.map(|_| 0.0));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let (fa, fb) = (p.function(a), p.function(bb));
        assert_eq!((fa.hits_self, fa.hits_total), (Some(1), Some(2)));
        assert_eq!(fa.time.elapsed_inclusive, Some(5.0));
        assert_eq!(fa.time.elapsed_exclusive, Some(2.0));
        assert_eq!((fb.hits_self, fb.hits_total), (Some(1), Some(2)));
        assert_eq!(fb.time.elapsed_exclusive, Some(3.0));
        assert_eq!(p.totals.samples, Some(2));
        assert_eq!(p.totals.elapsed_inclusive_ms, Some(5.0));
        assert_eq!(p.percents(a).hits_total, Some(100.0));
        assert_eq!(p.percents(bb).elapsed_exclusive, Some(60.0));
        assert_eq!(p.lines().len(), 2);
        assert_eq!(p.stacks().len(), 2);
        assert!(p.stacks().iter().all(|s| s.child_ms.is_none()));
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
