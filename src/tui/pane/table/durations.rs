//! The split's third list (issue 65): the selected function's calls'
//! durations, their median, 90th and 99th percentile (model.md §
//! Per-call statistics) beside the shortest and longest, and a histogram
//! of their spans; `w`, the Trace pane on its slowest call's first event;
//! `%`, a call's event and its return's, each to the other.

use super::super::{Ctx, Effect, Step, inner};
use super::TablePane;
use crate::analysis::cct::Label;
use crate::analysis::columns::Value;
use crate::model::metrics::{CallDurations, Histogram};
use crate::model::{FuncId, PacketId, Profile};
use crate::report::fmt::{cell, grouped};
use crate::tui::fit::{fit, full_name};
use crate::tui::intent::Intent;
use crate::tui::keymap::{Place, key_for};
use crate::tui::render::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Span;
use ratatui::widgets::{Block, Sparkline, Widget};
use std::sync::Arc;
use unicode_width::UnicodeWidthStr;

/// The narrowest histogram drawn: room for its two ends' bounds.
const HIST_MIN: u16 = 24;

/// The columns of the numbers, by heading: `min` and `max` (the
/// Functions table's `Min`/`Max` columns too) go first when room is short.
const HEADS: [&str; 5] = ["min", "p50", "p90", "p99", "max"];

/// Which columns are shown, widest choice first.
const CHOICES: [&[usize]; 3] = [&[0, 1, 2, 3, 4], &[1, 2, 3, 4], &[1, 2, 3]];

/// The durations list of the selected function, in the split's `area`.
pub(super) fn draw(buf: &mut Buffer, area: Rect, t: &TablePane, cx: &Ctx, theme: Theme) {
    let p = cx.profile.as_ref();
    let f = t.split_function(cx);
    let name = f.map(|f| full_name(p, Label::Func(f))).unwrap_or_default();
    let title = format!(" Call durations of {name} ");
    let Some((f, d)) = f.and_then(|f| Some((f, p.call_durations(f)?))) else {
        let why = absent_why(f, cx);
        framed(buf, area, (&title, ""), theme);
        let inner = inner(area);
        buf.set_stringn(
            inner.x + 1,
            inner.y,
            why,
            usize::from(inner.width.saturating_sub(1)),
            theme.dim(),
        );
        return;
    };
    let numbers = Numbers::of(p, f, &d);
    let fits = |cols: &[usize], hist: u16| numbers.width(cols) + hist <= area.width;
    let (cols, hist) = match CHOICES.iter().find(|c| fits(c, HIST_MIN)) {
        Some(c) => (*c, true),
        None => (
            *CHOICES.iter().find(|c| fits(c, 0)).unwrap_or(&CHOICES[2]),
            false,
        ),
    };
    let left_w = match hist {
        true => numbers
            .width(cols)
            .max(area.width / 2)
            .min(area.width - HIST_MIN),
        false => area.width,
    };
    let mut hidden: Vec<&str> = HEADS
        .iter()
        .enumerate()
        .filter(|(i, _)| !cols.contains(i))
        .map(|(_, h)| *h)
        .collect();
    if !hist {
        hidden.push("histogram");
    }
    let note = match hidden.is_empty() {
        true => String::new(),
        false => format!(" {} hidden ", hidden.join(", ")),
    };
    let left = Rect::new(area.x, area.y, left_w, area.height);
    framed(buf, left, (&title, &note), theme);
    numbers.draw(buf, inner(left), cols, theme);
    if hist {
        let right = Rect::new(area.x + left_w, area.y, area.width - left_w, area.height);
        histogram(buf, right, p.time_unit_name(), &d.histogram, theme);
    }
}

/// A bordered box with its title and a note on its bottom edge.
fn framed(buf: &mut Buffer, area: Rect, (title, note): (&str, &str), theme: Theme) {
    let (title, _) = fit(title, usize::from(area.width.saturating_sub(4)));
    Block::bordered()
        .title(Span::styled(title, theme.title()))
        .render(area, buf);
    if !note.is_empty() && area.height > 0 && note.width() + 4 <= usize::from(area.width) {
        buf.set_string(area.x + 2, area.bottom() - 1, note, theme.dim());
    }
}

