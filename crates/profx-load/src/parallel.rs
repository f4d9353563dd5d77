//! Ordered parallel parsing: the one place loaders use more than one core.
//!
//! A large input is cut into chunks (at line ends for text, at record ends
//! for fixed-size records). Parsers turn chunks into compact batches, each
//! with state of its own (its own name table, so no lock is taken per
//! record); the calling thread receives the batches strictly in chunk
//! order and feeds them to the builder, whose replay of a trace is
//! sequential by nature. There is one parser a core: a worker thread for
//! each core but one, and the calling thread itself, which parses the next
//! free chunk whenever the one it must feed next is not ready, rather than
//! wait. So the threads never outnumber the cores, and none waits while
//! there is a chunk to parse. Parsers take the next chunk as they come
//! free, up to a window of chunks past the one the consumer feeds next, so
//! memory stays flat whatever the input's size.
//!
//! Hand-written, not rayon's: this is no split of independent work but a
//! pipeline. Results must reach one consumer in chunk order while later
//! chunks are parsed; a parser's name numbers rely on its chunks rising;
//! the window bounds the batches in flight; each result's emptied buffer
//! goes back to the parser that made it; and the consumer parses whenever
//! its next result is late. rayon's parallel iterators give results in
//! order only once all are made (or through a channel with no bound), and
//! its pool would not hand the consumer's own thread the parsing.

use super::Input;
use crate::watch::{STEP, Watched};
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::TryRecvError;
use std::sync::{Condvar, Mutex, PoisonError, mpsc};

/// Bytes a chunk holds: small enough that a few batches in flight cost a
/// few megabytes, large enough that a worker spends its time parsing.
pub(crate) const CHUNK: usize = 1 << 20;

/// How many chunks past the one the consumer feeds next may be parsed or
/// waiting: enough that a worker kept off its core for a few milliseconds
/// does not stop the other parsers (BENCHMARKS.md, twentieth session).
const WINDOW: usize = 16;

/// Bytes a parsing chunk holds for a load given `opts` (`CHUNK` unless
/// they say otherwise), at most `watch::STEP` when someone waits for the
/// load: each chunk is a look at its watch.
pub(crate) fn chunk_bytes(opts: &super::LoadOptions, watched: &Watched<'_>) -> usize {
    let size = opts.chunk_bytes.unwrap_or(CHUNK);
    match watched.is_watched() {
        true => size.min(STEP),
        false => size,
    }
}

/// Parsers: one a core (the consumer is one of them), at most eight.
pub(crate) fn workers() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(8))
}

/// Parsers a load runs: as `opts` says (`LoadOptions::workers`), else one
/// a core.
pub(crate) fn parsers(opts: &super::LoadOptions) -> usize {
    opts.workers.unwrap_or_else(workers).max(1)
}

/// The input's bytes from `start` cut into ranges of about `size` bytes,
/// each ending just after a newline (the last one at the end of the
/// input). The pages each probe for a newline maps are given back: a
/// kernel that maps the page cache a large folio at a time (Linux 6.18
/// maps 2 MB a touch) would otherwise have the whole file resident once it
/// is cut, before a byte is parsed (1 GB of peak RSS for a 1 GiB trace).
pub(crate) fn input_line_chunks(input: &Input, start: usize, size: usize) -> Vec<Range<usize>> {
    let bytes = input.bytes();
    let mut chunks = Vec::new();
    let mut from = start.min(bytes.len());
    while from < bytes.len() {
        let probe = from.saturating_add(size.max(1)).min(bytes.len());
        let end = match bytes[probe..].iter().position(|&b| b == b'\n') {
            Some(n) => probe + n + 1,
            None => bytes.len(),
        };
        chunks.push(from..end);
        // From the page holding the previous chunk's end, which the
        // previous probe mapped too.
        input.forget(from.saturating_sub(1)..end);
        from = end;
    }
    chunks
}

