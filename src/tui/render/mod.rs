//! Drawing: a pure function of `&App` into a ratatui frame. Only the rows
//! on screen are built, so a frame costs the same for ten rows or ten
//! million. Every name passes through `text::visible` before it reaches a
//! cell, so a file cannot put an escape sequence on the terminal.

mod detail;
pub(super) mod flame;
mod overlay;
pub(super) mod table;
pub(super) mod theme;
pub(super) mod tree;

use super::app::{App, Mode};
use super::layout::{self, MIN_HEIGHT, MIN_WIDTH};
use super::pane::{Pane, Within};
use crate::analysis::view::Table;
use crate::model::FuncId;
use crate::report::fmt::{grouped, grouped_ms};
use crate::text::visible;
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use theme::Theme;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

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
    footer(buf, a.footer, app, theme);
    match &app.mode {
        Mode::Help(scroll) => overlay::help(buf, area, *scroll, theme),
        Mode::Finder(f) => overlay::finder(buf, area, app.cx().profile, f, theme),
        Mode::Menu(m) => {
            let row = app.pane().selected_y(a.table);
            overlay::menu(buf, area, row, m, &app.menu_entries(), theme)
        }
        Mode::Threads(t) => overlay::threads(buf, area, t, &app.query, theme),
        Mode::Normal | Mode::Search => {}
    }
    if let Some(msg) = app.status.as_deref().filter(|_| app.status_boxed()) {
        overlay::message(buf, area, a.footer, msg, theme);
    }
}

fn too_small(frame: &mut Frame<'_>, area: Rect) {
    let msg = format!(
        "profx needs a window of at least {MIN_WIDTH}×{MIN_HEIGHT}; this one is {}×{}. \
         Enlarge it, or press q to quit.",
        area.width, area.height
    );
    frame.render_widget(Paragraph::new(msg).wrap(Wrap { trim: true }), area);
}

