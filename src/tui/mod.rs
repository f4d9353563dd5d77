//! The interactive explorer (tui.md): ratatui over crossterm.
//!
//! Key → `Intent` through the one keymap (keymap.rs, by mode and pane) →
//! `App::update` (app.rs), which hands it to the overlay that is open or
//! to the pane on screen (pane/, each pane's own `update`), and takes what
//! the pane leaves → `render::draw` from `&App`: the header, the tabs and
//! the footer, and the pane drawing itself (`Pane::render`, from `&self`,
//! its drawing in its own folder beside its state: `pane/table/draw.rs`).
//! Nothing redraws on a timer: the loop blocks on the next
//! terminal event and draws once per event. The model, loaders and
//! analysis know nothing of this module.

mod app;
mod columns;
mod compare;
mod derived;
mod export;
mod finder;
mod fit;
mod follow;
mod help;
pub mod intent;
mod keymap;
mod layout;
mod menu;
mod pane;
mod query;
mod render;
mod term;
mod threads;

// What a program driving the app (the binary, benchmarks, timing
// examples) reaches: the app, its keys' intents, a frame, the panes it
// inspects. The rest is the app's own.
pub use app::App;
pub use compare::Compared;
pub use pane::source::use_source_folders;
pub use pane::{Ctx, Pane, TABS, TablePane, TreePane};
pub use render::draw;
pub use term::{run, run_comparison, run_following};

#[cfg(test)]
pub(crate) mod tests;
