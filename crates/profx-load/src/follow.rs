//! Following a trace while the program writes it (formats.md § Following
//! a trace): the Xbase++ profiler flushes its trace every `OUTFLUSHEVERY`
//! entries, into the file or into numbered packets (`NAME.PRF`,
//! `NAME.PRF.000001`, …; seed 004), so that it can be read while the
//! program runs.
//!
//! A [`Follower`] keeps its own copy of every byte it has read, piece by
//! piece: files are read, never mapped (a file rewritten under a mapping
//! faults), a packet moved away after it was read keeps its numbers, and
//! a thread choice or a range replays what was followed, not what is on
//! disk now. [`Follower::poll`] reads what the files gained (and packets
//! that appeared); [`Follower::profile`] makes the profile of the whole
//! records so far, as the trace's rules read them with the trace still
//! live: a partial last line or record (the writer mid-flush) waits until
//! it is complete, calls still open are counted (meta `open_calls`, their
//! time so far) rather than warned about, and a DBF header's record count
//! (rewritten as records come) is not compared. [`Follower::finish`] reads
//! every byte as a load of the final files would, warnings included.
//!
//! An update reads on from where the last stopped (`xpp/resume.rs`: the
//! trace's rules keep each thread's open calls, and a clone of the
//! builder is finished while the read goes on), so its reading costs the
//! records that came, not the trace so far; finishing the clone costs
//! the model (functions, paths, lines, and the per-call tables a trace
//! keeps: durations, lanes), not the bytes. Where the bytes change what
//! was read (a packet came out of order, a file was written anew) the
//! read starts again from the bytes kept. A trace only a load reads (a
//! numbered packet followed on its own, a range asked for) is loaded
//! whole on each update. Either way the profile is the one a load of the
//! same whole records makes, the trace live ([`Follower::loaded`]); a
//! property test holds the two together.

use crate::xpp::packets;
use crate::xpp::resume::{Piece as Cut, Resume};
use crate::{Detection, Input, LoadError, LoadOptions, Loader};
use profx_model::Profile;
use profx_sys::grow::Grow;
use std::io::{Read, Seek, SeekFrom};
use std::time::Instant;

/// The format that can be followed: traces are the profiles a program
/// writes as it runs; every other format is written once, at its end.
pub const FOLLOWED: &str = "xpp";

/// The meta key a followed trace's profile states its calls still open
/// under.
pub const OPEN_CALLS: &str = crate::xpp::OPEN_CALLS;

/// How long to wait after an update that took `cost` before making the
/// next: a second, or ten times what the last cost where that is longer,
/// so that following never takes more than a tenth of a core however
/// large the trace grows (an update reads the whole trace so far); the
/// updates of a large trace come less often instead.
pub fn next_update_after(cost: std::time::Duration) -> std::time::Duration {
    (cost * 10).max(std::time::Duration::from_secs(1))
}

/// A header packet's bytes read again on every poll: the DBF writer
/// rewrites its record count (and nothing else) as records are added.
const HEAD: usize = 4096;

/// A trace being followed, and every byte of it read so far.
#[derive(Debug)]
pub struct Follower {
    /// The file given: a trace, or a header packet `NAME.PRF`.
    path: String,
    opts: LoadOptions,
    /// The file given first, then its numbered packets in numeric order.
    pieces: Vec<Piece>,
    /// When a byte last came.
    last_data: Option<Instant>,
    /// The records read so far, to read on from; `None` before the first
    /// update, or for a trace only a load reads.
    resume: Option<Resume>,
    /// How many times the read started again from the bytes kept.
    restarts: u64,
    /// What says a file of the trace changed.
    wake: crate::wake::Wake,
}

