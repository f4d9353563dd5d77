//! Drawing: a pure function of `&App` into a ratatui frame. What is no
//! pane's is drawn here (the header, the tabs and breadcrumb, the footer,
//! the overlays); each pane draws itself beside its state (`pane/`). Only
//! the rows on screen are built, so a frame costs the same for ten rows or
//! ten million. Every name passes through `text::visible` before it
//! reaches a cell, so a file cannot put an escape sequence on the terminal.

mod overlay;
pub(super) mod theme;

use super::app::{App, Mode};
use super::fit::{Cut, fit_cut, fit_step, put};
use super::intent::Intent;
use super::keymap::{self, Place, key_for};
use super::layout::{self, MIN_HEIGHT, MIN_WIDTH};
use super::pane::{Pane, Within};
use crate::analysis::view::{Table, View};
use crate::model::FuncId;
use crate::report::fmt::{grouped, grouped_time};
use crate::text::visible;
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use theme::Theme;
use unicode_width::UnicodeWidthStr;

/// Draws the whole screen from `app`: header, tabs, the pane, the footer
/// and any overlay.
pub fn draw(frame: &mut Frame<'_>, app: &App) {
    let area = frame.area();
    let theme = Theme { color: app.color };
    if layout::too_small(area) {
        too_small(frame, area);
        return;
    }
    let a = app.areas();
    let buf = frame.buffer_mut();
    header(buf, a.header, app, theme);
    crumbs(buf, a.crumbs, app, theme);
    app.pane().render(buf, &a, &app.cx(), theme);
    news_run(buf, a.table, app, theme);
    footer(buf, a.footer, app, theme);
    match &app.mode {
        Mode::Help(scroll) => overlay::help(buf, area, *scroll, theme),
        Mode::Finder(f) => overlay::finder(buf, area, app.cx().profile, f, theme),
        Mode::Menu(m) => {
            let row = app.pane().selected_y(a.table);
            overlay::menu(buf, area, row, m, &app.menu_entries(), theme)
        }
        Mode::Threads(t) => t.render(buf, &app.query.thread_crumb().unwrap_or_default(), theme),
        Mode::Normal | Mode::Search => {}
    }
    if let Some(msg) = app.status.as_deref().filter(|_| app.status_boxed()) {
        overlay::message(buf, area, a.footer, msg, theme);
    }
}

/// In a comparison, a pane that is not compared shows NEW's run alone,
/// and says so at the right of its frame's foot.
fn news_run(buf: &mut Buffer, area: Rect, app: &App, theme: Theme) {
    let compared = match app.pane() {
        Pane::Compare(_) => true,
        Pane::Tree(t) => t.tree.direction == crate::analysis::calltree::Direction::TopDown,
        Pane::Flame(f) => f.sandwich.is_none() && !f.in_chart(),
        _ => false,
    };
    if app.compared().is_none() || compared {
        return;
    }
    let says = match app.tab() {
        View::Table(Table::Packets) | View::Timeline => " NEW's events only ",
        _ => " NEW's run only ",
    };
    let w = says.width() as u16;
    if area.width < w + 4 || area.height < 2 {
        return;
    }
    let at = Rect::new(area.right() - w - 2, area.bottom() - 1, w, 1);
    put(buf, at, &Line::from(Span::styled(says, theme.title())));
}

fn too_small(frame: &mut Frame<'_>, area: Rect) {
    let msg = format!(
        "profx needs a window of at least {MIN_WIDTH}×{MIN_HEIGHT}; this one is {}×{}. \
         Enlarge it, or press {} to quit.",
        area.width,
        area.height,
        key_for(&Intent::Quit, Place::Everywhere)
    );
    frame.render_widget(Paragraph::new(msg).wrap(Wrap { trim: true }), area);
}

fn header(buf: &mut Buffer, area: Rect, app: &App, theme: Theme) {
    let (title, facts) = header_parts(app, usize::from(area.width));
    let mut spans = vec![Span::styled(" profx ", theme.title()), Span::raw(" ")];
    if !title.is_empty() {
        spans.push(Span::styled(title, theme.title()));
        spans.push(Span::raw("  "));
    }
    spans.push(Span::raw(facts.join(" · ")));
    put(buf, area, &Line::from(spans));
}

