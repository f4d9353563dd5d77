//! Folded stacks, one path a line: `root;caller;leaf 1234`, as Brendan
//! Gregg's stackcollapse scripts write them and inferno-flamegraph and
//! flamegraph.pl read them.
//!
//! - A frame is the function's name, `module!name` when it has a module
//!   (the WinDbg way these profilers' users know), so two functions of one
//!   name in different modules stay apart.
//! - The format has no escapes: a `;` inside a name would split the frame,
//!   so it is written as `:`; controls are shown as escapes (`\x1b`), as on
//!   screen, so a line never breaks and `cat` stays safe.
//! - Weights are integers: time in microseconds (a profile in ticks: in
//!   ticks), hits and calls as counted.
//!   Times are rounded on their running sum, so the written weights add up
//!   to the rounded total instead of drifting by a rounding a line.

use crate::cct::{self, Label};
use crate::flame::{self, OUTSIDE, Weight};
use profx_model::text::visible;
use profx_model::{FuncId, Profile, TimeUnit};
use std::io::{self, Write};

/// Writes every weighted path of `p` as a line of folded stacks, weighed in
/// `w`; returns what was written (`312 stacks, 4,096 µs`).
pub fn write(p: &Profile, w: Weight, out: &mut dyn Write) -> io::Result<String> {
    // Each function's frame text once, not once a frame.
    let names: Vec<String> = p.function_ids().map(|f| frame_name(p, f)).collect();
    let mut line = String::new();
    let (written, lines, unit) = each_line(p, w, &mut |frames, n| {
        line.clear();
        match frames {
            Some(frames) => push_frames(&names, frames, &mut line),
            None => line.push_str(OUTSIDE),
        }
        writeln!(out, "{line} {n}")
    })?;
    let stacks = crate::report::fmt::counted(lines as u64, "stacks");
    Ok(format!(
        "{stacks}, {} {unit}",
        crate::report::fmt::grouped(written)
    ))
}

/// What `each_line` gives each path: its frames (`None`: a trace's time
/// outside any call) and its weight.
pub(crate) type EachLine<'a> = dyn FnMut(Option<&[Label]>, u64) -> io::Result<()> + 'a;

/// Every weighted path of `p` with its whole weight in `w` (times rounded
/// on their running sum), paths weighing 0 left out: `each` is given its
/// frames (`None`: a trace's time outside any call) and weight. Returns
/// the weight given, the paths given and the weight's unit. The folded
/// export and a comparison's (`diff::folded`) weigh paths by this.
pub(crate) fn each_line(
    p: &Profile,
    w: Weight,
    each: &mut EachLine,
) -> io::Result<(u64, usize, &'static str)> {
    let (cct, paths) = flame::weighted_paths(p, w).map_err(io::Error::other)?;
    let (scale, unit) = match w {
        Weight::Time => written_time(p),
        Weight::Hits => (1.0, "hits"),
        Weight::Calls => (1.0, "calls"),
    };
    let (mut sum, mut written, mut lines) = (0.0f64, 0u64, 0usize);
    for path in &paths {
        sum += path.weight * scale;
        let n = (sum.round() as u64).saturating_sub(written);
        if n == 0 {
            continue;
        }
        written += n;
        let frames = flame::frames(p, &cct, path.path);
        each(frames.as_deref(), n)?;
        lines += 1;
    }
    Ok((written, lines, unit))
}

/// The paths of a flame graph as the app shows it (hidden functions left
/// out, a sandwich's callees, the part zoomed into: the paths under `from`
/// and the path to it), each node's own weight a line, the frames whole
/// from the root; `keep` picks the paths written (a search keeps those
/// through a matching frame). Weights are the tree's: times (`ms`) as
/// `write` writes them (ms in microseconds, ticks as they are), else
/// counts. Returns what was written.
pub fn write_icicle(
    p: &Profile,
    t: &crate::flame_view::Icicle,
    (from, ms): (Option<u32>, bool),
    keep: &dyn Fn(&[Label]) -> bool,
    out: &mut dyn Write,
) -> io::Result<String> {
    let names: Vec<String> = p.function_ids().map(|f| frame_name(p, f)).collect();
    let (scale, unit) = match ms {
        true => written_time(p),
        false => (1.0, ""),
    };
    // The path to `from`, root first, then a depth-first walk under it.
    let mut path: Vec<Label> = Vec::new();
    let mut at = from.and_then(|n| t.parent(n));
    while let Some(n) = at {
        path.push(t.func(n));
        at = t.parent(n);
    }
    path.reverse();
    let starts: Vec<u32> = match from {
        Some(n) => vec![n],
        None => t.roots().to_vec(),
    };
    let (mut sum, mut written, mut lines) = (0.0f64, 0u64, 0usize);
    let mut line = String::new();
    // (node, depth below the prefix): the stack of the walk.
    let mut todo: Vec<(u32, usize)> = starts.iter().rev().map(|&n| (n, 0)).collect();
    let base = path.len();
    while let Some((n, depth)) = todo.pop() {
        path.truncate(base + depth);
        path.push(t.func(n));
        let kids = t.kids(n);
        let own = t.weight(n) - kids.iter().map(|k| t.weight(k)).sum::<f64>();
        todo.extend(kids.iter().rev().map(|k| (k, depth + 1)));
        if own <= 0.0 || !keep(&path) {
            continue;
        }
        sum += own * scale;
        let w = (sum.round() as u64).saturating_sub(written);
        if w == 0 {
            continue;
        }
        written += w;
        line.clear();
        push_frames(&names, &path, &mut line);
        writeln!(out, "{line} {w}")?;
        lines += 1;
    }
    let stacks = crate::report::fmt::counted(lines as u64, "stacks");
    Ok(
        format!("{stacks}, {} {unit}", crate::report::fmt::grouped(written))
            .trim_end()
            .to_string(),
    )
}

