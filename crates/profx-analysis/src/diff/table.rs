//! `profx diff BASE NEW --table`: the function comparison for people.
//!
//! A header states both sides (their files, formats, queries and totals)
//! and the legend; then one line a function: name, module and status,
//! both values of the measure, the change signed (`+`: more, `−`: less),
//! the ratio and the change of its share of its run's total. Every change
//! is written with its sign, so no colour is needed to read it. Values
//! are written as `report --table` writes them (`report::fmt::cell`).

use super::{Comparison, Delta, Measure, Metric, Num, Row, Which};
use crate::columns::Value;
use crate::report::fmt::{cell, counted, grouped, grouped_3, grouped_time};
use profx_model::text::visible;
use std::io::{self, Write};
use unicode_width::UnicodeWidthStr;

/// What the rows are ordered by: the largest change first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SortBy {
    /// The change of the inclusive value (the default).
    #[default]
    Incl,
    /// The change of the exclusive value.
    Excl,
    /// The change of the calls.
    Calls,
    /// The change of the share of its run's total.
    Share,
    /// Canonical order: name, then module.
    Name,
}

impl SortBy {
    /// Its name, as `--sort` takes it.
    pub fn name(self) -> &'static str {
        match self {
            SortBy::Incl => "incl",
            SortBy::Excl => "self",
            SortBy::Calls => "calls",
            SortBy::Share => "share",
            SortBy::Name => "name",
        }
    }

    fn metric(self, m: Measure) -> Option<Metric> {
        match self {
            SortBy::Incl => Some(m.incl()),
            SortBy::Excl => m.excl(),
            SortBy::Calls => Some(Metric::Calls),
            SortBy::Share => m.share(),
            SortBy::Name => None,
        }
    }
}

/// How to order and cut the table.
#[derive(Clone, Copy, Debug, Default)]
pub struct TableOptions {
    /// The order (`--sort`).
    pub sort: SortBy,
    /// The first N rows only (`--top`).
    pub top: Option<usize>,
}

/// The rows in the table's order: by the largest absolute change of the
/// sort's metric (rows without one last), ties in canonical order.
pub fn ordered(c: &Comparison, opts: &TableOptions) -> Vec<usize> {
    let mut order: Vec<usize> = (0..c.rows().len()).collect();
    let metric = c.measure().and_then(|m| opts.sort.metric(m));
    if let Some(m) = metric {
        let size: Vec<f64> = c
            .rows()
            .iter()
            .map(|r| c.delta(r, m).map_or(-1.0, |d| d.get().abs()))
            .collect();
        order.sort_by(|&a, &b| size[b].total_cmp(&size[a]).then(a.cmp(&b)));
    }
    order.truncate(opts.top.unwrap_or(usize::MAX));
    order
}

/// Writes the table.
pub fn write_table(c: &Comparison, opts: &TableOptions, out: &mut dyn Write) -> io::Result<()> {
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    header(c, opts, &mut out)?;
    let Some(measure) = c.measure() else {
        return out.flush();
    };
    let unit = match measure {
        Measure::Time => c.time_unit().unwrap_or_default().name(),
        Measure::Hits => "hits",
        Measure::Calls => "calls",
    };
    let head = [
        "Name".to_string(),
        "Module · status".to_string(),
        format!("Base incl {unit}"),
        format!("New incl {unit}"),
        format!("Δ incl {unit}"),
        "Ratio".to_string(),
        "Share Δ".to_string(),
    ];
    let order = ordered(c, opts);
    let lines: Vec<[String; 7]> = order
        .iter()
        .map(|&i| line(c, &c.rows()[i], measure))
        .collect();
    let mut width = head.each_ref().map(|h| h.width());
    for l in &lines {
        for (w, cell) in width.iter_mut().zip(l) {
            *w = (*w).max(cell.width());
        }
    }
    write_line(&head, &width, &mut out)?;
    for l in &lines {
        write_line(l, &width, &mut out)?;
    }
    out.flush()
}

/// Cells padded to their column's width: text to the left, numbers to the
/// right, no trailing spaces.
fn write_line(cells: &[String; 7], width: &[usize; 7], out: &mut dyn Write) -> io::Result<()> {
    let mut text = String::new();
    for (k, (c, &w)) in cells.iter().zip(width).enumerate() {
        let pad = " ".repeat(w.saturating_sub(c.width()));
        if k > 0 {
            text.push_str("  ");
        }
        match k {
            0 | 1 => {
                text.push_str(c);
                text.push_str(&pad);
            }
            _ => {
                text.push_str(&pad);
                text.push_str(c);
            }
        }
    }
    writeln!(out, "{}", text.trim_end())
}

fn header(c: &Comparison, opts: &TableOptions, out: &mut dyn Write) -> io::Result<()> {
    let rows = c.rows();
    let count = |s: &str| rows.iter().filter(|r| r.status() == s).count() as u64;
    let by = match (c.measure(), opts.sort) {
        (Some(m), s) if s.metric(m).is_some() => format!(
            " · by {} · sorted by its largest change",
            s.metric(m).map_or("", Metric::key)
        ),
        (Some(m), _) => format!(" · by {} · sorted by name", m.incl().key()),
        (None, _) => String::new(),
    };
    writeln!(
        out,
        "# comparison: {}: {} in both, {} new, {} gone{by}",
        counted(rows.len() as u64, "functions"),
        grouped(count("both")),
        grouped(count("new")),
        grouped(count("gone")),
    )?;
    for w in Which::BOTH {
        writeln!(out, "{}", side_line(c, w))?;
    }
    writeln!(
        out,
        "# Δ = new − base (+ more, − less) · ratio = new ÷ base · share Δ: points of each run's total"
    )?;
    for w in Which::BOTH {
        for note in super::asked(c.side(w)).dropped.notes {
            writeln!(out, "# {w} note: {}", visible(&note))?;
        }
    }
    for note in c.notes() {
        writeln!(out, "# note: {note}")?;
    }
    Ok(())
}