/// `bytes[start..]` cut into ranges of whole `record_len`-byte records of
/// about `size` bytes; the last range runs to the end (a partial record
/// included, for the parser to report).
pub(crate) fn record_chunks(
    len: usize,
    start: usize,
    record_len: usize,
    size: usize,
) -> Vec<Range<usize>> {
    let record_len = record_len.max(1);
    let step = (size / record_len).max(1) * record_len;
    let mut chunks = Vec::new();
    let mut from = start.min(len);
    while from < len {
        let end = if len - from > step { from + step } else { len };
        chunks.push(from..end);
        from = end;
    }
    chunks
}

/// Parses `chunks` on one parser a core and hands each result to
/// `consume(parser, result)` in chunk order. `state(parser)` makes a
/// parser's private state. With `n` parsers (`workers()`, or fewer when
/// there are fewer chunks), parsers `0..n - 1` are threads and parser
/// `n - 1` is the calling thread, which parses whenever the result it must
/// consume next is not ready. A parser takes the next unparsed chunk when
/// it is free, so its chunks rise and its results reach the consumer in
/// the order it made them (what a parser's name numbering relies on).
/// `consume` returns false to stop early (no chunk past the window is
/// parsed; those within it are dropped).
///
/// `consume` also hands back a spare `R` (a result's emptied buffer) and
/// `parse` gets one: the parser that made the result gets it for a later
/// chunk, so it fills memory already mapped rather than new pages the
/// kernel must zero first (and the consumer need not unmap each result's
/// pages).
pub(crate) fn ordered_reusing<S, T, R>(
    parsers: usize,
    chunks: &[Range<usize>],
    state: impl Fn(usize) -> S + Sync,
    parse: impl Fn(&mut S, Range<usize>, R) -> T + Sync,
    consume: impl FnMut(usize, T) -> (bool, R),
) where
    T: Send,
    R: Send + Default,
{
    ordered_until(parsers, chunks, &|| false, state, parse, consume);
}

/// `ordered_reusing`, stopped early when `stop` says so: each worker asks
/// before it takes a chunk and the calling thread before it consumes one,
/// so once it says yes no parser starts another chunk, and every worker
/// has ended when this returns (a load stopped by a key leaves no thread
/// busy behind it).
pub(crate) fn ordered_until<S, T, R>(
    parsers: usize,
    chunks: &[Range<usize>],
    stop: &(dyn Fn() -> bool + Sync),
    state: impl Fn(usize) -> S + Sync,
    parse: impl Fn(&mut S, Range<usize>, R) -> T + Sync,
    mut consume: impl FnMut(usize, T) -> (bool, R),
) where
    T: Send,
    R: Send + Default,
{
    // Parsers 0..own are threads; `own` is this thread. On one core (or
    // for one chunk) it is the only parser: no thread is started, and it
    // parses every chunk in turn, as it does any chunk no worker has taken.
    let own = parsers.min(chunks.len()).max(1) - 1;
    let (next, window) = (AtomicUsize::new(0), Window::default());
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(usize, usize, T)>();
        let (mut spares, mut workers) = (Vec::with_capacity(own), Vec::with_capacity(own));
        for w in 0..own {
            let (spare_tx, spare_rx) = mpsc::sync_channel::<R>(WINDOW);
            spares.push(spare_tx);
            let (state, parse, next, window, tx) = (&state, &parse, &next, &window, tx.clone());
            workers.push(scope.spawn(move || {
                // A panic here must not leave the other workers waiting
                // for room that the consumer, waiting for this chunk,
                // never makes.
                let _stop = StopWhenDropped {
                    window,
                    only_by_a_panic: true,
                };
                let mut s = state(w);
                loop {
                    // Asked before a chunk is claimed, so that a claimed
                    // chunk is always parsed and sent: the consumer may
                    // be waiting for it.
                    if stop() {
                        return;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= chunks.len() || !window.room_for(i) {
                        return;
                    }
                    let spare = spare_rx.try_recv().unwrap_or_default();
                    // The consumer hung up: it stopped early.
                    if tx
                        .send((i, w, parse(&mut s, chunks[i].clone(), spare)))
                        .is_err()
                    {
                        return;
                    }
                }
            }));
        }
        drop(tx);
        // Whatever ends the consumer's loop (the end, an early stop, a
        // panic) lets waiting workers go.
        let stop_window = StopWhenDropped {
            window: &window,
            only_by_a_panic: false,
        };
        let (mut mine, mut my_spares) = (state(own), Vec::new());
        let mut held: Vec<Option<(usize, T)>> = (0..WINDOW).map(|_| None).collect();
        for i in 0..chunks.len() {
            if stop() {
                break;
            }
            // Parses the next free chunk here, if it lies within the
            // window (this thread must not wait for room it makes).
            let mut help = || {
                let j = claim_within(&next, chunks.len(), i + WINDOW)?;
                let spare = my_spares.pop().unwrap_or_default();
                Some((j, parse(&mut mine, chunks[j].clone(), spare)))
            };
            let Some((w, batch)) = take_in_order(&rx, &mut held, i, (own, &mut help)) else {
                // Every worker is gone without chunk i: one panicked, and
                // the scope's join reports that.
                break;
            };
            let (go_on, spare) = consume(w, batch);
            if !go_on {
                break;
            }
            window.consumed(i + 1);
            if w == own {
                my_spares.push(spare);
            } else {
                // A full return channel means the worker has spares enough.
                let _ = spares[w].try_send(spare);
            }
        }
        // Joined here rather than by the scope, which waits for the
        // workers' closures only: the threads themselves have ended when
        // this returns.
        drop(stop_window);
        for worker in workers {
            if let Err(panic) = worker.join() {
                std::panic::resume_unwind(panic);
            }
        }
    });
}