/// How a time is written as a whole weight, and the unit that makes:
/// ms as microseconds (integers lose no digit a file states), ticks as
/// they are (whole already).
fn written_time(p: &Profile) -> (f64, &'static str) {
    match p.time_unit() {
        Some(TimeUnit::Ticks) => (1.0, TimeUnit::Ticks.name()),
        Some(TimeUnit::Ms) | None => (1000.0, "µs"),
    }
}

pub(crate) fn push_frames(names: &[String], frames: &[Label], line: &mut String) {
    for (i, &l) in frames.iter().enumerate() {
        if i > 0 {
            line.push(';');
        }
        match l {
            Label::Func(f) => line.push_str(&names[f.index()]),
            Label::NoCallPath => line.push_str(cct::NO_CALL_PATH),
            Label::Unlisted => line.push_str(cct::UNLISTED),
            Label::Outside => line.push_str(OUTSIDE),
        }
    }
}

/// `module!name`, or the name alone; safe for one folded line.
pub fn frame_name(p: &Profile, f: FuncId) -> String {
    let (name, module) = (p.function_name(f), p.function_module(f));
    let full = if module.is_empty() {
        visible(name).into_owned()
    } else {
        format!("{}!{}", visible(module), visible(name))
    };
    let full = full.replace(';', ":");
    if full.is_empty() {
        "(unnamed)".into()
    } else {
        full
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use profx_model::{FuncSummary, ProfileBuilder, TimeValues};

    /// A summary profile of (name, module, self ms) functions and no
    /// stacks: each becomes a path of its own.
    fn profile(funcs: &[(&str, &str, f64)]) -> Profile {
        let mut b = ProfileBuilder::new("test");
        for &(name, module, ms) in funcs {
            let (n, m) = (b.intern(name), b.intern(module));
            let f = b.function(n, m);
            let time = TimeValues {
                elapsed_exclusive: Some(ms),
                elapsed_inclusive: Some(ms),
                ..Default::default()
            };
            b.summary(
                f,
                FuncSummary {
                    calls: Some(1),
                    time,
                    ..Default::default()
                },
            );
        }
        b.finish()
    }

    fn folded(p: &Profile, w: Weight) -> String {
        let mut out = Vec::new();
        write(p, w, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn frames_name_their_module_and_cannot_break_a_line() {
        let p = profile(&[
            ("plain", "", 3.0),
            ("a;b", "m.obj", 2.0),
            ("evil\x1b]0;t\x07\nx 99", "", 1.0),
            ("", "", 0.5),
        ]);
        let text = folded(&p, Weight::Time);
        assert_eq!(
            text,
            "(no call path);(unnamed) 500\n(no call path);m.obj!a:b 2000\n(no call path);evil\\x1b]0:t\\x07\\nx 99 1000\n(no call path);plain 3000\n"
        );
    }

    #[test]
    fn rounding_follows_the_running_sum() {
        // Three paths of 0.4 µs: each rounds to 0 alone, 1 µs together.
        let p = profile(&[("a", "", 0.0004), ("b", "", 0.0004), ("c", "", 0.0004)]);
        assert_eq!(folded(&p, Weight::Time), "(no call path);b 1\n");
        let p = profile(&[("a", "", 1.0004), ("b", "", 1.0004), ("c", "", 1.0004)]);
        let text = folded(&p, Weight::Time);
        let total: u64 = text
            .lines()
            .map(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap())
            .sum();
        assert_eq!(total, 3001, "{text}");
        assert_eq!(
            folded(&p, Weight::Calls),
            "(no call path);a 1\n(no call path);b 1\n(no call path);c 1\n"
        );
    }
}
