//! Filing PLIST stacks without the builder's index of all stacks where
//! it is not needed: which stacks are new, for `rules.rs`, which files them.
//!
//! Two stacks of different owners differ in their leaf, so a stack can
//! only repeat one of its own owner's, and those come just before it
//! unless the file lists the owner twice: [`Fresh`] tells new stacks so
//! without the index, whose growing and probing would be most of filing
//! the stacks of a large listing. Either way a stack goes into the
//! calling-context tree when the profile is finished
//! (`ProfileBuilder::settle`).

use profx_model::{FuncId, ProfileBuilder, StackId};

/// Stacks of one owner compared with each other before the index is used.
const RUN: usize = 8;

/// Tells a stack no stack before it has the frames of, from the stacks of
/// its owner's current run alone (see the module's note).
pub(super) struct Fresh {
    /// By owner: whether some earlier run had this owner.
    had_stacks: Vec<bool>,
    owner: Option<FuncId>,
    /// The run's stacks, while it is short and its owner new.
    run: Vec<StackId>,
    /// The run's stacks are looked up in the index instead.
    checked: bool,
}

impl Fresh {
    /// For functions numbered below `owners`.
    pub(super) fn new(owners: usize) -> Self {
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

    /// The stack of `frames`, `owner` its leaf: made new, or found.
    pub(super) fn stack(
        &mut self,
        b: &mut ProfileBuilder,
        owner: FuncId,
        frames: &[FuncId],
    ) -> StackId {
        let id = match self.is_new(owner, frames, b) {
            true => b.stack_known_new(frames),
            false => b.stack_listed(frames),
        };
        self.made(id);
        id
    }

    fn made(&mut self, id: StackId) {
        if !self.checked && !self.run.contains(&id) {
            self.run.push(id);
        }
    }
}
