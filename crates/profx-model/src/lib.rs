//! The one in-memory profile every loader produces and every view reads
//! (`docs/spec/model.md`).
//!
//! This module owns the entities and their identities. Rows are only ever
//! created through [`ProfileBuilder`], whose feeds (summaries, samples,
//! trace intervals) apply the metric rules of [`metrics`]; a finished
//! [`Profile`] is read-only. Nothing here knows about files or terminals.

#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(unreachable_pub)]
#![cfg_attr(not(test), deny(clippy::unwrap_used))]

pub mod budget;
mod builder;
pub mod calls;
pub mod column;
pub mod facts;
mod func_index;
mod func_table;
pub mod graph;
pub mod ids;
pub mod intern;
pub mod lanes;
pub mod metrics;
mod name_index;
pub mod par_sort;
mod probe;
mod profile;
mod ran;
pub mod source;
mod stack_index;
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod testing;
pub mod text;
pub mod timeline;
mod tree;
mod warning;

pub use builder::{FuncSummary, ProfileBuilder};
pub use calls::{Call, CallFeed, CallSink};
pub use facts::{Facts, HitsWord, LineFile, LineNumbers, TimeUnit};
pub use func_table::{FunctionTable, Rows};
pub use graph::{HitsCount, StatedEdge};
pub use ids::{FuncId, LineId, NameId, NodeId, PacketId, StackId};
pub use metrics::{PctOf, PerCall, Percents, TimeValues};
pub use profile::{
    Event, EventSource, Function, Line, MetaValue, Node, Packet, Profile, Replay, Stack, TOP_LEVEL,
    ThreadInfo, TimeRange, Totals, Watch,
};
pub use warning::{Place, Warning, WarningKind};