/// The header's title and facts in `width` columns.
fn header_parts(app: &App, width: usize) -> (String, Vec<String>) {
    let title = visible(&app.title);
    if let Some(c) = app.compared() {
        return header_fit(&title, compared_facts(app, c), width);
    }
    match app.query.is_whole() {
        true => header_fit(&title, header_facts(app), width),
        false => query_header_fit(&title, &query_facts(app), width),
    }
}

/// A comparison's facts (its title is `BASE (format) → NEW (format)`):
/// that it is one, the query both sides answer (once), and how many
/// functions each run has of the other's, which gives way first.
fn compared_facts(app: &App, c: &super::compare::Compared) -> Vec<(String, bool)> {
    let mut facts = vec![("comparison".to_string(), true)];
    let q = c.query();
    let thread = app.query.thread_crumb().filter(|_| q.threads.is_none());
    let crumbs: Vec<String> = thread.into_iter().chain(q.describe()).collect();
    if !crumbs.is_empty() {
        facts.push((crumbs.join(" › "), true));
    }
    facts.extend(c.left_out().into_iter().map(|l| (l, false)));
    facts.push((c.counts(), false));
    facts
}

/// The facts the header shows in the app's window: what a step's answer
/// need not say again in the footer.
pub(crate) fn header_shows(app: &App) -> Vec<String> {
    header_parts(app, usize::from(app.size.width)).1
}

/// The header's facts for the whole profile, each with whether it must
/// show (the format, the total, the warnings) or may give way.
fn header_facts(app: &App) -> Vec<(String, bool)> {
    let p = app.profile();
    let mut facts = vec![(p.format.clone(), true)];
    // A followed trace's state right after the format, its details next:
    // the facts after them give way first.
    let live = live_fact(app, false);
    if let Some((live, details)) = &live {
        facts.push((live.clone(), true));
        // The details give way last to first: the time of the last data,
        // which tells whether data still comes, stays longest.
        facts.extend(details.iter().map(|d| (d.clone(), false)));
    }
    // Following, the numbers change each second and the details say what
    // is happening: the totals give way before them.
    let total_must = !app.follow_state().is_some_and(|(on, _)| on);
    if let Some(mode) = p.meta.get("mode") {
        facts.push((visible(&mode.to_string()).into_owned(), false));
    }
    if let Some(n) = p.totals.samples {
        facts.push((format!("{} samples", grouped(n)), false));
    }
    if let Some(ms) = p.totals.elapsed_inclusive_ms {
        let (total, summed, span) = total_and_span(p, ms);
        let total = match summed {
            Some(summed) => format!("{total} {summed}"),
            None => total,
        };
        facts.push((total, total_must));
        facts.extend(span.map(|span| (span, false)));
    }
    // Values skipped or repaired are said where every pane shows it, not
    // only in Info, which lists them with their places.
    facts.extend(warnings_fact(app).map(|w| (w, true)));
    // What the Flame pane leaves out, said everywhere (pprof's -hide and
    // speedscope's sandwich change what a flame graph shows).
    facts.extend(sandwich_fact(app).map(|f| (f, true)));
    facts
}

/// A followed trace's state (tui.md § Following a trace): that it is
/// live (or stopped, or what it waits for), which always shows, and its
/// details, which give way: the event rate, when the last data came (UTC,
/// so the header needs no redraw to stay true), the calls still open, and
/// with a query, that each update runs it again.
fn live_fact(app: &App, queried: bool) -> Option<(String, Vec<String>)> {
    let (on, facts) = app.follow_state()?;
    let key = keymap::key_for(&super::intent::Intent::Follow, keymap::Place::Everywhere);
    if !on {
        return Some((format!("not following ({key} goes on)"), Vec::new()));
    }
    // Idle rather than the last rate once no record came for an update's
    // spacing: a stopped writer's rate would read as events still coming.
    let live = match (&facts.waiting, facts.idle) {
        (Some(why), _) => format!("● live, waiting: {why}"),
        (None, true) => "● live, idle".to_string(),
        (None, false) => "● live".to_string(),
    };
    let mut said = Vec::new();
    if let Some(at) = facts.last_data {
        let secs = at
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let (h, m, s) = ((secs / 3600) % 24, (secs / 60) % 60, secs % 60);
        said.push(format!("last data {h:02}:{m:02}:{s:02} UTC"));
    }
    if let Some(rate) = facts.rate {
        said.push(format!("{} ev/s", grouped(rate.round() as u64)));
    }
    if facts.open > 0 {
        let open = crate::report::fmt::counted(facts.open as u64, "calls");
        said.push(format!("{open} open"));
    }
    if queried {
        said.push("updates rerun the query".into());
    }
    Some((live, said))
}

