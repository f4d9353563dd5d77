//! The interactive explorer (tui.md): ratatui over crossterm.
//!
//! Key or mouse event → `Action` (keys.rs) → `App::update` (app.rs, the
//! only place state changes) → `render::draw` from `&App`. Nothing redraws
//! on a timer: the loop blocks on the next terminal event and draws once
//! per event. The model, loaders and analysis know nothing of this module.

pub mod action;
pub mod app;
mod copy;
mod export;
mod flame;
mod flame_chart;
pub mod help;
mod info;
pub mod keys;
pub mod layout;
pub mod panes;
pub mod render;
mod term;
pub mod view;

pub use app::App;
pub use term::run;

#[cfg(test)]
pub(crate) mod tests;