/// One file of the trace and what of it was read.
#[derive(Debug)]
struct Piece {
    name: String,
    /// Its packet number; 0 for the file given.
    number: u64,
    /// Every byte read, as it was first read: what a live profile reads,
    /// shared with it while more is appended.
    bytes: Grow,
    /// The file given's first bytes as last read, where they changed
    /// since: a DBF writer rewrites its record count there as records
    /// come. Only the last profile (`finish`) reads the count.
    head: Option<Vec<u8>>,
    /// The file is not there (yet, or any more: its bytes are kept).
    gone: bool,
}

/// Whether a followed trace has something to show yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Readiness {
    /// Records can be read.
    Ready,
    /// Not yet: why, in words ("the file is empty").
    Waiting(String),
}

impl Follower {
    /// Starts following `path` (nothing read yet: `poll` reads; a file not
    /// there yet is waited for). A format named that cannot grow, or a
    /// path that is no regular file, is refused at once.
    pub fn new(path: &str, opts: &LoadOptions) -> Result<Follower, LoadError> {
        if let Some(format) = opts.format.as_deref()
            && format != FOLLOWED
        {
            crate::by_name(format)?;
            return Err(not_followable(path, format));
        }
        // A file not there yet is waited for, as `tail -F` does: the
        // program may not have started writing it.
        let meta = match std::fs::metadata(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            other => Some(other.map_err(|error| LoadError::Io {
                path: path.to_string(),
                error,
            })?),
        };
        if let Some(meta) = meta.filter(|m| !m.is_file()) {
            let what = profx_sys::fs::kind_of(&meta.file_type());
            return Err(LoadError::NotAFile {
                path: path.to_string(),
                what,
            });
        }
        Ok(Follower {
            path: path.to_string(),
            opts: opts.clone(),
            pieces: vec![Piece {
                name: path.to_string(),
                number: 0,
                bytes: Grow::new(),
                head: None,
                gone: true,
            }],
            last_data: None,
            resume: None,
            restarts: 0,
            wake: crate::wake::Wake::new(path),
        })
    }

