//! Questions asked of a finished profile: row orders, searches, the
//! calling-context tree and the call graph, the flame graph's geometry; the
//! names of its tables and views (`view`); and what is written for outside
//! the app: `report` (`--json`, tables) and `export`. Reads the model only,
//! never a loader; the command line and the app share it.

#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(unreachable_pub)]
#![cfg_attr(not(test), deny(clippy::unwrap_used))]

pub mod callgraph;
pub mod calltree;
pub mod cct;
pub mod columns;
pub mod diff;
pub mod flame;
pub mod flame_chart;
pub mod flame_view;
pub mod lanes_view;
pub mod modules;
pub mod query;
pub mod resort;
pub mod search;
pub mod sort;
pub mod source;
pub mod tree;
pub mod view;

pub mod export;
pub mod report;
