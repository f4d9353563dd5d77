//! The metric rules of model.md, in one place.
//!
//! Loaders never compute a percent, an inclusive time or a session total
//! themselves: they feed the builder summaries (`ProfileBuilder::summary`),
//! samples (`samples.rs`) or trace events (`trace.rs`), and
//! [`finish_totals`] / [`percents`] derive the rest when the profile is
//! finished. Every pane, `report --json` and test reads these results.

mod durations;
mod paths;
mod samples;
pub(crate) use durations::DurationTable;
pub use durations::{CallDurations, Histogram, PERCENTS, Percentiles, nearest_rank};
pub use paths::{PathNumbers, PathState};
pub use samples::HashedSample;
pub use samples::{Sample, SampleState};
pub use trace::{TraceFrame, TraceState};
mod trace;
mod trace_acc;
mod trace_sites;

pub use trace::{ThreadIx, TraceTime};

use super::profile::{Function, Line, Totals};

/// The four time values of a function (Visual Studio's definitions), in ms.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TimeValues {
    /// Time in every interval with the function anywhere on the stack
    /// (recursion once); `None` where not recorded.
    pub elapsed_inclusive: Option<f64>,
    /// Time in every interval with the function on top of the stack; `None`
    /// where not recorded.
    pub elapsed_exclusive: Option<f64>,
    /// Inclusive time in intervals without an OS event; `None` where the format
    /// records no OS events.
    pub application_inclusive: Option<f64>,
    /// Exclusive time in intervals without an OS event; `None` where the format
    /// records no OS events.
    pub application_exclusive: Option<f64>,
}

/// The shortest and longest single call of a function, in ms: elapsed
/// inclusive and exclusive, as Visual Studio's `Min`/`Max` columns and
/// XppPat's TIMEMIN/TIMEMAX give them. Computed for traces (each call's
/// own span and its own time on top, so a recursive call counts as a
/// call), taken from the file for VS reports; absent elsewhere.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PerCall {
    /// The shortest call's span, from its entry to its exit; `None` where not
    /// recorded.
    pub min_inclusive: Option<f64>,
    /// The longest call's span, from its entry to its exit; `None` where not
    /// recorded.
    pub max_inclusive: Option<f64>,
    /// The least time one call spent on top of the stack; `None` where not
    /// recorded.
    pub min_exclusive: Option<f64>,
    /// The most time one call spent on top of the stack; `None` where not
    /// recorded.
    pub max_exclusive: Option<f64>,
}

impl PerCall {
    /// Both sides' calls together: the smaller minimum, the larger maximum.
    pub fn merge(self, o: PerCall) -> PerCall {
        let pick = |a: Option<f64>, b: Option<f64>, min: bool| match (a, b) {
            (Some(x), Some(y)) => Some(if min { x.min(y) } else { x.max(y) }),
            (x, y) => x.or(y),
        };
        PerCall {
            min_inclusive: pick(self.min_inclusive, o.min_inclusive, true),
            max_inclusive: pick(self.max_inclusive, o.max_inclusive, false),
            min_exclusive: pick(self.min_exclusive, o.min_exclusive, true),
            max_exclusive: pick(self.max_exclusive, o.max_exclusive, false),
        }
    }

    /// Whether none of the four is recorded.
    pub fn is_absent(&self) -> bool {
        *self == PerCall::default()
    }
}

/// Percents of a function against the session totals.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Percents {
    /// Elapsed inclusive time, in % of the session's elapsed time.
    pub elapsed_inclusive: Option<f64>,
    /// Elapsed exclusive time, in % of the session's elapsed (inclusive) time.
    pub elapsed_exclusive: Option<f64>,
    /// Application inclusive time, in % of the session's application time.
    pub application_inclusive: Option<f64>,
    /// Application exclusive time, in % of the session's application
    /// (inclusive) time.
    pub application_exclusive: Option<f64>,
    /// Exclusive samples, in % of the profile's samples.
    pub hits_self: Option<f64>,
    /// Inclusive samples, in % of the profile's samples.
    pub hits_total: Option<f64>,
}

