//! Where the user is in a pane, kept across a new profile of the same run
//! (a followed trace's update, any change of the query: tui.md § Following
//! a trace, § The query). Each pane kind says its own place by what the
//! other profile has too, and puts it back: a table its sort and search, the
//! Call tree its open rows and cursor and the flame graph its zoom, by paths
//! of names. The app only carries the value from the old root to the new.

use super::{Ctx, Pane, flame, table, timeline, tree};
use crate::model::{FuncId, Profile};

/// Where the user was in a tab's root pane.
#[derive(Debug)]
pub enum Spot {
    Table(table::Spot),
    Tree(tree::Spot),
    Flame(flame::Spot),
    Timeline(timeline::Spot),
    /// A pane whose place is not kept (Info, the Timeline, a sandwich).
    Other,
}

impl Pane {
    /// Where the user is in this pane, made of `p`.
    pub fn spot(&self, p: &Profile) -> Spot {
        match self {
            Pane::Table(t) => Spot::Table(t.spot()),
            Pane::Tree(t) => Spot::Tree(t.spot(p)),
            Pane::Flame(f) => f.spot(p).map_or(Spot::Other, Spot::Flame),
            Pane::Timeline(t) => Spot::Timeline(t.spot(p)),
            Pane::Info(_) | Pane::Compare(_) | Pane::Source(_) => Spot::Other,
        }
    }

    /// Puts `spot` back in this pane (a new profile's root of the same
    /// tab), where it is of this pane's kind; a table then selects `again`,
    /// the function the cursor was on, found in the new profile.
    pub fn put_spot(&mut self, spot: Spot, again: Option<FuncId>, cx: &Ctx) {
        let p = cx.profile;
        match (spot, self) {
            (Spot::Table(s), Pane::Table(t)) => t.put_spot(s, again, cx),
            (Spot::Tree(s), Pane::Tree(t)) => t.put_spot(s, cx),
            (Spot::Flame(s), Pane::Flame(f)) => f.put_spot(s, p),
            (Spot::Timeline(s), Pane::Timeline(t)) => t.put_spot(s, p),
            _ => {}
        }
    }
}
