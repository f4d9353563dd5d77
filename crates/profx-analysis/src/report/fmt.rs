//! How a value of the model is written for people: the `--table` output and
//! the app print numbers through these, so both show the same digits.

use crate::columns::Value;
use profx_model::text::visible;
use profx_model::{MetaValue, Profile, TimeUnit};
use std::fmt::Write;

/// A cell: times to the microsecond, percents to two places, absent as `—`,
/// text made safe for a terminal.
pub fn cell(v: Value<'_>) -> String {
    match v {
        Value::Text(t) => visible(t).into_owned(),
        // One way of writing numbers for people, in the app and --table:
        // thousands grouped (CSV and --json keep plain numbers).
        Value::Count(Some(n)) => grouped(n),
        Value::Ordinal(Some(n)) => n.to_string(),
        Value::Ms(Some(x)) => grouped_3(x),
        Value::Pct(Some(x)) => format!("{x:.2}"),
        Value::Count(None) | Value::Ordinal(None) | Value::Ms(None) | Value::Pct(None) => {
            "—".into()
        }
    }
}

/// What the percent columns among `keys` (a table's columns, by their
/// `--json` keys) are out of (tui.md: "percent columns say what they are
/// out of"): the session's time, the application's, the samples, a line's
/// function; empty where none of them is a column (the stacks, the
/// packets, a listing's lines have no percent to say the basis of).
pub fn percent_basis(p: &Profile, keys: &[&str]) -> String {
    let t = &p.totals;
    let pct = |stem: &str| {
        keys.iter()
            .any(|k| k.starts_with(stem) && k.ends_with("_pct"))
    };
    let session = t
        .elapsed_inclusive_ms
        .map(|x| format!("session {}", grouped_time(p, x)));
    let samples = t.samples.map(|n| format!("{} samples", grouped(n)));
    let mut parts = Vec::new();
    if let Some(s) = session.as_ref().filter(|_| pct("elapsed_")) {
        parts.push(format!("% of {s}"));
    }
    if let Some(a) = t.application_inclusive_ms.filter(|_| pct("application_")) {
        parts.push(format!("app % of {}", grouped_time(p, a)));
    }
    if let Some(s) = samples.as_ref().filter(|_| pct("hits_")) {
        parts.push(format!("hit % of {s}"));
    }
    // A line's percent is of its function (model.md § The four time values).
    if keys.contains(&"pct") {
        parts.push(match session.or(samples) {
            Some(whole) => format!("% of the line's function (no function: of {whole})"),
            None => "% of the line's function".into(),
        });
    }
    parts.join(" · ")
}

/// The session totals and row counts, as the Info views list them: first
/// the unit the times are in, each time's name ending in it.
pub fn totals(p: &Profile, events: &Profile) -> Vec<(String, String)> {
    let t = &p.totals;
    let count = |n: usize| grouped(n as u64);
    let unit = p.time_unit_name();
    let time = |what: &str, x: Option<f64>| (format!("{what} {unit}"), cell(Value::Ms(x)));
    let mut rows = vec![("time unit".to_string(), time_unit_said(p))];
    rows.extend([
        time("elapsed", t.elapsed_inclusive_ms),
        time("application", t.application_inclusive_ms),
        time("outside", t.outside_ms),
    ]);
    rows.extend(
        [
            ("samples", cell(Value::Count(t.samples))),
            ("functions", count(p.functions().len())),
            ("lines", count(p.lines().len())),
            ("stacks", count(p.stacks().len())),
            ("packets", count(events.packets().len())),
            ("events", count(events.event_count())),
        ]
        .map(|(k, v)| (k.to_string(), v)),
    );
    rows
}

/// The profile's time unit in words, as Info states it: ticks say what
/// they are and how to have ms (`--clock-mhz`); a profile without times
/// says so.
pub fn time_unit_said(p: &Profile) -> String {
    match p.time_unit() {
        Some(TimeUnit::Ticks) => format!(
            "{} (processor clock cycles; --clock-mhz N turns them into {})",
            TimeUnit::Ticks.name(),
            TimeUnit::Ms.name()
        ),
        Some(unit) => unit.name().to_string(),
        None => "— (no times)".to_string(),
    }
}

