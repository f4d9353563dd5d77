//! The search prompt (`/`): keys edit the pane's search, which filters its
//! rows as it is typed; the keys that move keep moving the rows.

use super::{App, Mode};
use crate::tui::intent::Intent;

impl App {
    /// The search prompt, the keyboard on the pane's rows (not a list of
    /// its split), saying what the search kept holds.
    pub(super) fn open_search(&mut self) {
        let (pane, cx) = self.split();
        pane.to_rows();
        self.status = pane.search_said(&cx);
        self.mode = Mode::Search;
    }

    /// A new search text for the pane on screen.
    pub(super) fn set_search(&mut self, text: String) {
        let old = self
            .pane()
            .search()
            .map_or(String::new(), |s| s.text.clone());
        let narrowing = crate::analysis::search::narrows(&old, &text);
        let (pane, cx) = self.split();
        self.status = pane.set_search(&text, narrowing, &cx);
    }

    pub(super) fn search(&mut self, intent: Intent) {
        let mut text = self
            .pane()
            .search()
            .map_or(String::new(), |s| s.text.clone());
        match intent {
            Intent::Input(c) => text.push(c),
            Intent::Paste(p) => text.push_str(&p.0),
            Intent::Erase => {
                text.pop();
            }
            Intent::ClearInput => text.clear(),
            Intent::Accept => return self.mode = Mode::Normal,
            Intent::Cancel => {
                self.mode = Mode::Normal;
                text.clear();
            }
            Intent::Quit
            | Intent::Move(_)
            | Intent::PageUp
            | Intent::PageDown
            | Intent::Resize { .. }
            | Intent::Wheel { .. } => return self.normal(intent),
            _ => return,
        }
        self.set_search(text);
    }
}
