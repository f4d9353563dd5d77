//! The BR packet's events: one per sample, kept as its leaf function and
//! where its type 3 record stands in the file (8 bytes and a bit a sample),
//! decoded from the file only when a pane asks for that row.
//!
//! A sample's start time is the running sum of the samples' times before
//! it. Every 64 samples an anchor keeps that sum and an absolute offset;
//! the samples in between store their offset from the anchor, and their
//! start is the anchor's sum plus the times read back from at most 63
//! samples.

use super::record::{Frame, Record, read};
use crate::{Input, KeepEvents};
use profx_model::{Event, EventSource, FuncId};

/// Samples an anchor covers at most.
const SPAN: usize = 64;

#[derive(Clone, Copy, Debug)]
struct Anchor {
    /// The first sample it covers.
    first: usize,
    offset: u64,
    clock_ns: u128,
}

#[derive(Debug)]
pub(super) struct SampleEvents {
    input: Input,
    /// Where reading stopped: no record at or after it is read again.
    end: usize,
    timed: bool,
    /// Samples pushed; with `KeepEvents::Counted` nothing else is kept and
    /// no sample reads back.
    count: usize,
    keep: KeepEvents,
    functions: Vec<FuncId>,
    /// Offset of each sample's type 3 from its anchor's.
    deltas: Vec<u32>,
    anchors: Vec<Anchor>,
}

impl SampleEvents {
    /// Where reading stopped and whether the profile is timed are told at
    /// the end (`finish`), when the whole log has been read.
    pub(super) fn new(input: Input, keep: KeepEvents) -> Self {
        SampleEvents {
            input,
            end: 0,
            timed: false,
            count: 0,
            keep,
            functions: Vec::new(),
            deltas: Vec::new(),
            anchors: Vec::new(),
        }
    }

    /// The next sample: its type 3's offset, its leaf function, and the
    /// sum of the times of the samples before it.
    pub(super) fn push(&mut self, offset: u64, function: FuncId, clock_ns: u128) {
        self.count += 1;
        if self.keep == KeepEvents::Counted {
            return;
        }
        let index = self.functions.len();
        let near = self.anchors.last().and_then(|a| {
            let delta = u32::try_from(offset.checked_sub(a.offset)?).ok()?;
            (index - a.first < SPAN).then_some(delta)
        });
        let delta = near.unwrap_or_else(|| {
            self.anchors.push(Anchor {
                first: index,
                offset,
                clock_ns,
            });
            0
        });
        self.deltas.push(delta);
        self.functions.push(function);
    }

    pub(super) fn finish(&mut self, end: usize, timed: bool) {
        (self.end, self.timed) = (end, timed);
    }

    fn anchor(&self, index: usize) -> Option<Anchor> {
        let n = self.anchors.partition_point(|a| a.first <= index);
        self.anchors.get(n.checked_sub(1)?).copied()
    }

    fn offset(&self, a: &Anchor, index: usize) -> Option<usize> {
        let delta = *self.deltas.get(index)?;
        usize::try_from(a.offset + u64::from(delta)).ok()
    }

    /// The sample's leaf frame and its start on the running clock.
    fn decode(&self, index: usize) -> Option<(Frame, u128)> {
        let a = self.anchor(index)?;
        let bytes = self.input.bytes();
        let bytes = bytes.get(..self.end)?;
        let mut clock = a.clock_ns;
        for j in a.first..index {
            clock += u128::from(sample(bytes, self.offset(&a, j)?)?.1);
        }
        let (leaf, _) = sample(bytes, self.offset(&a, index)?)?;
        Some((leaf, clock))
    }
}

/// The sample whose type 3 is at `at`: its leaf frame and nanoseconds, the
/// time records up to its end (a type 6, the next sample, or the end of
/// what was read) added up as the loader did.
fn sample(bytes: &[u8], at: usize) -> Option<(Frame, u64)> {
    let (Record::Current(leaf), len) = read(bytes.get(at..)?).ok()? else {
        return None;
    };
    let (mut pos, mut ns) = (at + len, 0u64);
    while pos < bytes.len() {
        let Ok((rec, len)) = read(&bytes[pos..]) else {
            break;
        };
        match rec {
            Record::Time(t) => ns = ns.saturating_add(t),
            Record::End | Record::Current(_) => break,
            _ => {}
        }
        pos += len;
    }
    Some((leaf, ns))
}

impl EventSource for SampleEvents {
    fn len(&self) -> usize {
        self.count
    }

    fn function(&self, index: usize) -> Option<FuncId> {
        self.functions.get(index).copied()
    }

    fn get(&self, index: usize) -> Option<Event> {
        let function = self.function(index)?;
        let decoded = self.decode(index);
        Some(Event {
            thread: None,
            time_ms: decoded
                .filter(|_| self.timed)
                .map(|(_, clock)| clock as f64 / 1e6),
            op: "sample".into(),
            function: Some(function),
            line: decoded.map(|(leaf, _)| leaf.line),
            params: decoded.map(|(leaf, _)| format!("clause {}", leaf.clause)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use profx_fixtures::br::compile;

    /// 130 samples (three anchors), sample i at line i with i µs: every
    /// event reads back its line, clause and start.
    #[test]
    fn events_read_back_from_the_file_across_anchors() {
        let mut desc = String::from("module 1 \"A.BR\"\n");
        for i in 0..130 {
            desc.push_str(&format!("sample 1 {i} {}\ntime {i}us\nend\n", i % 3));
        }
        let bytes = compile(&desc).expect("compiles");
        let len = bytes.len();
        let mut events = SampleEvents::new(Input::owned("t", bytes.clone()), KeepEvents::Indexed);
        events.finish(len, true);
        let (mut pos, mut clock) = (0, 0u128);
        while pos < len {
            let (rec, n) = read(&bytes[pos..]).expect("reads");
            if let Record::Current(_) = rec {
                let i = events.len() as u128;
                events.push(pos as u64, FuncId::from_index(7), clock);
                clock += i * 1000;
            }
            pos += n;
        }
        assert_eq!((events.len(), events.anchors.len()), (130, 3));
        for i in [0usize, 1, 63, 64, 65, 127, 128, 129] {
            let e = events.get(i).expect("an event");
            let start: u128 = (0..i as u128).map(|j| j * 1000).sum();
            assert_eq!(e.line, Some(i as u32), "{i}");
            assert_eq!(e.params, Some(format!("clause {}", i % 3)));
            assert_eq!(e.time_ms, Some(start as f64 / 1e6), "{i}");
            assert_eq!(e.function, Some(FuncId::from_index(7)));
        }
        assert!(events.get(130).is_none());
    }
}