fn warnings_fact(app: &App) -> Option<String> {
    let warned = app.profile().warnings().len() as u64;
    (warned > 0).then(|| {
        let n = crate::report::fmt::counted(warned, "warnings");
        let info = keymap::pane_key(crate::analysis::view::View::Info);
        format!("{n} (Info, {info})")
    })
}

fn sandwich_fact(app: &App) -> Option<String> {
    app.flame_filters()
        .map(|f| format!("flame: sandwich of {}", short_name(app.profile(), f)))
}

/// A fact of the header while a query is asked: its text, and when it
/// gives way (the larger, the sooner).
struct Fact {
    text: String,
    gives: u8,
}

/// The header's parts while a query is asked: the format, the crumbs
/// (the thread choice's and the steps'), the total, and the facts that
/// give way to the crumbs, in the order shown.
struct QueryFacts {
    format: String,
    /// The thread choice's crumb and the range's (none: one implicit
    /// thread and the whole run).
    thread: Option<String>,
    steps: Vec<crate::analysis::query::Step>,
    /// The total, and what it is summed over (which gives way).
    total: Option<(String, Option<String>)>,
    others: Vec<Fact>,
}

/// When the "summed over N threads" after the total gives way.
const SUMMED_GIVES: u8 = 6;

fn query_facts(app: &App) -> QueryFacts {
    let p = app.profile();
    let q = &app.query;
    let mut others = Vec::new();
    let mut fact = |text: String, gives: u8| others.push(Fact { text, gives });
    if let Some(mode) = p.meta.get("mode") {
        fact(visible(&mode.to_string()).into_owned(), 8);
    }
    if let Some(n) = p.totals.samples {
        fact(format!("{} samples", grouped(n)), 7);
    }
    let mut total = None;
    if let Some(ms) = p.totals.elapsed_inclusive_ms {
        let (t, summed, span) = total_and_span(p, ms);
        total = Some((t, summed));
        if let Some(span) = span {
            fact(span, 9);
        }
    }
    if let Some(w) = warnings_fact(app) {
        fact(w, 5);
    }
    if let Some((live, details)) = live_fact(app, true) {
        fact(live, 0);
        if !details.is_empty() {
            fact(details.join(" · "), 6);
        }
    }
    if let Some(f) = sandwich_fact(app) {
        fact(f, 4);
    }
    // What the steps dropped and their notes stay longest (the footer
    // said them when the step was applied), and the steps left out of the
    // threads chosen.
    for d in super::app::dropped_words(&q.dropped(), q.answer().events()) {
        let gives = match d.starts_with("dropped ") {
            true => 1,
            false => 3,
        };
        fact(d, gives);
    }
    let left_out = q.left_out();
    if !left_out.is_empty() {
        let steps: Vec<&str> = left_out.iter().map(|(s, _)| s.as_str()).collect();
        fact(format!("left out: {}", steps.join(", ")), 2);
    }
    QueryFacts {
        format: p.format.clone(),
        thread: q.selection_crumb(),
        steps: q.steps().cloned().collect(),
        total,
        others,
    }
}

/// The query's breadcrumbs with the last `keep` steps shown, those
/// before them elided to `…`: `thread 2 › … › merge F`.
fn crumbs_keeping(thread: Option<&str>, labels: &[String], keep: usize) -> String {
    let mut parts: Vec<&str> = thread.into_iter().collect();
    if keep < labels.len() {
        parts.push("…");
    }
    parts.extend(labels[labels.len() - keep..].iter().map(String::as_str));
    parts.join(" › ")
}

