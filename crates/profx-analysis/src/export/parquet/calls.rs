//! A trace's calls on their way to the `calls` table: the trace feed hands
//! each one to a [`CallSpill`] as the load goes (`profx_model::CallSink`),
//! which writes it to an unnamed temporary file, 40 bytes a call; once the
//! run is loaded and its names known, [`Spilled::blocks`] reads them back a
//! block at a time. A trace of any size costs a block of memory here, not
//! its calls.

use profx_model::{Call, CallSink, FuncId};
use std::fs::File;
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::sync::{Arc, Mutex};

/// Bytes a call takes in the file: thread, function, depth, start,
/// inclusive, exclusive.
const RECORD: usize = 8 + 4 + 4 + 8 + 8 + 8;

/// The sink the load feeds.
#[derive(Debug)]
pub struct CallSpill {
    out: BufWriter<File>,
    /// Calls written, told to `state` when the spill is flushed.
    calls: u64,
    state: Arc<Mutex<State>>,
}

/// What the spill and its reader share: how many calls were written, and
/// the first error writing them met (said when they are read back: a
/// table never loses calls silently).
#[derive(Debug, Default)]
struct State {
    calls: u64,
    error: Option<io::Error>,
}

/// The calls of one load, to read back once it is done.
#[derive(Debug)]
pub struct Spilled {
    file: File,
    state: Arc<Mutex<State>>,
}

impl CallSpill {
    /// A spill into a new temporary file (removed by the OS once both
    /// ends are closed), and the end that reads it back.
    pub fn new() -> io::Result<(CallSpill, Spilled)> {
        let file = tempfile::tempfile()?;
        let read = file.try_clone()?;
        let state = Arc::new(Mutex::new(State::default()));
        let spill = CallSpill {
            out: BufWriter::with_capacity(1 << 16, file),
            calls: 0,
            state: Arc::clone(&state),
        };
        Ok((spill, Spilled { file: read, state }))
    }

    fn failed(&mut self, e: io::Error) {
        let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
        s.error.get_or_insert(e);
    }

    /// Flushes what is buffered and tells the reader how many calls the
    /// file holds.
    fn flush(&mut self) {
        match self.out.flush() {
            Ok(()) => {
                let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
                s.calls = self.calls;
            }
            Err(e) => self.failed(e),
        }
    }
}

impl CallSink for CallSpill {
    fn call(&mut self, c: &Call) {
        let mut rec = [0u8; RECORD];
        rec[0..8].copy_from_slice(&c.thread.to_le_bytes());
        rec[8..12].copy_from_slice(&c.func.raw().to_le_bytes());
        rec[12..16].copy_from_slice(&c.depth.to_le_bytes());
        rec[16..24].copy_from_slice(&c.start.to_le_bytes());
        rec[24..32].copy_from_slice(&c.inclusive.to_le_bytes());
        rec[32..40].copy_from_slice(&c.exclusive.to_le_bytes());
        match self.out.write_all(&rec) {
            Ok(()) => self.calls += 1,
            Err(e) => self.failed(e),
        }
    }

    fn done(&mut self) {
        self.flush();
    }
}

impl Drop for CallSpill {
    fn drop(&mut self) {
        // A load that never began a trace never said `done`.
        self.flush();
    }
}

impl Spilled {
    /// The calls in the order they closed, read back a block at a time;
    /// an error the spill met is an error here, and a file shorter than
    /// the calls written one when its block is read.
    pub fn blocks(self) -> io::Result<CallBlocks> {
        let (calls, error) = {
            let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
            (s.calls, s.error.take())
        };
        if let Some(e) = error {
            return Err(e);
        }
        let mut file = self.file;
        file.seek(SeekFrom::Start(0))?;
        Ok(CallBlocks {
            input: file,
            left: calls,
            bytes: Vec::new(),
            calls: Vec::new(),
        })
    }
}

/// Calls a block read at a time: one read call and a decoding loop a
/// block, not a buffered read a call.
#[derive(Debug)]
pub struct CallBlocks {
    input: File,
    left: u64,
    bytes: Vec<u8>,
    calls: Vec<Call>,
}

/// Calls a block holds.
const BLOCK: usize = 4096;

impl CallBlocks {
    /// The calls still to read.
    pub fn len(&self) -> u64 {
        self.left
    }

    /// Whether every call was read.
    pub fn is_empty(&self) -> bool {
        self.left == 0
    }

    /// The next block of calls, `None` once all are read.
    pub fn next_block(&mut self) -> io::Result<Option<&[Call]>> {
        if self.left == 0 {
            return Ok(None);
        }
        let n = usize::try_from(self.left).unwrap_or(usize::MAX).min(BLOCK);
        self.bytes.resize(n * RECORD, 0);
        self.input.read_exact(&mut self.bytes)?;
        self.left -= n as u64;
        self.calls.clear();
        self.calls.extend(
            self.bytes
                .chunks_exact(RECORD)
                .map(|rec| decode(rec.try_into().unwrap_or(&[0; RECORD]))),
        );
        Ok(Some(&self.calls))
    }
}

fn decode(rec: &[u8; RECORD]) -> Call {
    let u64_at = |i: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&rec[i..i + 8]);
        u64::from_le_bytes(b)
    };
    let u32_at = |i: usize| {
        let mut b = [0u8; 4];
        b.copy_from_slice(&rec[i..i + 4]);
        u32::from_le_bytes(b)
    };
    Call {
        thread: u64_at(0),
        func: FuncId::from_raw(u32_at(8)),
        depth: u32_at(12),
        start: f64::from_bits(u64_at(16)),
        inclusive: f64::from_bits(u64_at(24)),
        exclusive: f64::from_bits(u64_at(32)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What goes in comes back, in order, to the bit.
    #[test]
    fn calls_come_back_as_they_went() {
        let (mut spill, read) = CallSpill::new().unwrap();
        let calls: Vec<Call> = (0..10_000u32)
            .map(|i| Call {
                thread: u64::from(i % 3) + 7,
                func: FuncId::from_raw(i),
                start: f64::from(i) * 0.1,
                inclusive: 1.5,
                exclusive: 0.25,
                depth: i % 5,
            })
            .collect();
        for c in &calls {
            spill.call(c);
        }
        spill.done();
        drop(spill);
        let mut blocks = read.blocks().unwrap();
        assert_eq!(blocks.len(), 10_000);
        let mut back = Vec::new();
        while let Some(b) = blocks.next_block().unwrap() {
            back.extend_from_slice(b);
        }
        assert_eq!(back, calls);
    }
}
