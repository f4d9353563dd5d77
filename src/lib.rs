//! profx: a terminal explorer for legacy profiler output.
//!
//! The layers are crates of their own (`crates/`), so the compiler keeps
//! them apart: `profx-model` (the one in-memory profile), `profx-load`
//! (input formats into the model), `profx-analysis` (questions asked of a
//! model, reports and exports), `profx-sys` (every call into the operating
//! system that needs `unsafe`) and `profx-fixtures` (writers of test
//! inputs). None of them imports a terminal crate. This crate is the app
//! (`tui`) and the command line on top; it re-exports the layers under
//! short names (`profx::model`, `profx::load`, …), the paths the app, the
//! integration tests, the benches and the examples use.

#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(unreachable_pub)]
#![cfg_attr(not(test), deny(clippy::unwrap_used))]

pub use profx_analysis as analysis;
pub use profx_analysis::{export, report};
pub use profx_fixtures as fixture_gen;
pub use profx_load as load;
pub use profx_model as model;
pub use profx_model::text;
pub use profx_sys as sys;
pub use profx_sys::signals;

pub mod demo;
#[doc(hidden)]
pub mod fuzzing;
pub mod tui;
