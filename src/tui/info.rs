//! The Info pane's text: sources, meta, totals, then the loaders' warnings
//! (each with its place). The head is built once; warnings, which can be
//! many, are written only when on screen.

use crate::model::Profile;
use crate::report::fmt;
use crate::text::visible;

pub fn head_lines(p: &Profile) -> Vec<String> {
    let mut out = vec![format!("format          {}", p.format)];
    for s in &p.sources {
        out.push(format!("source          {}", visible(s)));
    }
    out.push(String::new());
    out.push("meta".into());
    if p.meta.is_empty() {
        out.push("  (none)".into());
    }
    let totals = fmt::totals(p);
    // Values start after the longest label and two spaces, so a long one
    // (`start_function`, `application ms`) never runs into its value.
    let labels = p.meta.keys().map(|k| visible(k).chars().count());
    let width = labels
        .chain(totals.iter().map(|(k, _)| k.chars().count()))
        .max()
        .unwrap_or(0)
        + 2;
    for (k, v) in &p.meta {
        out.push(format!(
            "  {:<width$}{}",
            visible(k),
            visible(&v.to_string())
        ));
    }
    out.push(String::new());
    out.push("totals".into());
    for (k, v) in totals {
        out.push(format!("  {k:<width$}{v}"));
    }
    out.push(String::new());
    out.push(format!("warnings: {}", p.warnings().len()));
    out
}

/// The `i`th warning as the Info pane lists it.
pub fn warning_line(p: &Profile, i: usize) -> String {
    match p.warnings().get(i) {
        Some(w) => format!(
            "  {}: {}",
            visible(&p.warning_place(w)),
            visible(&w.message)
        ),
        None => String::new(),
    }
}
