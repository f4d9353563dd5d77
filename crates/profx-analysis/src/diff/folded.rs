//! `profx diff BASE NEW --to folded`: differential folded stacks, the two
//! columns `inferno-diff-folded` writes (`stack base_count new_count` a
//! line), which `inferno-flamegraph` and `flamegraph.pl` draw as a
//! differential flame graph.
//!
//! Each run's paths are weighed as `export --to folded` weighs them
//! (`export::folded::each_line`: the same weights, rounded on the same
//! running sum), in the same weight for both. A frame is written as the
//! folded export writes it, a function paired by name alone under the
//! new run's spelling, so both runs' lines of a path are one line.

use super::{Comparison, Which};
use crate::export::folded::{each_line, frame_name, push_frames};
use crate::flame::{NoSuchWeight, OUTSIDE, Weight};
use std::collections::BTreeMap;
use std::io::{self, Write};

/// The weight both runs are drawn in: `asked`, or the first of time,
/// hits and calls that both record; an error naming the run that records
/// none of it.
pub fn weight_of(c: &Comparison, asked: Option<Weight>) -> Result<Weight, (Which, NoSuchWeight)> {
    let check = |w: Weight| {
        for side in Which::BOTH {
            crate::flame::check(c.profile(side), w).map_err(|e| (side, e))?;
        }
        Ok(w)
    };
    match asked {
        Some(w) => check(w),
        None => [Weight::Time, Weight::Hits, Weight::Calls]
            .into_iter()
            .find_map(|w| check(w).ok())
            .map_or_else(|| check(Weight::Time), Ok),
    }
}

/// Writes both runs' paths in `w`, one line a path of either, sorted by
/// the path: `root;caller;leaf BASE NEW`. Returns what was written
/// (`12 stacks, 4,096 µs and 4,300 µs`).
pub fn write_folded(c: &Comparison, w: Weight, out: &mut dyn Write) -> io::Result<String> {
    let mut lines: BTreeMap<String, [u64; 2]> = BTreeMap::new();
    let mut sums = [0u64; 2];
    let mut unit = "";
    for side in Which::BOTH {
        let p = c.profile(side);
        let rows = c.side_rows(side);
        // Each function's frame as its row is named (the new run's spelling).
        let names: Vec<String> = p
            .function_ids()
            .map(|f| {
                let r = &c.rows()[rows.of(f) as usize];
                let named = if r.new.is_some() {
                    Which::New
                } else {
                    Which::Base
                };
                match r.func(named) {
                    Some(g) => frame_name(c.profile(named), g),
                    None => frame_name(p, f),
                }
            })
            .collect();
        let mut line = String::new();
        let (written, _, u) = each_line(p, w, &mut |frames, n| {
            line.clear();
            match frames {
                Some(frames) => push_frames(&names, frames, &mut line),
                None => line.push_str(OUTSIDE),
            }
            let at = lines.entry(line.clone()).or_default();
            at[side as usize] += n;
            Ok(())
        })?;
        sums[side as usize] = written;
        unit = u;
    }
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    for (stack, [b, n]) in &lines {
        writeln!(out, "{stack} {b} {n}")?;
    }
    out.flush()?;
    let stacks = crate::report::fmt::counted(lines.len() as u64, "stacks");
    let g = crate::report::fmt::grouped;
    Ok(format!(
        "{stacks}, {} {unit} (base) and {} {unit} (new)",
        g(sums[0]),
        g(sums[1])
    ))
}
