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
//! - Weights are integers: time in microseconds, hits and calls as counted.
//!   Times are rounded on their running sum, so the written weights add up
//!   to the rounded total instead of drifting by a rounding a line.

use crate::analysis::flame::{self, OUTSIDE, Weight};
use crate::model::{FuncId, Profile};
use crate::text::visible;
use std::io::{self, Write};

pub fn write(p: &Profile, w: Weight, out: &mut dyn Write) -> io::Result<String> {
    let paths = flame::weighted_paths(p, w).map_err(io::Error::other)?;
    let scale = if w == Weight::Time { 1000.0 } else { 1.0 };
    let (mut sum, mut written, mut lines) = (0.0f64, 0u64, 0usize);
    let mut line = String::new();
    for path in &paths {
        sum += path.weight * scale;
        let n = (sum.round() as u64).saturating_sub(written);
        if n == 0 {
            continue;
        }
        written += n;
        line.clear();
        match flame::frames(p, path.path) {
            Some(frames) => push_frames(p, &frames, &mut line),
            None => line.push_str(OUTSIDE),
        }
        writeln!(out, "{line} {n}")?;
        lines += 1;
    }
    Ok(format!("{lines} stacks, {written} {}", unit(w)))
}

fn unit(w: Weight) -> &'static str {
    match w {
        Weight::Time => "µs",
        Weight::Hits => "hits",
        Weight::Calls => "calls",
    }
}

fn push_frames(p: &Profile, frames: &[FuncId], line: &mut String) {
    for (i, &f) in frames.iter().enumerate() {
        if i > 0 {
            line.push(';');
        }
        line.push_str(&frame_name(p, f));
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
