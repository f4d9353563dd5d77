//! speedscope's file format (`https://www.speedscope.app/file-format-schema.json`,
//! a copy in `tests/fixtures/speedscope/`).
//!
//! - A trace becomes one *evented* profile per thread, in id order (the
//!   first, which speedscope opens, the lowest id): the open and close
//!   of every call at its real time, from the load's timeline, so
//!   speedscope's time-order view shows the execution as it happened.
//! - Everything else (samples, summaries, or a trace exported with an
//!   explicit `--weight`) becomes one *sampled* profile: each weighted path
//!   of `analysis::flame` a sample, its weight the path's.
//!
//! Frames are shared: frame i is function i (its module as speedscope's
//! `file`), then `(outside)` where a sampled profile needs it.

use super::json::{number, string};
use crate::cct::Label;
use crate::flame::{self, Path, Weight};
use profx_model::timeline::Timeline;
use profx_model::{FuncId, Profile, TimeUnit};
use std::io::{self, Write};

const SCHEMA_URL: &str = "https://www.speedscope.app/file-format-schema.json";

pub(super) fn write_sampled(
    p: &Profile,
    w: Weight,
    query: Option<&str>,
    out: &mut dyn Write,
) -> io::Result<String> {
    let (cct, paths) = flame::weighted_paths(p, w).map_err(io::Error::other)?;
    // The views' own frames follow the functions': (outside), (no call
    // path), (unlisted), each where some path needs it.
    let mut extra: Vec<Label> = Vec::new();
    if paths.iter().any(|x| x.path == Path::Outside) {
        extra.push(Label::Outside);
    }
    for l in [Label::NoCallPath, Label::Unlisted] {
        if (0..cct.len() as u32).any(|n| cct.label(p, n) == l) {
            extra.push(l);
        }
    }
    let index = |l: Label| match l {
        Label::Func(f) => f.index(),
        other => p.functions().len() + extra.iter().position(|&e| e == other).unwrap_or(0),
    };
    head(p, query, out, &extra)?;
    let (unit, in_name) = match w {
        Weight::Time => time_unit(p),
        Weight::Hits | Weight::Calls => ("none", None),
    };
    let total: f64 = paths.iter().map(|x| x.weight).sum();
    out.write_all(b"{\"type\":\"sampled\",\"name\":")?;
    let name = profile_name(p, query);
    match in_name {
        Some(said) => string(out, &format!("{name} · weights in {said}"))?,
        None => string(out, &name)?,
    }
    write!(out, ",\"unit\":\"{unit}\",\"startValue\":0,\"endValue\":")?;
    number(out, total)?;
    out.write_all(b",\"samples\":[")?;
    for (i, x) in paths.iter().enumerate() {
        out.write_all(if i > 0 { b",[" } else { b"[" })?;
        match flame::frames(p, &cct, x.path) {
            Some(frames) => write_indices(out, frames.iter().map(|&l| index(l)))?,
            None => write!(out, "{}", index(Label::Outside))?,
        }
        out.write_all(b"]")?;
    }
    out.write_all(b"],\"weights\":[")?;
    for (i, x) in paths.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        number(out, x.weight)?;
    }
    out.write_all(b"]}]}\n")?;
    let stacks = crate::report::fmt::counted(paths.len() as u64, "stacks");
    Ok(format!("{stacks} ({})", w.name()))
}

pub(super) fn write_evented(
    p: &Profile,
    tl: &Timeline,
    query: Option<&str>,
    out: &mut dyn Write,
) -> io::Result<String> {
    head(p, query, out, &[])?;
    let unit = match tl.timed {
        true => time_unit(p).0,
        false => "none",
    };
    let order = by_thread(tl);
    for (k, t) in crate::query::by_id(tl.threads.iter().map(|s| s.id))
        .into_iter()
        .enumerate()
    {
        let span = &tl.threads[t];
        if k > 0 {
            out.write_all(b",")?;
        }
        out.write_all(b"{\"type\":\"evented\",\"name\":")?;
        string(
            out,
            &format!("{} thread {}", profile_name(p, query), span.id),
        )?;
        write!(out, ",\"unit\":\"{unit}\",\"startValue\":")?;
        number(out, span.first)?;
        out.write_all(b",\"endValue\":")?;
        number(out, span.last)?;
        out.write_all(b",\"events\":[")?;
        for (i, &k) in order[t].iter().enumerate() {
            let m = &tl.marks[k as usize];
            let kind = if m.open() { "O" } else { "C" };
            let comma = if i > 0 { "," } else { "" };
            write!(
                out,
                "{comma}{{\"type\":\"{kind}\",\"frame\":{},\"at\":",
                m.func().index()
            )?;
            number(out, m.at)?;
            out.write_all(b"}")?;
        }
        out.write_all(b"]}")?;
    }
    out.write_all(b"]}\n")?;
    Ok(said(tl))
}

