//! Stacks and lines of two runs compared, as the app's Stacks and Lines
//! tabs show them: stacks paired by their path of functions (the pairing
//! `--json`'s `stacks` has), lines by (file, line). Each value is the one
//! `report --json` writes of that row: its time (a stack's `self_ms`, a
//! line's `time_ms`) where both runs record times of these rows, else its
//! `hits`; a share is that value's percent of its run's total (the
//! session's time, or its samples), so runs of different length compare.

use super::pair::{self, Paired};
use super::{Comparison, Delta, Num, Which};
use crate::report::fmt::{grouped, grouped_3};
use crate::report::json as report;
use profx_model::text::visible;
use profx_model::{LineId, Profile, StackId};
use rustc_hash::FxHashMap;

/// What a table of pairs compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Of {
    /// Stacks, paired by their path of functions.
    Stacks,
    /// Source lines, paired by (file, line).
    Lines,
}

/// The rows of stacks or lines of both runs, paired: each pair holds the
/// index of each run's own row (a `StackId`'s or a `LineId`'s), in
/// canonical order (a stack's frames' (name, module), root first; a
/// line's file, then its number).
pub struct Pairs {
    of: Of,
    rows: Vec<Paired>,
    /// What is compared: `None` where the runs record neither of these
    /// rows' times nor their hits.
    value: Option<Value>,
}

/// A pair's value: its time, or its hits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Value {
    Time,
    Hits,
}

impl Comparison {
    /// The two runs' stacks or lines, paired.
    pub fn pairs(&self, of: Of) -> Pairs {
        let rows = match of {
            Of::Stacks => pair::stacks(self),
            Of::Lines => lines(self),
        };
        let mut pairs = Pairs {
            of,
            rows,
            value: None,
        };
        // Times compare only in one unit, which `Comparison::new` checked.
        for v in [Value::Time, Value::Hits] {
            pairs.value = Some(v);
            if Which::BOTH.iter().all(|&w| pairs.records(self, w)) {
                return pairs;
            }
        }
        pairs.value = None;
        pairs
    }
}

/// The two runs' lines paired by (file, line), in that order.
pub(crate) fn lines(c: &Comparison) -> Vec<Paired> {
    let mut keyed: FxHashMap<(&str, u32), Paired> = FxHashMap::default();
    for w in Which::BOTH {
        let p = c.profile(w);
        for id in p.line_ids() {
            let l = p.line(id);
            keyed.entry((p.name(l.file), l.line)).or_default()[w as usize] = Some(id.index());
        }
    }
    let mut out: Vec<((&str, u32), Paired)> = keyed.into_iter().collect();
    out.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    out.into_iter().map(|e| e.1).collect()
}

impl Pairs {
    /// What is compared.
    pub fn of(&self) -> Of {
        self.of
    }

    /// How many pairs.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Pair `i`'s row on side `w` (a `StackId`'s or `LineId`'s index).
    pub fn row(&self, i: usize, w: Which) -> Option<usize> {
        self.rows.get(i)?[w as usize]
    }

