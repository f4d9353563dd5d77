//! The Modules view (perf's `--sort dso`, Visual Studio's Modules view):
//! each module's exclusive time, inclusive time and calls side by side
//! (model.md § Modules). The app's table and `profx report --view
//! modules` read these rows, made here once.
//!
//! A module's exclusive numbers are its functions' summed: no two of them
//! are on top of the stack at once. Its inclusive numbers cannot be
//! summed (a function of the module calling another would count the
//! callee's time twice): they are read from the call paths the query's
//! transforms rewrite (`query::paths`), each path counted once for every
//! module one of its frames is in, which is what `--collapse-module M`
//! leaves as the inclusive time of M.

use crate::query::{Frame, each_path};
use profx_model::metrics::{PathNumbers, add_count, add_opt};
use profx_model::{HitsCount, NameId, Profile};

/// One module's row of the Modules view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModuleRow {
    /// The module's name (`""`: functions the format files under none).
    pub module: NameId,
    /// How many of the profile's functions are in it.
    pub functions: u64,
    /// Entries into its functions, calls from one of them to another
    /// included.
    pub calls: Option<u64>,
    /// Samples with one of its functions on top of the stack.
    pub hits_self: Option<u64>,
    /// Samples with one of its functions anywhere on the stack, once a
    /// sample; absent without call paths.
    pub hits_total: Option<u64>,
    /// Time with one of its functions on top of the stack, ms.
    pub exclusive_ms: Option<f64>,
    /// Time with one of its functions anywhere on the stack, once however
    /// many are, ms; absent without call paths.
    pub inclusive_ms: Option<f64>,
}

/// What a module's row is called where its name is empty.
pub const NO_MODULE: &str = "(no module)";

/// Every module of `p`, in the order of their names; none when no
/// function names a module (an Xbase++ trace's).
pub fn module_rows(p: &Profile) -> Vec<ModuleRow> {
    if p.functions().iter().all(|f| p.name(f.module).is_empty()) {
        return Vec::new();
    }
    let mut ids: Vec<NameId> = p.functions().iter().map(|f| f.module).collect();
    ids.sort_unstable_by_key(|&m| (p.name_rank(m), m));
    ids.dedup();
    // Each function's module as a place in `rows`.
    let place =
        |m: NameId| ids.binary_search_by_key(&(p.name_rank(m), m), |&x| (p.name_rank(x), x));
    let of: Vec<usize> = p
        .functions()
        .iter()
        .map(|f| place(f.module).unwrap_or(0))
        .collect();
    // A sampled profile's times are whole nanoseconds, summed as the
    // sample and path feeds sum them, so a module's time is to the digit
    // what `--collapse-module` gives.
    let ns = p.hits_count() == HitsCount::Samples;
    let unit = |ms: f64| if ns { (ms * 1e6).round() } else { ms };
    let mut rows: Vec<ModuleRow> = ids
        .iter()
        .map(|&module| ModuleRow {
            module,
            functions: 0,
            calls: None,
            hits_self: None,
            hits_total: None,
            exclusive_ms: None,
            inclusive_ms: None,
        })
        .collect();
    for (f, &m) in p.functions().iter().zip(&of) {
        let r = &mut rows[m];
        r.functions += 1;
        r.calls = add_count(r.calls, f.calls);
        r.hits_self = add_count(r.hits_self, f.hits_self);
        r.exclusive_ms = add_opt(r.exclusive_ms, f.time.elapsed_exclusive.map(unit));
    }
    if !p.stacks().is_empty() {
        inclusive(p, &of, &mut rows, unit);
    }
    if ns {
        for r in &mut rows {
            r.exclusive_ms = r.exclusive_ms.map(|t| t / 1e6);
            r.inclusive_ms = r.inclusive_ms.map(|t| t / 1e6);
        }
    }
    rows
}

