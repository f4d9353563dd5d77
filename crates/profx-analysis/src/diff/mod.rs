//! Comparing two runs (issue 66, model.md § Comparisons): `profx diff BASE
//! NEW`. Each side is the one runner's answer to the same query
//! ([`answer_sides`], by `Policy::Side`), so each side's numbers are those
//! `report --json` gives for it; a [`Comparison`] pairs their functions
//! (by name and module, then by name alone where only the module
//! differs: `pair.rs`), their edges and their stacks, and reads every
//! value through `report::json`'s own rows (`json::function`, `stack`,
//! `edge`), so a value here is byte for byte the report's.
//!
//! What is written of it: `--json` (`json.rs`), the table (`table.rs`),
//! the differential folded stacks and the CSV (`folded.rs`, `csv.rs`), and
//! the conditions that gate a build (`gate.rs`).

mod butterfly;
mod csv;
mod folded;
mod gate;
mod json;
mod pair;
mod rows;
mod table;
mod tree;

pub use butterfly::{Butterfly, EdgeValues, Link, Neighbours};
pub use csv::write_csv;
pub use folded::{weight_of, write_folded};
pub use gate::{Compared, Condition, GateError, Outcome, parse_condition};
pub use json::write_json;
pub use pair::{PairedBy, Row, SideRows};
pub use rows::{Of, Pairs};
pub use table::{
    SortBy, TableOptions, change_cell, change_pct_cell, ordered, signed, status_cell, value_cell,
    write_table,
};
pub use tree::{TreeBase, tree_delta};

use crate::query::{Answer, Policy, Query, QueryError};
use crate::report::json as report;
use profx_model::{Profile, TimeUnit, Watch};
use std::sync::Arc;

/// One side of a comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Which {
    /// The run compared against (`BASE`).
    Base,
    /// The run compared (`NEW`).
    New,
}

impl Which {
    /// Both, base first.
    pub const BOTH: [Which; 2] = [Which::Base, Which::New];

    /// The side's name in every output (`base`, `new`).
    pub fn name(self) -> &'static str {
        match self {
            Which::Base => "base",
            Which::New => "new",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

impl std::fmt::Display for Which {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Why two runs have no comparison: each is a usage error (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum DiffError {
    /// One side's query cannot be answered (a thread it lacks, a range
    /// outside its run, a step it cannot take).
    #[error("{side}: {error}")]
    Side {
        /// The side.
        side: Which,
        /// Why.
        error: QueryError,
    },
    /// A step names what neither side has.
    #[error("step {step} ({label}) names what neither side has: base: {base}; new: {new}")]
    Neither {
        /// The step, counted from 1.
        step: usize,
        /// Its label (`drop F`).
        label: String,
        /// Why the base side left it out.
        base: String,
        /// Why the new side left it out.
        new: String,
    },
    /// The sides' times are in different units.
    #[error(
        "the base side's times are in {base} and the new side's in {new}: --clock-mhz N turns the side in ticks into ms"
    )]
    Units {
        /// The base side's unit.
        base: &'static str,
        /// The new side's unit.
        new: &'static str,
    },
}

/// The two sides' answers to `q` (base, new), each by `Policy::Side`, on
/// two threads where cores allow: a step naming what one side lacks is
/// left out of that side (a note in its `query.notes`), one naming what
/// neither has is an error, as is anything else a side cannot take (a
/// thread it lacks, a range outside its run), naming the side.
pub fn answer_sides(
    base: &Arc<Profile>,
    new: &Arc<Profile>,
    q: &Query,
    watch: &Watch<'_>,
) -> Result<[Answer; 2], DiffError> {
    let run = |p: &Arc<Profile>, side: Which| {
        Answer::run(p, q, Policy::Side, watch).map_err(|error| DiffError::Side { side, error })
    };
    let (b, n) = std::thread::scope(|s| {
        let b = s.spawn(|| run(base, Which::Base));
        let n = run(new, Which::New);
        (b.join(), n)
    });
    let b = b.unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
    let n = n?;
    for (k, step) in q.steps.iter().enumerate() {
        let why = |a: &Answer| a.levels().get(k + 1).and_then(|l| l.left_out.clone());
        if let (Some(base), Some(new)) = (why(&b), why(&n)) {
            return Err(DiffError::Neither {
                step: k + 1,
                label: step.label(),
                base,
                new,
            });
        }
    }
    Ok([b, n])
}

/// A value of a function, as `report --json` writes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Num {
    /// A count (calls, hits).
    Count(u64),
    /// A time or a percent.
    Real(f64),
}

impl Num {
    /// The value as a float (a count exactly up to 2^53).
    pub fn get(self) -> f64 {
        match self {
            Num::Count(n) => n as f64,
            Num::Real(x) => x,
        }
    }
}

/// A change, new − base: a count's exactly, a time's or a percent's to
/// the decimals the two values are written with (`delta`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Delta {
    /// A change of a count.
    Count(i128),
    /// A change of a time or a percent.
    Real(f64),
}