    /// Reads what every file gained since the last poll, and the numbered
    /// packets that appeared; returns how many bytes came. A file that
    /// went away keeps what was read of it; one that shrank (written
    /// anew) is read again from its start.
    pub fn poll(&mut self) -> Result<u64, LoadError> {
        if packets::split_numbered(&self.path).is_none() {
            for (number, name) in packets::numbered_beside(&self.path) {
                if let Err(at) = self.pieces[1..].binary_search_by_key(&number, |p| p.number) {
                    let piece = Piece {
                        name,
                        number,
                        bytes: Grow::new(),
                        head: None,
                        gone: false,
                    };
                    self.pieces.insert(at + 1, piece);
                }
            }
        }
        let mut came = 0;
        for (i, piece) in self.pieces.iter_mut().enumerate() {
            match read_more(piece, i == 0) {
                Ok(Gained::More(n)) => came += n,
                Ok(Gained::Anew(n)) => {
                    came += n;
                    // What the read went on from is gone: it starts again.
                    if self.resume.take().is_some() {
                        self.restarts += 1;
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => piece.gone = true,
                Err(error) => {
                    return Err(LoadError::Io {
                        path: piece.name.clone(),
                        error,
                    });
                }
            }
        }
        if came > 0 {
            self.last_data = Some(Instant::now());
        }
        Ok(came)
    }

    /// Waits until a file of the trace may have changed: the file system
    /// says so, or the next look is due (`wake.rs`).
    pub fn wait(&self) {
        self.wake.wait();
    }

    /// A handle that ends [`Follower::wait`] from another thread.
    pub fn waker(&self) -> crate::wake::Waker {
        self.wake.waker()
    }

    /// Bytes read so far, in every piece.
    pub fn bytes_seen(&self) -> u64 {
        self.pieces.iter().map(|p| p.bytes.len() as u64).sum()
    }

    /// When a byte last came; `None` before the first.
    pub fn last_data(&self) -> Option<Instant> {
        self.last_data
    }

    /// How many pieces the trace has (the file given and its packets).
    pub fn pieces(&self) -> usize {
        self.pieces.len()
    }

    /// Whether the trace can be read yet, or why not; an error where what
    /// is there is a profile that cannot grow.
    pub fn readiness(&self) -> Result<Readiness, LoadError> {
        let first = &self.pieces[0];
        let bytes = first.bytes.as_slice();
        if bytes.is_empty() && first.gone {
            return Ok(Readiness::Waiting("no such file yet".into()));
        }
        if bytes.is_empty() {
            return Ok(Readiness::Waiting("the file is empty".into()));
        }
        if self.opts.format.is_some() || self.packet_record_len().is_some() {
            return Ok(self.complete_or_wait());
        }
        let xpp: &dyn Loader = &crate::xpp::Xpp;
        let mut said = xpp.detect(bytes, false);
        // Text shorter than what its bytes 8 and 9 would make a DBF header:
        // its whole lines decide (a DBF's header holds NULs; text none).
        let cut = bytes
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |at| at + 1);
        if said == Detection::NeedMore && cut > 0 && !bytes.contains(&0) {
            said = xpp.detect(&bytes[..cut], true);
        }
        match said {
            Detection::Yes => Ok(self.complete_or_wait()),
            Detection::NeedMore => Ok(Readiness::Waiting(
                "too short to recognise yet; --format xpp reads it as a trace".into(),
            )),
            Detection::No => {
                let input = Input::owned(&self.path, bytes.to_vec());
                match crate::detect(&input) {
                    Ok(loader) => Err(not_followable(&self.path, loader.name())),
                    Err(e) => Err(e),
                }
            }
        }
    }

    /// Ready when some whole record is there.
    fn complete_or_wait(&self) -> Readiness {
        let layout = self.layout();
        let whole = self.pieces.iter().enumerate().any(|(i, p)| {
            let bytes = p.bytes.as_slice();
            layout.complete(bytes, i == 0) > layout.start(bytes, i == 0)
        });
        match whole {
            true => Readiness::Ready,
            false => Readiness::Waiting("no whole record yet".into()),
        }
    }

    /// The profile of the whole records read so far, the trace still live,
    /// read on from the last update's records where the trace allows.
    pub fn profile(&mut self) -> Result<Profile, LoadError> {
        self.there()?;
        let opts = self.live_opts();
        let ends = self.ends(true);
        let cut: Vec<Cut<'_>> = (self.pieces.iter().zip(&ends))
            .map(|(p, &end)| (p.name.as_str(), &p.bytes.as_slice()[..end]))
            .collect();
        let fed = match &mut self.resume {
            Some(resume) => resume.feed(&cut).is_ok(),
            None => false,
        };
        if !fed {
            if self.resume.is_some() {
                self.restarts += 1;
            }
            self.resume = Resume::new(&cut, &opts)?;
            if let Some(resume) = &mut self.resume
                && resume.feed(&cut).is_err()
            {
                // A read begun on these very bytes has nothing to differ
                // from; were it to, a load is what the trace gets.
                self.resume = None;
            }
        }
        match &self.resume {
            Some(resume) => resume.profile(&self.inputs(&ends)),
            None => self.load(true),
        }
    }

    /// The same profile as [`Follower::profile`], made by a load of the
    /// whole records kept: what every update cost before the read could go
    /// on, and what the property tests hold the read to.
    pub fn loaded(&self) -> Result<Profile, LoadError> {
        self.load(true)
    }

    /// Whether the last update read on from the one before (a trace only
    /// a load reads is loaded whole on each).
    pub fn reads_on(&self) -> bool {
        self.resume.is_some()
    }

    /// How many times the read started again from the bytes kept (a
    /// packet came out of order, a file was written anew), rather than
    /// reading on.
    pub fn restarts(&self) -> u64 {
        self.restarts
    }

    /// The profile of every byte read, as a load of the final files gives
    /// it: a partial record read as it stands, with its warning, calls
    /// still open closed with theirs, a DBF header's count compared.
    pub fn finish(&self) -> Result<Profile, LoadError> {
        let mut p = self.load(false)?;
        // A line the writer had not ended when following stopped is read
        // as it stands; nothing in it says it was cut, so this does.
        if let Layout::Lines = self.layout() {
            for (source, piece) in self.pieces.iter().enumerate() {
                let bytes = piece.bytes.as_slice();
                let whole = Layout::Lines.complete(bytes, source == 0);
                if whole < bytes.len() && !bytes[whole..].iter().all(u8::is_ascii_whitespace) {
                    let line = bytes[..whole].iter().filter(|&&b| b == b'\n').count() as u64 + 1;
                    p.add_warning(profx_model::Warning {
                        source,
                        place: profx_model::Place::Line(line),
                        kind: profx_model::WarningKind::TruncatedRecord,
                        message: "the last line was still being written when following stopped (no newline ends it); read as it stands".into(),
                    });
                }
            }
        }
        Ok(p)
    }

    /// An error where the file given never appeared.
    fn there(&self) -> Result<(), LoadError> {
        if self.pieces[0].gone && self.pieces[0].bytes.is_empty() {
            return Err(LoadError::Io {
                path: self.path.clone(),
                error: std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "no such file: it never appeared while followed",
                ),
            });
        }
        Ok(())
    }

