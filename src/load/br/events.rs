//! The BR packet's events: one per sample, kept compact (24 bytes) and
//! turned into an `Event` only when a pane asks for that row.

use crate::model::{Event, EventSource, FuncId};

#[derive(Clone, Copy, Debug)]
pub struct SampleRow {
    pub function: FuncId,
    pub line: u32,
    pub clause: u8,
    /// Start on the running sum of sample times (timed profiles).
    pub start_ms: Option<f64>,
}

#[derive(Debug)]
pub struct SampleEvents {
    rows: Vec<SampleRow>,
}

impl SampleEvents {
    pub fn new(rows: Vec<SampleRow>) -> Self {
        SampleEvents { rows }
    }
}

impl EventSource for SampleEvents {
    fn len(&self) -> usize {
        self.rows.len()
    }

    fn function(&self, index: usize) -> Option<FuncId> {
        self.rows.get(index).map(|r| r.function)
    }

    fn get(&self, index: usize) -> Option<Event> {
        let r = self.rows.get(index)?;
        Some(Event {
            thread: None,
            time_ms: r.start_ms,
            op: "sample".into(),
            function: Some(r.function),
            line: Some(r.line),
            params: Some(format!("clause {}", r.clause)),
        })
    }
}