impl Delta {
    /// The change as a float.
    pub fn get(self) -> f64 {
        match self {
            Delta::Count(n) => n as f64,
            Delta::Real(x) => x,
        }
    }
}

impl serde::Serialize for Delta {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            Delta::Count(n) => s.serialize_i128(n),
            Delta::Real(x) => s.serialize_f64(x),
        }
    }
}

/// `new − base`, a count's exactly; a real's to the most decimals either
/// is written with (`{}`: the shortest that reads back), so a change of
/// `1.1 − 1.0` is `0.1` as written, never `0.10000000000000009`. Never `-0`.
pub fn delta(base: Num, new: Num) -> Delta {
    match (base, new) {
        (Num::Count(b), Num::Count(n)) => Delta::Count(i128::from(n) - i128::from(b)),
        (b, n) => Delta::Real(real_difference(b.get(), n.get())),
    }
}

fn real_difference(base: f64, new: f64) -> f64 {
    let d = new - base;
    let places = decimals(base).max(decimals(new));
    let d = match places {
        0..=15 if d.is_finite() => format!("{d:.places$}").parse().unwrap_or(d),
        _ => d,
    };
    if d == 0.0 { 0.0 } else { d }
}

/// Decimals of `x` as `{}` writes it (never in exponent form).
fn decimals(x: f64) -> usize {
    let text = format!("{x}");
    text.split_once('.').map_or(0, |(_, frac)| frac.len())
}

/// `new ÷ base`; `None` where base is 0 (a function new to the run).
pub fn ratio(base: Num, new: Num) -> Option<f64> {
    let b = base.get();
    (b != 0.0).then(|| new.get() / b)
}

/// Each value `report --json` writes of a function, in its order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Metric {
    Calls,
    HitsSelf,
    HitsTotal,
    ElapsedInclusiveMs,
    ElapsedExclusiveMs,
    ApplicationInclusiveMs,
    ApplicationExclusiveMs,
    ElapsedInclusivePct,
    ElapsedExclusivePct,
    ApplicationInclusivePct,
    ApplicationExclusivePct,
    HitsSelfPct,
    HitsTotalPct,
    MinElapsedInclusiveMs,
    MaxElapsedInclusiveMs,
    MinElapsedExclusiveMs,
    MaxElapsedExclusiveMs,
}

impl Metric {
    /// Every metric, in `--json`'s order.
    pub const ALL: [Metric; 17] = [
        Metric::Calls,
        Metric::HitsSelf,
        Metric::HitsTotal,
        Metric::ElapsedInclusiveMs,
        Metric::ElapsedExclusiveMs,
        Metric::ApplicationInclusiveMs,
        Metric::ApplicationExclusiveMs,
        Metric::ElapsedInclusivePct,
        Metric::ElapsedExclusivePct,
        Metric::ApplicationInclusivePct,
        Metric::ApplicationExclusivePct,
        Metric::HitsSelfPct,
        Metric::HitsTotalPct,
        Metric::MinElapsedInclusiveMs,
        Metric::MaxElapsedInclusiveMs,
        Metric::MinElapsedExclusiveMs,
        Metric::MaxElapsedExclusiveMs,
    ];

