//! The transforms' rewrites of one call path (model.md § Queries), each
//! the plain reading of Firefox Profiler's meaning. A path is root first;
//! `(no call path)` and `(unlisted)` are frames like any other. Each
//! rewrite says whether the path's leaf frame survived it, since a path
//! keeps its calls only then.

use profx_model::FuncId;

/// A frame of a call path as the rewrites see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Frame {
    /// A function of the profile the step applies to.
    Func(FuncId),
    /// A run of frames of the module a collapse names, as one frame.
    Module,
    /// `(no call path)`: a function's own time no path holds.
    NoCallPath,
    /// `(unlisted)`: time in callees the file does not list.
    Unlisted,
}

impl Frame {
    fn is(self, set: &FuncSet) -> bool {
        matches!(self, Frame::Func(f) if set.contains(f))
    }
}

/// Functions a rule names, as a bit a function of the profile it applies
/// to: a frame is tested in constant time however many functions the set
/// holds (a module may hold thousands, and every frame of every path is
/// tested).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FuncSet {
    bits: Vec<u64>,
}

impl FuncSet {
    /// The set of `ids`, functions of a profile with `functions` rows.
    pub(crate) fn of(ids: impl IntoIterator<Item = FuncId>, functions: usize) -> FuncSet {
        let mut bits = vec![0u64; functions.div_ceil(64)];
        for f in ids {
            if let Some(w) = bits.get_mut(f.index() / 64) {
                *w |= 1 << (f.index() % 64);
            }
        }
        FuncSet { bits }
    }

    /// Whether `f` is in the set.
    #[inline]
    pub(crate) fn contains(&self, f: FuncId) -> bool {
        let (w, b) = (f.index() / 64, f.index() % 64);
        self.bits.get(w).is_some_and(|w| w & (1 << b) != 0)
    }

    /// The set's functions, in id order.
    pub(crate) fn ids(&self) -> impl Iterator<Item = FuncId> + '_ {
        self.bits.iter().enumerate().flat_map(|(w, &bits)| {
            (0..64)
                .filter(move |b| bits & (1 << b) != 0)
                .map(move |b| FuncId::from_index(w * 64 + b))
        })
    }
}

/// What a rewrite made of a path.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Rewritten {
    /// The path, rewritten (or not), and whether its leaf frame survived.
    Kept { leaf_survived: bool },
    /// The step removes the path with its time (drop, focus).
    Removed,
}

/// The rule a step applies to every path, its functions resolved.
#[derive(Debug)]
pub(crate) enum Rule {
    Merge(FuncSet),
    MergeNode(Vec<FuncSet>),
    Drop(FuncSet),
    Focus(FuncSet),
    FocusNode(Vec<FuncSet>),
    CollapseRecursion(FuncSet),
    CollapseDirectRecursion(FuncSet),
    /// The module's functions and its name (the collapsed frame's).
    CollapseModule(FuncSet, profx_model::NameId),
    CollapseSubtree(FuncSet),
}

/// Whether `path` starts with the node `node` (each frame one of its
/// functions).
fn under(path: &[Frame], node: &[FuncSet]) -> bool {
    path.len() >= node.len() && path.iter().zip(node).all(|(f, set)| f.is(set))
}