/// speedscope's name of the profile's time unit, and, where speedscope
/// has none for it (ticks: `none`), the unit for the profile's name to say.
fn time_unit(p: &Profile) -> (&'static str, Option<&'static str>) {
    match p.time_unit() {
        Some(TimeUnit::Ms) => ("milliseconds", None),
        Some(unit) => ("none", Some(unit.name())),
        None => ("none", None),
    }
}

/// What an evented export wrote, for the message.
pub(super) fn said(tl: &Timeline) -> String {
    use crate::report::fmt::counted;
    format!(
        "{}, {}",
        counted(tl.threads.len() as u64, "threads"),
        counted(tl.marks.len() as u64, "events")
    )
}

/// Mark indices grouped by thread, each group in time order: one pass, so
/// a trace with many threads costs no more than one with a few.
pub(super) fn by_thread(tl: &Timeline) -> Vec<Vec<u32>> {
    let mut counts = vec![0usize; tl.threads.len()];
    for m in &tl.marks {
        counts[m.thread as usize] += 1;
    }
    let mut groups: Vec<Vec<u32>> = counts.into_iter().map(Vec::with_capacity).collect();
    for (i, m) in tl.marks.iter().enumerate() {
        groups[m.thread as usize].push(u32::try_from(i).unwrap_or(u32::MAX));
    }
    groups
}

/// The document up to the first profile: schema, names, shared frames.
fn head(p: &Profile, query: Option<&str>, out: &mut dyn Write, extra: &[Label]) -> io::Result<()> {
    write!(out, "{{\"$schema\":\"{SCHEMA_URL}\",\"exporter\":")?;
    string(out, &format!("profx {}", env!("CARGO_PKG_VERSION")))?;
    out.write_all(b",\"name\":")?;
    string(out, &profile_name(p, query))?;
    out.write_all(b",\"activeProfileIndex\":0,\"shared\":{\"frames\":[")?;
    for f in p.function_ids() {
        if f.index() > 0 {
            out.write_all(b",")?;
        }
        frame(p, f, out)?;
    }
    for (i, &l) in extra.iter().enumerate() {
        let comma = if p.functions().is_empty() && i == 0 {
            ""
        } else {
            ","
        };
        write!(out, "{comma}{{\"name\":\"{}\"}}", l.name(p))?;
    }
    out.write_all(b"]},\"profiles\":[")
}

fn frame(p: &Profile, f: FuncId, out: &mut dyn Write) -> io::Result<()> {
    out.write_all(b"{\"name\":")?;
    string(out, p.function_name(f))?;
    let module = p.function_module(f);
    if !module.is_empty() {
        out.write_all(b",\"file\":")?;
        string(out, module)?;
    }
    out.write_all(b"}")
}

fn write_indices(out: &mut dyn Write, ids: impl Iterator<Item = usize>) -> io::Result<()> {
    for (i, id) in ids.enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        write!(out, "{id}")?;
    }
    Ok(())
}

/// The input's file name (the demo's name for the demo), and the query
/// the export answers after it (`TRACE.PRF · thread 2 › merge F`): the
/// one place speedscope's and Chrome's files name what they show.
pub(super) fn profile_name(p: &Profile, query: Option<&str>) -> String {
    let file = p
        .sources
        .first()
        .map(|s| {
            std::path::Path::new(s)
                .file_name()
                .map_or(s.clone(), |n| n.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| p.format.clone());
    file + &crate::report::table::query_note(query)
}