    /// Its `--json` key.
    pub fn key(self) -> &'static str {
        match self {
            Metric::Calls => "calls",
            Metric::HitsSelf => "hits_self",
            Metric::HitsTotal => "hits_total",
            Metric::ElapsedInclusiveMs => "elapsed_inclusive_ms",
            Metric::ElapsedExclusiveMs => "elapsed_exclusive_ms",
            Metric::ApplicationInclusiveMs => "application_inclusive_ms",
            Metric::ApplicationExclusiveMs => "application_exclusive_ms",
            Metric::ElapsedInclusivePct => "elapsed_inclusive_pct",
            Metric::ElapsedExclusivePct => "elapsed_exclusive_pct",
            Metric::ApplicationInclusivePct => "application_inclusive_pct",
            Metric::ApplicationExclusivePct => "application_exclusive_pct",
            Metric::HitsSelfPct => "hits_self_pct",
            Metric::HitsTotalPct => "hits_total_pct",
            Metric::MinElapsedInclusiveMs => "min_elapsed_inclusive_ms",
            Metric::MaxElapsedInclusiveMs => "max_elapsed_inclusive_ms",
            Metric::MinElapsedExclusiveMs => "min_elapsed_exclusive_ms",
            Metric::MaxElapsedExclusiveMs => "max_elapsed_exclusive_ms",
        }
    }

    /// Whether it is a percent (`…_pct`: of its run's total).
    pub fn is_pct(self) -> bool {
        self.key().ends_with("_pct")
    }

    /// Whether it is a time (`…_ms`: in the profile's unit).
    pub fn is_time(self) -> bool {
        self.key().ends_with("_ms")
    }

    /// Whether a function absent from a run counts 0 of it there: every
    /// sum and share; not a single call's extremes, which it has none of.
    pub fn sums(self) -> bool {
        !self.key().starts_with("min_") && !self.key().starts_with("max_")
    }

    /// The value in a function's row of `report --json`.
    pub(crate) fn of(self, f: &report::Function<'_>) -> Option<Num> {
        let c = |v: Option<u64>| v.map(Num::Count);
        let r = |v: Option<f64>| v.map(Num::Real);
        match self {
            Metric::Calls => c(f.calls),
            Metric::HitsSelf => c(f.hits_self),
            Metric::HitsTotal => c(f.hits_total),
            Metric::ElapsedInclusiveMs => r(f.elapsed_inclusive_ms),
            Metric::ElapsedExclusiveMs => r(f.elapsed_exclusive_ms),
            Metric::ApplicationInclusiveMs => r(f.application_inclusive_ms),
            Metric::ApplicationExclusiveMs => r(f.application_exclusive_ms),
            Metric::ElapsedInclusivePct => r(f.elapsed_inclusive_pct),
            Metric::ElapsedExclusivePct => r(f.elapsed_exclusive_pct),
            Metric::ApplicationInclusivePct => r(f.application_inclusive_pct),
            Metric::ApplicationExclusivePct => r(f.application_exclusive_pct),
            Metric::HitsSelfPct => r(f.hits_self_pct),
            Metric::HitsTotalPct => r(f.hits_total_pct),
            Metric::MinElapsedInclusiveMs => r(f.min_elapsed_inclusive_ms),
            Metric::MaxElapsedInclusiveMs => r(f.max_elapsed_inclusive_ms),
            Metric::MinElapsedExclusiveMs => r(f.min_elapsed_exclusive_ms),
            Metric::MaxElapsedExclusiveMs => r(f.max_elapsed_exclusive_ms),
        }
    }

    /// A count (calls, hits) rather than a time or a percent.
    fn is_count(self) -> bool {
        matches!(self, Metric::Calls | Metric::HitsSelf | Metric::HitsTotal)
    }
}

/// What a comparison's inclusive and exclusive values and shares are:
/// the first of time, samples and calls that both runs record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// Elapsed time (ms, or ticks on both sides).
    Time,
    /// Samples (hits).
    Hits,
    /// Calls, where neither times nor samples are on both sides.
    Calls,
}

impl Measure {
    /// The inclusive value compared (`incl(F)`, the table's columns, the
    /// default order).
    pub fn incl(self) -> Metric {
        match self {
            Measure::Time => Metric::ElapsedInclusiveMs,
            Measure::Hits => Metric::HitsTotal,
            Measure::Calls => Metric::Calls,
        }
    }

