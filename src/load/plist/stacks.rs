//! PLIST stacks → the profile's stacks, once every function is known.
//!
//! A tag 10 frame names a function but not its module, and may name one
//! listed further down the file, so frames are resolved at the end: by
//! name among the tag 6 functions, module `""` when none or several match
//! (formats.md). Each stack is oriented root first with its owner as the
//! leaf.
//! A stack is found or made in the calling-context tree frame by frame,
//! so a stack listed twice adds up.

use super::{Frames, RawStack, State, listed};
use crate::model::{FuncId, NameId};

/// `by_name` entries: no tag 6 function has the name, or several do.
const NO_FUNCTION: u32 = u32::MAX;
const SEVERAL: u32 = u32::MAX - 1;

impl State<'_> {
    pub(super) fn emit_stacks(&mut self, timed: bool, names: Frames) {
        let by_name = self.functions_by_name(names.names);
        let no_module = names.no_module;
        let (mut frames, mut names) = (Vec::new(), Vec::new());
        let stacks = std::mem::take(&mut self.stacks);
        let ends = stacks.iter().skip(1).map(|s| s.first);
        for (s, end) in stacks.iter().zip(ends.chain([self.frames.len()])) {
            names.clear();
            names.extend_from_slice(&self.frames[s.first..end]);
            orient(&mut names, s.owner_name);
            self.resolve(s, &names, (&by_name, no_module), &mut frames);
            let id = self.b.stack(&frames);
            let t = |x: f64| timed.then_some(x);
            self.b
                .stack_summary(id, Some(s.hits), t(s.self_ms), t(s.child_ms));
        }
    }

    /// `s`'s frames from its oriented `names`: the leaf is the owner
    /// itself, the others are found by name.
    fn resolve(
        &mut self,
        s: &RawStack,
        names: &[NameId],
        (by_name, no_module): (&[u32], NameId),
        frames: &mut Vec<FuncId>,
    ) {
        frames.clear();
        let (_, callers) = names.split_last().unwrap_or((&s.owner_name, &[]));
        for &name in callers {
            let id = match by_name.get(name.index()) {
                Some(&id) if id < SEVERAL => FuncId::from_index(id as usize),
                _ => self.b.function(name, no_module),
            };
            frames.push(id);
        }
        frames.push(s.owner);
    }

    /// Tag 6 functions by name id (names are dense): the function's index,
    /// `NO_FUNCTION` or `SEVERAL`.
    fn functions_by_name(&self, names: usize) -> Vec<u32> {
        let mut map = vec![NO_FUNCTION; names];
        for (id, _) in listed(&self.funcs) {
            let index = id.index() as u32;
            if let Some(slot) = map.get_mut(self.b.function_ref(id).name.index()) {
                *slot = if *slot == NO_FUNCTION || *slot == index {
                    index
                } else {
                    SEVERAL
                };
            }
        }
        map
    }
}

/// Puts listed frame names root first with the owner as the leaf
/// (formats.md): a list starting with the owner is leaf-first, so reverse
/// it; a list with the owner at neither end gets it appended.
pub(super) fn orient(names: &mut Vec<NameId>, owner: NameId) {
    let starts = names.first() == Some(&owner);
    let ends = names.last() == Some(&owner);
    if starts && !ends {
        names.reverse();
    } else if !starts && !ends {
        names.push(owner);
    }
}