/// Why the selected function shows no durations.
fn absent_why(f: Option<FuncId>, cx: &Ctx) -> String {
    let p = cx.profile;
    match f {
        None => "no function selected".into(),
        Some(_) if p.has_call_durations() => "no call of it ended in the trace".into(),
        Some(_) if cx.answer.events().has_call_durations() => format!(
            "absent after a transform: a rewritten path does not know which call its time was · {} undoes it",
            key_for(&Intent::PopStep, Place::Query)
        ),
        Some(_) => format!(
            "none: this {} profile records no call's duration (a timed trace does)",
            p.format
        ),
    }
}

/// The numbers of the list, as cells: each column's heading, inclusive
/// and exclusive values, and the calls.
struct Numbers {
    unit: &'static str,
    cols: [(String, String); 5],
    calls: String,
}

impl Numbers {
    fn of(p: &Profile, f: FuncId, d: &CallDurations) -> Numbers {
        let pc = p.per_call(f);
        let ms = |v: Option<f64>| cell(Value::Ms(v));
        let [i50, i90, i99] = d.inclusive.all().map(Some);
        let [e50, e90, e99] = d.exclusive.all().map(Some);
        Numbers {
            unit: p.time_unit_name(),
            cols: [
                (ms(pc.min_inclusive), ms(pc.min_exclusive)),
                (ms(i50), ms(e50)),
                (ms(i90), ms(e90)),
                (ms(i99), ms(e99)),
                (ms(pc.max_inclusive), ms(pc.max_exclusive)),
            ],
            calls: grouped(d.calls),
        }
    }

    /// The first column's width: `incl ms`, `excl ticks`, `calls`.
    fn label_w(&self) -> u16 {
        (5 + self.unit.width()) as u16
    }

    fn col_w(&self, c: usize) -> u16 {
        let (i, e) = &self.cols[c];
        HEADS[c].width().max(i.width()).max(e.width()) as u16
    }

    /// The box's width for these columns: its borders, a space each side,
    /// the labels, and two spaces before each column.
    fn width(&self, cols: &[usize]) -> u16 {
        4 + self.label_w() + cols.iter().map(|&c| 2 + self.col_w(c)).sum::<u16>()
    }

    fn draw(&self, buf: &mut Buffer, inner: Rect, cols: &[usize], theme: Theme) {
        let x0 = inner.x + 1;
        let room = usize::from(inner.width.saturating_sub(2));
        let right = |x: u16, w: u16, s: &str| x + w.saturating_sub(s.width() as u16);
        let mut rows = inner.y..inner.bottom();
        let labels = [
            String::new(),
            format!("incl {}", self.unit),
            format!("excl {}", self.unit),
        ];
        for (r, label) in labels.iter().enumerate() {
            let Some(y) = rows.next() else { return };
            let style = if r == 0 { theme.dim() } else { theme.base() };
            buf.set_stringn(x0, y, label, room, style);
            let mut x = x0 + self.label_w();
            for &c in cols {
                let w = self.col_w(c);
                x += 2;
                let text = match r {
                    0 => HEADS[c],
                    1 => &self.cols[c].0,
                    _ => &self.cols[c].1,
                };
                buf.set_string(right(x, w, text), y, text, style);
                x += w;
            }
        }
        let end = x0 + self.width(cols) - 4;
        if let Some(y) = rows.next() {
            buf.set_stringn(x0, y, "calls", room, theme.base());
            buf.set_string(
                right(x0, end - x0, &self.calls),
                y,
                &self.calls,
                theme.base(),
            );
        }
        if let Some(y) = rows.next() {
            let w = key_for(&Intent::SlowestCall, Place::Functions);
            let hint = format!("{w} the slowest call in the Trace pane");
            let (hint, _) = fit(&hint, room);
            buf.set_stringn(x0, y, hint, room, theme.dim());
        }
    }
}

