//! `o`: the source view of the selected line (the Lines pane) or
//! function (anywhere), a step of the tab's trail (`pane/source.rs`).

use super::App;
use crate::analysis::source;
use crate::analysis::view::Table;
use crate::model::LineId;
use crate::tui::intent::Intent;
use crate::tui::keymap::{Place, key_for};
use crate::tui::pane::{Pane, SourcePane};

impl App {
    /// Opens the source view at the selection, or says why it cannot.
    pub(super) fn open_source(&mut self) {
        match self.source_pane() {
            Ok(pane) => {
                self.history.push(Pane::Source(pane));
                self.forward.clear();
            }
            Err(why) => self.status = Some(why),
        }
    }

    fn source_pane(&self) -> Result<SourcePane, String> {
        let key = key_for(&Intent::OpenSource, Place::Everywhere);
        let cx = self.cx();
        let (p, loaded) = (cx.profile, cx.answer.loaded());
        if let Some(why) = source::why_no_source(loaded) {
            return Err(format!("{key} opens a source file: {why}"));
        }
        let line = match self.pane() {
            Pane::Table(t) if t.table == Table::Lines && !t.is_events() => t
                .selected()
                .map(|r| LineId::from_index(r as usize))
                .filter(|id| id.index() < p.lines().len()),
            _ => None,
        };
        let (file, at, function) = if let Some(id) = line {
            let l = p.line(id);
            (p.name(l.file).to_string(), l.line, l.function)
        } else {
            let Some(f) = self.pane().function(&cx) else {
                return Err(format!(
                    "{key} opens the source of a line or a function: select one"
                ));
            };
            let Some((file, at)) = source::where_is(p, loaded, f) else {
                let name = crate::text::visible(p.function_name(f)).into_owned();
                return Err(format!("{key}: the profile names no source line of {name}"));
            };
            (file, at, Some(f))
        };
        let folders = crate::tui::pane::source::folders(loaded);
        let Some(sf) = source::file_named(p, loaded, &folders, &file) else {
            let shown = crate::text::visible(&file).into_owned();
            return Err(format!("{key}: no counted line is in {shown}"));
        };
        Ok(SourcePane::new(self.tab(), sf, at, function))
    }
}
