//! The interactive explorer (tui.md): ratatui over crossterm.
//!
//! Key → `Intent` through the one keymap (keymap.rs, by mode and pane) →
//! `App::update` (app.rs), which hands it to the overlay that is open or
//! to the pane on screen (pane/, each pane's own `update`), and takes what
//! the pane leaves → `render::draw` from `&App`: the header, the tabs and
//! the footer, and the pane drawing itself (`Pane::render`, from `&self`). Nothing redraws on a timer: the loop blocks on the next
//! terminal event and draws once per event. The model, loaders and
//! analysis know nothing of this module.

pub mod app;
pub mod columns;
mod derived;
mod export;
pub mod finder;
pub mod help;
pub mod intent;
pub mod keymap;
pub mod layout;
pub mod pane;
pub mod render;
mod term;

pub use app::App;
pub use term::run;

#[cfg(test)]
pub(crate) mod tests;
