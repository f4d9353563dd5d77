//! `profx report --view source`: the annotated files, as `pprof list`
//! prints them (a heading per file, then every line from three before its
//! first counted line to three after its last: cost columns, blank where
//! none, its number, its text), and their `--json` document
//! (report-json.md § Source view). The lines are `source::files`', the
//! app's source view's.

use crate::source::{SourceFile, SourceLine, hits_heading};
use profx_model::Profile;
use profx_model::text::visible;
use serde::Serialize;
use std::io::{self, Write};

/// How to tell a reader where to add a place to look.
pub const ADD_A_PLACE: &str =
    "add a source folder with --source DIR, or rewrite a path's prefix with --source-map FROM=TO";

/// The files as text.
pub fn write_text(
    p: &Profile,
    files: &[SourceFile],
    query: Option<&str>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    if let Some(q) = query {
        writeln!(out, "query: {}", visible(q))?;
    }
    if files.is_empty() {
        writeln!(out, "no source lines to show")?;
        return out.flush();
    }
    let timed = p.time_unit().is_some();
    let time_head = format!("Time {}", p.time_unit_name());
    for (i, f) in files.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        writeln!(out, "{}", heading(f))?;
        for note in &f.notes {
            writeln!(out, "  note: {}", visible(note))?;
        }
        if f.found_at.is_none() && !f.from_listing {
            writeln!(out, "  {}", not_found(f))?;
        }
        write!(out, "{:>10} ", hits_heading(p))?;
        if timed {
            write!(out, "{time_head:>14} ")?;
        }
        writeln!(out, "{:>7}  Source", "Line")?;
        for l in f.window() {
            writeln!(out, "{}", row(l, timed, f.found_at.is_some()))?;
        }
    }
    out.flush()
}

/// `== FILE (found at PATH)`, and the functions of a caller's file.
fn heading(f: &SourceFile) -> String {
    let mut h = format!("== {}", visible(&f.path));
    if let Some(at) = &f.found_at
        && at.display().to_string() != f.path
    {
        h.push_str(&format!(
            " (found at {})",
            visible(&at.display().to_string())
        ));
    }
    if !f.functions.is_empty() {
        let names: Vec<String> = f
            .functions
            .iter()
            .map(|n| visible(n).into_owned())
            .collect();
        h.push_str(&format!(" [{}]", names.join(", ")));
    }
    h
}

/// Where a file not found was looked for, and which option adds a place.
pub fn not_found(f: &SourceFile) -> String {
    let places: Vec<String> = f
        .looked_in
        .iter()
        .map(|p| visible(&p.display().to_string()).into_owned())
        .collect();
    let places = if places.is_empty() {
        "no source folder".to_string()
    } else {
        places.join(", ")
    };
    format!("not found: looked in {places}; {ADD_A_PLACE}")
}

fn row(l: &SourceLine, timed: bool, read: bool) -> String {
    let hits = l.hits.map(|h| h.to_string()).unwrap_or_default();
    let mut s = format!("{hits:>10} ");
    if timed {
        let t = l.time_ms.map(|t| format!("{t:.3}")).unwrap_or_default();
        s.push_str(&format!("{t:>14} "));
    }
    let n = l.line.map(|n| n.to_string()).unwrap_or_default();
    s.push_str(&format!("{n:>7}  "));
    match &l.text {
        Some(t) => s.push_str(t),
        None if read => s.push_str("(no such line in the file)"),
        None => {}
    }
    if let Some(f) = &l.starts {
        s.push_str(&format!("    <- {} begins (its totals)", visible(f)));
    }
    s
}

#[derive(Serialize)]
struct Doc<'a> {
    schema: u32,
    files: Vec<FileJson<'a>>,
}

#[derive(Serialize)]
struct FileJson<'a> {
    path: &'a str,
    found_at: Option<String>,
    looked_in: Vec<String>,
    functions: &'a [String],
    notes: &'a [String],
    text_from_listing: bool,
    lines: Vec<LineJson<'a>>,
}

#[derive(Serialize)]
struct LineJson<'a> {
    line: Option<u32>,
    text: Option<&'a str>,
    hits: Option<u64>,
    time_ms: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    function_begins: Option<&'a str>,
}

/// The files as report-json.md's source document.
pub fn write_json(files: &[SourceFile], out: &mut dyn Write) -> io::Result<()> {
    let doc = Doc {
        schema: 1,
        files: files
            .iter()
            .map(|f| FileJson {
                path: &f.path,
                found_at: f.found_at.as_ref().map(|p| p.display().to_string()),
                looked_in: f
                    .looked_in
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect(),
                functions: &f.functions,
                notes: &f.notes,
                text_from_listing: f.from_listing,
                lines: f
                    .window()
                    .iter()
                    .map(|l| LineJson {
                        line: l.line,
                        text: l.text.as_deref(),
                        hits: l.hits,
                        time_ms: l.time_ms.filter(|t| t.is_finite()),
                        function_begins: l.starts.as_deref(),
                    })
                    .collect(),
            })
            .collect(),
    };
    let text = serde_json::to_string_pretty(&doc).map_err(io::Error::other)?;
    let text = profx_model::text::json_safe(text);
    out.write_all(text.as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()
}
