//! profx: a terminal explorer for legacy profiler output.
//!
//! Loaders (`load`) turn each input format into one [`model::Profile`];
//! `analysis` sorts, searches and derives the call graph over it; `report`
//! renders it for scripts and people. None of these import a terminal crate:
//! the interactive app sits on top and only reads the model.

pub mod analysis;
pub mod demo;
pub mod export;
pub mod fixture_gen;
#[doc(hidden)]
pub mod fuzzing;
pub mod load;
pub mod model;
pub mod report;
pub mod signals;
pub mod text;
pub mod tui;