impl Percents {
    /// The percent `of` names.
    pub fn get(&self, of: PctOf) -> Option<f64> {
        match of {
            PctOf::ElapsedInclusive => self.elapsed_inclusive,
            PctOf::ElapsedExclusive => self.elapsed_exclusive,
            PctOf::ApplicationInclusive => self.application_inclusive,
            PctOf::ApplicationExclusive => self.application_exclusive,
            PctOf::HitsSelf => self.hits_self,
            PctOf::HitsTotal => self.hits_total,
        }
    }
}

/// `100 * value / total`. model.md: a percent is absent when its value is
/// absent, or its session total is absent or zero; a measured 0 against a
/// nonzero total is 0 %, as Visual Studio prints 0.00. A quotient that is
/// not finite (a total so small the value overflows it) is no percent.
pub fn pct(value: Option<f64>, total: Option<f64>) -> Option<f64> {
    match (value, total) {
        (Some(v), Some(t)) if t != 0.0 => Some(100.0 * v / t).filter(|p| p.is_finite()),
        _ => None,
    }
}

/// One of a function's six percents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PctOf {
    /// Elapsed inclusive time against the session's elapsed time.
    ElapsedInclusive,
    /// Elapsed exclusive time against the session's elapsed time.
    ElapsedExclusive,
    /// Application inclusive time against the session's application time.
    ApplicationInclusive,
    /// Application exclusive time against the session's application time.
    ApplicationExclusive,
    /// Exclusive samples against the profile's samples.
    HitsSelf,
    /// Inclusive samples against the profile's samples.
    HitsTotal,
}

/// One percent of `f`. Exclusive percents are against the *inclusive*
/// session total, as in Visual Studio (seed 003). A percent the file itself
/// stated (VS reports with percents only) is kept when no value gives one.
/// A column asks for its one percent: sizing a table's columns asks for
/// every row's, and working out all six each time cost a sixth of a load.
pub fn percent(f: &Function, stated: Option<&Percents>, totals: &Totals, of: PctOf) -> Option<f64> {
    let t = &f.time;
    let value = match of {
        PctOf::ElapsedInclusive => t.elapsed_inclusive,
        PctOf::ElapsedExclusive => t.elapsed_exclusive,
        PctOf::ApplicationInclusive => t.application_inclusive,
        PctOf::ApplicationExclusive => t.application_exclusive,
        PctOf::HitsSelf => f.hits_self.map(|n| n as f64),
        PctOf::HitsTotal => f.hits_total.map(|n| n as f64),
    };
    percent_of(value, stated, totals, of)
}

/// [`percent`] of the value `of` names, read alone (a column of the
/// function table, not its whole row).
pub(crate) fn percent_of(
    value: Option<f64>,
    stated: Option<&Percents>,
    totals: &Totals,
    of: PctOf,
) -> Option<f64> {
    pct(value, session_total(totals, of)).or_else(|| stated.and_then(|s| s.get(of)))
}

/// What percent `of` is out of.
fn session_total(totals: &Totals, of: PctOf) -> Option<f64> {
    match of {
        PctOf::ElapsedInclusive | PctOf::ElapsedExclusive => totals.elapsed_inclusive_ms,
        PctOf::ApplicationInclusive | PctOf::ApplicationExclusive => {
            totals.application_inclusive_ms
        }
        PctOf::HitsSelf | PctOf::HitsTotal => totals.samples.map(|n| n as f64),
    }
}

/// Whether some function of a profile with these totals can have percent
/// `of`: not when its session total is absent or zero (`pct`) and the file
/// stated no percents, so a table need not look at every row to hide it.
pub fn percent_possible(totals: &Totals, of: PctOf, any_stated: bool) -> bool {
    any_stated || session_total(totals, of).is_some_and(|t| t != 0.0)
}

