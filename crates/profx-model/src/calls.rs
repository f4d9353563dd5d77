//! Each call of a trace, handed out by the trace feed as it closes (the
//! `calls` table of `profx export --to parquet`, docs/spec/parquet.md). A
//! trace holds tens of millions of calls: none is kept here, each goes to
//! the sink the load was given and is forgotten, so a per-call table costs
//! what its sink keeps, not what the trace holds.

use crate::ids::FuncId;
use std::sync::{Arc, Mutex};

/// One call, as the trace feed counts it (`metrics/trace.rs`): only a call
/// entered inside the feed's range is one (model.md § Time ranges).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Call {
    /// The thread's id, as the trace gives it.
    pub thread: u64,
    /// The function called (the loaded profile's id).
    pub func: FuncId,
    /// The clock when it was entered (0 on an untimed trace).
    pub start: f64,
    /// Clock at its exit − clock at its entry.
    pub inclusive: f64,
    /// The time it spent on top of its thread's stack.
    pub exclusive: f64,
    /// Calls open below it on its thread when it was made (0: a root).
    pub depth: u32,
}

/// Where a load's calls go.
pub trait CallSink: Send {
    /// One call, in the order calls close (a callee before its caller).
    fn call(&mut self, call: &Call);
    /// The trace has ended: no call comes after.
    fn done(&mut self) {}
}

/// A sink waiting for the load it was made for (`LoadOptions::calls`): the
/// first load that takes it feeds it, so a query's replay of the same
/// input (which clones the options) never feeds it twice.
#[derive(Clone, Default)]
pub struct CallFeed(Option<Arc<Waiting>>);

/// The sink until a load takes it.
type Waiting = Mutex<Option<Box<dyn CallSink>>>;

impl std::fmt::Debug for CallFeed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "CallFeed(sink)"
        } else {
            "CallFeed(none)"
        })
    }
}

impl CallFeed {
    /// A feed into `sink`.
    pub fn new(sink: Box<dyn CallSink>) -> CallFeed {
        CallFeed(Some(Arc::new(Mutex::new(Some(sink)))))
    }

    /// The sink, once: `None` after the first take, or for no sink.
    pub fn take(&self) -> Option<Box<dyn CallSink>> {
        let cell = self.0.as_ref()?;
        // A poisoned lock is a panicked load's: its sink is as it was left.
        let mut guard = cell.lock().unwrap_or_else(|e| e.into_inner());
        guard.take()
    }
}

/// The sink inside the trace feed: `Debug` for the feed's own.
pub(crate) struct Sink(pub(crate) Box<dyn CallSink>);

/// A builder's clone (a followed trace's update, finished while the load
/// goes on) hands its calls to no sink: each call is the original's to
/// hand, once.
impl Clone for Sink {
    fn clone(&self) -> Self {
        Sink(Box::new(Nowhere))
    }
}

/// A sink that keeps nothing.
struct Nowhere;

impl CallSink for Nowhere {
    fn call(&mut self, _: &Call) {}
}

impl std::fmt::Debug for Sink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sink")
    }
}