/// The header's title and facts while a query is asked, in `width`: the
/// crumbs have priority over every other fact. The input's name is cut
/// first (to 12 columns), then the facts give way (those that give
/// sooner first), then the middle crumbs give way to `…`; then the name
/// goes, and last the final step's label is cut (a call node's path in
/// its middle). The thread choice and the last step stay whole while
/// they fit at all; the format and the total always show.
fn query_header_fit(whole: &str, q: &QueryFacts, width: usize) -> (String, Vec<String>) {
    let labels: Vec<String> = q
        .steps
        .iter()
        .map(|s| visible(&s.label()).into_owned())
        .collect();
    let lead = " profx ".width() + 1;
    // The name, cut to 12 at most, and its two spaces; none when it goes.
    let title_w = match whole.width().min(12) {
        0 => 0,
        w => w + 2,
    };
    let fits = |facts: &[String], title: usize| lead + title + facts_width(facts) <= width;
    let with_title = |facts: Vec<String>| {
        let room = width.saturating_sub(lead + 2 + facts_width(&facts));
        (fit_cut(whole, room, Cut::Middle).text, facts)
    };
    let thread = q.thread.as_deref();
    let n = labels.len();
    // Every crumb, fewer and fewer facts; then fewer crumbs, no fact.
    for gives in (0..=9).rev() {
        let shown = q.shown(crumbs_keeping(thread, &labels, n), gives);
        if fits(&shown, title_w) {
            return with_title(shown);
        }
    }
    for keep in (1..n).rev() {
        let shown = q.shown(crumbs_keeping(thread, &labels, keep), 0);
        if fits(&shown, title_w) {
            return with_title(shown);
        }
    }
    // No room for the name.
    let shown = q.shown(crumbs_keeping(thread, &labels, n.min(1)), 0);
    if fits(&shown, 0) {
        return (String::new(), shown);
    }
    (String::new(), q.last_step_cut(width.saturating_sub(lead)))
}

/// The width of facts joined by ` · `.
fn facts_width(facts: &[String]) -> usize {
    facts.iter().map(|f| f.width()).sum::<usize>() + 3 * facts.len().saturating_sub(1)
}

impl QueryFacts {
    /// The facts shown with these crumbs: the format, the crumbs, the
    /// total, and the others that give way no sooner than `gives`.
    fn shown(&self, crumbs: String, gives: u8) -> Vec<String> {
        let mut out = vec![self.format.clone()];
        if !crumbs.is_empty() {
            out.push(crumbs);
        }
        if let Some((total, summed)) = &self.total {
            out.push(match summed {
                Some(summed) if SUMMED_GIVES <= gives => format!("{total} {summed}"),
                _ => total.clone(),
            });
        }
        out.extend(
            self.others
                .iter()
                .filter(|f| f.gives <= gives)
                .map(|f| f.text.clone()),
        );
        out
    }

    /// The facts in `width` with no name and no fact but the format and
    /// the total, the last step's label cut to what they leave (the thread
    /// choice and a `…` for the steps before it kept ahead of it).
    fn last_step_cut(&self, width: usize) -> Vec<String> {
        let mut rest = self.shown(String::new(), 0);
        let room = width.saturating_sub(facts_width(&rest) + 3).max(1);
        let thread = self.thread.as_deref();
        let crumbs = match self.steps.last() {
            Some(last) => {
                let mut before: Vec<&str> = thread.into_iter().collect();
                if self.steps.len() > 1 {
                    before.push("…");
                }
                let before = match before.is_empty() {
                    true => String::new(),
                    false => format!("{} › ", before.join(" › ")),
                };
                let left = room.saturating_sub(before.width());
                fit_cut(&format!("{before}{}", fit_step(last, left)), room, Cut::End).text
            }
            None => fit_cut(thread.unwrap_or(""), room, Cut::End).text,
        };
        if !crumbs.is_empty() {
            rest.insert(1, crumbs);
        }
        rest
    }
}

/// The header's title and facts in `width`: a fact is left out whole
/// (never a number cut from its unit), those that may give way first,
/// the last first; the input's name is cut in the middle to keep the
/// facts that must show.
fn header_fit(whole: &str, facts: Vec<(String, bool)>, width: usize) -> (String, Vec<String>) {
    let lead = " profx ".width() + 1 + 2;
    let line = |facts: &[(String, bool)]| {
        facts.iter().map(|(f, _)| f.width()).sum::<usize>() + 3 * facts.len().saturating_sub(1)
    };
    let must: Vec<(String, bool)> = facts.iter().filter(|f| f.1).cloned().collect();
    let title_room = width.saturating_sub(lead + line(&must)).max(12);
    let room = width.saturating_sub(lead + fit_cut(whole, title_room, Cut::Middle).text.width());
    let mut facts = facts;
    while line(&facts) > room {
        // The last fact that may give way, else the last.
        let at = facts.iter().rposition(|f| !f.1).unwrap_or(facts.len() - 1);
        facts.remove(at);
    }
    // The name takes what the facts shown leave.
    let title = fit_cut(
        whole,
        width.saturating_sub(lead + line(&facts)).max(12),
        Cut::Middle,
    )
    .text;
    (title, facts.into_iter().map(|(f, _)| f).collect())
}

