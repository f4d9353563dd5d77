//! The Info pane's text: sources, meta, totals, then the loaders' warnings
//! (each with its place). The head is built once; warnings, which can be
//! many, are written only when on screen.

use super::{Ctx, Effect, inner, keep_visible, step};
use crate::analysis::query::Reads;
use crate::model::Profile;
use crate::report::fmt;
use crate::text::visible;
use crate::tui::fit::fit;
use crate::tui::intent::Intent;
use crate::tui::layout::{self, Areas};
use crate::tui::render::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Widget};

#[derive(Debug)]
pub struct InfoPane {
    /// The lines before the warnings.
    pub head: Vec<String>,
    pub cursor: usize,
    pub offset: usize,
}

impl InfoPane {
    pub fn new(cx: &Ctx) -> InfoPane {
        let mut head = head_lines(cx.profile, cx.answer.profile(Reads::Events));
        // Where `o` looks for source files, after the inputs they are
        // named beside ("sources" already names the inputs).
        let folders = super::source::folders(cx.answer.loaded());
        let at = 1 + cx.profile.sources.len();
        for (i, f) in folders.folders().iter().enumerate() {
            let shown = visible(&f.display().to_string()).into_owned();
            head.insert(at + i, format!("source folder   {shown}"));
        }
        InfoPane {
            head,
            cursor: 0,
            offset: 0,
        }
    }

    /// Draws the lines on screen.
    pub fn render(&self, buf: &mut Buffer, a: &Areas, cx: &Ctx, theme: Theme) {
        draw(buf, a.table, self, cx, theme);
    }

    /// The lines: the head, then a line a warning.
    pub fn len(&self, p: &Profile) -> usize {
        self.head.len() + p.warnings().len()
    }

    /// The `n`th line.
    pub fn line(&self, p: &Profile, n: usize) -> String {
        match self.head.get(n) {
            Some(line) => line.clone(),
            None => warning_line(p, n - self.head.len()),
        }
    }

    pub fn update(&mut self, intent: &Intent, cx: &Ctx) -> Effect {
        let len = self.len(cx.profile);
        let page = self.page(cx);
        let by = match intent {
            Intent::Move(n) | Intent::Wheel { rows: n, .. } => *n,
            Intent::PageUp => -(page as isize),
            Intent::PageDown => page as isize,
            Intent::First => isize::MIN / 2,
            Intent::Last => isize::MAX / 2,
            Intent::Click { x, y } => return self.click(*x, *y, cx),
            _ => return Effect::Ignored,
        };
        self.cursor = step(self.cursor, by, len);
        Effect::Done
    }

    /// Lines shown at once.
    fn page(&self, cx: &Ctx) -> usize {
        layout::list_rows(cx.areas().table).max(1)
    }

    pub fn keep_visible(&mut self, cx: &Ctx) {
        let (len, page) = (self.len(cx.profile), self.page(cx));
        keep_visible(&mut self.cursor, &mut self.offset, len, page);
    }

    /// A click on a line selects it.
    fn click(&mut self, x: u16, y: u16, cx: &Ctx) -> Effect {
        let body = inner(cx.areas().table);
        if !body.contains(ratatui::layout::Position::new(x, y)) {
            return Effect::Ignored;
        }
        let n = self.offset + usize::from(y - body.y);
        if n < self.len(cx.profile) {
            self.cursor = n;
        }
        Effect::Done
    }
}

/// `p`'s lines, its packets and events counted in `events` (the answer's
/// events' profile: a step keeps none of its own).
fn head_lines(p: &Profile, events: &Profile) -> Vec<String> {
    let mut out = vec![format!("format          {}", p.format)];
    for s in &p.sources {
        out.push(format!("source          {}", visible(s)));
    }
    out.push(String::new());
    out.push("meta".into());
    if p.meta.is_empty() {
        out.push("  (none)".into());
    }
    let totals = fmt::totals(p, events);
    // Values start after the longest label and two spaces, so a long one
    // (`start_function`, `application ms`) never runs into its value.
    let labels = p.meta.keys().map(|k| visible(k).chars().count());
    let width = labels
        .chain(totals.iter().map(|(k, _)| k.chars().count()))
        .max()
        .unwrap_or(0)
        + 2;
    for (k, v) in &p.meta {
        out.push(format!("  {:<width$}{}", visible(k), fmt::meta_value(v)));
    }
    out.push(String::new());
    out.push("totals".into());
    for (k, v) in totals {
        out.push(format!("  {k:<width$}{v}"));
    }
    out.push(String::new());
    out.push(format!(
        "warnings: {}",
        fmt::grouped(p.warnings().len() as u64)
    ));
    out
}

/// The `i`th warning as the Info pane lists it.
fn warning_line(p: &Profile, i: usize) -> String {
    match p.warnings().get(i) {
        Some(w) => format!(
            "  {}: {}",
            visible(&p.warning_place(w)),
            visible(&w.message)
        ),
        None => String::new(),
    }
}

/// The Info pane: its lines in a bordered block.
fn draw(buf: &mut Buffer, area: Rect, i: &InfoPane, cx: &Ctx, theme: Theme) {
    Block::bordered()
        .title(Line::from(Span::styled(" Info ", theme.title())))
        .render(area, buf);
    let inner = inner(area);
    let p = cx.profile;
    for (row, y) in (inner.y..inner.bottom()).enumerate() {
        let n = i.offset + row;
        if n >= i.len(p) {
            break;
        }
        let text = i.line(p, n);
        let style = if n == i.cursor {
            theme.selected(true)
        } else {
            theme.base()
        };
        buf.set_style(Rect::new(inner.x, y, inner.width, 1), style);
        let (shown, _) = fit(&text, usize::from(inner.width.saturating_sub(1)));
        buf.set_stringn(inner.x + 1, y, shown, usize::from(inner.width - 1), style);
    }
}

#[cfg(test)]
mod tests {
    use super::head_lines;
    use crate::model::testing::new_function;
    use crate::model::{MetaValue, Place, ProfileBuilder, WarningKind};

    /// Issue 64: a count in Info is grouped as everywhere a person reads
    /// one (`3,010`), meta's counts too; the same words `--view info` has.
    #[test]
    fn info_groups_every_count() {
        let mut b = ProfileBuilder::new("test");
        b.set_meta("total_hits", MetaValue::Int(16_359_081));
        for i in 0..1234 {
            new_function(&mut b, &format!("f{i}"));
        }
        for i in 0..1001 {
            b.warn(Place::Line(i), WarningKind::NotARecord, "not a record");
        }
        let p = b.finish();
        let head = head_lines(&p, &p);
        let value = |key: &str| {
            let line = head.iter().find(|l| l.starts_with(&format!("  {key} ")));
            line.map(|l| l.split_whitespace().last().unwrap_or("").to_string())
        };
        assert_eq!(value("total_hits").as_deref(), Some("16,359,081"));
        assert_eq!(value("functions").as_deref(), Some("1,234"));
        assert!(p.warnings().len() >= 1000);
        assert!(
            head.iter().any(|l| l.starts_with("warnings: 1,0")),
            "{head:#?}"
        );
    }
}
