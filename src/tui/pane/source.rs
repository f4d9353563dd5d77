//! The source view (issue 67): a file the profile names, every line with
//! its cost in the margin (hits or calls, time, share of the file's
//! counted total), the costliest lines marked, opened by `o` as a step of
//! the tab's trail. The file and its costs are `analysis::source`'s (the
//! numbers `profx report --view source` prints); only the rows on screen
//! are drawn, so a file of any length draws at once.

use super::{Ctx, Effect, Step, inner, keep_visible, step};
use crate::analysis::source::{SourceFile, SourceFolders, SourceLine};
use crate::analysis::view::View;
use crate::model::FuncId;
use crate::tui::fit::fit;
use crate::tui::intent::Intent;
use crate::tui::layout::{self, Areas};
use crate::tui::render::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Widget};
use std::sync::OnceLock;

/// How many of the costliest lines are marked.
const MARKED: usize = 5;

/// `--source` and `--source-map`, as the command line gave them.
type Options = (
    Vec<std::path::PathBuf>,
    Vec<crate::analysis::source::SourceMap>,
);

static OPTIONS: OnceLock<Options> = OnceLock::new();

/// The source folders (`--source`) and prefix rewrites (`--source-map`)
/// the app looks in, set once before it runs.
pub fn use_source_folders(
    folders: Vec<std::path::PathBuf>,
    maps: Vec<crate::analysis::source::SourceMap>,
) {
    let _ = OPTIONS.set((folders, maps));
}

/// The places a source view of `p` looks in: the directory of the
/// profile's first input first, then the options'.
pub(crate) fn folders(p: &crate::model::Profile) -> SourceFolders {
    let (folders, maps) = OPTIONS.get_or_init(Options::default);
    let dir = p.sources.first().filter(|s| s.as_str() != "-").map(|s| {
        std::path::Path::new(s)
            .parent()
            .unwrap_or(std::path::Path::new(""))
    });
    SourceFolders::new(dir, folders, maps)
}

/// One file on screen, its cursor and what is marked.
#[derive(Debug)]
pub struct SourcePane {
    /// The tab whose trail the view is a step of.
    pub tab: View,
    pub file: SourceFile,
    pub cursor: usize,
    pub offset: usize,
    /// The function it was opened for (`Enter` goes to it).
    pub function: Option<FuncId>,
    /// The lines with a cost above nothing, in file order (`{` `}`).
    costly: Vec<usize>,
    /// The costliest lines, marked in the margin.
    marked: Vec<usize>,
    /// The counted lines' total hits and time: what a share is of.
    total: (Option<u64>, Option<f64>),
    /// Lines of words above the file (where it was looked for, notes).
    head: Vec<String>,
}

/// A line's weight: its time where the profile has times, else its hits.
fn weight(l: &SourceLine) -> f64 {
    l.time_ms.unwrap_or_else(|| l.hits.unwrap_or(0) as f64)
}

impl SourcePane {
    /// The view of `file` at line `at` (the first counted line where it
    /// has no line `at`).
    pub fn new(tab: View, file: SourceFile, at: u32, function: Option<FuncId>) -> SourcePane {
        let costly: Vec<usize> = (0..file.lines.len())
            .filter(|&i| file.lines[i].counted && weight(&file.lines[i]) > 0.0)
            .collect();
        let mut by_weight = costly.clone();
        by_weight.sort_by(|&a, &b| weight(&file.lines[b]).total_cmp(&weight(&file.lines[a])));
        by_weight.truncate(MARKED);
        let cursor = file
            .lines
            .iter()
            .position(|l| l.line == Some(at) && l.counted)
            .or_else(|| file.lines.iter().position(|l| l.line == Some(at)))
            .or_else(|| costly.first().copied())
            .unwrap_or(0);
        let head = head_lines(&file);
        SourcePane {
            tab,
            total: file.totals(),
            file,
            cursor,
            offset: cursor.saturating_sub(3),
            function,
            costly,
            marked: by_weight,
            head,
        }
    }

    pub fn update(&mut self, intent: &Intent, cx: &Ctx) -> Effect {
        let len = self.file.lines.len();
        let page = self.page(cx);
        let by = match intent {
            Intent::Move(n) | Intent::Wheel { rows: n, .. } => *n,
            Intent::PageUp => -(page as isize),
            Intent::PageDown => page as isize,
            Intent::First => isize::MIN / 2,
            Intent::Last => isize::MAX / 2,
            Intent::CostlyLine(dir) => return self.costly_line(*dir),
            Intent::Open => {
                return match self.function {
                    Some(f) => Effect::Open(Step::Function(f)),
                    None => Effect::Say("no function to go to from this file".into()),
                };
            }
            _ => return Effect::Ignored,
        };
        self.cursor = step(self.cursor, by, len);
        Effect::Done
    }

    /// `{` or `}`: the costly line before or after the cursor.
    fn costly_line(&mut self, dir: isize) -> Effect {
        let next = if dir > 0 {
            self.costly.iter().find(|&&i| i > self.cursor)
        } else {
            self.costly.iter().rev().find(|&&i| i < self.cursor)
        };
        match next {
            Some(&i) => {
                self.cursor = i;
                Effect::Done
            }
            None if self.costly.is_empty() => Effect::Say("no line of this file has a cost".into()),
            None => Effect::Say(format!(
                "no costly line {} this one",
                if dir > 0 { "after" } else { "before" }
            )),
        }
    }