/// Writes a line clipped to `area`'s first row.
fn put(buf: &mut Buffer, area: Rect, line: &Line<'_>) {
    buf.set_line(area.x, area.y, line, area.width);
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
    match app.query.is_whole() {
        true => header_fit(&title, header_facts(app), width),
        false => query_header_fit(&title, &query_facts(app), width),
    }
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
        facts.push((total, true));
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

fn warnings_fact(app: &App) -> Option<String> {
    let warned = app.profile().warnings().len() as u64;
    (warned > 0).then(|| {
        let n = crate::report::fmt::counted(warned, "warnings");
        let info = super::pane::tab_index(crate::analysis::view::View::Info) + 1;
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
    /// The thread choice's crumb (none: one implicit thread).
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
    if let Some(f) = sandwich_fact(app) {
        fact(f, 4);
    }
    // What the steps dropped and their notes stay longest (the footer
    // said them when the step was applied), and the steps left out of the
    // threads chosen.
    let whole = q.answer().events().totals.elapsed_inclusive_ms;
    for d in super::app::dropped_words(&q.dropped(), whole) {
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
        thread: q.thread_crumb(),
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
    let line = |facts: &[String]| {
        facts.iter().map(|f| f.width()).sum::<usize>() + 3 * facts.len().saturating_sub(1)
    };
    // The facts shown with these crumbs, the others those that give way
    // no sooner than `gives`.
    let facts = |crumbs: String, gives: u8| {
        let mut out = vec![q.format.clone()];
        if !crumbs.is_empty() {
            out.push(crumbs);
        }
        if let Some((total, summed)) = &q.total {
            out.push(match summed {
                Some(summed) if SUMMED_GIVES <= gives => format!("{total} {summed}"),
                _ => total.clone(),
            });
        }
        out.extend(
            q.others
                .iter()
                .filter(|f| f.gives <= gives)
                .map(|f| f.text.clone()),
        );
        out
    };
    let lead = " profx ".width() + 1;
    // The name, cut to 12 at most, and its two spaces; none when it goes.
    let title_w = match whole.width().min(12) {
        0 => 0,
        w => w + 2,
    };
    let fits = |facts: &[String], title: usize| lead + title + line(facts) <= width;
    let with_title = |facts: Vec<String>| {
        let room = width.saturating_sub(lead + 2 + line(&facts));
        (fit_cut(whole, room, Cut::Middle).text, facts)
    };
    let thread = q.thread.as_deref();
    let n = labels.len();
    // Every crumb, fewer and fewer facts; then fewer crumbs, no fact.
    for gives in (0..=9).rev() {
        let shown = facts(crumbs_keeping(thread, &labels, n), gives);
        if fits(&shown, title_w) {
            return with_title(shown);
        }
    }
    for keep in (1..n).rev() {
        let shown = facts(crumbs_keeping(thread, &labels, keep), 0);
        if fits(&shown, title_w) {
            return with_title(shown);
        }
    }
    // No room for the name.
    let shown = facts(crumbs_keeping(thread, &labels, n.min(1)), 0);
    if fits(&shown, 0) {
        return (String::new(), shown);
    }
    // The last step's label cut to what is left.
    let mut rest = facts(String::new(), 0);
    let room = width.saturating_sub(lead + line(&rest) + 3).max(1);
    let crumbs = match q.steps.last() {
        Some(last) => {
            let mut before: Vec<&str> = thread.into_iter().collect();
            if n > 1 {
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
    (String::new(), rest)
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
        _ => return (grouped_ms(ms), None, None),
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
        (Some(a), Some(b)) => Some(format!("spans {}", grouped_ms(b - a))),
        _ => None,
    };
    (
        grouped_ms(ms),
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

fn fname(p: &crate::model::Profile, f: FuncId) -> String {
    visible(p.function_name(f)).into_owned()
}

use super::pane::short_name;

fn footer(buf: &mut Buffer, area: Rect, app: &App, theme: Theme) {
    if app.mode == Mode::Search {
        return search_prompt(buf, area, app, theme);
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

fn search_prompt(buf: &mut Buffer, area: Rect, app: &App, theme: Theme) {
    let pane = app.pane();
    let text = pane.search().map_or("", |s| s.text.as_str());
    // What the search found: the pane's own word for it (the call tree's
    // and the flame's shares) when it said one, a table's rows, else
    // nothing yet.
    let found = match (&app.status, pane.as_table()) {
        (Some(msg), _) => format!("   {}", visible(msg)),
        (None, Some(t)) => format!(
            "   {} of {} match",
            grouped(t.rows.len() as u64),
            grouped(t.total as u64)
        ),
        (None, None) => String::new(),
    };
    let line = Line::from(vec![
        Span::styled(" / ", theme.key()),
        Span::raw(visible(text).into_owned()),
        Span::styled("█", theme.dim()),
        Span::styled(found, theme.dim()),
        Span::raw("   "),
        Span::styled("⏎", theme.key()),
        Span::raw(" keep  "),
        Span::styled("Esc", theme.key()),
        Span::raw(" clear"),
    ]);
    put(buf, area, &line);
}

/// `text` cut to `width` display columns (with `…` when cut), and the
/// chars it kept. Wide characters never straddle the edge.
pub(super) fn fit(text: &str, width: usize) -> (String, usize) {
    let f = fit_cut(text, width, Cut::End);
    let kept = f.kept.first().map_or(0, |r| r.1);
    (f.text, kept)
}

/// Where a text too wide for its room loses its characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Cut {
    /// Keep the start (`Raytracer.Pri…`): text in general.
    End,
    /// Keep the method: a function's name loses its namespace first
    /// (`…Sphere.Intersect(Ray)`), then, when the method and its
    /// parameters are still too wide, its parameters (`…Intersect(Ra…`):
    /// the method is what tells a function from its namespace's others.
    Name,
    /// Keep both ends (`TRACE.PR…000012`): a file or path, whose end (the
    /// file, its number) tells it apart and whose start says where.
    Middle,
}

/// A text cut to fit: what is shown, and which of the text's chars it
/// kept, as runs `(first char, chars, where shown)`.
pub(super) struct Fitted {
    pub text: String,
    kept: Vec<(usize, usize, usize)>,
}

impl Fitted {
    /// Where the text's char `i` is shown, if it is.
    pub(super) fn position(&self, i: usize) -> Option<usize> {
        self.kept
            .iter()
            .find(|&&(from, n, _)| i >= from && i < from + n)
            .map(|&(from, _, at)| at + i - from)
    }
}

/// A function's name in `width` columns, cut as the tables cut one
/// (`Cut::Name`).
pub(crate) fn fit_name(text: &str, width: usize) -> String {
    fit_cut(text, width, Cut::Name).text
}

/// A query step's label in `room` columns: whole when it fits; a call
/// node's path loses its middle frames first (`merge node main>…>PriceOrder`,
/// the root and the last frame kept), and only then is cut at its end.
pub(crate) fn fit_step(step: &crate::analysis::query::Step, room: usize) -> String {
    use crate::analysis::query::Step;
    let label = visible(&step.label()).into_owned();
    if label.width() <= room {
        return label;
    }
    if let Step::MergePath(path) | Step::FocusPath(path) = step
        && path.len() > 2
    {
        let op = match step {
            Step::MergePath(_) => "merge node",
            _ => "focus subtree",
        };
        let frames: Vec<String> = path.iter().map(|t| visible(&t.0).into_owned()).collect();
        let n = frames.len();
        // The root, `…`, and as many of the last frames as fit (one at
        // least).
        for keep in (1..n - 1).rev() {
            let tail = frames[n - keep..].join(">");
            let shown = format!("{op} {}>…>{tail}", frames[0]);
            if shown.width() <= room {
                return shown;
            }
        }
        // Too narrow for the root too: the last frame, cut as a name is
        // (its method kept).
        let lead = format!("{op} …>");
        let left = room.saturating_sub(lead.width());
        return fit_cut(
            &format!("{lead}{}", fit_name(&frames[n - 1], left)),
            room,
            Cut::End,
        )
        .text;
    }
    fit_cut(&label, room, Cut::End).text
}

/// `text` cut to `width` display columns where `cut` says, `…` in place
/// of what is left out. Wide characters never straddle the edge.
pub(super) fn fit_cut(text: &str, width: usize, cut: Cut) -> Fitted {
    let chars: Vec<char> = text.chars().collect();
    match cut {
        Cut::End => ends(&chars, width, 1.0),
        Cut::Middle => ends(&chars, width, 0.5),
        Cut::Name => name(&chars, width),
    }
}

/// A function's module, where another module's function has its name (two
/// programs' `(main)`): what tells them apart wherever names are listed.
pub(super) fn shared_module(
    p: &crate::model::Profile,
    f: FuncId,
) -> Option<std::borrow::Cow<'_, str>> {
    p.name_is_shared(f).then(|| visible(p.function_module(f)))
}

/// A name as a line shows it whole: with its module where it is shared.
pub(super) fn full_name(p: &crate::model::Profile, label: crate::analysis::cct::Label) -> String {
    let mut name = visible(label.name(p)).into_owned();
    if let Some(module) = label.func().and_then(|f| shared_module(p, f)) {
        name.push_str(&format!(" [{module}]"));
    }
    name
}

/// A function's name and, after it, its module (`name [module]`), cut to
/// `width`: the name keeps its method (`Cut::Name`), the module both ends,
/// and the module never takes more than half the room.
pub(super) fn fit_name_module(name: &str, module: Option<&str>, width: usize) -> String {
    let Some(module) = module else {
        return fit_cut(name, width, Cut::Name).text;
    };
    let suffix = format!(" [{module}]");
    let (nw, sw) = (name.width(), suffix.width());
    if nw + sw <= width {
        return format!("{name}{suffix}");
    }
    let for_suffix = sw.min(width / 2).max(width.saturating_sub(nw));
    let suffix = match sw <= for_suffix {
        true => suffix,
        // A module's end tells two apart (`liba.dll`, `libb.dll`).
        false => {
            let chars: Vec<char> = module.chars().collect();
            format!(
                " [{}]",
                ends(&chars, for_suffix.saturating_sub(3), 0.0).text
            )
        }
    };
    let room = width.saturating_sub(suffix.width());
    format!("{}{suffix}", fit_cut(name, room, Cut::Name).text)
}

fn char_width(c: char) -> usize {
    c.width().unwrap_or(0)
}

/// The chars cut to `width`, the front given `front` of the room (1: the
/// start kept, 0: the end, 0.5: both), `…` between.
fn ends(chars: &[char], width: usize, front: f64) -> Fitted {
    let w = |c: &char| char_width(*c);
    let n = chars.len();
    if chars.iter().map(w).sum::<usize>() <= width {
        return Fitted {
            text: chars.iter().collect(),
            kept: vec![(0, n, 0)],
        };
    }
    let Some(room) = width.checked_sub(1) else {
        return Fitted {
            text: String::new(),
            kept: Vec::new(),
        };
    };
    let front_room = (room as f64 * front).ceil() as usize;
    let mut head = 0;
    let mut used = 0;
    while head < n && used + w(&chars[head]) <= front_room {
        used += w(&chars[head]);
        head += 1;
    }
    // What the front could not use (a wide char at its edge) goes to the
    // back, except where only the start is kept.
    let back_room = if front >= 1.0 { 0 } else { room - used };
    let mut tail = n;
    let mut used_back = 0;
    while tail > head && used_back + w(&chars[tail - 1]) <= back_room {
        used_back += w(&chars[tail - 1]);
        tail -= 1;
    }
    let mut text: String = chars[..head].iter().collect();
    text.push('…');
    text.extend(&chars[tail..]);
    Fitted {
        text,
        kept: vec![(0, head, 0), (tail, n - tail, head + 1)],
    }
}

/// A function's name cut to keep its class and method (`Cut::Name`): its
/// parameters go first (`Raytracer.Sphere.Intersect(cl…`), then, when the
/// name before them is still too wide, its namespace from the start
/// (`…s.Sphere.Intersect…`).
fn name(chars: &[char], width: usize) -> Fitted {
    let w = |cs: &[char]| cs.iter().map(|&c| char_width(c)).sum::<usize>();
    if w(chars) <= width {
        return ends(chars, width, 1.0);
    }
    // Parameters, not an empty `()`, go first.
    let params = chars
        .iter()
        .position(|&c| c == '(')
        .filter(|&p| chars.len() - p > 2);
    if let Some(params) = params {
        // The name and `(` fit with a `…`: the parameters are cut.
        if w(&chars[..=params]) < width {
            return ends(chars, width, 1.0);
        }
        // The name alone, its namespace cut, then `…` for the rest (one
        // `…` where the name's own cut ends in one).
        let Some(room) = width.checked_sub(1) else {
            return ends(chars, width, 1.0);
        };
        let f = name(&chars[..params], room);
        let text = match f.text.ends_with('…') {
            true => f.text,
            false => format!("{}…", f.text),
        };
        return Fitted { text, kept: f.kept };
    }
    let method = chars
        .iter()
        .rposition(|&c| matches!(c, '.' | ':' | '\\' | '/'))
        .map_or(0, |i| i + 1);
    if method == 0 {
        return ends(chars, width, 1.0);
    }
    if w(&chars[method..]) < width {
        // The method fits after a `…`: as much of the end as fits.
        return ends(chars, width, 0.0);
    }
    // The method alone is too wide: `…`, then the method cut at its end.
    let Some(room) = width.checked_sub(1) else {
        return ends(chars, width, 0.0);
    };
    let rest = ends(&chars[method..], room, 1.0);
    Fitted {
        text: format!("…{}", rest.text),
        kept: rest
            .kept
            .into_iter()
            .map(|(from, n, at)| (from + method, n, at + 1))
            .collect(),
    }
}

/// A cell's text as spans, the chars at `positions` in `hl`.
pub(super) fn highlighted<'a>(
    text: &str,
    positions: &[usize],
    base: Style,
    hl: Style,
) -> Vec<Span<'a>> {
    if positions.is_empty() {
        return vec![Span::styled(text.to_string(), base)];
    }
    let mut spans: Vec<Span<'a>> = Vec::new();
    let mut run = String::new();
    let mut run_hl = false;
    for (i, c) in text.chars().enumerate() {
        let is_hl = positions.binary_search(&i).is_ok();
        if is_hl != run_hl && !run.is_empty() {
            let style = if run_hl { base.patch(hl) } else { base };
            spans.push(Span::styled(std::mem::take(&mut run), style));
        }
        run_hl = is_hl;
        run.push(c);
    }
    if !run.is_empty() {
        spans.push(Span::styled(
            run,
            if run_hl { base.patch(hl) } else { base },
        ));
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;
    use unicode_width::UnicodeWidthStr;

    #[test]
    fn a_cut_keeps_the_end_the_start_or_both() {
        let name = "Raytracer.Primitives.Sphere.Intersect(Ray)";
        assert_eq!(fit_cut(name, 20, Cut::End).text, "Raytracer.Primitive…");
        assert_eq!(fit_cut(name, 20, Cut::Name).text, "…s.Sphere.Intersect…");
        assert_eq!(
            fit_cut(name, 40, Cut::Name).text,
            "Raytracer.Primitives.Sphere.Intersect(R…"
        );
        assert_eq!(
            fit_cut("TRACE.PRF.000012", 11, Cut::Middle).text,
            "TRACE…00012"
        );
        assert_eq!(fit_cut("short", 20, Cut::Name).text, "short");
        assert_eq!(fit_cut(name, 1, Cut::Middle).text, "…");
        assert_eq!(fit_cut(name, 0, Cut::Name).text, "");
        assert_eq!(
            fit_name_module("__onexit", Some("MSVCR100D.dll"), 12),
            "__one… […ll]"
        );
        assert_eq!(
            fit_name_module("__onexit", Some("a.dll"), 20),
            "__onexit [a.dll]"
        );
        assert_eq!(
            fit_name_module("ns.Sphere.Hit", Some("x.dll"), 16),
            "…ere.Hit [x.dll]"
        );
        // Wide characters never straddle the edge, and the width holds.
        for cut in [Cut::End, Cut::Name, Cut::Middle] {
            for width in 0..12 {
                let f = fit_cut("表示関数_wide_名前", width, cut);
                assert!(f.text.width() <= width, "{cut:?} {width}: {:?}", f.text);
            }
        }
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

    /// A char's place on screen after the cut: highlights stay on the
    /// chars they mark.
    #[test]
    fn positions_follow_the_cut() {
        let f = fit_cut("abcdefghij", 6, Cut::Middle);
        assert_eq!(f.text, "abc…ij");
        let shown: Vec<Option<usize>> = (0..10).map(|i| f.position(i)).collect();
        assert_eq!(
            shown,
            [
                Some(0),
                Some(1),
                Some(2),
                None,
                None,
                None,
                None,
                None,
                Some(4),
                Some(5)
            ]
        );
        let f = fit_cut("a.bcdefghij", 4, Cut::Name);
        assert_eq!(f.text, "…bc…");
        assert_eq!(
            (f.position(2), f.position(3), f.position(0)),
            (Some(1), Some(2), None)
        );
        let f = fit_cut("ns.m(x)", 6, Cut::Name);
        assert_eq!(
            (f.text.as_str(), f.position(3), f.position(0)),
            ("ns.m(…", Some(3), Some(0))
        );
    }
}
