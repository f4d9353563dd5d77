//! The `.` menu: every transform of the query with its key and what it
//! would do to the selection (the function, or the call node), for those
//! who forget the keys. Enter or the transform's own key applies it; Esc
//! closes it. A transform the selection cannot take says why, greyed.

use super::intent::{Intent, Op};

/// The menu's state: the row under the cursor.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Menu {
    pub cursor: usize,
}

/// One row: the transform, its key (from the keymap), what it would do,
/// and why it cannot, where it cannot.
#[derive(Debug, PartialEq)]
pub struct Entry {
    pub op: Op,
    pub key: &'static str,
    pub text: String,
    /// The step it would make (its path elided in the middle to fit).
    pub step: Option<crate::analysis::query::Step>,
    pub why_not: Option<String>,
}

/// What the menu asks of the app.
#[derive(Debug, PartialEq, Eq)]
pub enum Chosen {
    Stay,
    Close,
    Quit,
    Apply(Op),
}

impl Menu {
    pub fn update(&mut self, intent: &Intent) -> Chosen {
        let n = Op::ALL.len();
        match intent {
            Intent::Move(d) => self.cursor = super::pane::step_wrap(self.cursor, d.signum(), n),
            Intent::Accept => return Chosen::Apply(Op::ALL[self.cursor.min(n - 1)]),
            Intent::Transform(op) => return Chosen::Apply(*op),
            Intent::Cancel | Intent::Transforms => return Chosen::Close,
            Intent::Quit => return Chosen::Quit,
            _ => {}
        }
        Chosen::Stay
    }
}