/// All six percents of `f` ([`percent`] each).
pub fn percents(f: &Function, stated: Option<&Percents>, totals: &Totals) -> Percents {
    let of = |which| percent(f, stated, totals, which);
    Percents {
        elapsed_inclusive: of(PctOf::ElapsedInclusive),
        elapsed_exclusive: of(PctOf::ElapsedExclusive),
        application_inclusive: of(PctOf::ApplicationInclusive),
        application_exclusive: of(PctOf::ApplicationExclusive),
        hits_self: of(PctOf::HitsSelf),
        hits_total: of(PctOf::HitsTotal),
    }
}

/// Session totals the file did not state. model.md § Summary values: "when
/// the file states none, it is the largest inclusive time of any function".
/// Sample and trace feeds always state theirs, so this only fills summaries.
///
/// The same one pass finds which numbers some function has ([`Measured`]).
pub fn finish_totals(totals: &mut Totals, functions: &crate::FunctionTable) -> Measured {
    let mut m = Measured::default();
    let (mut elapsed, mut application) = (None, None);
    // `total_cmp`'s order, as `Iterator::max_by(f64::total_cmp)` has it.
    let larger = |max: Option<f64>, x: Option<f64>| match (max, x) {
        (Some(a), Some(b)) if a.total_cmp(&b).is_lt() => Some(b),
        (a, b) => a.or(b),
    };
    for f in functions {
        let t = &f.time;
        m.calls |= f.calls.is_some();
        m.hits_self |= f.hits_self.is_some();
        m.hits_total |= f.hits_total.is_some();
        m.elapsed_exclusive |= t.elapsed_exclusive.is_some();
        m.application_exclusive |= t.application_exclusive.is_some();
        elapsed = larger(elapsed, t.elapsed_inclusive);
        application = larger(application, t.application_inclusive);
    }
    m.elapsed_inclusive = elapsed.is_some();
    m.application_inclusive = application.is_some();
    totals.elapsed_inclusive_ms = totals.elapsed_inclusive_ms.or(elapsed);
    totals.application_inclusive_ms = totals.application_inclusive_ms.or(application);
    m
}

/// Which of a function's numbers some function of a profile has: a table
/// hides a column no function fills without reading every row for it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Measured {
    /// Some function has calls.
    pub calls: bool,
    /// Some function has exclusive samples.
    pub hits_self: bool,
    /// Some function has inclusive samples.
    pub hits_total: bool,
    /// Some function has an elapsed inclusive time.
    pub elapsed_inclusive: bool,
    /// Some function has an elapsed exclusive time.
    pub elapsed_exclusive: bool,
    /// Some function has an application inclusive time.
    pub application_inclusive: bool,
    /// Some function has an application exclusive time.
    pub application_exclusive: bool,
}

/// Average elapsed inclusive time per call, where calls are known.
pub fn avg_per_call(f: &Function) -> Option<f64> {
    match (f.time.elapsed_inclusive, f.calls) {
        (Some(t), Some(c)) if c > 0 => Some(t / c as f64),
        _ => None,
    }
}

/// A line's percent, its share of its function's time (`function`, the
/// line's, where it has one): its time against the function's elapsed
/// inclusive time, or, for a line with no time, its hits against the
/// function's samples. So a function's lines say where its time went: a
/// trace's call sites hold the callees' time called from there, shares of
/// the caller's inclusive time as the butterfly's callees are. A line of
/// no function (a trace's top level, a listing's line) is a share of the
/// session: its time against the session's elapsed time, its hits against
/// the samples.
pub fn line_pct(line: &Line, function: Option<&Function>, totals: &Totals) -> Option<f64> {
    let (time, samples) = match function {
        Some(f) => (f.time.elapsed_inclusive, f.hits_total),
        None => (totals.elapsed_inclusive_ms, totals.samples),
    };
    match line.time_ms {
        Some(t) => pct(Some(t), time),
        None => pct(line.hits.map(|h| h as f64), samples.map(|n| n as f64)),
    }
}

