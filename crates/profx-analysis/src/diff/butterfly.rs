//! A function's butterfly compared (model.md § Comparisons): its callers
//! and callees in both runs, each neighbour paired across the runs by the
//! comparison's function pairing (the rows': (name, module), then name),
//! so an edge F → G of BASE meets NEW's edge between the functions of the
//! same two rows. The edges are the ones `profx diff --json` writes (`edges`,
//! `pair::edges`), each side's values as `report --json` gives them.
//!
//! [`Neighbours`] pairs every edge once (O(both runs' edges)) and files
//! each pair under its caller's and its callee's rows; a [`Butterfly`] is
//! one row's lists, read from it at each selection: a function gone from
//! NEW has BASE's edges against nothing, one new in NEW the reverse.

use super::pair::{self, Paired};
use super::{Comparison, Delta, Measure, Num, Which};
use crate::callgraph::GraphEdge;
use crate::report::fmt::{grouped, grouped_3};
use crate::report::json as report;

/// An edge's values on one side, as `profx diff --json`'s `edges` (and
/// `report --json`'s) write them.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct EdgeValues {
    /// Calls of the callee from the caller, where hits count calls.
    pub calls: Option<u64>,
    /// Samples with the caller directly above the callee.
    pub hits: Option<u64>,
    /// Time in the callee and below while called from the caller.
    pub elapsed_inclusive_ms: Option<f64>,
}

/// Both runs' edges, paired, and each row's pairs as caller and callee.
#[derive(Debug, Default)]
pub struct Neighbours {
    /// The pairs, in `--json`'s order (caller's row, then callee's).
    pairs: Vec<Paired>,
    /// Each pair's (caller row, callee row).
    ends: Vec<(u32, u32)>,
    /// Each side's edges' values, as the report writes them.
    values: [Vec<EdgeValues>; 2],
    /// Row → the pairs in which its function calls (its callees).
    calls: Vec<Vec<u32>>,
    /// Row → the pairs in which it is called (its callers).
    called: Vec<Vec<u32>>,
}

/// One neighbour of a compared butterfly: the other function's row, and
/// the edge of each run between the two.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Link {
    /// The caller's or callee's row of the comparison.
    pub row: usize,
    /// Each run's edge values (base, new); `None` where that run has no
    /// such edge.
    pub edges: [Option<EdgeValues>; 2],
}

impl Link {
    /// `both`, `new` (NEW's edge only) or `gone` (BASE's only).
    pub fn status(&self) -> &'static str {
        match self.edges {
            [Some(_), Some(_)] => "both",
            [None, _] => "new",
            [_, None] => "gone",
        }
    }
}

/// A row's callers and callees in both runs, each list by the largest
/// absolute change of the value compared (ties in canonical order).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Butterfly {
    /// The row whose neighbours these are.
    pub row: usize,
    /// Who calls it, in either run.
    pub callers: Vec<Link>,
    /// Whom it calls, in either run.
    pub callees: Vec<Link>,
    /// Whether the values are shares of each run's total.
    pub shares: bool,
}

impl Neighbours {
    /// Pairs both runs' edges once (each run's call graph's edges, made
    /// as `--json` makes them).
    pub fn of(c: &Comparison) -> Neighbours {
        let (pairs, each) = pair::edges(c);
        let values = Which::BOTH.map(|w| {
            let p = c.profile(w);
            each[w as usize].iter().map(|e| values(p, e)).collect()
        });
        let mut n = Neighbours {
            calls: vec![Vec::new(); c.rows().len()],
            called: vec![Vec::new(); c.rows().len()],
            ends: Vec::with_capacity(pairs.len()),
            pairs,
            values,
        };
        for (k, pair) in n.pairs.iter().enumerate() {
            let (w, i) = match pair {
                [_, Some(i)] => (Which::New, *i),
                [Some(i), None] => (Which::Base, *i),
                [None, None] => continue,
            };
            let e = &each[w as usize][i];
            let rows = c.side_rows(w);
            let (a, b) = (rows.of(e.caller), rows.of(e.callee));
            n.ends.push((a, b));
            n.calls[a as usize].push(k as u32);
            n.called[b as usize].push(k as u32);
        }
        n
    }