    /// The exclusive value (`self(F)`); calls have none.
    pub fn excl(self) -> Option<Metric> {
        match self {
            Measure::Time => Some(Metric::ElapsedExclusiveMs),
            Measure::Hits => Some(Metric::HitsSelf),
            Measure::Calls => None,
        }
    }

    /// The exclusive value's share of its run's total: the session's
    /// time or the samples; calls have none.
    pub fn excl_share(self) -> Option<Metric> {
        match self {
            Measure::Time => Some(Metric::ElapsedExclusivePct),
            Measure::Hits => Some(Metric::HitsSelfPct),
            Measure::Calls => None,
        }
    }

    /// The inclusive value's share of its run's total (`share(F)`): the
    /// session's time or the samples; calls have none.
    pub fn share(self) -> Option<Metric> {
        match self {
            Measure::Time => Some(Metric::ElapsedInclusivePct),
            Measure::Hits => Some(Metric::HitsTotalPct),
            Measure::Calls => None,
        }
    }
}

/// Two runs compared: each side's answer, their functions paired (rows
/// in canonical order of (name, module)), their edges and stacks paired
/// by the functions' pairing, and what a person must be told.
pub struct Comparison {
    sides: [Answer; 2],
    /// Labels of the sides' inputs as given on the command line.
    rows: Vec<Row>,
    side_rows: [SideRows; 2],
    records: [[bool; 17]; 2],
    measure: Option<Measure>,
    notes: Vec<String>,
}

impl Comparison {
    /// Compares the two answers (base, new): a usage error where their
    /// times are in different units.
    pub fn new(sides: [Answer; 2]) -> Result<Comparison, DiffError> {
        let unit = |a: &Answer| a.paths().time_unit();
        if let (Some(b), Some(n)) = (unit(&sides[0]), unit(&sides[1]))
            && b != n
        {
            return Err(DiffError::Units {
                base: b.name(),
                new: n.name(),
            });
        }
        let (base, new) = (sides[0].paths(), sides[1].paths());
        let (rows, side_rows) = pair::functions(base, new);
        let records = [records(base), records(new)];
        let measure = [Measure::Time, Measure::Hits, Measure::Calls]
            .into_iter()
            .find(|m| records.iter().all(|r| r[m.incl() as usize]));
        let mut c = Comparison {
            sides,
            rows,
            side_rows,
            records,
            measure,
            notes: Vec::new(),
        };
        c.notes = c.notes_of();
        Ok(c)
    }

    fn notes_of(&self) -> Vec<String> {
        let mut notes = Vec::new();
        let both = self.rows.iter().filter(|r| r.status() == "both").count();
        if both == 0 && !self.rows.is_empty() {
            notes.push(
                "the two runs have no function in common: every function is new or gone".into(),
            );
        }
        let by_name = self
            .rows
            .iter()
            .filter(|r| r.paired_by == Some(PairedBy::Name))
            .count();
        if by_name > 0 {
            notes.push(format!(
                "{} paired by name alone (their modules differ)",
                crate::report::fmt::counted(by_name as u64, "functions")
            ));
        }
        if self.measure.is_none() {
            notes.push(
                "the two runs record no measure in common (times, samples or calls): only their functions are paired".into(),
            );
        }
        notes
    }

    /// A side's answer.
    pub fn side(&self, w: Which) -> &Answer {
        &self.sides[w.index()]
    }

    /// A side's paths' profile (every number compared is read from it).
    pub fn profile(&self, w: Which) -> &Arc<Profile> {
        self.side(w).paths()
    }

    /// The rows, in canonical order of (name, module).
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// What is compared: time, samples or calls; `None` where the runs
    /// record none in common.
    pub fn measure(&self) -> Option<Measure> {
        self.measure
    }

    /// The time unit of both sides (`None` where neither has times).
    pub fn time_unit(&self) -> Option<TimeUnit> {
        self.profile(Which::Base)
            .time_unit()
            .or_else(|| self.profile(Which::New).time_unit())
    }

    /// What the comparison tells beside its rows (no function in common,
    /// functions paired by name alone).
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// Whether side `w` records `m` for some function.
    pub fn records(&self, w: Which, m: Metric) -> bool {
        self.records[w.index()][m as usize]
    }

