//! PLIST stacks → the profile's stacks, once every function is known.
//!
//! A tag 10 frame names a function but not its module, and may name one
//! listed further down the file, so frames are resolved at the end: by
//! name among the tag 6 functions, module `""` when none or several match
//! (formats.md). Each stack is oriented root first with its owner as the
//! leaf.
//!
//! Two stacks of different owners differ in their leaf, so a stack can
//! only repeat one of its own owner's, and those come just before it
//! unless the file lists the owner twice: [`Fresh`] tells new stacks so
//! without the builder's index of all stacks, whose growing and probing
//! would be most of this step on a large listing. Either way
//! a stack goes into the calling-context tree when the profile is finished
//! (`ProfileBuilder::settle`).

use super::{Frames, RawStack, State, listed};
use crate::plist::record::orient;
use profx_model::{FuncId, NameId, ProfileBuilder, StackId};

/// `by_name` entries: no tag 6 function has the name, or several do.
const NO_FUNCTION: u32 = u32::MAX;
const SEVERAL: u32 = u32::MAX - 1;

/// Stacks of one owner compared with each other before the index is used.
const RUN: usize = 8;

impl State<'_> {
    pub(super) fn emit_stacks(&mut self, timed: bool, names: Frames) {
        let by_name = self.functions_by_name(names.names);
        let no_module = names.no_module;
        let mut fresh = Fresh::new(self.funcs.len());
        let (mut frames, mut names) = (Vec::new(), Vec::new());
        let stacks = std::mem::take(&mut self.stacks);
        let ends = stacks.iter().skip(1).map(|s| s.first);
        for (s, end) in stacks.iter().zip(ends.chain([self.frames.len()])) {
            names.clear();
            names.extend_from_slice(&self.frames[s.first..end]);
            orient(&mut names, s.owner_name);
            // Resolving makes the functions a frame names that no record
            // lists: a report that keeps no stacks lists them all the same.
            self.resolve(s, &names, (&by_name, no_module), &mut frames);
            if !self.b.keeps_stacks() {
                continue;
            }
            let id = match fresh.is_new(s.owner, &frames, self.b) {
                true => self.b.stack_known_new(&frames),
                false => self.b.stack_listed(&frames),
            };
            fresh.made(id);
            self.b.stack_line(id, s.line);
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

/// Tells a stack no stack before it has the frames of, from the stacks of
/// its owner's current run alone (see the module's note).
struct Fresh {
    /// By owner: whether some earlier run had this owner.
    had_stacks: Vec<bool>,
    owner: Option<FuncId>,
    /// The run's stacks, while it is short and its owner new.
    run: Vec<StackId>,
    /// The run's stacks are looked up in the index instead.
    checked: bool,
}

impl Fresh {
    fn new(owners: usize) -> Self {
        Fresh {
            had_stacks: vec![false; owners],
            owner: None,
            run: Vec::new(),
            checked: false,
        }
    }

    fn is_new(&mut self, owner: FuncId, frames: &[FuncId], b: &ProfileBuilder) -> bool {
        if self.owner != Some(owner) {
            self.owner = Some(owner);
            self.run.clear();
            self.checked = match self.had_stacks.get_mut(owner.index()) {
                Some(had) => std::mem::replace(had, true),
                None => true,
            };
        }
        self.checked |= self.run.len() >= RUN;
        !self.checked && !self.run.iter().any(|&id| b.stack_is(id, frames))
    }

    fn made(&mut self, id: StackId) {
        if !self.checked && !self.run.contains(&id) {
            self.run.push(id);
        }
    }
}
