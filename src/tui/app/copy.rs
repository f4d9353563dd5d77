//! What the app copies to the clipboard (sent by the event loop as an
//! OSC 52 escape, base64, so no name's bytes reach the terminal raw): `y`
//! the selection's name or path, `Y` the command line that prints what
//! the screen shows.

use super::App;
use crate::analysis::view::Table;

impl App {
    /// `y`: the selected name or path to the clipboard, saying what.
    pub(super) fn copy(&mut self) {
        match self.pane().copy_text(&self.cx()) {
            Some(text) => {
                let shown = crate::text::visible(&text).into_owned();
                self.status = Some(format!("copied to the clipboard: {shown}"));
                self.clipboard = Some(text);
            }
            None if self.pane().in_lists() => {
                self.status = Some("this row has no function to copy".into())
            }
            None => self.status = Some("nothing selected to copy".into()),
        }
    }

    /// `Y`: the command line that prints what the screen shows to the
    /// clipboard: `profx report FILE`, the threads chosen and the steps in
    /// effect (never one left out: the status line says it was omitted),
    /// and the pane's view, each argument shell-quoted.
    pub(super) fn copy_command(&mut self) {
        let line = self.command_line();
        let omitted: Vec<String> = self.query.left_out().into_iter().map(|(s, _)| s).collect();
        let mut said = format!("copied to the clipboard: {}", crate::text::visible(&line));
        if !omitted.is_empty() {
            said.push_str(&format!(" · omitted, left out: {}", omitted.join(", ")));
        }
        self.status = Some(said);
        self.clipboard = Some(line);
    }

    /// The command line `Y` copies (`copy_command`).
    pub fn command_line(&self) -> String {
        use crate::analysis::view::View;
        if let (Some(c), super::Pane::Compare(_)) = (self.compared.as_deref(), self.pane()) {
            return c.command_line();
        }
        let mut args = vec!["profx".to_string(), "report".to_string()];
        let input = self.export_base.to_string_lossy().into_owned();
        match input == crate::demo::NAME {
            true => args.push("--demo".into()),
            false => args.push(input),
        }
        args.extend(self.query.query().to_args());
        // The Flame pane draws the call tree's paths: the tree prints them.
        // The modules are a step of the Functions tab with a view of
        // their own. The Timeline's lanes are the threads' busy time,
        // which the threads' view prints.
        let modules = self.pane().as_table().map(|t| t.table) == Some(Table::Modules);
        let view = match self.tab() {
            _ if modules => Some(View::Table(Table::Modules)),
            View::Table(Table::Functions) => None,
            View::Flame | View::Callers | View::Callees => Some(View::Tree),
            View::Timeline => Some(View::Table(Table::Threads)),
            v => Some(v),
        };
        if let Some(v) = view {
            args.push("--view".into());
            args.push(v.name().into());
        }
        crate::analysis::query::shell_words(&args)
    }
}