/// Each module's inclusive time (and samples): the self of every call
/// path holding one of its functions, once a path (model.md § Modules).
fn inclusive(p: &Profile, of: &[usize], rows: &mut [ModuleRow], unit: impl Fn(f64) -> f64) {
    let samples = p.hits_count() == HitsCount::Samples;
    let mut seen = vec![usize::MAX; rows.len()];
    let mut path = 0usize;
    let add = |r: &mut ModuleRow, n: PathNumbers| {
        r.inclusive_ms = add_opt(r.inclusive_ms, n.self_ms.map(&unit));
        if samples {
            r.hits_total = add_count(r.hits_total, n.hits);
        }
    };
    // The walk never fails: only a rewrite's cancel or error stops it.
    let _ = each_path(p, &mut |frames, n| {
        for frame in frames.iter() {
            if let Frame::Func(f) = frame {
                let m = of[f.index()];
                if std::mem::replace(&mut seen[m], path) != path {
                    add(&mut rows[m], n);
                }
            }
        }
        path += 1;
        Ok(())
    });
    // A module no path holds spent no time on the stack: 0, not absent,
    // where the paths have times (or samples) at all.
    let timed = rows.iter().any(|r| r.inclusive_ms.is_some());
    let counted = rows.iter().any(|r| r.hits_total.is_some());
    for r in rows {
        if timed {
            r.inclusive_ms = r.inclusive_ms.or(Some(0.0));
        }
        if counted {
            r.hits_total = r.hits_total.or(Some(0));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use profx_model::{Place, ProfileBuilder};

    /// A trace of functions `f0`, `f1`, … in `modules`: `Some(f)` enters
    /// f, `None` leaves the top call, each op `gap` ms after the last.
    fn trace(ops: &[(Option<usize>, u8)], modules: &[&str]) -> Profile {
        let mut b = ProfileBuilder::new("test");
        let ids: Vec<_> = modules
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let (name, module) = (b.intern(&format!("f{i}")), b.intern(m));
                b.function(name, module)
            })
            .collect();
        b.trace_begin(profx_model::metrics::TraceTime::Timed);
        let t = b.trace_thread(1);
        let mut clock = 0.0;
        for &(op, gap) in ops {
            clock += f64::from(gap);
            b.trace_time(t, clock, || Place::Line(1));
            match op {
                Some(f) => b.trace_enter(t, ids[f], 0, None),
                None => {
                    b.trace_exit(t);
                }
            }
        }
        b.finish()
    }

    /// A module's time is its functions' time on the stack once, however
    /// many of them are on it: a function of it calling another counts
    /// the callee's time once, not twice as a sum of inclusive times.
    #[test]
    fn a_modules_inclusive_time_counts_each_moment_once() {
        // f0 (m) 0–15 calls f1 (m) 1–7, which calls f2 (x) 3–5.
        let p = trace(
            &[
                (Some(0), 0),
                (Some(1), 1),
                (Some(2), 2),
                (None, 2),
                (None, 2),
                (None, 8),
            ],
            &["m", "m", "x"],
        );
        let rows = module_rows(&p);
        let names: Vec<&str> = rows.iter().map(|r| p.name(r.module)).collect();
        assert_eq!(names, ["m", "x"]);
        let (m, x) = (rows[0], rows[1]);
        assert_eq!(m.inclusive_ms, Some(15.0), "f0's span, not f0's + f1's");
        assert_eq!(m.exclusive_ms, Some(13.0));
        assert_eq!((m.functions, m.calls), (2, Some(2)));
        assert_eq!((x.inclusive_ms, x.exclusive_ms), (Some(2.0), Some(2.0)));
        assert_eq!(m.hits_total, None, "a trace's hits are calls");
    }

    /// A profile whose functions name no module has no module rows; one
    /// without call paths has no inclusive numbers.
    #[test]
    fn no_modules_and_no_paths() {
        let p = trace(&[(Some(0), 0), (None, 3)], &[""]);
        assert!(module_rows(&p).is_empty());
        let mut b = ProfileBuilder::new("test");
        let (name, module) = (b.intern("A"), b.intern("m.dll"));
        let f = b.function(name, module);
        b.summary(
            f,
            profx_model::FuncSummary {
                calls: Some(3),
                hits_self: None,
                hits_total: None,
                time: profx_model::TimeValues {
                    elapsed_inclusive: Some(9.0),
                    elapsed_exclusive: Some(4.0),
                    ..Default::default()
                },
            },
        );
        let rows = module_rows(&b.finish());
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].exclusive_ms, Some(4.0));
        assert_eq!(rows[0].inclusive_ms, None, "no call paths");
    }
}