    /// The options a live read is made with.
    fn live_opts(&self) -> LoadOptions {
        LoadOptions {
            format: Some(FOLLOWED.into()),
            live: true,
            ..self.opts.clone()
        }
    }

    fn load(&self, live: bool) -> Result<Profile, LoadError> {
        self.there()?;
        let mut inputs = self.inputs(&self.ends(live)).into_iter();
        let Some(mut first) = inputs.next() else {
            return Err(LoadError::NoInput);
        };
        // The last load compares a DBF header's record count: as the
        // writer last wrote it.
        if let (false, Some(head)) = (live, &self.pieces[0].head) {
            let mut bytes = first.bytes().to_vec();
            let n = head.len().min(bytes.len());
            bytes[..n].copy_from_slice(&head[..n]);
            first = Input::owned(first.name(), bytes);
        }
        let opts = LoadOptions {
            format: Some(FOLLOWED.into()),
            packets: Some(inputs.collect()),
            live,
            ..self.opts.clone()
        };
        crate::load_inputs(&[first], &opts)
    }
}

impl Follower {
    /// How the trace's records are cut: by the first piece's DBF header,
    /// by a numbered packet's `NAME.PRF`'s where it holds records only, or
    /// in lines.
    fn layout(&self) -> Layout {
        match self.packet_record_len() {
            Some(record_len) => Layout::Dbf {
                header_len: 0,
                record_len,
            },
            None => Layout::of(self.pieces[0].bytes.as_slice()),
        }
    }

    /// The record length of a numbered DBF packet followed on its own
    /// (records only, from its first byte, a record's flag): its header
    /// is its `NAME.PRF`'s.
    fn packet_record_len(&self) -> Option<usize> {
        let (base, _) = packets::split_numbered(&self.path)?;
        let first = self.pieces[0].bytes.as_slice();
        if !matches!(first.first(), Some(b' ' | b'*')) {
            return None;
        }
        let mut head = Vec::new();
        let file = std::fs::File::open(base).ok()?;
        file.take(HEAD as u64).read_to_end(&mut head).ok()?;
        crate::xpp::dbf_layout(&head).map(|(_, record_len)| record_len)
    }

    /// Where each piece's bytes end for a profile: at its last whole
    /// record while `live`, else at its last byte.
    fn ends(&self, live: bool) -> Vec<usize> {
        let layout = self.layout();
        (self.pieces.iter().enumerate())
            .map(|(i, p)| match live {
                true => layout.complete(p.bytes.as_slice(), i == 0),
                false => p.bytes.len(),
            })
            .collect()
    }

