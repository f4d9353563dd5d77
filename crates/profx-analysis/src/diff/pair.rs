//! Pairing two runs' functions, edges and stacks (model.md § Comparisons).
//!
//! Functions pair by (name, module), the key the answer's own mapping
//! uses (`Answer::to_paths`); then, of those left, a name that one
//! function of each run has pairs by name alone (their modules differ: a
//! listing names no module where a `/T` file does, a DLL renamed). A name
//! left to several functions of a run pairs none of them: which would be
//! a guess. Edges pair by their two functions' rows, stacks by their
//! frames' rows, so both follow the functions' pairing.

use super::{Comparison, Which};
use profx_model::{FuncId, Profile};
use rustc_hash::FxHashMap;

/// How a row's two functions were paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairedBy {
    /// The same name and module.
    NameModule,
    /// The same name; the modules differ.
    Name,
}

impl PairedBy {
    /// Its `--json` word: `name+module` or `name`.
    pub fn key(self) -> &'static str {
        match self {
            PairedBy::NameModule => "name+module",
            PairedBy::Name => "name",
        }
    }
}

/// One function of the comparison: its function in each run it is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// Its function in the base run.
    pub base: Option<FuncId>,
    /// Its function in the new run.
    pub new: Option<FuncId>,
    /// How the two were paired; `None` for a function of one run.
    pub paired_by: Option<PairedBy>,
}

impl Row {
    /// Its function on side `w`.
    pub fn func(&self, w: Which) -> Option<FuncId> {
        match w {
            Which::Base => self.base,
            Which::New => self.new,
        }
    }

    /// `both`, `new` (in the new run only) or `gone` (in the base run
    /// only).
    pub fn status(&self) -> &'static str {
        match (self.base, self.new) {
            (Some(_), Some(_)) => "both",
            (None, _) => "new",
            (_, None) => "gone",
        }
    }

    /// The side a row is named from: the new run's, else the base's.
    fn named_by(&self) -> Which {
        match self.new {
            Some(_) => Which::New,
            None => Which::Base,
        }
    }

    /// Its name (both sides have the same).
    pub fn name<'c>(&self, c: &'c Comparison) -> &'c str {
        let w = self.named_by();
        self.func(w).map_or("", |f| c.profile(w).function_name(f))
    }

    /// Its module: the new run's, else the base's.
    pub fn module<'c>(&self, c: &'c Comparison) -> &'c str {
        self.module_on(c, self.named_by()).unwrap_or("")
    }

    /// Its module on side `w`, where it is in that run.
    pub fn module_on<'c>(&self, c: &'c Comparison, w: Which) -> Option<&'c str> {
        Some(c.profile(w).function_module(self.func(w)?))
    }
}

/// A run's functions' rows: function index → row index.
#[derive(Clone, Debug, Default)]
pub struct SideRows(Vec<u32>);

impl SideRows {
    /// The row of function `f`.
    pub fn of(&self, f: FuncId) -> u32 {
        self.0[f.index()]
    }
}

