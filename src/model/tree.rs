//! The calling-context tree as the builder grows it.
//!
//! A node is (parent node, function): a path is found or made one frame at
//! a time from its root, so the tree holds each distinct path once and a
//! path costs one node however deep it is. Every feed makes its stacks
//! here: the trace feed a node per new path (it knows the parent's node),
//! samples, PLIST stacks and VS exports by their root-first frames.

use super::ids::{FuncId, NodeId, StackId};
use super::profile::{NO_NODE, NO_STACK, Node};
use rustc_hash::FxHashMap;

#[derive(Debug, Default)]
pub(crate) struct Tree {
    pub(crate) nodes: Vec<Node>,
    /// (parent node or `NO_NODE`, function) → node.
    index: FxHashMap<(u32, u32), NodeId>,
}

impl Tree {
    /// The node `func` called from `parent` (a root when `None`), made
    /// when new.
    pub(crate) fn child(&mut self, parent: Option<NodeId>, func: FuncId) -> NodeId {
        let parent = parent.unwrap_or(NO_NODE);
        let next = NodeId::from_index(self.nodes.len());
        let id = *self.index.entry((parent.0, func.0)).or_insert(next);
        if id == next {
            let depth = match parent {
                NO_NODE => 1,
                p => self.nodes[p.index()].depth.saturating_add(1),
            };
            self.nodes.push(Node {
                parent,
                func,
                depth,
                stack: NO_STACK,
            });
        }
        id
    }

    /// The node of a root-first path, made frame by frame where new;
    /// `None` for no frames.
    pub(crate) fn path(&mut self, frames: &[FuncId]) -> Option<NodeId> {
        let mut at = None;
        for &f in frames {
            at = Some(self.child(at, f));
        }
        at
    }

    /// Whether `node`'s path, read leaf first, is `frames` read backwards.
    pub(crate) fn path_is(&self, node: NodeId, frames: &[FuncId]) -> bool {
        let mut at = node;
        for (i, &f) in frames.iter().enumerate().rev() {
            let Some(n) = self.nodes.get(at.index()) else {
                return false;
            };
            if n.func != f || (i == 0) != (n.parent == NO_NODE) {
                return false;
            }
            at = n.parent;
        }
        !frames.is_empty()
    }

    /// The stack of `node`, if one was made.
    pub(crate) fn stack_of(&self, node: NodeId) -> Option<StackId> {
        self.nodes[node.index()].stack()
    }

    pub(crate) fn set_stack(&mut self, node: NodeId, stack: StackId) {
        self.nodes[node.index()].stack = stack;
    }

    /// The frames of `node`'s path, root first, into `out`.
    pub(crate) fn frames_into(&self, node: NodeId, out: &mut Vec<FuncId>) {
        out.clear();
        let mut at = node;
        while let Some(n) = self.nodes.get(at.index()) {
            out.push(n.func);
            at = n.parent;
        }
        out.reverse();
    }

    /// The nodes, with the index dropped: a finished profile finds no
    /// node by (parent, function).
    pub(crate) fn into_nodes(self) -> Vec<Node> {
        self.nodes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(i: u32) -> FuncId {
        FuncId(i)
    }

    /// Paths sharing a prefix share its nodes; a chain of depth n is n nodes.
    #[test]
    fn paths_share_their_prefixes() {
        let mut t = Tree::default();
        let abc = t.path(&[f(0), f(1), f(2)]).unwrap();
        let abd = t.path(&[f(0), f(1), f(3)]).unwrap();
        assert_eq!(t.nodes.len(), 4);
        assert_eq!(t.nodes[abc.index()].parent, t.nodes[abd.index()].parent);
        assert_eq!(t.path(&[f(0), f(1), f(2)]), Some(abc));
        assert_eq!(t.nodes[abc.index()].depth, 3);
        assert!(t.path_is(abc, &[f(0), f(1), f(2)]));
        assert!(!t.path_is(abc, &[f(1), f(2)]), "a suffix is another path");
        assert!(!t.path_is(abc, &[f(0), f(1), f(3)]));
        let mut out = Vec::new();
        t.frames_into(abd, &mut out);
        assert_eq!(out, [f(0), f(1), f(3)]);
        let chain: Vec<FuncId> = (0..10_000).map(|i| f(i % 3)).collect();
        let mut t = Tree::default();
        t.path(&chain);
        assert_eq!(t.nodes.len(), 10_000);
        assert_eq!(t.path(&[]), None);
    }
}
