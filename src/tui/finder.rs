//! The jump-to-function finder (`g`, Ctrl-P): every function ranked by a
//! fuzzy query as it is typed, each with its inclusive time (the column
//! the Functions table opens sorted by), so that of 207 functions named
//! alike the heavy one is picked; Enter goes to the chosen one.

use super::intent::Intent;
use super::pane::{Ctx, step};
use crate::analysis::columns::FuncColumn;
use crate::analysis::search::Query;
use crate::analysis::view::Table;
use crate::model::FuncId;
use crate::text::visible;

#[derive(Debug, PartialEq, Eq)]
pub struct Finder {
    pub input: String,
    /// Function ids, best first.
    pub results: Vec<u32>,
    pub cursor: usize,
    /// The number shown beside each hit: the column the Functions table
    /// opens sorted by (inclusive time, else total hits, else calls), so
    /// the finder weighs hits as the table does; none where the profile
    /// has none of them.
    pub weight: Option<FuncColumn>,
}

/// What an intent in the finder asks of the app.
pub enum Done {
    /// Nothing: the finder stays open.
    No,
    Open(FuncId),
    Close,
    Quit,
}

impl Finder {
    pub fn new(cx: &Ctx) -> Finder {
        let cols = &cx.columns(Table::Functions).cols;
        let weight = match crate::tui::columns::default_sort(Table::Functions, cols) {
            Some((crate::tui::columns::Col::F(c), _)) => Some(c),
            _ => None,
        };
        let mut f = Finder {
            input: String::new(),
            results: Vec::new(),
            cursor: 0,
            weight,
        };
        f.rank(cx);
        f
    }

    pub fn update(&mut self, intent: &Intent, cx: &Ctx) -> Done {
        let last = self.results.len().saturating_sub(1);
        match intent {
            Intent::Input(c) => self.input.push(*c),
            Intent::Paste(p) => self.input.push_str(&p.0),
            Intent::Erase => {
                self.input.pop();
            }
            Intent::ClearInput => self.input.clear(),
            Intent::Move(n) => self.cursor = step(self.cursor, *n, self.results.len()),
            Intent::PageUp => self.cursor = step(self.cursor, -10, self.results.len()),
            Intent::PageDown => self.cursor = step(self.cursor, 10, self.results.len()),
            Intent::First => self.cursor = 0,
            Intent::Last => self.cursor = last,
            Intent::Accept => {
                return match self.results.get(self.cursor) {
                    Some(&f) => Done::Open(FuncId::from_index(f as usize)),
                    None => Done::Close,
                };
            }
            Intent::Cancel | Intent::Back => return Done::Close,
            Intent::Quit => return Done::Quit,
            _ => return Done::No,
        }
        if matches!(
            intent,
            Intent::Input(_) | Intent::Paste(_) | Intent::Erase | Intent::ClearInput
        ) {
            self.rank(cx);
        }
        Done::No
    }

    /// All functions matching the input, best first (ties by the canonical
    /// order); every function when the input is empty.
    fn rank(&mut self, cx: &Ctx) {
        let p = cx.profile;
        let canonical = &cx.prepared.columns(p, Table::Functions).canonical;
        let q = Query::parse(&self.input);
        let mut scored: Vec<(i64, u32)> = canonical
            .iter()
            .filter_map(|&f| {
                let name = visible(p.function_name(FuncId::from_index(f as usize)));
                q.matches(&name).map(|m| (m.score, f))
            })
            .collect();
        // Stable, so equal scores keep the canonical (heaviest first) order.
        scored.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
        self.results = scored.into_iter().map(|(_, f)| f).collect();
        self.cursor = 0;
    }
}
