//! How a value of the model is written for people: the `--table` output and
//! the app print numbers through these, so both show the same digits.

use crate::analysis::columns::Value;
use crate::model::Profile;
use crate::text::visible;
use std::fmt::Write;

/// A cell: times to the microsecond, percents to two places, absent as `—`,
/// text made safe for a terminal.
pub fn cell(v: Value<'_>) -> String {
    match v {
        Value::Text(t) => visible(t).into_owned(),
        Value::Count(Some(n)) => n.to_string(),
        Value::Ms(Some(x)) => format!("{x:.3}"),
        Value::Pct(Some(x)) => format!("{x:.2}"),
        Value::Count(None) | Value::Ms(None) | Value::Pct(None) => "—".into(),
    }
}

/// What the percent columns are out of (tui.md: "percent columns say what
/// they are out of"); empty when the profile has no session total.
pub fn percent_basis(p: &Profile) -> String {
    let mut parts = Vec::new();
    if let Some(t) = p.totals.elapsed_inclusive_ms {
        parts.push(format!("% of session {}", grouped_ms(t)));
    }
    if let Some(n) = p.totals.samples {
        parts.push(format!("hit % of {} samples", grouped(n)));
    }
    parts.join(" · ")
}

/// The session totals and row counts, as the Info views list them.
pub fn totals(p: &Profile) -> Vec<(&'static str, String)> {
    let t = &p.totals;
    let count = |n: usize| n.to_string();
    vec![
        ("elapsed ms", cell(Value::Ms(t.elapsed_inclusive_ms))),
        (
            "application ms",
            cell(Value::Ms(t.application_inclusive_ms)),
        ),
        ("outside ms", cell(Value::Ms(t.outside_ms))),
        ("samples", cell(Value::Count(t.samples))),
        ("functions", count(p.functions().len())),
        ("lines", count(p.lines().len())),
        ("stacks", count(p.stacks().len())),
        ("packets", count(p.packets().len())),
        ("events", count(p.event_count())),
    ]
}

/// `3010` as `3,010`, for counts in running text.
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

/// Milliseconds in running text, with thousands grouped: `7,609.424 ms`.
/// "1 packet", "9,111,070 events": a count with its thousands grouped and
/// its noun (given in the plural, `…s`) singular for one.
pub fn counted(n: u64, plural: &str) -> String {
    match n {
        1 => format!("1 {}", plural.strip_suffix('s').unwrap_or(plural)),
        _ => format!("{} {plural}", grouped(n)),
    }
}

pub fn grouped_ms(x: f64) -> String {
    let mut s = String::new();
    let whole = x.trunc();
    if whole.is_finite() && whole >= 0.0 && whole < u64::MAX as f64 {
        let _ = write!(s, "{}", grouped(whole as u64));
        let frac = format!("{:.3}", x - whole);
        // "0.424" → ".424"; rounding up to "1.000" carries into the whole part.
        if let Some(rest) = frac.strip_prefix('0') {
            s.push_str(rest);
        } else {
            s = format!("{}.000", grouped(whole as u64 + 1));
        }
    } else {
        let _ = write!(s, "{x:.3}");
    }
    s.push_str(" ms");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_say_one_in_the_singular_and_group_the_rest() {
        assert_eq!(counted(1, "packets"), "1 packet");
        assert_eq!(counted(0, "packets"), "0 packets");
        assert_eq!(counted(9_111_070, "events"), "9,111,070 events");
    }

    #[test]
    fn grouping() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(3010), "3,010");
        assert_eq!(grouped(1234567), "1,234,567");
        assert_eq!(grouped_ms(7609.4242), "7,609.424 ms");
        assert_eq!(grouped_ms(999.9996), "1,000.000 ms");
        assert_eq!(grouped_ms(0.5), "0.500 ms");
    }
}