/// The session total; for a trace of several threads, which adds its
/// threads' times, what it is a sum of (`summed over 4 threads`) and the
/// wall time the trace spans (a quarter of the sum when four threads ran
/// side by side).
fn total_and_span(p: &crate::model::Profile, ms: f64) -> (String, Option<String>, Option<String>) {
    let threads = match p.meta.get("threads") {
        Some(crate::model::MetaValue::Int(n)) if *n > 1 => *n,
        _ => return (grouped_time(p, ms), None, None),
    };
    let first = p
        .packets()
        .iter()
        .filter_map(|k| k.first_ms)
        .reduce(f64::min);
    let last = p
        .packets()
        .iter()
        .filter_map(|k| k.last_ms)
        .reduce(f64::max);
    let span = match (first, last) {
        (Some(a), Some(b)) => Some(format!("spans {}", grouped_time(p, b - a))),
        _ => None,
    };
    (
        grouped_time(p, ms),
        Some(format!("summed over {threads} threads")),
        span,
    )
}

/// The tabs, where the user is (the history as a breadcrumb) and the last
/// status.
fn crumbs(buf: &mut Buffer, area: Rect, app: &App, theme: Theme) {
    let mut end = area.x;
    for (tab, x, w) in layout::tab_positions(area) {
        let label = format!(" {} ", super::pane::tab_title(tab));
        buf.set_stringn(
            x,
            area.y,
            label,
            usize::from(w),
            theme.tab(tab == app.tab()),
        );
        end = x + w;
    }
    let area = Rect::new(end + 1, area.y, area.right().saturating_sub(end + 1), 1);
    // A step into the Functions pane (from a line, a frame, a caller) is
    // named by the function it went to, not by the pane again.
    let cx = app.cx();
    let trail: Vec<String> = app
        .history
        .iter()
        .enumerate()
        .map(|(i, pane)| match (i, pane) {
            (1.., Pane::Table(t)) if t.table == Table::Functions && t.within == Within::All => {
                match t.selected() {
                    Some(row) => format!(
                        "function {}",
                        short_name(app.profile(), FuncId::from_index(row as usize))
                    ),
                    None => pane.step_name(&cx),
                }
            }
            _ => pane.step_name(&cx),
        })
        .collect();
    let mut spans = vec![Span::styled("│ ", theme.dim())];
    let trail = trail_fit(trail, usize::from(area.width).saturating_sub(2));
    for (i, step) in trail.iter().enumerate() {
        if i > 0 {
            spans.push(Span::styled(" › ", theme.dim()));
        }
        let last = i + 1 == trail.len();
        spans.push(Span::styled(
            step.clone(),
            if last { theme.key() } else { theme.dim() },
        ));
    }
    put(buf, area, &Line::from(spans));
}

/// The trail's steps in `width`: the first ones give way to one `…`;
/// where the last step alone is left, it is cut with `…` (never at the
/// screen's edge).
fn trail_fit(trail: Vec<String>, width: usize) -> Vec<String> {
    let line =
        |t: &[String]| t.iter().map(|s| s.width()).sum::<usize>() + 3 * t.len().saturating_sub(1);
    if line(&trail) <= width {
        return trail;
    }
    let n = trail.len();
    for keep in (1..n).rev() {
        let mut shown = vec!["…".to_string()];
        shown.extend_from_slice(&trail[n - keep..]);
        if line(&shown) <= width {
            return shown;
        }
    }
    // Where the user is, alone, whole if it fits at all.
    let last = trail.last().map_or("", String::as_str);
    vec![fit_cut(last, width, Cut::End).text]
}

use super::pane::short_name;

