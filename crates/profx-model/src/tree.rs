//! The calling-context tree as the builder grows it.
//!
//! A node is (parent node, function): a path is found or made one frame at
//! a time from its root, so the tree holds each distinct path once and a
//! path costs one node however deep it is. Every feed makes its stacks
//! here: the trace feed a node per new path (it knows the parent's node),
//! samples, PLIST stacks and VS exports by their root-first frames.

use super::ids::{FuncId, NodeId, StackId};
use super::probe::{Slot, Slots};
use super::profile::{NO_NODE, NO_STACK, Node};

#[derive(Clone, Debug, Default)]
pub(crate) struct Tree {
    pub(crate) nodes: Vec<Node>,
    /// (parent node or `NO_NODE`, function) → node. Ours, not a hash
    /// map's: a slot is the key and the node (12 bytes), so a lookup of a
    /// large tree, which misses every cache, reads one line, not two.
    index: Slots<ChildSlot>,
    /// `nodes[..indexed]` are in `index`; a lookup indexes the rest first.
    indexed: usize,
    /// Whether `child` was ever called: a feed that made every node
    /// itself (`push_new`) knows each of its paths is new only while no
    /// other feed looked anything up.
    pub(crate) looked_up: bool,
}

#[derive(Clone, Copy, Debug)]
struct ChildSlot {
    parent: u32,
    func: u32,
    /// `u32::MAX` for a free slot.
    node: u32,
}