    /// How many pairs of edges (`--json`'s `edges`).
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// Whether neither run has an edge.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    fn link(&self, k: u32, other: u32) -> Link {
        let pair = &self.pairs[k as usize];
        let side = |w: Which| pair[w as usize].map(|i| self.values[w as usize][i]);
        Link {
            row: other as usize,
            edges: [side(Which::Base), side(Which::New)],
        }
    }

    /// Row `row`'s butterfly compared, its lists by the largest absolute
    /// change of the value compared (a share's, with `shares`).
    pub fn butterfly(&self, c: &Comparison, row: usize, shares: bool) -> Butterfly {
        let list = |of: &[Vec<u32>], end: fn((u32, u32)) -> u32| -> Vec<Link> {
            let mut out: Vec<Link> = of.get(row).map_or(Vec::new(), |ks| {
                ks.iter()
                    .map(|&k| self.link(k, end(self.ends[k as usize])))
                    .collect()
            });
            let size = |l: &Link| {
                let d = Butterfly::delta_of(c, l, shares);
                d.map_or(-1.0, |d| d.get().abs())
            };
            out.sort_by(|a, b| size(b).total_cmp(&size(a)).then(a.row.cmp(&b.row)));
            out
        };
        Butterfly {
            row,
            callers: list(&self.called, |(a, _)| a),
            callees: list(&self.calls, |(_, b)| b),
            shares,
        }
    }
}

/// A side's edge as `report --json` writes its values.
fn values(p: &profx_model::Profile, e: &GraphEdge) -> EdgeValues {
    let row = report::edge(p, e);
    EdgeValues {
        calls: row.calls,
        hits: row.hits,
        elapsed_inclusive_ms: row.elapsed_inclusive_ms,
    }
}

impl Butterfly {
    /// A link's value on side `w`: the edge's value of the comparison's
    /// measure (its time, samples or calls), 0 where that run has no such
    /// edge; with shares, its percent of the run's total.
    pub fn value(&self, c: &Comparison, l: &Link, w: Which) -> Option<Num> {
        Butterfly::value_of(c, l, w, self.shares)
    }

    fn value_of(c: &Comparison, l: &Link, w: Which, shares: bool) -> Option<Num> {
        let m = c.measure()?;
        let v = match l.edges[w as usize] {
            Some(e) => match m {
                Measure::Time => Num::Real(e.elapsed_inclusive_ms?),
                Measure::Hits => Num::Count(e.hits?),
                Measure::Calls => Num::Count(e.calls?),
            },
            None => match m {
                Measure::Time => Num::Real(0.0),
                Measure::Hits | Measure::Calls => Num::Count(0),
            },
        };
        if !shares {
            return Some(v);
        }
        let total = c.total(w)?.get();
        Some(Num::Real(match total {
            0.0 => 0.0,
            t => v.get() * 100.0 / t,
        }))
    }

    fn delta_of(c: &Comparison, l: &Link, shares: bool) -> Option<Delta> {
        let b = Butterfly::value_of(c, l, Which::Base, shares)?;
        let n = Butterfly::value_of(c, l, Which::New, shares)?;
        Some(super::delta(b, n))
    }

    /// A link's change, new − base, where both sides have a value.
    pub fn delta(&self, c: &Comparison, l: &Link) -> Option<Delta> {
        Butterfly::delta_of(c, l, self.shares)
    }

    /// A link's ratio, new ÷ base, where both have a value and base is
    /// not 0.
    pub fn ratio(&self, c: &Comparison, l: &Link) -> Option<f64> {
        let b = self.value(c, l, Which::Base)?;
        let n = self.value(c, l, Which::New)?;
        super::ratio(b, n)
    }

    /// A link's value on side `w` as the comparison's tables write one: a
    /// count grouped, a time to three decimals, a share to two; `—` where
    /// there is none.
    pub fn value_cell(&self, c: &Comparison, l: &Link, w: Which) -> String {
        match self.value(c, l, w) {
            Some(Num::Real(x)) if self.shares => format!("{x:.2}"),
            Some(Num::Real(x)) => grouped_3(x),
            Some(Num::Count(n)) => grouped(n),
            None => "—".into(),
        }
    }

    /// A link's change, signed (a share's in points).
    pub fn change_cell(&self, c: &Comparison, l: &Link) -> String {
        match self.delta(c, l) {
            Some(Delta::Real(x)) if self.shares => super::table::signed_pct(x),
            Some(d) => super::signed(d),
            None => "—".into(),
        }
    }

    /// A link's change in percent of its base value, signed; `—` where
    /// the base is 0 or a side has none.
    pub fn change_pct_cell(&self, c: &Comparison, l: &Link) -> String {
        self.ratio(c, l).map_or("—".into(), |q| {
            format!("{}%", super::table::signed_pct((q - 1.0) * 100.0))
        })
    }
}