fn footer(buf: &mut Buffer, area: Rect, app: &App, theme: Theme) {
    if app.mode == Mode::Search {
        return search_prompt(buf, area, &pane_search(app), theme);
    }
    if let Mode::Threads(list) = &app.mode
        && list.searching
    {
        let slash = key_for(&Intent::Search, Place::Threads);
        let t = &list.table;
        let prompt = (slash, t.search.text.as_str(), table_found(t));
        return search_prompt(buf, area, &prompt, theme);
    }
    if let Some(progress) = app.export_progress().or_else(|| app.query_progress()) {
        put(
            buf,
            area,
            &Line::from(Span::styled(format!(" {progress} "), theme.status())),
        );
        return;
    }
    // A message takes the footer's line until the next key; one too long
    // for it is shown whole in a box (`overlay::message`).
    if let Some(msg) = &app.status {
        if !app.status_boxed() {
            let line = Line::from(Span::styled(format!(" {} ", visible(msg)), theme.status()));
            put(buf, area, &line);
        }
        return;
    }
    let mut spans = vec![Span::raw(" ")];
    // A hint that does not fit is left out whole, the pane's own last:
    // `?` (which lists them all) and `q` always show.
    let mut hints = app.hints();
    let width = |h: &[(&str, &str)]| {
        1 + h
            .iter()
            .map(|(k, w)| k.chars().count() + w.chars().count() + 3)
            .sum::<usize>()
    };
    while width(&hints) > usize::from(area.width) && hints.len() > 3 {
        hints.remove(hints.len() - 4);
    }
    for (key, what) in hints {
        spans.push(Span::styled(key, theme.key()));
        spans.push(Span::raw(format!(" {what}  ")));
    }
    put(buf, area, &Line::from(spans));
}

/// The pane's search prompt: the key that opened it, its text, and what
/// the search found: the pane's own word for it (the call tree's and the
/// flame's shares) when it said one, a table's rows, else nothing yet.
fn pane_search(app: &App) -> (String, &str, String) {
    let pane = app.pane();
    let slash = keymap::key_in(&Intent::Search, pane.places());
    let text = pane.search().map_or("", |s| s.text.as_str());
    let found = match (&app.status, pane.as_table()) {
        (Some(msg), _) => format!("   {}", visible(msg)),
        (None, Some(t)) => table_found(t),
        (None, None) => String::new(),
    };
    (slash, text, found)
}

/// How many of a table's rows its search keeps.
fn table_found(t: &crate::tui::pane::TablePane) -> String {
    format!(
        "   {} of {} match",
        grouped(t.rows.len() as u64),
        grouped(t.total as u64)
    )
}

/// The search prompt on the footer's line: `(key, text, found)`, and the
/// prompt's keys as the footer's hints write them.
fn search_prompt(
    buf: &mut Buffer,
    area: Rect,
    (slash, text, found): &(String, &str, String),
    theme: Theme,
) {
    let key = |i: Intent| keymap::hint_key(&i, Place::Prompt).unwrap_or("?");
    let line = Line::from(vec![
        Span::styled(format!(" {slash} "), theme.key()),
        Span::raw(visible(text).into_owned()),
        Span::styled("█", theme.dim()),
        Span::styled(found.clone(), theme.dim()),
        Span::raw("   "),
        Span::styled(key(Intent::Accept), theme.key()),
        Span::raw(" keep  "),
        Span::styled(key(Intent::Cancel), theme.key()),
        Span::raw(" clear"),
    ]);
    put(buf, area, &line);
}

#[cfg(test)]
mod tests {
    use super::*;
    use unicode_width::UnicodeWidthStr;

    /// The trail's first steps give way to `…`, then the last is cut with
    /// `…`: never at the screen's edge.
    #[test]
    fn the_trail_is_cut_with_an_ellipsis() {
        let trail = |steps: &[&str]| steps.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let steps = trail(&["Functions", "function FNPRICE", "Stacks"]);
        assert_eq!(trail_fit(steps.clone(), 80), steps);
        assert_eq!(
            trail_fit(steps.clone(), 30),
            trail(&["…", "function FNPRICE", "Stacks"])
        );
        assert_eq!(trail_fit(steps.clone(), 12), trail(&["…", "Stacks"]));
        assert_eq!(trail_fit(steps.clone(), 9), trail(&["Stacks"]));
        assert_eq!(trail_fit(steps, 5), trail(&["Stac…"]));
        assert_eq!(trail_fit(trail(&["Functions"]), 6), trail(&["Funct…"]));
    }

