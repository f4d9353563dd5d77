//! A trace's calls on their way to the `calls` table: the trace feed hands
//! each one to a [`CallSpill`] as the load goes (`profx_model::CallSink`),
//! which keeps the first [`KEPT`] bytes of them in memory and writes the
//! rest to an unnamed temporary file, 40 bytes a call; once the run is
//! loaded and its names known, [`Spilled::blocks`] hands them back a block
//! at a time. A trace of any size costs at most those bytes and a block of
//! memory here, not its calls; most traces' calls never reach the disk.

use profx_model::{Call, CallSink, FuncId};
use std::fs::File;
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::sync::{Arc, Mutex};

/// Bytes a call takes in the file: thread, function, depth, start,
/// inclusive, exclusive.
const RECORD: usize = 8 + 4 + 4 + 8 + 8 + 8;

/// Bytes of calls a spill keeps in memory before it writes the rest to a
/// file: a trace of hundreds of thousands of calls (tens of MB of
/// events) stays in memory, the runs in flight holding this much each at
/// most.
pub const KEPT: usize = 16 << 20;

/// The sink the load feeds.
#[derive(Debug)]
pub struct CallSpill {
    /// The first calls, up to `KEPT` bytes of them, in blocks of `BLOCK`
    /// (none moved as they grow, each handed back as it is).
    kept: Vec<Vec<Call>>,
    /// How many calls `kept` holds.
    n_kept: usize,
    /// The file the calls after them go to, made when the first one comes.
    out: Option<BufWriter<File>>,
    /// Calls kept or written, told to `state` when the spill is flushed.
    calls: u64,
    state: Arc<Mutex<State>>,
}

/// What the spill and its reader share: how many calls were given, the
/// first ones themselves, the file of the others, and the first error
/// writing them met (said when they are read back: a table never loses
/// calls silently).
#[derive(Debug, Default)]
struct State {
    calls: u64,
    kept: Vec<Vec<Call>>,
    file: Option<File>,
    error: Option<io::Error>,
}

/// The calls of one load, to read back once it is done.
#[derive(Debug)]
pub struct Spilled {
    state: Arc<Mutex<State>>,
}

impl CallSpill {
    /// A spill, and the end that reads it back.
    pub fn new() -> io::Result<(CallSpill, Spilled)> {
        let state = Arc::new(Mutex::new(State::default()));
        let spill = CallSpill {
            kept: Vec::new(),
            n_kept: 0,
            out: None,
            calls: 0,
            state: Arc::clone(&state),
        };
        Ok((spill, Spilled { state }))
    }

    fn failed(&mut self, e: io::Error) {
        let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
        s.error.get_or_insert(e);
    }

    /// The file the calls past `KEPT` go to: a new temporary file
    /// (removed by the OS once both ends are closed), its reading end
    /// handed to the reader.
    fn file(&mut self) -> io::Result<&mut BufWriter<File>> {
        if self.out.is_none() {
            let file = tempfile::tempfile()?;
            let read = file.try_clone()?;
            let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
            s.file = Some(read);
            drop(s);
            self.out = Some(BufWriter::with_capacity(1 << 16, file));
        }
        match self.out.as_mut() {
            Some(out) => Ok(out),
            None => Err(io::Error::other("no spill file")),
        }
    }

    /// Flushes what is buffered and hands the reader the calls kept and
    /// how many there are in all.
    fn flush(&mut self) {
        let flushed = match self.out.as_mut() {
            Some(out) => out.flush(),
            None => Ok(()),
        };
        match flushed {
            Ok(()) => {
                let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
                s.kept.append(&mut self.kept);
                s.calls = self.calls;
            }
            Err(e) => self.failed(e),
        }
    }
}