fn child_hash(parent: u32, func: u32) -> u32 {
    let k = (u64::from(parent) << 32 | u64::from(func)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (k >> 32) as u32
}

impl Slot for ChildSlot {
    const FREE: Self = ChildSlot {
        parent: 0,
        func: 0,
        node: u32::MAX,
    };
    const MAX_LOAD: (usize, usize) = (3, 4);

    fn is_free(&self) -> bool {
        self.node == u32::MAX
    }

    fn hash(&self) -> u32 {
        child_hash(self.parent, self.func)
    }
}

impl Tree {
    /// The node `func` called from `parent` (a root when `None`), made
    /// when new.
    pub(crate) fn child(&mut self, parent: Option<NodeId>, func: FuncId) -> NodeId {
        self.looked_up = true;
        self.catch_up();
        let parent = parent.unwrap_or(NO_NODE);
        let hash = child_hash(parent.0, func.0);
        if let Some(s) = self
            .index
            .find(hash, |s| s.parent == parent.0 && s.func == func.0)
        {
            return NodeId(s.node);
        }
        let id = NodeId::from_index(self.nodes.len());
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
        self.index.insert(ChildSlot {
            parent: parent.0,
            func: func.0,
            node: id.0,
        });
        self.indexed = self.nodes.len();
        id
    }

    /// A node the caller knows is new (the trace feed's own tables say
    /// so, and nothing else made nodes): left out of the index until a
    /// lookup wants it, so a trace of a million paths builds no index.
    /// `depth`: the path's frames, which the caller knows.
    pub(crate) fn push_new(&mut self, parent: Option<NodeId>, func: FuncId, depth: u32) -> NodeId {
        let parent = parent.unwrap_or(NO_NODE);
        debug_assert_eq!(
            depth,
            match parent {
                NO_NODE => 1,
                p => self.nodes[p.index()].depth + 1,
            }
        );
        self.nodes.push(Node {
            parent,
            func,
            depth,
            stack: NO_STACK,
        });
        NodeId::from_index(self.nodes.len() - 1)
    }

    fn catch_up(&mut self) {
        for i in self.indexed..self.nodes.len() {
            let n = self.nodes[i];
            self.index.insert(ChildSlot {
                parent: n.parent.0,
                func: n.func.0,
                node: i as u32,
            });
        }
        self.indexed = self.nodes.len();
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

    /// Makes the nodes of `paths` (root-first, none empty, no two equal) in
    /// a tree with no node yet: each path's node, and no index (a
    /// finished profile looks up no node by key). Level by level, each
    /// level's paths ordered by (parent, function) with two counting
    /// passes, so building reads memory in order; made one frame at a time
    /// through the index, a million sampled stacks missed the cache at
    /// every frame.
    /// `stacks[i]`: the stack whose path `paths[i]` is, set on its node as
    /// the node is made (it is in the cache then; set afterwards, a
    /// million nodes would each be read again at random).
    pub(crate) fn bulk(&mut self, paths: &[&[FuncId]], stacks: &[StackId]) -> Vec<NodeId> {
        debug_assert!(self.nodes.is_empty());
        let funcs = paths
            .iter()
            .flat_map(|p| p.iter())
            .map(|f| f.index() + 1)
            .max()
            .unwrap_or(0);
        let mut at = vec![NO_NODE; paths.len()];
        // Paths still deeper than `level`, in input order: reading them in
        // that order reads the frames and `at` one after another; the
        // records carry what the sorted order needs.
        let mut live: Vec<u32> = (0..paths.len() as u32).collect();
        let (mut recs, mut tmp) = (Vec::new(), Vec::new());
        let mut level = 0usize;
        // Nodes of the level above are lo..hi.
        let (mut lo, mut hi) = (0usize, 0usize);
        while !live.is_empty() {
            recs.clear();
            for &p in &live {
                let parent = match level {
                    0 => 0,
                    _ => at[p as usize].0 - lo as u32,
                };
                let path = paths[p as usize];
                recs.push(Rec {
                    parent,
                    func: path[level].0,
                    path: p,
                    stack: match path.len() == level + 1 {
                        true => stacks[p as usize],
                        false => NO_STACK,
                    },
                });
            }
            if level == 0 {
                counting_sort(&recs, funcs, |r| r.func as usize, &mut tmp);
                std::mem::swap(&mut recs, &mut tmp);
            } else {
                // By parent, then each parent's few children by function:
                // one scattering pass, not two.
                counting_sort(&recs, hi - lo, |r| r.parent as usize, &mut tmp);
                std::mem::swap(&mut recs, &mut tmp);
                for group in recs.chunk_by_mut(|a, b| a.parent == b.parent) {
                    if group.len() > 1 {
                        group.sort_unstable_by_key(|r| r.func);
                    }
                }
            }
            let first = self.nodes.len();
            let mut last = None;
            for r in &recs {
                if last != Some((r.parent, r.func)) {
                    last = Some((r.parent, r.func));
                    self.nodes.push(Node {
                        parent: match level {
                            0 => NO_NODE,
                            _ => NodeId(r.parent + lo as u32),
                        },
                        func: FuncId(r.func),
                        depth: level as u32 + 1,
                        stack: NO_STACK,
                    });
                }
                at[r.path as usize] = NodeId::from_index(self.nodes.len() - 1);
                if r.stack != NO_STACK
                    && let Some(n) = self.nodes.last_mut()
                {
                    n.stack = r.stack;
                }
            }
            (lo, hi) = (first, self.nodes.len());
            level += 1;
            live.retain(|&p| paths[p as usize].len() > level);
        }
        at
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

/// A path's frame at one level, as `bulk` sorts it.
#[derive(Clone, Copy, Debug)]
struct Rec {
    /// The parent's node, less the level's first.
    parent: u32,
    func: u32,
    path: u32,
    /// The path's stack when it ends at this level, else `NO_STACK`.
    stack: StackId,
}

/// `items` ordered by `key` (below `keys`), stably, into `out`.
fn counting_sort(items: &[Rec], keys: usize, key: impl Fn(&Rec) -> usize, out: &mut Vec<Rec>) {
    let mut start = vec![0u32; keys + 1];
    for x in items {
        start[key(x) + 1] += 1;
    }
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    out.clear();
    out.resize(
        items.len(),
        Rec {
            parent: 0,
            func: 0,
            path: 0,
            stack: NO_STACK,
        },
    );
    for x in items {
        let k = &mut start[key(x)];
        out[*k as usize] = *x;
        *k += 1;
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
        let mut out = Vec::new();
        t.frames_into(abd, &mut out);
        assert_eq!(out, [f(0), f(1), f(3)]);
        let chain: Vec<FuncId> = (0..10_000).map(|i| f(i % 3)).collect();
        let mut t = Tree::default();
        t.path(&chain);
        assert_eq!(t.nodes.len(), 10_000);
        assert_eq!(t.path(&[]), None);
    }

    /// A bulk build makes the tree a path at a time makes, node for node
    /// (ids aside).
    #[test]
    fn bulk_builds_the_same_tree() {
        let paths: Vec<Vec<FuncId>> = (0..500u32)
            .map(|i| (0..1 + i % 7).map(|d| f((i * 7 + d * 3) % 5)).collect())
            .collect();
        let mut seen = std::collections::HashSet::new();
        let paths: Vec<&[FuncId]> = paths
            .iter()
            .filter(|p| seen.insert(p.to_vec()))
            .map(|p| p.as_slice())
            .collect();
        let mut one = Tree::default();
        let nodes: Vec<NodeId> = paths.iter().map(|p| one.path(p).unwrap()).collect();
        let mut bulk = Tree::default();
        let ids: Vec<StackId> = (0..paths.len()).map(StackId::from_index).collect();
        let bulk_nodes = bulk.bulk(&paths, &ids);
        assert_eq!(bulk.nodes.len(), one.nodes.len());
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for (i, p) in paths.iter().enumerate() {
            one.frames_into(nodes[i], &mut a);
            bulk.frames_into(bulk_nodes[i], &mut b);
            assert_eq!((&a[..], &b[..]), (*p, *p));
            assert_eq!(bulk.nodes[bulk_nodes[i].index()].depth as usize, p.len());
            assert_eq!(bulk.stack_of(bulk_nodes[i]), Some(ids[i]));
        }
        for (i, n) in bulk.nodes.iter().enumerate() {
            assert!(n.parent == NO_NODE || n.parent.index() < i, "parents first");
        }
    }
}