    /// The header leaves facts out whole: no number loses its unit; the
    /// facts that must show stay, the input's name giving way.
    #[test]
    fn the_header_never_cuts_a_number_from_its_unit() {
        let facts = vec![
            ("xpp".to_string(), true),
            ("15,891.000 ms summed over 4 threads".to_string(), true),
            ("spans 4,000.125 ms".to_string(), false),
            ("3 warnings (Info, 7)".to_string(), true),
        ];
        for width in [60, 80, 100, 120] {
            let (title, shown) = header_fit("TRACE.PRF", facts.clone(), width);
            let line = format!(" profx  {title}  {}", shown.join(" · "));
            assert!(line.width() <= width, "{width}: {line}");
            for f in &shown {
                assert!(facts.iter().any(|(g, _)| g == f), "{f} is whole");
            }
            if width >= 100 {
                assert!(shown.iter().any(|f| f.starts_with("3 warnings")), "{line}");
            }
        }
        let (title, _) = header_fit(&"x".repeat(200), facts, 80);
        assert!(title.contains('…') && title.width() >= 12);
    }

    /// While a query is asked the crumbs come before the other facts: the
    /// name is cut first, then the facts give way, then the middle crumbs;
    /// the thread choice and the last step stay whole, a call node's path
    /// losing its middle frames only when nothing else is left to give.
    #[test]
    fn the_crumbs_have_priority_in_the_header() {
        use crate::analysis::query::{Step, Target};
        let t = |s: &str| Target(s.to_string());
        let node = Step::MergePath(vec![
            t("main"),
            t("ProcessOrders(struct Batch *)"),
            t("PriceOrder(struct Order *)"),
            t("LookupTariff(int, const char *)"),
        ]);
        let q = |steps: Vec<Step>| QueryFacts {
            format: "xpp".into(),
            thread: Some("thread 2".into()),
            steps,
            total: Some(("150.000 ms".into(), Some("summed over 2 threads".into()))),
            others: vec![
                Fact {
                    text: "2 warnings (Info, 7)".into(),
                    gives: 5,
                },
                Fact {
                    text: "dropped 1.000 ms (0.67%)".into(),
                    gives: 1,
                },
            ],
        };
        let two = q(vec![Step::Merge(t("FNPRICE")), Step::Drop(t("FETCH"))]);
        let (title, facts) = query_header_fit("orders-run.prf", &two, 80);
        let line = facts.join(" · ");
        assert!(
            line.contains("thread 2 › merge FNPRICE › drop FETCH"),
            "{line}"
        );
        assert!(!line.contains("warnings"), "the warnings gave way: {line}");
        assert!(title.width() <= 14, "{title}");
        let (_, facts) = query_header_fit("orders-run.prf", &two, 160);
        let line = facts.join(" · ");
        assert!(line.contains("summed over 2 threads") && line.contains("warnings"));
        let long = q(vec![Step::Merge(t("FNPRICE")), node.clone()]);
        for width in [60, 80, 100, 120] {
            let (title, facts) = query_header_fit("orders-run.prf", &long, width);
            let title = match title.is_empty() {
                true => String::new(),
                false => format!("{title}  "),
            };
            let line = format!(" profx  {title}{}", facts.join(" · "));
            assert!(line.width() <= width, "{width}: {line}");
            assert!(line.contains("thread 2 › "), "{width}: {line}");
            assert!(line.contains("150.000 ms"), "{width}: {line}");
            assert!(line.contains("merge node "), "{width}: {line}");
            assert!(line.contains(">Loo"), "{width}: {line}");
            if width >= 100 {
                assert!(
                    line.contains("main>…>")
                        && line.contains(">LookupTariff(int, const char *) · "),
                    "the root and the last frame whole at {width}: {line}"
                );
            }
        }
        assert_eq!(
            fit_step(&node, 60),
            "merge node main>…>LookupTariff(int, const char *)"
        );
        assert_eq!(
            fit_step(&node, 80),
            "merge node main>…>PriceOrder(struct Order *)>LookupTariff(int, const char *)"
        );
    }
}