/// `# base: FILE (plist, ms) · drop F · session 7,609.400 ms`, and for
/// the new side the total's change.
fn side_line(c: &Comparison, w: Which) -> String {
    let a = c.side(w);
    let p = a.paths();
    let files: Vec<String> = p.sources.iter().map(|s| visible(s).into_owned()).collect();
    let unit = p.time_unit().map_or("no times", |u| u.name());
    let query = a.label().unwrap_or_else(|| "the whole profile".into());
    let mut line = format!(
        "# {:<5} {} ({}, {unit}) · {query}",
        format!("{w}:"),
        files.join(" "),
        visible(&p.format)
    );
    match (c.measure(), c.total(w)) {
        (Some(Measure::Time), Some(t)) => {
            line.push_str(&format!(" · session {}", grouped_time(p, t.get())))
        }
        (Some(Measure::Hits), Some(Num::Count(n))) => {
            line.push_str(&format!(" · {}", counted(n, "samples")))
        }
        _ => {}
    }
    if let (Which::New, Some(b), Some(n)) = (w, c.total(Which::Base), c.total(Which::New)) {
        let d = signed(super::delta(b, n));
        let unit = match c.measure() {
            Some(Measure::Time) => p.time_unit_name(),
            _ => "samples",
        };
        let ratio = super::ratio(b, n).map_or(String::new(), |r| format!(" ({})", times(r)));
        line.push_str(&format!(" · Δ {d} {unit}{ratio}"));
    }
    line
}

/// Row `r`'s value of `m` on side `w` as the table writes it: a count
/// grouped, a time to three decimals, a percent to two; `—` where the
/// side has none. The app's comparison shows the same cells.
pub fn value_cell(c: &Comparison, w: Which, r: &Row, m: Metric) -> String {
    match c.value(w, r, m) {
        Some(Num::Count(n)) => cell(Value::Count(Some(n))),
        Some(Num::Real(x)) if m.is_pct() => cell(Value::Pct(Some(x))),
        Some(Num::Real(x)) => cell(Value::Ms(Some(x))),
        None => cell(Value::Ms(None)),
    }
}

/// Row `r`'s change of `m`, new − base, signed (`+12.000`, `-3`; a
/// percent's in points, `+1.25`); `—` where a side has none.
pub fn change_cell(c: &Comparison, r: &Row, m: Metric) -> String {
    match c.delta(r, m) {
        Some(Delta::Real(x)) if m.is_pct() => signed_pct(x),
        Some(d) => signed(d),
        None => "—".into(),
    }
}

/// Row `r`'s change of `m` in percent of its base value, signed
/// (`+25.00%`, `-100.00%` for a function gone); `—` where the base is 0
/// (a function new to the run) or a side has none.
pub fn change_pct_cell(c: &Comparison, r: &Row, m: Metric) -> String {
    c.ratio(r, m).map_or("—".into(), |q| {
        format!("{}%", signed_pct((q - 1.0) * 100.0))
    })
}

fn line(c: &Comparison, r: &Row, m: Measure) -> [String; 7] {
    let incl = m.incl();
    let value = |w: Which| value_cell(c, w, r, incl);
    let share = m
        .share()
        .and_then(|s| c.delta(r, s))
        .map_or("—".to_string(), |d| match d {
            Delta::Real(x) => signed_pct(x),
            Delta::Count(n) => signed(Delta::Count(n)),
        });
    [
        visible(r.name(c)).into_owned(),
        status_cell(c, r),
        value(Which::Base),
        value(Which::New),
        c.delta(r, incl).map_or("—".to_string(), signed),
        c.ratio(r, incl).map_or("—".to_string(), times),
        share,
    ]
}

/// Module and status as the table writes them: `m.obj`, `m.obj · new`, `m.obj · gone`, `(none) →
/// m.obj · by name`.
pub fn status_cell(c: &Comparison, r: &Row) -> String {
    let shown = |m: &str| match m {
        "" => "(none)".to_string(),
        m => visible(m).into_owned(),
    };
    match (r.status(), r.paired_by) {
        ("both", Some(super::PairedBy::Name)) => format!(
            "{} → {} · by name",
            shown(r.module_on(c, Which::Base).unwrap_or("")),
            shown(r.module_on(c, Which::New).unwrap_or(""))
        ),
        ("both", _) => visible(r.module(c)).into_owned(),
        (s, _) if r.module(c).is_empty() => s.to_string(),
        (s, _) => format!("{} · {s}", visible(r.module(c))),
    }
}

/// A change with its sign: `+12.500`, `-3`, `0` (a change of nothing has
/// no direction).
pub fn signed(d: Delta) -> String {
    match d {
        Delta::Count(0) => "0".into(),
        Delta::Count(n) if n > 0 => format!("+{}", grouped(n.unsigned_abs() as u64)),
        Delta::Count(n) => format!("-{}", grouped(n.unsigned_abs() as u64)),
        Delta::Real(0.0) => "0.000".into(),
        Delta::Real(x) if x > 0.0 => format!("+{}", grouped_3(x)),
        Delta::Real(x) => format!("-{}", grouped_3(-x)),
    }
}

/// A change of a percent, in points with two decimals, signed.
pub(crate) fn signed_pct(x: f64) -> String {
    match x {
        0.0 => "0.00".into(),
        x if x > 0.0 => format!("+{x:.2}"),
        x => format!("-{:.2}", -x),
    }
}

/// A ratio: `×1.250`.
fn times(r: f64) -> String {
    format!("×{r:.3}")
}
