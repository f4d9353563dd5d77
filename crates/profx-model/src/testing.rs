//! Helpers for unit tests that read a finished profile.

use super::{FuncId, Function, Percents, Place, Profile, ProfileBuilder, WarningKind};

/// A builder that makes stacks, or none (`skip_stacks`): for tests that
/// hold a feed's numbers equal either way.
pub fn builder(stacks: bool) -> ProfileBuilder {
    let mut b = ProfileBuilder::new("test");
    if !stacks {
        b.skip_stacks();
    }
    b
}

/// A function named `name`, of no module.
pub fn new_function(b: &mut ProfileBuilder, name: &str) -> FuncId {
    let (n, m) = (b.intern(name), b.intern(""));
    b.function(n, m)
}

/// Stacks as `a>b>c` strings, in profile order.
pub fn stack_paths(p: &Profile) -> Vec<String> {
    p.stack_ids()
        .map(|s| {
            p.frames(s)
                .iter()
                .map(|&f| p.function_name(f))
                .collect::<Vec<_>>()
                .join(">")
        })
        .collect()
}

/// Warnings as (place, message).
pub fn warnings(p: &Profile) -> Vec<(Place, String)> {
    p.warnings()
        .iter()
        .map(|w| (w.place.clone(), w.message.clone()))
        .collect()
}

/// Warnings as (place, kind): which problems were found where.
pub fn kinds(p: &Profile) -> Vec<(Place, WarningKind)> {
    p.warnings()
        .iter()
        .map(|w| (w.place.clone(), w.kind))
        .collect()
}

/// The function with this name (the first, if several modules share it).
pub fn function(p: &Profile, name: &str) -> Function {
    p.function(function_id(p, name))
}

fn function_id(p: &Profile, name: &str) -> FuncId {
    p.function_ids()
        .find(|&f| p.function_name(f) == name)
        .expect(name)
}

/// The percents of the function with this name.
pub fn percents(p: &Profile, name: &str) -> Percents {
    p.percents(function_id(p, name))
}

/// A one-thread trace from ops: `(Some(f), gap)` enters function `f{f}`
/// (of `funcs`, by `f % funcs`), `(None, gap)` leaves the top call (when
/// one is open); each op comes `gap` + 0.25 ms after the last. Calls still
/// open at the end are closed a millisecond later.
pub fn trace_of(ops: &[(Option<u8>, u8)], funcs: usize) -> Profile {
    let mut b = ProfileBuilder::new("test");
    let ids: Vec<FuncId> = (0..funcs)
        .map(|i| new_function(&mut b, &format!("f{i}")))
        .collect();
    b.trace_begin(super::metrics::TraceTime::Timed);
    let t = b.trace_thread(1);
    let (mut clock, mut depth) = (0.0, 0);
    for (op, gap) in ops {
        clock += f64::from(*gap) + 0.25;
        b.trace_time(t, clock, || Place::Line(1));
        match op {
            Some(f) => {
                b.trace_enter(t, ids[*f as usize % funcs], 0, None);
                depth += 1;
            }
            None if depth > 0 => {
                b.trace_exit(t);
                depth -= 1;
            }
            None => {}
        }
    }
    b.trace_time(t, clock + 1.0, || Place::Line(1));
    b.trace_close_open();
    b.finish()
}
