//! Where a chunk of a BR log begins, found without reading what comes
//! before it.
//!
//! A BR log has no marker a reader could find in the middle of the file:
//! its type bytes are bytes like any other, and 3 or 6 stand inside numbers
//! too. Reading every record from the start to find where chunks may begin
//! would keep one core busy while the others wait. So a worker
//! guesses instead: chunk `k` begins at the first type 3 in its own bytes
//! that follows a 6 (the sample before it closed) and from which the next
//! records read. In a log BR wrote, that is where a sample begins. A chunk
//! with no such place (none within a bounded number of tries) has no start
//! of its own: the chunk before reads on through it.
//!
//! The guess is checked by the worker of the chunk before, which reads on
//! past its own end until it stands on the guess. A worker that passes a
//! guess without standing on it reads on to the next chunk's guess, and
//! the calling thread drops the batch of the chunk that guessed wrong
//! (`decode.rs`, `Feed::batch`). A wrong guess costs a chunk read twice,
//! never a different profile: what the calling thread keeps was read from
//! the start of the file on, one record after the other.
//!
//! In `03 0002 00000028 01`, the first bytes of a sample after a `06`,
//! the guess stands on the `03`.

use crate::br::record::measure;

/// Records from a guess that must read (or reach the end of the file).
const CHECK: usize = 64;

/// Candidates (a 6 then a 3) a guess tries before it gives up. With the
/// guess kept inside the chunk's own bytes, this bounds what guessing
/// costs on a log made to defeat it: a log whose samples never close, or
/// one full of 06 03 pairs, is read by fewer workers, never many times.
const TRIES: usize = 256;

/// Where chunk `k` of `size`-byte chunks begins: a guess inside its bytes,
/// `None` when none holds there (the chunk before reads on through it)
/// or when the chunk is past the end.
pub(super) fn chunk_start(bytes: &[u8], size: usize, k: usize) -> Option<usize> {
    if k == 0 {
        return Some(0);
    }
    let from = k.checked_mul(size.max(1))?;
    if from >= bytes.len() {
        return None;
    }
    guess(bytes, from, from.saturating_add(size).min(bytes.len()))
}

/// The first type 3 in `from..until` that follows a 6 and from which
/// `CHECK` records read, among the first `TRIES` candidates.
fn guess(bytes: &[u8], from: usize, until: usize) -> Option<usize> {
    let mut at = from.max(1);
    for _ in 0..TRIES {
        let next = bytes
            .get(at - 1..until)?
            .windows(2)
            .position(|w| w == [6, 3])?;
        let pos = at + next;
        if records_read(bytes, pos) {
            return Some(pos);
        }
        at = pos + 1;
    }
    None
}

/// Whether `CHECK` records read from `pos`: a record cut off by the end
/// of the file counts as read, as the careful reading will report it.
fn records_read(bytes: &[u8], mut pos: usize) -> bool {
    for _ in 0..CHECK {
        if pos >= bytes.len() {
            return true;
        }
        match measure(&bytes[pos..]) {
            Ok((_, len)) => pos += len,
            Err(crate::br::record::Stop::Cut { .. }) => return true,
            Err(crate::br::record::Stop::Unknown { .. }) => return false,
        }
    }
    true
}

/// The chunks after a worker's own, as it reads on past its end: it stops
/// where one of them begins.
pub(super) struct Targets<'a> {
    bytes: &'a [u8],
    size: usize,
    /// The chunk whose start `at` is.
    next: usize,
    /// Where the next chunk with a start begins; `usize::MAX` when none
    /// does.
    at: usize,
}

impl<'a> Targets<'a> {
    /// The chunks after chunk `k`.
    pub(super) fn after(bytes: &'a [u8], size: usize, k: usize) -> Self {
        let mut t = Targets {
            bytes,
            size: size.max(1),
            next: k,
            at: 0,
        };
        t.advance();
        t
    }

    /// On to the next chunk that has a start.
    fn advance(&mut self) {
        loop {
            self.next += 1;
            if self.next.saturating_mul(self.size) >= self.bytes.len() {
                self.at = usize::MAX;
                return;
            }
            if let Some(at) = chunk_start(self.bytes, self.size, self.next) {
                self.at = at;
                return;
            }
        }
    }

    /// Whether a record at `pos` is where a later chunk begins. A guess
    /// already passed was wrong: the next chunk's guess is the target.
    #[inline]
    pub(super) fn reached(&mut self, pos: usize) -> bool {
        // Asked at every record: the common answer in one comparison.
        pos >= self.at && self.passed(pos)
    }

    #[cold]
    fn passed(&mut self, pos: usize) -> bool {
        while self.at < pos {
            self.advance();
        }
        self.at == pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use profx_fixtures::br::compile;

    #[test]
    fn a_chunk_begins_at_the_sample_after_its_nominal_start() {
        // 0 module(9) · 9 sample(8) · 17 end · 18 sample(8) · 26 end · 27 sample
        let log =
            compile("module 1 \"A.BR\"\nsample 1 1 0\nend\nsample 1 2 0\nend\nsample 1 3 0\nend\n")
                .expect("compiles");
        assert_eq!(chunk_start(&log, 10, 0), Some(0));
        // The sample at 9 follows a module record, not a 6: it is not a
        // guess, and the one at 18 is past the chunk's bytes.
        assert_eq!(chunk_start(&log, 5, 1), None);
        assert_eq!(chunk_start(&log, 10, 1), Some(18));
        assert_eq!(chunk_start(&log, 18, 1), Some(18));
        assert_eq!(chunk_start(&log, 19, 1), Some(27));
        assert_eq!(chunk_start(&log, 28, 1), None);
        assert_eq!(chunk_start(&log, 100, 1), None);
    }

    #[test]
    fn a_guess_must_be_followed_by_records_that_read() {
        // The bytes 06 03 inside a line number are no guess: read as a
        // sample, they run into the name's bytes 02, an unknown type.
        let log = compile(
            "sample 1 1 0\nend\nsample 1 1539 0\nname \"\\x02\\x02\\x02\\x02\\x02\\x02\"\nend\n",
        )
        .unwrap();
        assert_eq!(&log[14..16], &[6, 3], "the line's bytes");
        assert_eq!(guess(&log, 1, log.len()), Some(9));
        assert_eq!(guess(&log, 10, log.len()), None);
        assert_eq!(
            guess(&log, 1, 9),
            None,
            "the sample at 9 is past the bytes searched"
        );
    }

    /// 300 pairs 06 03 whose records do not read, then a sample that does:
    /// a guess gives up after `TRIES` candidates.
    #[test]
    fn a_guess_tries_a_bounded_number_of_candidates() {
        let mut log = [6, 3, 0, 0, 0, 0, 0, 0, 0, 2].repeat(300);
        let real = log.len() + 1;
        log.extend(compile("end\nsample 1 1 0\nend\n").unwrap());
        assert_eq!(guess(&log, 1, log.len()), None);
        assert_eq!(guess(&log, real - 2000, log.len()), Some(real));
    }

    #[test]
    fn targets_move_past_guesses_a_reader_passed() {
        let log = compile("sample 1 1 0\nend\nsample 1 2 0\nend\nsample 1 3 0\nend\n").unwrap();
        // Chunks of 4: chunk 2 begins at 9, chunk 4 at 18; 1 and 3 have
        // no start of their own.
        let mut t = Targets::after(&log, 4, 0);
        assert!(!t.reached(0));
        assert!(t.reached(9));
        let mut t = Targets::after(&log, 4, 0);
        assert!(!t.reached(10), "passed the guess at 9");
        assert!(t.reached(18));
    }
}