/// Adds two optional amounts: absent only when both are.
pub fn add_opt(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (None, None) => None,
        _ => Some(a.unwrap_or(0.0) + b.unwrap_or(0.0)),
    }
}

/// Adds two optional counts: absent only when both are.
pub fn add_count(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (None, None) => None,
        _ => Some(a.unwrap_or(0).saturating_add(b.unwrap_or(0))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pct_is_absent_for_absent_value_or_zero_total_and_zero_for_zero_value() {
        assert_eq!(pct(Some(15.0), Some(35.0)), Some(100.0 * 15.0 / 35.0));
        assert_eq!(pct(None, Some(35.0)), None);
        assert_eq!(pct(Some(1.0), None), None);
        assert_eq!(pct(Some(1.0), Some(0.0)), None);
        assert_eq!(pct(Some(0.0), Some(35.0)), Some(0.0));
        assert_eq!(pct(Some(f64::MAX), Some(1e-300)), None);
    }

    /// A line's percent is of its function's time (its samples, for a
    /// line without time); a line of no function, of the session's.
    #[test]
    fn a_lines_percent_is_of_its_function() {
        let f = Function {
            hits_total: Some(40),
            time: TimeValues {
                elapsed_inclusive: Some(20.0),
                ..Default::default()
            },
            ..Default::default()
        };
        let totals = Totals {
            elapsed_inclusive_ms: Some(200.0),
            samples: Some(400),
            ..Default::default()
        };
        let line = |hits, time_ms| Line {
            file: Default::default(),
            line: 1,
            function: None,
            top_level: false,
            hits,
            time_ms,
            called: None,
        };
        assert_eq!(
            line_pct(&line(None, Some(5.0)), Some(&f), &totals),
            Some(25.0)
        );
        assert_eq!(
            line_pct(&line(Some(10), None), Some(&f), &totals),
            Some(25.0)
        );
        assert_eq!(line_pct(&line(None, Some(5.0)), None, &totals), Some(2.5));
        assert_eq!(line_pct(&line(Some(10), None), None, &totals), Some(2.5));
        let moved = Function::default();
        assert_eq!(
            line_pct(&line(None, Some(5.0)), Some(&moved), &totals),
            None
        );
    }

    #[test]
    fn exclusive_percent_is_against_inclusive_total() {
        let f = Function {
            time: TimeValues {
                elapsed_inclusive: Some(35.0),
                elapsed_exclusive: Some(15.0),
                ..Default::default()
            },
            ..Default::default()
        };
        let totals = Totals {
            elapsed_inclusive_ms: Some(35.0),
            ..Default::default()
        };
        let p = percents(&f, None, &totals);
        assert_eq!(p.elapsed_inclusive, Some(100.0));
        assert_eq!(p.elapsed_exclusive, Some(42.857142857142854));
        assert_eq!(p.application_inclusive, None);
    }

    #[test]
    fn missing_session_total_is_largest_inclusive() {
        let f = |incl| Function {
            time: TimeValues {
                elapsed_inclusive: incl,
                ..Default::default()
            },
            ..Default::default()
        };
        let mut totals = Totals::default();
        let mut functions = [f(Some(3.0)), f(None), f(Some(9.5))];
        functions[1].hits_total = Some(0);
        let functions: crate::FunctionTable = functions.into_iter().collect();
        let measured = finish_totals(&mut totals, &functions);
        assert_eq!(totals.elapsed_inclusive_ms, Some(9.5));
        assert_eq!(totals.application_inclusive_ms, None);
        let expected = Measured {
            elapsed_inclusive: true,
            hits_total: true,
            ..Measured::default()
        };
        assert_eq!(measured, expected);

        let mut stated = Totals {
            elapsed_inclusive_ms: Some(100.0),
            ..Default::default()
        };
        finish_totals(&mut stated, &[f(Some(9.5))].into_iter().collect());
        assert_eq!(stated.elapsed_inclusive_ms, Some(100.0));
    }
}
