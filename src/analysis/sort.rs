//! Row orders: the canonical ones of report-json.md, and by any column.

use super::columns::{Column, compare};
use crate::model::{FuncId, LineId, Profile, StackId};
use std::cmp::Ordering;

/// Rows of `C` ordered by `col`, ties by name; a stable sort, so equal rows
/// keep their previous relative order.
pub fn sort_by<C: Column>(p: &Profile, rows: &mut [C::Row], col: C, descending: bool) {
    rows.sort_by(|&a, &b| compare(p, col, a, b, descending));
}

/// Descending with absent values last.
fn desc<T: PartialOrd>(a: Option<T>, b: Option<T>) -> Ordering {
    match (a, b) {
        (Some(x), Some(y)) => y.partial_cmp(&x).unwrap_or(Ordering::Equal),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

/// report-json.md: elapsed inclusive, then hits_total, then calls (all
/// descending, absent last), then name; module last so the order is total.
pub fn canonical_functions(p: &Profile) -> Vec<FuncId> {
    let mut ids: Vec<FuncId> = p.function_ids().collect();
    ids.sort_by(|&a, &b| {
        let (fa, fb) = (p.function(a), p.function(b));
        desc(fa.time.elapsed_inclusive, fb.time.elapsed_inclusive)
            .then_with(|| desc(fa.hits_total, fb.hits_total))
            .then_with(|| desc(fa.calls, fb.calls))
            .then_with(|| p.function_name(a).cmp(p.function_name(b)))
            .then_with(|| p.function_module(a).cmp(p.function_module(b)))
    });
    ids
}

/// report-json.md: hits descending, then frames (root first, by name then module).
pub fn canonical_stacks(p: &Profile) -> Vec<StackId> {
    let mut ids: Vec<StackId> = p.stack_ids().collect();
    let key = |s: StackId| {
        p.frames(s)
            .iter()
            .map(|&f| (p.function_name(f), p.function_module(f)))
            .collect::<Vec<_>>()
    };
    ids.sort_by(|&a, &b| desc(p.stack(a).hits, p.stack(b).hits).then_with(|| key(a).cmp(&key(b))));
    ids
}

/// report-json.md: file, then line.
pub fn canonical_lines(p: &Profile) -> Vec<LineId> {
    let mut ids: Vec<LineId> = p.line_ids().collect();
    ids.sort_by(|&a, &b| {
        let (la, lb) = (p.line(a), p.line(b));
        p.name(la.file)
            .cmp(p.name(lb.file))
            .then(la.line.cmp(&lb.line))
    });
    ids
}
