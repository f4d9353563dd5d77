//! Renderings of a profile for outside the app: the `--json` contract
//! (report-json.md) and plain-text tables for people. Both read numbers from
//! the model and the shared columns only.

pub mod fmt;
pub mod json;
pub mod source;
pub mod table;
pub mod tree;
