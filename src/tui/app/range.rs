//! The query's time range in the app (tui.md § Time ranges): committed
//! from the Timeline's marks, a call's span (`v` in the Trace pane and the
//! time order) or the `.` menu, and backed out of one at a time. A range
//! is a replay of the chosen threads' records, run on the query's thread
//! with its progress and cancel, as a thread choice is (`Ask::Range`).

use super::super::intent::{Intent, Op};
use super::super::keymap::{Place, key_for};
use super::super::query::Ask;
use super::App;
use crate::analysis::query::{QueryError, range_label};
use crate::model::TimeRange;

impl App {
    /// Commits `[from_ms, until_ms)` (either order) as the query's range,
    /// nested in the one in effect; the steps asked apply again after it.
    pub(in crate::tui) fn ask_range(&mut self, from_ms: f64, until_ms: f64) {
        if self.query.answer().run_span().is_none() {
            let why = QueryError::NoTimes {
                format: self.query.loaded().format.clone(),
            };
            self.status = Some(crate::text::visible(&why.to_string()).into_owned());
            self.notice = true;
            return;
        }
        let range = TimeRange {
            from_ms: from_ms.min(until_ms),
            until_ms: from_ms.max(until_ms),
        };
        self.ask(Ask::Range(range));
    }

    /// `Esc`/`Backspace` in the Timeline: the innermost range off, the
    /// steps asked since applied again.
    pub(in crate::tui) fn back_out_range(&mut self) {
        if self.query.answer().ranges().is_empty() {
            self.status = Some("no range to back out of: the whole run is shown".into());
            return;
        }
        self.ask(Ask::OutOfRange);
    }

    /// The `.` menu's row of `v`: the selected call's span as it would be
    /// asked, or why the selection has none (dimmed).
    pub(super) fn range_entry(
        &self,
    ) -> (String, Option<crate::analysis::query::Step>, Option<String>) {
        let words = Op::Range.words();
        match self.pane().call_span(&self.cx()) {
            Ok((from, until)) => {
                let r = TimeRange {
                    from_ms: from,
                    until_ms: until,
                };
                (format!("{words} {}", range_label(r)), None, None)
            }
            Err(why) => (words.trim_end_matches(':').to_string(), None, Some(why)),
        }
    }

    /// The range in effect in words: `range 5,336.000–10,633.000 ms`, or
    /// `the whole run`.
    pub(super) fn range_now(&self) -> String {
        match self.query.answer().range() {
            Some(r) => format!("range {}", range_label(r)),
            None => "the whole run".to_string(),
        }
    }

    /// What a range committed or backed out of says: the range now, the
    /// steps left out of it and why, and how to undo it.
    pub(super) fn range_words(&self) -> String {
        let mut said = vec![self.range_now()];
        said.extend(
            self.query
                .left_out()
                .iter()
                .map(|(step, why)| format!("{step} left out: {why}")),
        );
        said.extend(
            self.query
                .answer()
                .ranges()
                .last()
                .and_then(|r| r.note.clone()),
        );
        if self.query.answer().range().is_some() {
            let undo = key_for(&Intent::PopStep, Place::Query);
            said.push(format!("{undo} undoes it"));
        }
        said.join(" · ")
    }
}