/// The rows pairing `base`'s and `new`'s functions, in canonical order of
/// (name, module) (the new run's module where the two differ), and each
/// run's functions' rows.
pub(crate) fn functions(base: &Profile, new: &Profile) -> (Vec<Row>, [SideRows; 2]) {
    fn key(p: &Profile, f: FuncId) -> (&str, &str) {
        (p.function_name(f), p.function_module(f))
    }
    let mut by_key: FxHashMap<(&str, &str), FuncId> = FxHashMap::default();
    by_key.reserve(new.functions().len());
    for f in new.function_ids() {
        by_key.insert(key(new, f), f);
    }
    let mut rows = Vec::with_capacity(base.functions().len().max(new.functions().len()));
    let mut new_paired = vec![false; new.functions().len()];
    let mut base_left: FxHashMap<&str, Vec<FuncId>> = FxHashMap::default();
    for f in base.function_ids() {
        match by_key.get(&key(base, f)) {
            Some(&g) => {
                new_paired[g.index()] = true;
                rows.push(Row {
                    base: Some(f),
                    new: Some(g),
                    paired_by: Some(PairedBy::NameModule),
                });
            }
            None => base_left.entry(base.function_name(f)).or_default().push(f),
        }
    }
    let mut new_left: FxHashMap<&str, Vec<FuncId>> = FxHashMap::default();
    for g in new.function_ids().filter(|g| !new_paired[g.index()]) {
        new_left.entry(new.function_name(g)).or_default().push(g);
    }
    for (name, fs) in &base_left {
        match (fs.as_slice(), new_left.get(name).map(Vec::as_slice)) {
            ([f], Some([g])) => rows.push(Row {
                base: Some(*f),
                new: Some(*g),
                paired_by: Some(PairedBy::Name),
            }),
            _ => rows.extend(fs.iter().map(|&f| Row {
                base: Some(f),
                new: None,
                paired_by: None,
            })),
        }
    }
    for (name, gs) in &new_left {
        let paired = matches!(
            (gs.as_slice(), base_left.get(name).map(Vec::as_slice)),
            ([_], Some([_]))
        );
        if !paired {
            rows.extend(gs.iter().map(|&g| Row {
                base: None,
                new: Some(g),
                paired_by: None,
            }));
        }
    }
    let named = |r: &Row| match r.new {
        Some(g) => key(new, g),
        None => r.base.map_or(("", ""), |f| key(base, f)),
    };
    rows.sort_unstable_by(|a, b| named(a).cmp(&named(b)).then(a.base.cmp(&b.base)));
    let mut side_rows = [
        SideRows(vec![u32::MAX; base.functions().len()]),
        SideRows(vec![u32::MAX; new.functions().len()]),
    ];
    for (i, r) in rows.iter().enumerate() {
        for w in Which::BOTH {
            if let Some(f) = r.func(w) {
                side_rows[w.index()].0[f.index()] = i as u32;
            }
        }
    }
    (rows, side_rows)
}

/// A pair of rows of the two runs' edges or stacks, keyed by their
/// functions' rows: the index of each run's own.
pub(crate) type Paired = [Option<usize>; 2];

/// The two runs' edges paired by (caller row, callee row), in that order
/// (the caller's (name, module), then the callee's), with each run's
/// edges (`callgraph::edges`).
pub(crate) fn edges(c: &Comparison) -> (Vec<Paired>, [Vec<crate::callgraph::GraphEdge>; 2]) {
    let each = Which::BOTH.map(|w| crate::callgraph::edges(c.profile(w)));
    let mut keyed: FxHashMap<(u32, u32), Paired> = FxHashMap::default();
    for w in Which::BOTH {
        let rows = c.side_rows(w);
        for (i, e) in each[w.index()].iter().enumerate() {
            let key = (rows.of(e.caller), rows.of(e.callee));
            keyed.entry(key).or_default()[w.index()] = Some(i);
        }
    }
    let mut out: Vec<((u32, u32), Paired)> = keyed.into_iter().collect();
    out.sort_unstable_by_key(|e| e.0);
    (out.into_iter().map(|e| e.1).collect(), each)
}

/// The two runs' stacks paired by their frames' rows, in order of those
/// (their frames' (name, module), root first).
pub(crate) fn stacks(c: &Comparison) -> Vec<Paired> {
    let mut keyed: FxHashMap<Vec<u32>, Paired> = FxHashMap::default();
    for w in Which::BOTH {
        let (p, rows) = (c.profile(w), c.side_rows(w));
        for s in p.stack_ids() {
            let key: Vec<u32> = p.frames(s).iter().map(|&f| rows.of(f)).collect();
            keyed.entry(key).or_default()[w.index()] = Some(s.index());
        }
    }
    let mut out: Vec<(Vec<u32>, Paired)> = keyed.into_iter().collect();
    out.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    out.into_iter().map(|e| e.1).collect()
}

/// A pair's status: `both`, `new` or `gone`.
pub(crate) fn status(p: &Paired) -> &'static str {
    match p {
        [Some(_), Some(_)] => "both",
        [None, _] => "new",
        [_, None] => "gone",
    }
}