    /// Rows of the file on screen at once.
    fn page(&self, cx: &Ctx) -> usize {
        let rows = layout::list_rows(cx.areas().table);
        rows.saturating_sub(self.head.len() + 1).max(1)
    }

    pub fn keep_visible(&mut self, cx: &Ctx) {
        let (len, page) = (self.file.lines.len(), self.page(cx));
        keep_visible(&mut self.cursor, &mut self.offset, len, page);
    }

    /// The step's name in the trail.
    pub fn step_name(&self) -> String {
        let name = self.file.path.rsplit(['/', '\\']).next().unwrap_or("");
        format!("source {}", crate::text::visible(name))
    }

    pub fn render(&self, buf: &mut Buffer, a: &Areas, cx: &Ctx, theme: Theme) {
        draw(buf, a.table, self, cx, theme);
    }
}

/// Where the file was found or looked for, and the notes.
fn head_lines(f: &SourceFile) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(at) = &f.found_at {
        out.push(format!(
            "found at {}",
            crate::text::visible(&at.display().to_string())
        ));
    } else if !f.from_listing {
        let places: Vec<String> = f
            .looked_in
            .iter()
            .map(|p| crate::text::visible(&p.display().to_string()).into_owned())
            .collect();
        out.push(format!("not found: looked in {}", places.join(", ")));
        out.push("add a place: --source DIR (a source folder)".into());
        out.push("         or: --source-map FROM=TO (a path's prefix rewritten)".into());
    }
    out.extend(f.notes.iter().map(|n| crate::text::visible(n).into_owned()));
    out
}

/// The margin's columns: hits (or calls), time, share; their widths.
struct Margin {
    hits: bool,
    time: bool,
    word: &'static str,
    unit: &'static str,
}

impl Margin {
    fn of(cx: &Ctx) -> Margin {
        let p = cx.profile;
        Margin {
            hits: p.lines().iter().any(|l| l.hits.is_some()) || p.has_function_starts(),
            time: p.time_unit().is_some(),
            word: crate::analysis::source::hits_heading(p),
            unit: p.time_unit_name(),
        }
    }

    fn heading(&self) -> String {
        let mut s = String::from("  ");
        if self.hits {
            s.push_str(&format!("{:>9}", self.word));
        }
        if self.time {
            s.push_str(&format!("{:>12}", format!("Time {}", self.unit)));
        }
        s.push_str(&format!("{:>8}{:>7}  Source", "%", "Line"));
        s
    }

    fn cells(&self, l: &SourceLine, total: (Option<u64>, Option<f64>), marked: bool) -> String {
        let mut s = String::from(if marked { "● " } else { "  " });
        if self.hits {
            let h = l.hits.map(crate::report::fmt::grouped).unwrap_or_default();
            s.push_str(&format!("{h:>9}"));
        }
        if self.time {
            let t = l.time_ms.map(|t| format!("{t:.3}")).unwrap_or_default();
            s.push_str(&format!("{t:>12}"));
        }
        let share = match (l.time_ms, total.1, l.hits, total.0) {
            (Some(t), Some(all), _, _) if all > 0.0 => Some(100.0 * t / all),
            (None, _, Some(h), Some(all)) if all > 0 => Some(100.0 * h as f64 / all as f64),
            _ => None,
        };
        let share = share
            .filter(|_| l.starts.is_none())
            .map(|x| format!("{x:.1}%"))
            .unwrap_or_default();
        let n = l.line.map(|n| n.to_string()).unwrap_or_default();
        s.push_str(&format!("{share:>8}{n:>7}  "));
        s
    }
}

/// The view: a frame naming the file, the words above it, the margin's
/// heading, then the rows on screen.
fn draw(buf: &mut Buffer, area: Rect, s: &SourcePane, cx: &Ctx, theme: Theme) {
    let title = format!(" Source · {} ", crate::text::visible(&s.file.path));
    Block::bordered()
        .title(Line::from(Span::styled(title, theme.title())))
        .render(area, buf);
    let body = inner(area);
    let width = usize::from(body.width.saturating_sub(1));
    let margin = Margin::of(cx);
    let mut y = body.y;
    let heading = std::iter::once(margin.heading());
    for (i, text) in s.head.iter().cloned().chain(heading).enumerate() {
        if y >= body.bottom() {
            return;
        }
        let style = if i < s.head.len() {
            theme.dim()
        } else {
            theme.header_row()
        };
        buf.set_stringn(body.x + 1, y, fit(&text, width).0, width, style);
        y += 1;
    }
    for (n, l) in s.file.lines.iter().enumerate().skip(s.offset) {
        if y >= body.bottom() {
            break;
        }
        let marked = s.marked.contains(&n);
        let mut text = margin.cells(l, s.total, marked);
        text.push_str(l.text.as_deref().unwrap_or(""));
        if let Some(f) = &l.starts {
            text.push_str(&format!("   ← {} begins", crate::text::visible(f)));
        }
        let style = if n == s.cursor {
            theme.selected(true)
        } else if marked {
            theme.base().add_modifier(Modifier::BOLD)
        } else if l.counted {
            theme.base()
        } else {
            theme.dim()
        };
        buf.set_style(Rect::new(body.x, y, body.width, 1), style);
        buf.set_stringn(body.x + 1, y, fit(&text, width).0, width, style);
        y += 1;
    }
}