    /// Pair `i`'s status: `both`, `new` or `gone`.
    pub fn status(&self, i: usize) -> &'static str {
        self.rows.get(i).map_or("both", pair::status)
    }

    /// What the pair is called: a stack's frames, root first (`a → b`), a
    /// line's `file:line`; the new run's, else the base's.
    pub fn name(&self, c: &Comparison, i: usize) -> String {
        let Some(&p) = self.rows.get(i) else {
            return String::new();
        };
        let (w, k) = match p {
            [_, Some(n)] => (Which::New, n),
            [Some(b), None] => (Which::Base, b),
            [None, None] => return String::new(),
        };
        let prof = c.profile(w);
        match self.of {
            Of::Stacks => {
                let frames = prof.frames(StackId::from_index(k));
                let names: Vec<_> = frames
                    .iter()
                    .map(|&f| visible(prof.function_name(f)))
                    .collect();
                names.join(" → ")
            }
            Of::Lines => {
                let l = prof.line(LineId::from_index(k));
                format!("{}:{}", visible(prof.name(l.file)), l.line)
            }
        }
    }

    /// Whether some row of side `w` has the value compared: a row absent
    /// from a side that records it counts 0 there.
    fn records(&self, c: &Comparison, w: Which) -> bool {
        let p = c.profile(w);
        match self.of {
            Of::Stacks => p.stack_ids().any(|s| self.raw(c, w, s.index()).is_some()),
            Of::Lines => p.line_ids().any(|l| self.raw(c, w, l.index()).is_some()),
        }
    }

    /// Whether the values are times; `Some(false)`: hits; `None`: the
    /// runs record neither.
    pub fn is_time(&self) -> Option<bool> {
        self.value.map(|v| v == Value::Time)
    }

    /// Whether both runs total the value, so shares of it compare (a
    /// trace's lines count calls, which no run totals).
    pub fn has_shares(&self, c: &Comparison) -> bool {
        Which::BOTH.iter().all(|&w| self.total(c, w).is_some())
    }

    /// A run's total the shares are of: its session's time, or its
    /// samples.
    fn total(&self, c: &Comparison, w: Which) -> Option<f64> {
        let p = c.profile(w);
        match self.value? {
            Value::Time => p.at_resolution(p.totals.elapsed_inclusive_ms),
            Value::Hits => p.totals.samples.map(|n| n as f64),
        }
    }

    /// The row's value on side `w` as `report --json` writes it: a
    /// stack's `self_ms` or `hits`, a line's `time_ms` or `hits`.
    fn raw(&self, c: &Comparison, w: Which, k: usize) -> Option<Num> {
        let p: &Profile = c.profile(w);
        let time = self.value == Some(Value::Time);
        let hits = self.value == Some(Value::Hits);
        match self.of {
            Of::Stacks => {
                let s = report::stack(p, StackId::from_index(k));
                match (time, hits) {
                    (true, _) => s.self_ms.map(Num::Real),
                    (_, true) => s.hits.map(Num::Count),
                    _ => None,
                }
            }
            Of::Lines => {
                let l = p.line(LineId::from_index(k));
                match (time, hits) {
                    (true, _) => p.at_resolution(l.time_ms).map(Num::Real),
                    (_, true) => l.hits.map(Num::Count),
                    _ => None,
                }
            }
        }
    }

    /// Pair `i`'s value on side `w`: the row's, 0 where the side lacks
    /// the row but records the value; with `shares`, its percent of the
    /// run's total.
    pub fn value(&self, c: &Comparison, w: Which, i: usize, shares: bool) -> Option<Num> {
        let v = match self.row(i, w) {
            Some(k) => self.raw(c, w, k)?,
            None if self.value.is_some() => match self.value {
                Some(Value::Hits) => Num::Count(0),
                _ => Num::Real(0.0),
            },
            None => return None,
        };
        match shares {
            false => Some(v),
            true => {
                let total = self.total(c, w)?;
                Some(Num::Real(match total {
                    0.0 => 0.0,
                    t => v.get() * 100.0 / t,
                }))
            }
        }
    }

    /// Pair `i`'s change, new − base, where both sides have a value.
    pub fn delta(&self, c: &Comparison, i: usize, shares: bool) -> Option<Delta> {
        let b = self.value(c, Which::Base, i, shares)?;
        let n = self.value(c, Which::New, i, shares)?;
        Some(super::delta(b, n))
    }

    /// Pair `i`'s ratio, new ÷ base, where both have a value and base is
    /// not 0.
    pub fn ratio(&self, c: &Comparison, i: usize, shares: bool) -> Option<f64> {
        let b = self.value(c, Which::Base, i, shares)?;
        let n = self.value(c, Which::New, i, shares)?;
        super::ratio(b, n)
    }

    /// The pairs by the largest absolute change (pairs without one last),
    /// ties in canonical order.
    pub fn ordered(&self, c: &Comparison, shares: bool) -> Vec<usize> {
        let size: Vec<f64> = (0..self.len())
            .map(|i| self.delta(c, i, shares).map_or(-1.0, |d| d.get().abs()))
            .collect();
        let mut order: Vec<usize> = (0..self.len()).collect();
        order.sort_by(|&a, &b| size[b].total_cmp(&size[a]).then(a.cmp(&b)));
        order
    }

    /// Pair `i`'s value on side `w` as the Functions comparison writes
    /// one: a count grouped, a time to three decimals, a share to two;
    /// `—` where the side has none.
    pub fn value_cell(&self, c: &Comparison, w: Which, i: usize, shares: bool) -> String {
        match self.value(c, w, i, shares) {
            Some(Num::Real(x)) if shares => format!("{x:.2}"),
            Some(Num::Real(x)) => grouped_3(x),
            Some(Num::Count(n)) => grouped(n),
            None => "—".into(),
        }
    }

    /// Pair `i`'s change, signed (a share's in points).
    pub fn change_cell(&self, c: &Comparison, i: usize, shares: bool) -> String {
        match self.delta(c, i, shares) {
            Some(Delta::Real(x)) if shares => super::table::signed_pct(x),
            Some(d) => super::signed(d),
            None => "—".into(),
        }
    }

    /// Pair `i`'s change in percent of its base value, signed; `—` where
    /// the base is 0 or a side has none.
    pub fn change_pct_cell(&self, c: &Comparison, i: usize, shares: bool) -> String {
        self.ratio(c, i, shares).map_or("—".into(), |q| {
            format!("{}%", super::table::signed_pct((q - 1.0) * 100.0))
        })
    }
}