/// Takes the next unparsed chunk if it is below `limit` (and there is
/// one), as a worker's `fetch_add` would, without claiming one past it.
fn claim_within(next: &AtomicUsize, len: usize, limit: usize) -> Option<usize> {
    let mut j = next.load(Ordering::Relaxed);
    loop {
        if j >= len.min(limit) {
            return None;
        }
        match next.compare_exchange_weak(j, j + 1, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return Some(j),
            Err(now) => j = now,
        }
    }
}

/// Result `i` (and its parser), keeping any that arrive before it in
/// `held` (slot `j % WINDOW`: results lie within the window, so each has a
/// slot of its own). While it is not there, `help` parses a chunk on this
/// thread (as parser `own`); when there is none to parse, this thread
/// waits for the workers. `None` if they are all gone without it.
fn take_in_order<T>(
    rx: &mpsc::Receiver<(usize, usize, T)>,
    held: &mut [Option<(usize, T)>],
    i: usize,
    (own, help): (usize, &mut dyn FnMut() -> Option<(usize, T)>),
) -> Option<(usize, T)> {
    loop {
        if let Some(got) = held[i % WINDOW].take() {
            return Some(got);
        }
        let (j, w, batch) = match rx.try_recv() {
            Ok(arrived) => arrived,
            Err(gone_or_empty) => match help() {
                Some((j, batch)) => (j, own, batch),
                None if gone_or_empty == TryRecvError::Disconnected => return None,
                None => rx.recv().ok()?,
            },
        };
        held[j % WINDOW] = Some((w, batch));
    }
}

/// How far the consumer has come, for workers to wait on.
#[derive(Default)]
struct Window {
    /// Chunks consumed; `usize::MAX` once no more will be.
    consumed: Mutex<usize>,
    moved: Condvar,
}

impl Window {
    /// Waits until chunk `i` is within the window; false when the
    /// consumer has stopped.
    fn room_for(&self, i: usize) -> bool {
        let mut done = self.consumed.lock().unwrap_or_else(PoisonError::into_inner);
        while *done != usize::MAX && i >= *done + WINDOW {
            done = self
                .moved
                .wait(done)
                .unwrap_or_else(PoisonError::into_inner);
        }
        *done != usize::MAX
    }