/// A meta value as Info (the pane and `--view info`) shows it: a whole
/// number, a count (`total_hits`), grouped as every count shown to a
/// person; text made safe for a terminal. `--json` keeps plain numbers.
pub fn meta_value(v: &MetaValue) -> String {
    match v {
        MetaValue::Text(s) => visible(s).into_owned(),
        MetaValue::Int(n) if *n < 0 => format!("-{}", grouped(n.unsigned_abs())),
        MetaValue::Int(n) => grouped(n.unsigned_abs()),
        MetaValue::Float(x) => x.to_string(),
    }
}

/// `3010` as `3,010`: every count shown to a person (the app, the
/// tables' headings, notes and messages) is written by this, or by
/// `counted` with its noun; `--json` and CSV keep plain numbers.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// "1 packet", "9,111,070 events": a count with its thousands grouped and
/// its noun (given in the plural, `…s`) singular for one.
pub fn counted(n: u64, plural: &str) -> String {
    match n {
        1 => format!("1 {}", plural.strip_suffix('s').unwrap_or(plural)),
        _ => format!("{} {plural}", grouped(n)),
    }
}

/// Why a view of `what` (`functions`, `lines`, …) has no rows at all:
/// where the load gave warnings, that its rows were skipped (a file whose
/// only row was damaged does record them); else that the format records
/// none (issue 63: never the second where the first is true).
pub fn empty_because(p: &profx_model::Profile, what: &str) -> String {
    // A followed trace with no record yet (`profx --follow`'s first
    // profile) says what it waits for.
    if let Some(profx_model::MetaValue::Text(why)) = p.meta.get(WAITING) {
        return why.clone();
    }
    let row = what.strip_suffix('s').unwrap_or(what);
    match p.warnings().len() as u64 {
        0 => format!("this {} profile does not record {what}", p.format),
        n => format!("every {row} row was skipped: {}", counted(n, "warnings")),
    }
}

/// The meta key of a profile that stands for a followed trace with no
/// record yet: why there are no rows.
pub const WAITING: &str = "waiting";

/// What a command that prints a view says on stderr when the load gave
/// warnings: how many, and where they are listed (the numbers of a
/// damaged file are not what a whole one gives); `None` without any.
pub fn warnings_note(p: &profx_model::Profile) -> Option<String> {
    match p.warnings().len() as u64 {
        0 => None,
        n => Some(format!(
            "{} while loading; `profx report --view info` or `--json` lists them",
            counted(n, "warnings")
        )),
    }
}

/// A time of `p` in running text, with thousands grouped and the
/// profile's unit: `7,609.424 ms`, `39,489.000 ticks`.
pub fn grouped_time(p: &Profile, x: f64) -> String {
    grouped_in(x, p.time_unit_name())
}

/// A time with thousands grouped and the unit named (`TimeUnit::name`),
/// where the profile itself is not at hand.
pub fn grouped_in(x: f64, unit: &str) -> String {
    format!("{} {unit}", grouped_3(x))
}

/// A number with every digit it has, never fewer than three decimals,
/// its thousands grouped: `5,336.000`, `12.0625`. For what a person gave
/// (a range's edges), which a display never rounds.
pub fn grouped_exact(x: f64) -> String {
    if !x.is_finite() {
        return format!("{x}");
    }
    let text = format!("{}", x.abs());
    let (whole, frac) = text.split_once('.').unwrap_or((text.as_str(), ""));
    let mut out = String::with_capacity(text.len() + text.len() / 3 + 4);
    if x < 0.0 {
        out.push('-');
    }
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    let _ = write!(out, ".{frac:0<3}");
    out
}

