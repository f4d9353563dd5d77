//! Everything a person can ask of the app. Keys and mouse events become an
//! `Action` (keys.rs); `App::update` is the one place an action changes
//! state; rendering only reads the result.

use super::view::Tab;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Quit,
    /// Move the cursor by rows (negative is up).
    Move(isize),
    PageUp,
    PageDown,
    Home,
    End,
    NextTab,
    PrevTab,
    Tab(Tab),
    SortNext,
    SortPrev,
    Reverse,
    /// Scroll the columns after the name left or right; in the call tree,
    /// close or open the row.
    ScrollColumns(isize),
    /// Call tree: open every row under the selected one.
    ExpandAll,
    /// Call tree: open the heaviest path from the selected row.
    HotPath,
    /// Call tree: turn it over (top-down ⇄ bottom-up).
    Invert,
    /// Open the call tree at every place the selected function occurs
    /// (`t`; in the Flame pane, `t` turns to time order and this is `T`).
    ShowInTree,
    /// `T`: the call tree of the selected function from any pane, the
    /// Flame pane included.
    TreeOfSelected,
    /// Flame: hide the selected frame's function (again: show it).
    Hide,
    /// Flame: the sandwich of the selected function (again: leave it).
    Focus,
    /// Flame: show every hidden function again.
    Unhide,
    /// Drill down from the selected row (or frame, caller, callee).
    Enter,
    /// Leave the detail split, or go back one step in the history.
    Back,
    /// `]`: forward again to the step last gone back from.
    Forward,
    /// Time passed with no key while a job runs (an export): its progress
    /// is drawn, its end taken.
    Tick,
    /// Move the keyboard into the callers/callees split and across it.
    Callers,
    /// Show the selected function's lines.
    Lines,
    SearchOpen,
    /// A character typed into the search prompt or the finder.
    Input(char),
    /// Text pasted into the prompt: one action, one filtering.
    Paste(Pasted),
    /// Delete the last character of the prompt.
    Erase,
    /// Empty the prompt.
    ClearInput,
    /// Keep the filter (Enter in the prompt) or take the finder's choice.
    Accept,
    /// Clear the filter (Esc in the prompt) or close the finder or help.
    Cancel,
    NextMatch,
    PrevMatch,
    FinderOpen,
    Help,
    /// Write the current pane's rows (filtered, sorted) to a CSV file next
    /// to the input.
    Export,
    /// Copy the selected name (or path) to the clipboard.
    Copy,
    /// A left click at a screen cell.
    Click {
        x: u16,
        y: u16,
    },
    /// Mouse wheel rows at a screen cell (negative is up).
    Wheel {
        x: u16,
        y: u16,
        rows: isize,
    },
    Resize {
        width: u16,
        height: u16,
    },
}

/// Text pasted into a prompt, made fit for one: line breaks and other
/// control characters become spaces, and it is cut at [`Pasted::MAX`]
/// characters (a query is a few words; a 100 KB paste must not make every
/// row's match take seconds).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pasted(pub String);

impl Pasted {
    pub const MAX: usize = 256;

    pub fn new(text: &str) -> Pasted {
        let clean = text
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .take(Pasted::MAX);
        Pasted(clean.collect())
    }
}
