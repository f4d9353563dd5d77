//! The fast engine's events → the trace's rules (`../rules.rs`), a batch
//! at a time. Nothing here decides what an event does: it maps a worker's
//! names to the profile's where an event uses them, and asks ahead for
//! the call sites the next events will read.

use super::batch::{Ev, Op as EvOp};
use crate::names::global;
use crate::xpp::events::Step;
use crate::xpp::rules::{Record, Rules};
use profx_model::{NameId, Place, ProfileBuilder};

/// Feeds the rules the fast engine's events (those of the chosen threads
/// become the packets' events).
pub(super) struct Replay {
    rules: Rules,
}

impl Replay {
    /// Starts the trace: timed when the trace has a time column.
    pub(super) fn new(b: &mut ProfileBuilder, timed: bool, threads: Option<&[u64]>) -> Replay {
        Replay {
            rules: Rules::new(b, timed, threads),
        }
    }

    /// Applies a batch's events in order (names the worker's, mapped by
    /// `map`; `place` of an event for a warning), handing each event, as the
    /// worker made it, and its step to `each`. Names are mapped where an
    /// event uses them and a place is made only for a warning: an event is
    /// not copied with its names mapped, nor its place made, ahead.
    pub(super) fn batch(
        &mut self,
        b: &mut ProfileBuilder,
        events: &[Ev],
        map: &[NameId],
        place: impl Fn(&Ev) -> Place,
        mut each: impl FnMut(&Ev, Step),
    ) {
        // Once the call sites outgrow the caches, events this far ahead
        // have their site's slot brought into cache (`trace_site_ahead`):
        // far enough for a memory access at the replay's pace, near
        // enough that the caller guessed from the thread's stack now is
        // still its caller then.
        const AHEAD: usize = 8;
        let ahead = b.trace_sites_spilled();
        for (i, ev) in events.iter().enumerate() {
            if ahead
                && let Some(next) = events.get(i + AHEAD)
                && matches!(next.op(), EvOp::Enter | EvOp::Entered)
                && let Some(line) = next.line()
            {
                b.trace_site_ahead(next.thread, line);
            }
            let op = ev.op().map_name(|op| global(map, op));
            let record = Record {
                thread: ev.thread,
                time: ev.time(),
                op,
                call: global(map, ev.name()),
                line: ev.line(),
            };
            if let Some(step) = self.rules.event(b, record, &|| place(ev)) {
                each(ev, step);
            }
        }
    }

    /// Closes the calls still open (`Rules::finish`).
    pub(super) fn finish(self, b: &mut ProfileBuilder, source: &str, live: bool) {
        self.rules.finish(b, source, live);
    }
}