    /// Each piece's bytes up to its end in `ends`, shared, not copied.
    fn inputs(&self, ends: &[usize]) -> Vec<Input> {
        (self.pieces.iter().zip(ends))
            .map(|(p, &end)| Input::shared(&p.name, p.bytes.share(end)))
            .collect()
    }
}

/// How a trace's records are cut: DBF records of a fixed length after a
/// header, or lines.
#[derive(Clone, Copy, Debug)]
enum Layout {
    Dbf {
        header_len: usize,
        record_len: usize,
    },
    Lines,
}

impl Layout {
    /// The layout of the trace whose first piece is `first`.
    fn of(first: &[u8]) -> Layout {
        match crate::xpp::dbf_layout(first) {
            Some((header_len, record_len)) => Layout::Dbf {
                header_len,
                record_len,
            },
            None => Layout::Lines,
        }
    }

    /// Where a piece's records start: after its header.
    fn start(self, bytes: &[u8], first: bool) -> usize {
        match self {
            Layout::Dbf { header_len, .. } if first => header_len.min(bytes.len()),
            Layout::Dbf {
                header_len,
                record_len,
            } => match crate::xpp::dbf_layout(bytes) {
                Some((h, r)) if (h, r) == (header_len, record_len) => h.min(bytes.len()),
                _ => 0,
            },
            Layout::Lines => 0,
        }
    }

    /// The end of a piece's last whole record: a line's newline, a
    /// record's last byte.
    fn complete(self, bytes: &[u8], first: bool) -> usize {
        match self {
            Layout::Dbf { record_len, .. } => {
                let start = self.start(bytes, first);
                let whole = (bytes.len() - start) / record_len.max(1);
                start + whole * record_len
            }
            Layout::Lines => bytes
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |at| at + 1),
        }
    }
}

/// What a poll read of a piece: bytes it gained, or all of it, written
/// anew.
enum Gained {
    More(u64),
    Anew(u64),
}

/// Reads what `piece`'s file gained; `head` for the file given, whose
/// first bytes (a DBF header's record count) are read again too.
fn read_more(piece: &mut Piece, head: bool) -> std::io::Result<Gained> {
    let mut file = std::fs::File::open(&piece.name)?;
    let len = file.metadata()?.len();
    let had = piece.bytes.len() as u64;
    let mut anew = len < had;
    if anew {
        // Written anew from its start: what was read of it no longer is
        // the file.
        piece.bytes.clear();
        piece.head = None;
    } else if head && had > 0 {
        let mut now = vec![0; HEAD.min(piece.bytes.len())];
        file.read_exact(&mut now)?;
        let then = &piece.bytes.as_slice()[..now.len()];
        if then == now {
            piece.head = None;
        } else if rewritten(then, &now) {
            piece.bytes.clear();
            piece.head = None;
            anew = true;
        } else {
            piece.head = Some(now);
        }
    }
    piece.gone = false;
    let had = piece.bytes.len() as u64;
    file.seek(SeekFrom::Start(had))?;
    let mut more = Vec::new();
    file.take(len - had).read_to_end(&mut more)?;
    piece.bytes.extend(&more);
    let n = more.len() as u64;
    Ok(if anew {
        Gained::Anew(n)
    } else {
        Gained::More(n)
    })
}

/// Whether a file's first bytes `now`, unlike those read `then`, are
/// another file's: anything but a DBF header's date and record count
/// (bytes 1 to 7, which its writer rewrites as records come) changed.
fn rewritten(then: &[u8], now: &[u8]) -> bool {
    let dbf = crate::xpp::dbf_layout(then).is_some();
    let outside = |b: &[u8]| (b.first().copied(), b.get(8..).unwrap_or_default().to_vec());
    !dbf || outside(then) != outside(now)
}

fn not_followable(path: &str, format: &str) -> LoadError {
    LoadError::NotFollowable {
        path: path.to_string(),
        format: format.to_string(),
    }
}
