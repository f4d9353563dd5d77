//! A range of the run asked of the query from the Timeline (`v`, `v`,
//! `Enter`), and backed out (`Esc`, `Backspace`): the one door the
//! Timeline pane's marks go through to the query.

use super::App;

impl App {
    /// `Enter` in the Timeline: only the time from `from_ms` until
    /// `until_ms` (the trace's unit) in every pane, as a step of the query.
    pub(crate) fn ask_range(&mut self, from_ms: f64, until_ms: f64) {
        let _ = (from_ms, until_ms);
        self.status = Some("ranges: not yet".into());
    }

    /// `Esc` or `Backspace` in the Timeline with no marks: the query's
    /// last range backed out.
    pub(crate) fn back_out_range(&mut self) {
        self.status = Some("ranges: not yet".into());
    }
}