/// A number with three decimals and its thousands grouped: `7,609.424`,
/// `-1,204.000`. Rounded as `{:.3}` rounds, then grouped, so a carry
/// (`999.9996` → `1,000.000`) is grouped too.
pub fn grouped_3(x: f64) -> String {
    let text = format!("{:.3}", x.abs());
    let Some((whole, frac)) = text.split_once('.').filter(|_| x.is_finite()) else {
        return format!("{x:.3}");
    };
    let mut out = String::with_capacity(text.len() + text.len() / 3 + 1);
    if x.is_sign_negative() && text != "0.000" {
        out.push('-');
    }
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    let _ = write!(out, ".{frac}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A range's edge keeps every digit it was given, and three at least.
    #[test]
    fn an_exact_number_keeps_its_digits() {
        assert_eq!(grouped_exact(5336.0), "5,336.000");
        assert_eq!(grouped_exact(10633.0625), "10,633.0625");
        assert_eq!(grouped_exact(-0.5), "-0.500");
        assert_eq!(grouped_exact(123456789.1), "123,456,789.100");
    }

    /// The basis names only the percents among the keys: a time's, the
    /// application's, a hit's, a line's (of its function); none for a
    /// table without percents.
    #[test]
    fn the_basis_names_the_percents_shown() {
        let mut b = profx_model::ProfileBuilder::new("test");
        b.totals_mut().elapsed_inclusive_ms = Some(1234.5);
        let p = b.finish();
        assert_eq!(percent_basis(&p, &["name", "depth", "self_ms"]), "");
        assert_eq!(
            percent_basis(&p, &["elapsed_inclusive_ms", "elapsed_inclusive_pct"]),
            "% of session 1,234.500 ms"
        );
        assert_eq!(
            percent_basis(&p, &["time_ms", "pct"]),
            "% of the line's function (no function: of session 1,234.500 ms)"
        );
    }

    /// A line number names a line: `2011`, as an editor shows it; a count
    /// of 2,011 calls is grouped.
    #[test]
    fn line_numbers_are_never_grouped() {
        let mut b = profx_model::ProfileBuilder::new("test");
        let (file, module) = (b.intern("a.prg"), b.intern(""));
        let name = b.intern("f");
        let f = b.function(name, module);
        let l = b.line(file, 2011, Some(f));
        b.line_summary(l, Some(2011), None);
        let p = b.finish();
        let l = profx_model::LineId::from_index(0);
        use crate::columns::{Column, LineColumn};
        assert_eq!(cell(LineColumn::Line.value(&p, l)), "2011");
        assert_eq!(cell(LineColumn::Hits.value(&p, l)), "2,011");
        assert_eq!(cell(Value::Ordinal(Some(1_000_000))), "1000000");
    }

    #[test]
    fn milliseconds_group_their_thousands() {
        assert_eq!(grouped_3(10_174_166.0), "10,174,166.000");
        assert_eq!(grouped_3(999.9996), "1,000.000");
        assert_eq!(grouped_3(-1204.5), "-1,204.500");
        assert_eq!(grouped_3(-0.0001), "0.000");
        assert_eq!(grouped_3(0.424), "0.424");
        assert_eq!(grouped_3(f64::NAN), "NaN");
    }

    #[test]
    fn counts_say_one_in_the_singular_and_group_the_rest() {
        assert_eq!(counted(1, "packets"), "1 packet");
        assert_eq!(counted(0, "packets"), "0 packets");
        assert_eq!(counted(9_111_070, "events"), "9,111,070 events");
    }

    #[test]
    fn meta_counts_are_grouped_and_text_kept() {
        assert_eq!(meta_value(&MetaValue::Int(16_359_081)), "16,359,081");
        assert_eq!(meta_value(&MetaValue::Int(522)), "522");
        assert_eq!(meta_value(&MetaValue::Int(-1234)), "-1,234");
        assert_eq!(meta_value(&MetaValue::Float(43.8)), "43.8");
        let text = MetaValue::Text("1998 Nov 26\u{1b}".into());
        assert_eq!(meta_value(&text), "1998 Nov 26\\x1b");
    }

    #[test]
    fn grouping() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(3010), "3,010");
        assert_eq!(grouped(1234567), "1,234,567");
    }
}
