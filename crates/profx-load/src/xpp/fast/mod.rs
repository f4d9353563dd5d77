//! The Xbase++ traces' fast engine: the same rules as `../reference.rs`,
//! on every core. Workers read chunks of records (`record.rs`: the common
//! DELDBE line and DBF record at byte level; anything else through the
//! format's own reading, `../deldbe.rs` or `../dbf.rs`) into compact
//! events with their names numbered (`batch.rs`, `load::names`); this
//! thread replays them in file order (`replay.rs`: push, mark or pop a
//! call per op), piece after piece (`delimited.rs` for DELDBE,
//! `foxdbe.rs` for DBF).

mod batch;
pub(super) mod delimited;
pub(super) mod foxdbe;
pub(super) mod record;
mod replay;