/// The spans as bars by powers of two of the time unit, each bar's lower
/// bound under it where there is room, the last one's upper bound at the
/// right.
fn histogram(buf: &mut Buffer, area: Rect, unit: &str, h: &Histogram, theme: Theme) {
    framed(buf, area, (" Calls by span ", ""), theme);
    let inner = inner(area);
    let (w, rows) = (usize::from(inner.width), inner.height.saturating_sub(1));
    // The calls of no time first, as a bucket of their own.
    let zero = usize::from(h.zero > 0);
    let mut buckets: Vec<u64> = Vec::with_capacity(h.counts.len() + 1);
    if h.zero > 0 {
        buckets.push(h.zero);
    }
    buckets.extend_from_slice(h.counts);
    if w == 0 || rows == 0 || buckets.is_empty() {
        return;
    }
    // More buckets than columns: neighbours share a bar.
    let group = buckets.len().div_ceil(w);
    let bars: Vec<u64> = buckets.chunks(group).map(|c| c.iter().sum()).collect();
    let bw = (w / bars.len()).min(8);
    let levels = u64::from(rows) * 8;
    let peak = bars.iter().copied().max().unwrap_or(1).max(1);
    // A bar with a call shows at least an eighth of a cell.
    let height = |n: u64| (u128::from(n) * u128::from(levels)).div_ceil(u128::from(peak)) as u64;
    let gap = bw >= 3;
    let data: Vec<u64> = (0..bars.len() * bw)
        .map(|x| match gap && x % bw == bw - 1 {
            true => 0,
            false => height(bars[x / bw]),
        })
        .collect();
    let used = (bars.len() * bw) as u16;
    Sparkline::default()
        .data(&data)
        .max(levels)
        .style(theme.bar())
        .render(Rect::new(inner.x, inner.y, used, rows), buf);
    let lower = |bucket: usize| match bucket.checked_sub(zero) {
        None => "0".to_string(),
        Some(b) => bound(h.first_exp + b as i32),
    };
    let last = format!("{} {unit}", bound(h.first_exp + h.counts.len() as i32));
    let y = inner.y + rows;
    let end = inner.x + inner.width;
    let mut free = inner.x;
    for b in 0..bars.len() {
        let (x, label) = (inner.x + (b * bw) as u16, lower(b * group));
        let fits = x + (label.width() as u16) < end.saturating_sub(last.width() as u16);
        if x >= free && fits {
            buf.set_string(x, y, &label, theme.dim());
            free = x + label.width() as u16 + 1;
        }
    }
    let x = (inner.x + used)
        .min(end)
        .saturating_sub(last.width() as u16);
    if x >= free {
        buf.set_string(x, y, &last, theme.dim());
    }
}

/// 2^e, written whole: every digit of a power of two's decimals.
fn bound(e: i32) -> String {
    match u32::try_from(e) {
        Ok(e) if e < 64 => grouped(1u64 << e),
        _ => format!("{}", 2f64.powi(e)),
    }
}

/// `w`: the Trace pane on the first event of the slowest call of `f` (a
/// function of the paths' profile). The calls are the answer's base's
/// (the thread choice's, or its innermost range's: a transform changes no
/// call), its function found there by name and module; a call's position
/// counts the chosen threads' events, as the events' profile's packets
/// hold them.
pub(super) fn slowest_call(f: Option<FuncId>, cx: &Ctx) -> Effect {
    let Some(f) = f else {
        return Effect::Say("no function selected".into());
    };
    let (paths, events) = (cx.answer.paths(), cx.answer.events());
    let base = cx.answer.levels().first().map_or(events, |l| &l.profile);
    let g = match Arc::ptr_eq(paths, base) {
        true => Some(f),
        false => {
            let key = (paths.function_name(f), paths.function_module(f));
            base.function_ids()
                .find(|&g| (base.function_name(g), base.function_module(g)) == key)
        }
    };
    let d = g.and_then(|g| base.call_durations(g));
    let at = d
        .and_then(|d| d.slowest_event)
        .and_then(|at| events.event_at(at));
    let name = crate::text::visible(paths.function_name(f)).into_owned();
    match (d, at) {
        (_, Some((k, i))) => Effect::Open(Step::Event(k, i)),
        (Some(_), None) => Effect::Say(format!(
            "{name}'s slowest call began before the trace's first kept event"
        )),
        (None, _) if events.packets().is_empty() => Effect::Say(format!(
            "no trace events: this {} profile has none",
            events.format
        )),
        (None, _) if !base.has_call_durations() => Effect::Say(format!(
            "no call durations: this {} profile records none (a timed trace's calls give them)",
            events.format
        )),
        (None, _) => Effect::Say(format!("no call of {name} ended in the trace")),
    }
}