    /// Row `r`'s function's row in `report --json` of side `w`; `None`
    /// where the function is not in that run.
    pub(crate) fn function(&self, w: Which, r: &Row) -> Option<report::Function<'_>> {
        let f = r.func(w)?;
        Some(report::function(self.profile(w), f))
    }

    /// Row `r`'s value of `m` on side `w`: the function's, or 0 where the
    /// function is not in that run and the run records `m` (a sum or a
    /// share: `Metric::sums`).
    pub fn value(&self, w: Which, r: &Row, m: Metric) -> Option<Num> {
        match self.function(w, r) {
            Some(f) => m.of(&f),
            None if m.sums() && self.records(w, m) => Some(match m.is_count() {
                true => Num::Count(0),
                false => Num::Real(0.0),
            }),
            None => None,
        }
    }

    /// Row `r`'s change of `m`, new − base, where both sides have it.
    pub fn delta(&self, r: &Row, m: Metric) -> Option<Delta> {
        let (b, n) = self.both(r, m)?;
        Some(delta(b, n))
    }

    /// Row `r`'s ratio of `m`, new ÷ base, where both have it and base is
    /// not 0.
    pub fn ratio(&self, r: &Row, m: Metric) -> Option<f64> {
        let (b, n) = self.both(r, m)?;
        ratio(b, n)
    }

    fn both(&self, r: &Row, m: Metric) -> Option<(Num, Num)> {
        let b = self.value(Which::Base, r, m)?;
        let n = self.value(Which::New, r, m)?;
        // A count against a real (a count stated as a time?) compares as reals.
        Some(match (b, n) {
            (Num::Count(_), Num::Real(_)) => (Num::Real(b.get()), n),
            (Num::Real(_), Num::Count(_)) => (b, Num::Real(n.get())),
            _ => (b, n),
        })
    }

    /// A run's total of the measure: the session's time, or its samples;
    /// `None` for calls (no run states a total of them).
    pub fn total(&self, w: Which) -> Option<Num> {
        let p = self.profile(w);
        match self.measure? {
            Measure::Time => p
                .at_resolution(p.totals.elapsed_inclusive_ms)
                .map(Num::Real),
            Measure::Hits => p.totals.samples.map(Num::Count),
            Measure::Calls => None,
        }
    }

    /// The side's pairing: each of its functions' row.
    pub(crate) fn side_rows(&self, w: Which) -> &SideRows {
        &self.side_rows[w.index()]
    }

    /// The rows whose function `name` names (model.md § Names): every row
    /// of that exact name whatever its module (on either side); else, split
    /// at a `!`, the row of that module (either side's) and name.
    pub fn rows_named(&self, name: &str) -> Vec<usize> {
        let whole: Vec<usize> = (0..self.rows.len())
            .filter(|&i| self.rows[i].name(self) == name)
            .collect();
        if !whole.is_empty() {
            return whole;
        }
        for (i, _) in name.match_indices('!') {
            let (module, name) = (&name[..i], &name[i + 1..]);
            let one: Vec<usize> = (0..self.rows.len())
                .filter(|&k| {
                    let r = &self.rows[k];
                    r.name(self) == name
                        && Which::BOTH
                            .iter()
                            .any(|&w| r.module_on(self, w) == Some(module))
                })
                .collect();
            if !one.is_empty() {
                return one;
            }
        }
        Vec::new()
    }
}

/// Which metrics some function of `p` has a value of, as `--json` writes
/// them.
fn records(p: &Profile) -> [bool; 17] {
    let mut out = [false; 17];
    for f in p.function_ids() {
        let row = report::function(p, f);
        for m in Metric::ALL {
            out[m as usize] |= m.of(&row).is_some();
        }
        if out.iter().all(|&b| b) {
            break;
        }
    }
    out
}

/// A side's query as `--json` states it: the answer's, with a note for
/// each step left out of this side (it names what this side lacks).
pub(crate) fn asked(a: &Answer) -> crate::query::Asked {
    let mut asked = a.asked();
    for (k, l) in a.levels().iter().skip(1).enumerate() {
        if let (Some(step), Some(why)) = (&l.step, &l.left_out) {
            asked.dropped.notes.push(format!(
                "step {} ({}) is left out of this side: {why}",
                k + 1,
                profx_model::text::visible(&step.label())
            ));
        }
    }
    asked
}

#[cfg(test)]
mod tests;