    fn consumed(&self, count: usize) {
        let mut done = self.consumed.lock().unwrap_or_else(PoisonError::into_inner);
        if *done != usize::MAX {
            *done = count;
        }
        self.moved.notify_all();
    }

    fn stop(&self) {
        *self.consumed.lock().unwrap_or_else(PoisonError::into_inner) = usize::MAX;
        self.moved.notify_all();
    }
}

/// Stops the window when dropped, or only when dropped by a panic (a
/// worker that runs out of chunks leaves the others to parse theirs).
struct StopWhenDropped<'a> {
    window: &'a Window,
    only_by_a_panic: bool,
}

impl Drop for StopWhenDropped<'_> {
    fn drop(&mut self) {
        if !self.only_by_a_panic || std::thread::panicking() {
            self.window.stop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_chunks_end_at_newlines_and_cover_everything() {
        let text = b"aa\nbbbb\nc\n\nddddd";
        let input = Input::owned("x", text.to_vec());
        let line_chunks = |start, size| input_line_chunks(&input, start, size);
        let chunks = line_chunks(0, 3);
        assert_eq!(chunks, vec![0..8, 8..16]);
        assert_eq!(line_chunks(0, 1), vec![0..3, 3..8, 8..10, 10..16]);
        assert_eq!(line_chunks(3, 100), vec![3..16]);
        let empty = Input::owned("y", Vec::new());
        assert!(input_line_chunks(&empty, 0, 4).is_empty());
    }

    #[test]
    fn record_chunks_hold_whole_records() {
        assert_eq!(record_chunks(25, 1, 4, 8), vec![1..9, 9..17, 17..25]);
        assert_eq!(
            record_chunks(27, 1, 4, 8),
            vec![1..9, 9..17, 17..25, 25..27]
        );
        assert_eq!(record_chunks(10, 0, 4, 1), vec![0..4, 4..8, 8..10]);
    }

    #[test]
    fn results_arrive_in_chunk_order_and_stop_early() {
        let chunks: Vec<_> = (0..50).map(|i| i..i + 1).collect();
        let mut seen = Vec::new();
        ordered_reusing(
            workers(),
            &chunks,
            |_| 0u32,
            |count, r, ()| {
                *count += 1;
                r.start
            },
            |_, x| {
                seen.push(x);
                (true, ())
            },
        );
        assert_eq!(seen, (0..50).collect::<Vec<_>>());
        let mut taken = 0;
        ordered_reusing(
            workers(),
            &chunks,
            |_| (),
            |_, r, ()| r.start,
            |_, _| {
                taken += 1;
                (taken < 5, ())
            },
        );
        assert_eq!(taken, 5);
    }

    /// Once `stop` says yes no parser takes another chunk and nothing more
    /// is consumed, however many chunks are left.
    #[test]
    fn a_stop_ends_every_parser() {
        use std::sync::atomic::{AtomicBool, AtomicUsize};
        let chunks: Vec<_> = (0..500).map(|i| i..i + 1).collect();
        let (stopped, parsed) = (AtomicBool::new(false), AtomicUsize::new(0));
        let mut consumed = 0;
        ordered_until(
            3,
            &chunks,
            &|| stopped.load(Ordering::SeqCst),
            |_| (),
            |_, _, ()| {
                parsed.fetch_add(1, Ordering::SeqCst);
            },
            |_, ()| {
                consumed += 1;
                stopped.store(consumed == 5, Ordering::SeqCst);
                (true, ())
            },
        );
        assert_eq!(consumed, 5);
        // Those parsed ahead within the window, and one a parser at most
        // that was under way when the stop came.
        assert!(parsed.into_inner() <= 5 + WINDOW + 3);
    }

    /// No chunk is parsed more than a window past the one the consumer
    /// waits for, however far ahead the workers could run.
    #[test]
    fn workers_stay_within_the_window() {
        use std::sync::atomic::AtomicUsize;
        let chunks: Vec<_> = (0..200).map(|i| i..i + 1).collect();
        let consumed = AtomicUsize::new(0);
        let farthest = AtomicUsize::new(0);
        ordered_reusing(
            workers(),
            &chunks,
            |_| (),
            |_, r, ()| {
                let ahead = r.start - consumed.load(Ordering::SeqCst);
                farthest.fetch_max(ahead, Ordering::SeqCst);
            },
            |_, ()| {
                consumed.fetch_add(1, Ordering::SeqCst);
                (true, ())
            },
        );
        assert_eq!(consumed.into_inner(), 200);
        assert!(farthest.into_inner() < WINDOW);
    }

    /// A worker kept from its core does not hold the others to its share:
    /// the free ones take the next chunks.
    #[test]
    fn a_slow_worker_leaves_the_chunks_to_the_others() {
        // Three parsers whatever the machine: on one core too, the free
        // ones take the chunks the slow one leaves.
        let chunks: Vec<_> = (0..40).map(|i| i..i + 1).collect();
        let mut by = Vec::new();
        ordered_reusing(
            3,
            &chunks,
            |worker| worker,
            |&mut worker, r, ()| {
                if r.start == 0 {
                    std::thread::sleep(std::time::Duration::from_millis(200));
                }
                worker
            },
            |_, worker| {
                by.push(worker);
                (true, ())
            },
        );
        let slow = by[0];
        let others = by[1..WINDOW].iter().filter(|&&w| w != slow).count();
        assert_eq!(others, WINDOW - 1, "{by:?}");
    }

    /// The calling thread parses the next free chunks while the result it
    /// must feed next is not ready, and its results take their place in
    /// chunk order with the workers'.
    #[test]
    fn the_consumer_parses_while_its_next_result_is_not_ready() {
        // Three parsers whatever the machine.
        let chunks: Vec<_> = (0..40).map(|i| i..i + 1).collect();
        let own = 2;
        let (mut order, mut by) = (Vec::new(), Vec::new());
        ordered_reusing(
            3,
            &chunks,
            |parser| parser,
            |&mut parser, r, ()| {
                if parser != own {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                (r.start, parser)
            },
            |parser, (start, made_by)| {
                assert_eq!(parser, made_by);
                order.push(start);
                by.push(parser);
                (true, ())
            },
        );
        assert_eq!(order, (0..40).collect::<Vec<_>>());
        let mine = by.iter().filter(|&&p| p == own).count();
        assert!(mine >= WINDOW / 2, "{by:?}");
    }

    /// A worker that panics ends the load with its panic, not with the
    /// other workers waiting forever for room in the window.
    #[test]
    fn a_panicking_worker_does_not_hang_the_others() {
        let chunks: Vec<_> = (0..100).map(|i| i..i + 1).collect();
        let run = std::panic::catch_unwind(|| {
            ordered_reusing(
                workers(),
                &chunks,
                |_| (),
                |_, r, ()| assert_ne!(r.start, 3, "chunk 3"),
                |_, ()| (true, ()),
            );
        });
        assert!(run.is_err());
    }

    /// A spare goes back to the worker that made the result it came in,
    /// keeping what it holds, results still arrive in chunk order, and a
    /// worker's state knows which worker it is.
    #[test]
    fn spares_return_to_the_worker_that_made_them() {
        let chunks: Vec<_> = (0..40).map(|i| i..i + 1).collect();
        let (mut order, mut reused) = (Vec::new(), 0);
        ordered_reusing(
            workers(),
            &chunks,
            |worker| worker,
            |&mut id, r, mut spare: Vec<usize>| {
                spare.push(id);
                (r.start, spare)
            },
            |worker, (start, made_by): (usize, Vec<usize>)| {
                order.push(start);
                assert!(made_by.iter().all(|&id| id == worker), "{made_by:?}");
                reused += usize::from(made_by.len() > 1);
                (true, made_by)
            },
        );
        assert_eq!(order, (0..40).collect::<Vec<_>>());
        assert!(reused > 0);
    }
}