/// Whether an event's op opens a call (`i`, `I`) or closes one (`O`,
/// `o`): the codes the Trace pane's `Op` heading names (formats.md §
/// xpp); `None` for any other.
fn opens(op: &str) -> Option<bool> {
    match op {
        "i" | "I" => Some(true),
        "o" | "O" => Some(false),
        _ => None,
    }
}

/// `%`: the event that pairs with event `i` of packet `k` of the events'
/// profile `p`: a call's return, a return's call (vim's `%`). It is the
/// first event after (before) it of the same thread, function and depth
/// that closes (opens) what it opens (closes), calls in between counted
/// as brackets are: events at one depth of one thread are a call's entry
/// and its return, and an unfiltered trace's `I` and `O` at the depth
/// inside it. Only candidates (same function and depth, read from the
/// index) are decoded; the packets are one trace, so the search crosses
/// them.
pub(super) fn partner(p: &Profile, (k, i): (PacketId, usize)) -> Result<(PacketId, usize), String> {
    let src = &p.packet(k).events;
    let e = src.get(i).ok_or("this event does not decode")?;
    let pct = key_for(&Intent::Partner, Place::Events);
    let Some(open) = opens(&e.op) else {
        let op = crate::text::visible(&e.op);
        return Err(format!(
            "{op:?} pairs with no event: {pct} goes from a call (i, I) to its return (O, o) and back"
        ));
    };
    let f = e.function.ok_or("this event names no function")?;
    let depth = src.depth(i);
    let mut open_calls = 1usize;
    let found = events_from(p, (k, i), open).find(|&(k2, j)| {
        let s = &p.packet(k2).events;
        if s.function(j) != Some(f) || s.depth(j) != depth {
            return false;
        }
        let Some(c) = s.get(j).filter(|c| c.thread == e.thread) else {
            return false;
        };
        match opens(&c.op) {
            Some(o) if o == open => open_calls += 1,
            Some(_) => open_calls -= 1,
            None => {}
        }
        open_calls == 0
    });
    found.ok_or_else(|| match open {
        true => "no return of this call in the trace: still open at its end, or closed by a return further down".into(),
        false => "no call of this return in the trace".into(),
    })
}

/// The events after (`forward`) or before `(k, i)`, nearest first, across
/// the packets in input order.
fn events_from(
    p: &Profile,
    (k, i): (PacketId, usize),
    forward: bool,
) -> impl Iterator<Item = (PacketId, usize)> + '_ {
    let n = p.packets().len();
    let packets: Box<dyn Iterator<Item = usize>> = match forward {
        true => Box::new(k.index()..n),
        false => Box::new((0..=k.index()).rev()),
    };
    packets.flat_map(move |kk| {
        let len = p.packet(PacketId::from_index(kk)).events.len();
        let here = kk == k.index();
        let idx: Box<dyn Iterator<Item = usize>> = match (forward, here) {
            (true, true) => Box::new(i + 1..len),
            (true, false) => Box::new(0..len),
            (false, true) => Box::new((0..i).rev()),
            (false, false) => Box::new((0..len).rev()),
        };
        idx.map(move |j| (PacketId::from_index(kk), j))
    })
}