impl Rule {
    /// Rewrites `path` in place.
    pub(crate) fn apply(&self, path: &mut Vec<Frame>) -> Rewritten {
        let n = path.len();
        let kept = |leaf_survived| Rewritten::Kept { leaf_survived };
        match self {
            Rule::Merge(set) => {
                let leaf_survived = path.last().is_none_or(|f| !f.is(set));
                path.retain(|f| !f.is(set));
                kept(leaf_survived)
            }
            Rule::MergeNode(node) => {
                if !under(path, node) {
                    return kept(true);
                }
                path.remove(node.len() - 1);
                kept(n > node.len())
            }
            Rule::Drop(set) => match path.iter().any(|f| f.is(set)) {
                true => Rewritten::Removed,
                false => kept(true),
            },
            Rule::Focus(set) => match path.iter().position(|f| f.is(set)) {
                Some(i) => {
                    path.drain(..i);
                    kept(true)
                }
                None => Rewritten::Removed,
            },
            Rule::FocusNode(node) => match under(path, node) {
                true => {
                    path.drain(..node.len() - 1);
                    kept(true)
                }
                false => Rewritten::Removed,
            },
            Rule::CollapseRecursion(set) => {
                let first = path.iter().position(|f| f.is(set));
                let last = path.iter().rposition(|f| f.is(set));
                match (first, last) {
                    (Some(i), Some(j)) if j > i => {
                        path.drain(i + 1..=j);
                        kept(j + 1 < n)
                    }
                    _ => kept(true),
                }
            }
            Rule::CollapseDirectRecursion(set) => {
                let mut out: Vec<Frame> = Vec::with_capacity(n);
                let mut leaf_survived = true;
                for (k, &f) in path.iter().enumerate() {
                    if f.is(set) && out.last() == Some(&f) {
                        if k + 1 == n {
                            leaf_survived = false;
                        }
                        continue;
                    }
                    out.push(f);
                }
                *path = out;
                kept(leaf_survived)
            }
            Rule::CollapseModule(set, _) => {
                let mut out: Vec<Frame> = Vec::with_capacity(n);
                let mut leaf_survived = true;
                for (k, &f) in path.iter().enumerate() {
                    if !f.is(set) {
                        out.push(f);
                        continue;
                    }
                    if k + 1 == n {
                        leaf_survived = false;
                    }
                    if out.last() != Some(&Frame::Module) {
                        out.push(Frame::Module);
                    }
                }
                *path = out;
                kept(leaf_survived)
            }
            Rule::CollapseSubtree(set) => match path.iter().position(|f| f.is(set)) {
                Some(i) => {
                    path.truncate(i + 1);
                    kept(i + 1 == n)
                }
                None => kept(true),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(i: usize) -> Frame {
        Frame::Func(FuncId::from_index(i))
    }
    /// The set of functions `ids`.
    fn id(i: usize) -> FuncSet {
        set(&[i])
    }
    fn set(ids: &[usize]) -> FuncSet {
        FuncSet::of(ids.iter().map(|&i| FuncId::from_index(i)), 8)
    }
    const A: usize = 0;
    const F: usize = 1;
    const G: usize = 2;
    const H: usize = 3;

    fn run(rule: Rule, path: &[usize]) -> (Vec<Frame>, Rewritten) {
        let mut p: Vec<Frame> = path.iter().map(|&i| f(i)).collect();
        let r = rule.apply(&mut p);
        (p, r)
    }

    #[test]
    fn collapse_recursion_keeps_the_outermost_and_what_follows_the_innermost() {
        let (p, r) = run(Rule::CollapseRecursion(id(F)), &[A, F, G, F, H]);
        assert_eq!(p, [f(A), f(F), f(H)]);
        assert_eq!(
            r,
            Rewritten::Kept {
                leaf_survived: true
            }
        );
        let (p, r) = run(Rule::CollapseRecursion(id(F)), &[A, F, G, F]);
        assert_eq!(p, [f(A), f(F)]);
        assert_eq!(
            r,
            Rewritten::Kept {
                leaf_survived: false
            }
        );
    }

    #[test]
    fn direct_recursion_only_drops_an_f_called_by_f() {
        let (p, _) = run(Rule::CollapseDirectRecursion(id(F)), &[A, F, F, H]);
        assert_eq!(p, [f(A), f(F), f(H)]);
        let (p, _) = run(Rule::CollapseDirectRecursion(id(F)), &[A, F, G, F]);
        assert_eq!(p, [f(A), f(F), f(G), f(F)]);
    }

    #[test]
    fn a_module_run_is_one_frame_and_m_x_m_stays_three() {
        let (p, r) = run(
            Rule::CollapseModule(set(&[F, G]), Default::default()),
            &[A, F, G, H, F],
        );
        assert_eq!(p, [f(A), Frame::Module, f(H), Frame::Module]);
        assert_eq!(
            r,
            Rewritten::Kept {
                leaf_survived: false
            }
        );
    }

    #[test]
    fn focus_starts_at_the_outermost_f_and_removes_the_rest() {
        let (p, _) = run(Rule::Focus(id(F)), &[A, F, G, F]);
        assert_eq!(p, [f(F), f(G), f(F)]);
        let (_, r) = run(Rule::Focus(id(F)), &[A, G]);
        assert_eq!(r, Rewritten::Removed);
    }

    #[test]
    fn a_merged_node_leaves_only_under_its_path() {
        let node = vec![id(A), id(F)];
        let (p, r) = run(Rule::MergeNode(node.clone()), &[A, F, G]);
        assert_eq!(p, [f(A), f(G)]);
        assert_eq!(
            r,
            Rewritten::Kept {
                leaf_survived: true
            }
        );
        let (p, r) = run(Rule::MergeNode(node.clone()), &[A, F]);
        assert_eq!(p, [f(A)]);
        assert_eq!(
            r,
            Rewritten::Kept {
                leaf_survived: false
            }
        );
        let (p, _) = run(Rule::MergeNode(node), &[G, A, F]);
        assert_eq!(p, [f(G), f(A), f(F)]);
    }

    #[test]
    fn collapse_subtree_cuts_below_the_outermost_f() {
        let (p, r) = run(Rule::CollapseSubtree(id(F)), &[A, F, G, F]);
        assert_eq!(p, [f(A), f(F)]);
        assert_eq!(
            r,
            Rewritten::Kept {
                leaf_survived: false
            }
        );
    }
}
