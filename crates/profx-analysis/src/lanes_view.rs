//! The Timeline pane's cells where they are read from the calls in time
//! order (`flame_chart::Chart`), not from a thread's lane
//! (`profx_model::lanes`): zoomed in past a lane's resolution, where the
//! trace's calls are kept. A cell is then what the lane would say with
//! buckets as narrow as the cell: its busy time (a call open on the
//! thread), and the function on top of the stack for most of it.
//!
//! A function's time on top in a cell is the time its calls cover there
//! less the time the calls they made cover, so each level of the band is
//! read once, within the window only (a binary search finds its first
//! call), and a call costs the cells it covers.

use super::flame_chart::Chart;
use profx_model::FuncId;
use profx_model::lanes::Cell;

/// `n` cells of equal width from `from` to `to` on the chart's band
/// `band`.
pub fn cells(c: &Chart, band: usize, (from, to): (f64, f64), n: usize) -> Vec<Cell> {
    let mut out = vec![Cell::default(); n];
    let Some(b) = c.bands.get(band) else {
        return out;
    };
    if n == 0 || to.partial_cmp(&from) != Some(std::cmp::Ordering::Greater) {
        return out;
    }
    let dx = (to - from) / n as f64;
    // Each cell's functions and their time on top (few a cell).
    let mut tops: Vec<Vec<(FuncId, f64)>> = vec![Vec::new(); n];
    for depth in 0..b.depths {
        let level = c.level(band, depth);
        let first = level.partition_point(|&k| c.call(k).end <= from);
        for &id in &level[first..] {
            let call = c.call(id);
            if call.start >= to {
                break;
            }
            let parent = c.parent(id).map(|p| c.call(p).func);
            let (a, z) = (call.start.max(from), call.end.min(to));
            let i0 = (((a - from) / dx) as usize).min(n - 1);
            let i1 = (((z - from) / dx) as usize).min(n - 1);
            for (i, tops) in tops.iter_mut().enumerate().take(i1 + 1).skip(i0) {
                let lo = a.max(from + dx * i as f64);
                let hi = z.min(from + dx * (i + 1) as f64);
                let part = hi - lo;
                if part <= 0.0 {
                    continue;
                }
                if depth == 0 {
                    out[i].busy += part;
                }
                add(tops, call.func, part);
                if let Some(p) = parent {
                    add(tops, p, -part);
                }
            }
        }
    }
    for (cell, tops) in out.iter_mut().zip(&tops) {
        cell.func = heaviest(tops);
    }
    out
}

/// The function on top of the band's stack at time `t` (the deepest call
/// open then); `None` when nothing is.
pub fn running_at(c: &Chart, band: usize, t: f64) -> Option<FuncId> {
    let depths = c.bands.get(band)?.depths;
    let mut found = None;
    for depth in 0..depths {
        let level = c.level(band, depth);
        let i = level.partition_point(|&k| c.call(k).end <= t);
        match level.get(i).map(|&k| c.call(k)) {
            Some(call) if call.start <= t => found = Some(call.func),
            _ => break,
        }
    }
    found
}

fn add(tops: &mut Vec<(FuncId, f64)>, f: FuncId, part: f64) {
    match tops.iter_mut().find(|t| t.0 == f) {
        Some(t) => t.1 += part,
        None => tops.push((f, part)),
    }
}

/// The function with the most time on top; of equals, the lowest id.
fn heaviest(tops: &[(FuncId, f64)]) -> Option<FuncId> {
    tops.iter()
        .filter(|t| t.1 > 1e-12 * t.1.abs().max(1.0))
        .copied()
        .reduce(
            |best, t| match t.1 > best.1 || (t.1 == best.1 && t.0 < best.0) {
                true => t,
                false => best,
            },
        )
        .map(|t| t.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use profx_model::metrics::TraceTime;
    use profx_model::testing::new_function;
    use profx_model::{Place, ProfileBuilder};

    /// A(0–10) calls B(2–6); thread 2 idles. Two cells of 5: the first
    /// B's (3 on top against A's 2), the second A's; all busy.
    #[test]
    fn a_cell_names_the_function_on_top_for_most_of_it() {
        let mut b = ProfileBuilder::new("test");
        b.record_timeline();
        let (fa, fb) = (new_function(&mut b, "A"), new_function(&mut b, "B"));
        b.trace_begin(TraceTime::Timed);
        let t = b.trace_thread(1);
        let at = |b: &mut ProfileBuilder, ms: f64| b.trace_time(t, ms, || Place::Line(1));
        at(&mut b, 0.0);
        b.trace_enter(t, fa, 0, None);
        at(&mut b, 2.0);
        b.trace_enter(t, fb, 0, None);
        at(&mut b, 6.0);
        b.trace_exit(t);
        at(&mut b, 10.0);
        b.trace_exit(t);
        let p = b.finish();
        let c = Chart::from_timeline(p.timeline().unwrap());
        let cells = cells(&c, 0, (0.0, 10.0), 2);
        assert_eq!(cells[0].func, Some(fb));
        assert_eq!(cells[1].func, Some(fa));
        assert_eq!((cells[0].busy, cells[1].busy), (5.0, 5.0));
        assert_eq!(running_at(&c, 0, 3.0), Some(fb));
        assert_eq!(running_at(&c, 0, 7.0), Some(fa));
        assert_eq!(running_at(&c, 0, 11.0), None);
        // The same cells as the lane's, where its buckets are as narrow.
        let lane = p.lanes().unwrap().lane(0).unwrap();
        let from_lane = lane.cells((0.0, 10.0), 2);
        assert_eq!(
            from_lane.iter().map(|c| c.func).collect::<Vec<_>>(),
            [Some(fb), Some(fa)]
        );
    }
}