impl CallSink for CallSpill {
    fn call(&mut self, c: &Call) {
        if self.out.is_none() && self.n_kept < KEPT / std::mem::size_of::<Call>() {
            match self.kept.last_mut().filter(|b| b.len() < BLOCK) {
                Some(block) => block.push(*c),
                None => {
                    let mut block = Vec::with_capacity(BLOCK);
                    block.push(*c);
                    self.kept.push(block);
                }
            }
            self.n_kept += 1;
            self.calls += 1;
            return;
        }
        let mut rec = [0u8; RECORD];
        rec[0..8].copy_from_slice(&c.thread.to_le_bytes());
        rec[8..12].copy_from_slice(&c.func.raw().to_le_bytes());
        rec[12..16].copy_from_slice(&c.depth.to_le_bytes());
        rec[16..24].copy_from_slice(&c.start.to_le_bytes());
        rec[24..32].copy_from_slice(&c.inclusive.to_le_bytes());
        rec[32..40].copy_from_slice(&c.exclusive.to_le_bytes());
        match self.file().and_then(|out| out.write_all(&rec)) {
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
    /// The calls in the order they closed: those kept, then the file's
    /// read back a block at a time; an error the spill met is an error
    /// here, and a file shorter than the calls written one when its block
    /// is read.
    pub fn blocks(self) -> io::Result<CallBlocks> {
        let (calls, kept, file) = {
            let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(e) = s.error.take() {
                return Err(e);
            }
            (s.calls, std::mem::take(&mut s.kept), s.file.take())
        };
        let n_kept: usize = kept.iter().map(Vec::len).sum();
        let in_file = calls.saturating_sub(n_kept as u64);
        let input = match file {
            Some(mut file) => {
                file.seek(SeekFrom::Start(0))?;
                Some(file)
            }
            None if in_file > 0 => return Err(io::Error::other("calls spilled to no file")),
            None => None,
        };
        Ok(CallBlocks {
            kept,
            n_kept,
            next_kept: 0,
            input,
            in_file,
            bytes: Vec::new(),
            calls: Vec::new(),
        })
    }
}

/// Calls a block at a time: those kept, then the file's, one read call
/// and a decoding loop a block, not a buffered read a call.
#[derive(Debug)]
pub struct CallBlocks {
    kept: Vec<Vec<Call>>,
    /// Calls of the blocks kept not handed out yet.
    n_kept: usize,
    /// The next block kept to hand out.
    next_kept: usize,
    input: Option<File>,
    /// Calls of the file still to read.
    in_file: u64,
    bytes: Vec<u8>,
    calls: Vec<Call>,
}

/// Calls a block holds.
const BLOCK: usize = 4096;

impl CallBlocks {
    /// The calls still to hand out.
    pub fn len(&self) -> u64 {
        self.n_kept as u64 + self.in_file
    }

    /// Whether every call was handed out.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The next block of calls, `None` once all are handed out.
    pub fn next_block(&mut self) -> io::Result<Option<&[Call]>> {
        if let Some(block) = self.kept.get(self.next_kept) {
            self.next_kept += 1;
            self.n_kept -= block.len();
            return Ok(Some(block));
        }
        let Some(input) = self.input.as_mut().filter(|_| self.in_file > 0) else {
            return Ok(None);
        };
        let n = usize::try_from(self.in_file)
            .unwrap_or(usize::MAX)
            .min(BLOCK);
        self.bytes.resize(n * RECORD, 0);
        input.read_exact(&mut self.bytes)?;
        self.in_file -= n as u64;
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

    /// What goes in comes back, in order, to the bit: the calls kept in
    /// memory, then those written to the file.
    #[test]
    fn calls_come_back_as_they_went() {
        let (mut spill, read) = CallSpill::new().unwrap();
        let n = (KEPT / std::mem::size_of::<Call>()) as u32 + 10_000;
        let calls: Vec<Call> = (0..n)
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
        assert_eq!(blocks.len(), u64::from(n));
        let mut back = Vec::new();
        while let Some(b) = blocks.next_block().unwrap() {
            back.extend_from_slice(b);
        }
        assert_eq!(back, calls);
    }
}
