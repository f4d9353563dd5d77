//! A range's profile holds what ran in it (model.md § Time ranges): its
//! replay read every record, so the loader made a function, a call path
//! and a call line for every call of the trace; the feed gave numbers only
//! to those with a call entered in the range or time inside it. The others
//! go, as a trace holding only the range's events would not have them:
//! no table lists a function that did not run there, no tree a path.

use crate::ids::{FuncId, NodeId, StackId};
use crate::profile::{NO_NODE, NO_STACK, Profile};

impl Profile {
    /// This profile without the functions, paths and lines the range gave
    /// nothing: a function stays where it has a number, a path where it
    /// has a call or time (and with it every path above it), a line where
    /// it has a call or time.
    pub(crate) fn keep_ran(mut self) -> Profile {
        let ran_stack = |s: &crate::Stack| {
            s.hits.unwrap_or(0) > 0
                || s.self_ms.unwrap_or(0.0) != 0.0
                || s.child_ms.unwrap_or(0.0) != 0.0
        };
        // Children have larger ids than their parents: one pass from the
        // last marks every path above a kept one.
        let mut keep_node = vec![false; self.nodes.len()];
        for i in (0..self.nodes.len()).rev() {
            let node = &self.nodes[i];
            keep_node[i] |= node
                .stack()
                .is_some_and(|s| ran_stack(&self.stacks[s.index()]));
            if keep_node[i]
                && let Some(parent) = node.parent()
            {
                keep_node[parent.index()] = true;
            }
        }
        let mut keep_func: Vec<bool> = self
            .functions
            .iter()
            .map(|f| {
                f.calls.is_some()
                    || f.hits_total.is_some()
                    || f.time.elapsed_inclusive.is_some()
                    || f.time.elapsed_exclusive.is_some()
            })
            .collect();
        for (i, node) in self.nodes.iter().enumerate() {
            if keep_node[i] {
                keep_func[node.func.index()] = true;
            }
        }
        let ran_line = |l: &crate::Line| l.hits.is_some() || l.time_ms.is_some();
        for l in self.lines.iter().filter(|l| ran_line(l)) {
            if let Some(f) = l.function {
                keep_func[f.index()] = true;
            }
        }
        let funcs = renumber(&keep_func);
        let func = |f: FuncId| FuncId::from_raw(funcs[f.index()]);
        let moved = |f: FuncId| {
            funcs
                .get(f.index())
                .filter(|&&g| g != GONE)
                .map(|&g| FuncId::from_raw(g))
        };

        self.functions = self.functions.kept(&keep_func);
        let per_call = std::mem::take(&mut self.per_call);
        self.per_call = per_call
            .into_iter()
            .enumerate()
            .filter_map(|(i, c)| keep_func.get(i).copied().unwrap_or(false).then_some(c))
            .collect();
        self.durations.keep(&keep_func);
        let pct = std::mem::take(&mut self.stated_pct);
        self.stated_pct = pct
            .into_iter()
            .filter_map(|(f, v)| Some((moved(f)?, v)))
            .collect();
        let lines = std::mem::take(&mut self.lines);
        self.lines = lines
            .into_iter()
            .filter(|l| ran_line(l))
            .map(|l| crate::Line {
                function: l.function.and_then(moved),
                ..l
            })
            .collect();
        if let Some(tl) = self.timeline.as_mut() {
            tl.marks.retain(|m| moved(m.func()).is_some());
            for m in &mut tl.marks {
                if let Some(kept) =
                    crate::timeline::Mark::new(m.thread, func(m.func()), m.open(), m.at)
                {
                    *m = kept;
                }
            }
        }

        let nodes_at = renumber(&keep_node);
        let keep_stack: Vec<bool> = self
            .stacks
            .iter()
            .map(|s| keep_node[s.node.index()])
            .collect();
        let stacks_at = renumber(&keep_stack);
        let nodes = std::mem::take(&mut self.nodes);
        self.nodes = nodes
            .into_iter()
            .zip(&keep_node)
            .filter_map(|(n, &keep)| keep.then_some(n))
            .map(|mut n| {
                n.func = func(n.func);
                if n.parent != NO_NODE {
                    n.parent = NodeId::from_raw(nodes_at[n.parent.index()]);
                }
                if n.stack != NO_STACK {
                    n.stack = StackId::from_raw(stacks_at[n.stack.index()]);
                }
                n
            })
            .collect();
        let stacks = std::mem::take(&mut self.stacks);
        self.stacks = stacks
            .into_iter()
            .zip(&keep_stack)
            .filter_map(|(s, &keep)| keep.then_some(s))
            .map(|mut s| {
                s.node = NodeId::from_raw(nodes_at[s.node.index()]);
                s
            })
            .collect();
        let unlisted = std::mem::take(&mut self.unlisted);
        self.unlisted = unlisted
            .into_iter()
            .filter(|(n, _)| keep_node[n.index()])
            .map(|(n, ms)| (NodeId::from_raw(nodes_at[n.index()]), ms))
            .collect();
        self
    }
}

/// An id with no place after a renumbering.
const GONE: u32 = u32::MAX;

/// Each old id's new one (ids kept in their order), `GONE` where not kept.
fn renumber(keep: &[bool]) -> Vec<u32> {
    let mut next = 0u32;
    keep.iter()
        .map(|&k| {
            if !k {
                return GONE;
            }
            next += 1;
            next - 1
        })
        .collect()
}
