//! Comparisons of small hand-made runs: the pairing rules, the changes'
//! arithmetic and the conditions' verdicts. The real binary on fixtures of
//! every format is `tests/diff_cli.rs`.

use super::*;
use crate::query::Step;
use profx_model::metrics::Sample;
use profx_model::{FuncId, NodeId, ProfileBuilder};

/// A sampled run: each `(frames, µs)` a sample, a frame `NAME` or
/// `MODULE!NAME`.
fn run(samples: &[(&[&str], u64)]) -> Arc<Profile> {
    let mut b = ProfileBuilder::new("test");
    let mut funcs: Vec<(String, FuncId)> = Vec::new();
    for &(frames, us) in samples {
        let ids: Vec<FuncId> = frames
            .iter()
            .map(|&f| {
                if let Some(&(_, id)) = funcs.iter().find(|(n, _)| n == f) {
                    return id;
                }
                let (module, name) = f.split_once('!').unwrap_or(("", f));
                let (n, m) = (b.intern(name), b.intern(module));
                let id = b.function(n, m);
                funcs.push((f.to_string(), id));
                id
            })
            .collect();
        b.add_sample(Sample {
            frames: &ids,
            time_ns: Some(us * 1000),
            line: None,
        });
    }
    Arc::new(b.finish())
}

fn compare(base: &Arc<Profile>, new: &Arc<Profile>, q: &Query) -> Result<Comparison, DiffError> {
    Comparison::new(answer_sides(base, new, q, &Watch::NONE)?)
}

fn whole(base: &Arc<Profile>, new: &Arc<Profile>) -> Comparison {
    compare(base, new, &Query::default()).expect("compared")
}

/// (name, status, paired_by, base module, new module) of every row.
fn rows(c: &Comparison) -> Vec<(String, &'static str, Option<&'static str>, String, String)> {
    c.rows()
        .iter()
        .map(|r| {
            let m = |w| r.module_on(c, w).unwrap_or("-").to_string();
            (
                r.name(c).to_string(),
                r.status(),
                r.paired_by.map(PairedBy::key),
                m(Which::Base),
                m(Which::New),
            )
        })
        .collect()
}

fn row<'c>(c: &'c Comparison, name: &str) -> &'c Row {
    let k = c.rows_named(name);
    assert_eq!(k.len(), 1, "{name}");
    &c.rows()[k[0]]
}

/// By (name, module) first; then a name that one function of each run
/// is left with pairs by name alone; a name left to several functions of
/// a run pairs none of them; the rest are new or gone, in canonical order.
#[test]
fn functions_pair_by_name_and_module_then_by_a_name_left_to_one_each() {
    let base = run(&[
        (&["main", "a!F", "x!DUP"], 10),
        (&["main", "y!DUP"], 10),
        (&["main", "OLD"], 10),
        (&["main", "m!MOVED"], 10),
    ]);
    let new = run(&[
        (&["main", "a!F", "z!DUP"], 10),
        (&["main", "w!DUP"], 10),
        (&["main", "NEWER"], 10),
        (&["main", "n!MOVED"], 10),
    ]);
    let c = whole(&base, &new);
    let s = |x: &str| x.to_string();
    assert_eq!(
        rows(&c),
        vec![
            (s("DUP"), "new", None, s("-"), s("w")),
            (s("DUP"), "gone", None, s("x"), s("-")),
            (s("DUP"), "gone", None, s("y"), s("-")),
            (s("DUP"), "new", None, s("-"), s("z")),
            (s("F"), "both", Some("name+module"), s("a"), s("a")),
            (s("MOVED"), "both", Some("name"), s("m"), s("n")),
            (s("NEWER"), "new", None, s("-"), s("")),
            (s("OLD"), "gone", None, s(""), s("-")),
            (s("main"), "both", Some("name+module"), s(""), s("")),
        ]
    );
    assert!(
        c.notes()
            .iter()
            .any(|n| n.contains("1 function paired by name"))
    );
}

/// A change of a time is the decimal difference of the two values as
/// written; of a count, exact; never `-0`. A ratio is undefined against 0.
#[test]
fn changes_are_exact_decimals_and_counts() {
    assert_eq!(delta(Num::Real(1.0), Num::Real(1.1)), Delta::Real(0.1));
    assert_eq!(delta(Num::Real(0.3), Num::Real(0.1)), Delta::Real(-0.2));
    assert_eq!(
        delta(Num::Real(2950.7), Num::Real(3541.0)),
        Delta::Real(590.3)
    );
    assert_eq!(delta(Num::Count(7), Num::Count(3)), Delta::Count(-4));
    assert_eq!(
        delta(Num::Count(0), Num::Count(u64::MAX)),
        Delta::Count(i128::from(u64::MAX))
    );
    let zero = delta(Num::Real(-0.0), Num::Real(0.0)).get();
    assert!(zero == 0.0 && zero.is_sign_positive());
    assert_eq!(ratio(Num::Real(0.0), Num::Real(5.0)), None);
    assert_eq!(ratio(Num::Count(4), Num::Count(5)), Some(1.25));
}

/// A run compared with itself changes nothing; swapped, every change is
/// negated, a function new one way gone the other.
#[test]
fn itself_changes_nothing_and_a_swap_negates_every_change() {
    let base = run(&[(&["main", "F"], 30), (&["main", "G"], 10)]);
    let new = run(&[(&["main", "F"], 20), (&["main", "H"], 25)]);
    let same = whole(&base, &base);
    for r in same.rows() {
        assert_eq!(r.status(), "both");
        for m in Metric::ALL {
            if let Some(d) = same.delta(r, m) {
                assert_eq!(d.get(), 0.0, "{} {}", r.name(&same), m.key());
            }
        }
    }
    let (ab, ba) = (whole(&base, &new), whole(&new, &base));
    assert_eq!(ab.rows().len(), ba.rows().len());
    for (r, s) in ab.rows().iter().zip(ba.rows()) {
        assert_eq!(r.name(&ab), s.name(&ba));
        let flipped = match r.status() {
            "new" => "gone",
            "gone" => "new",
            both => both,
        };
        assert_eq!(s.status(), flipped);
        for m in Metric::ALL {
            let (d, e) = (ab.delta(r, m), ba.delta(s, m));
            assert_eq!(d.map(|d| -d.get()), e.map(|e| e.get()), "{}", m.key());
        }
    }
    // G is gone: 10 µs of samples against 0, whose ratio is 0.
    let g = row(&ab, "G");
    assert_eq!(
        ab.delta(g, Metric::ElapsedInclusiveMs),
        Some(Delta::Real(-0.01))
    );
    assert_eq!(ab.ratio(g, Metric::ElapsedInclusiveMs), Some(0.0));
    assert_eq!(ab.delta(g, Metric::HitsTotal), Some(Delta::Count(-1)));
    // No extreme of a single call is compared against a run without it.
    assert_eq!(ab.delta(g, Metric::MinElapsedInclusiveMs), None);
}

/// A step naming what one side lacks is left out of that side, said in
/// its notes; one naming what neither has is an error naming the step.
#[test]
fn a_step_one_side_lacks_is_left_out_of_it() {
    let base = run(&[(&["main", "F"], 30), (&["main", "G"], 10)]);
    let new = run(&[(&["main", "F"], 20), (&["main", "H"], 25)]);
    let q = |name: &str| Query {
        steps: vec![Step::Drop(crate::query::Target(name.into()))],
        ..Query::default()
    };
    let c = compare(&base, &new, &q("G")).expect("G is the base's");
    // Dropped from the base, and never in the new run.
    assert!(c.rows_named("G").is_empty());
    assert!(c.side(Which::Base).steps().count() == 1);
    assert_eq!(c.side(Which::New).steps().count(), 0);
    let notes = asked(c.side(Which::New)).dropped.notes;
    assert!(
        notes
            .iter()
            .any(|n| n.contains("step 1 (drop G) is left out of this side")),
        "{notes:?}"
    );
    assert!(asked(c.side(Which::Base)).dropped.notes.is_empty());
    match compare(&base, &new, &q("NOPE")) {
        Err(DiffError::Neither { step: 1, .. }) => {}
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("NOPE is on neither side"),
    }
}

/// A thread a side lacks is an error naming that side.
#[test]
fn a_thread_a_side_lacks_names_the_side() {
    let base = run(&[(&["main"], 1)]);
    let q = Query {
        threads: Some(vec![1]),
        ..Query::default()
    };
    let e = compare(&base, &base, &q).err().expect("no threads");
    assert!(e.to_string().starts_with("base: "), "{e}");
}

/// `incl(F) > +10%` against 0 holds for a function new to the run; a
/// share compares percents of each run's total; `total` the runs' totals.
#[test]
fn conditions_hold_as_stated() {
    let base = run(&[(&["main", "F"], 30), (&["main", "G"], 10)]);
    let new = run(&[(&["main", "F"], 33), (&["main", "H"], 67)]);
    let c = whole(&base, &new);
    let held = |text: &str| {
        parse_condition(text)
            .unwrap()
            .ask(&c)
            .unwrap_or_else(|e| panic!("{e}"))
            .held
    };
    // F: 0.030 → 0.033 ms, +10 % exactly, not more.
    assert!(!held("incl(F) > +10%"));
    assert!(held("incl(F) >= +10%"));
    assert!(held("incl(F) > +0.002 ms"));
    assert!(!held("incl(F) > +0.003 ms"));
    assert!(held("incl(H) > +1000%"));
    assert!(held("incl(G) <= -100%"));
    // Shares: F 75 % → 33 %.
    assert!(held("share(F) < -40"));
    assert!(held("share(F) < 34"));
    assert!(held("total > +100%"));
    // A sampled run counts no calls.
    let e = parse_condition("calls(F) > 1")
        .unwrap()
        .ask(&c)
        .unwrap_err();
    assert!(e.why.contains("has no calls"), "{e}");
    let e = parse_condition("incl(NOPE) > 1")
        .unwrap()
        .ask(&c)
        .unwrap_err();
    assert!(e.why.contains("no function of either run"), "{e}");
    let e = parse_condition("incl(F) > +1 calls")
        .unwrap()
        .ask(&c)
        .unwrap_err();
    assert!(e.why.contains("in ms"), "{e}");
}

/// Runs with no function in common still compare, saying so.
#[test]
fn runs_with_no_function_in_common_say_so() {
    let c = whole(&run(&[(&["A"], 1)]), &run(&[(&["B"], 1)]));
    let statuses: Vec<&str> = c.rows().iter().map(Row::status).collect();
    assert_eq!(statuses, ["gone", "new"]);
    assert!(c.notes()[0].contains("no function in common"));
}

/// A sampled run whose samples fall on lines: each `(function, file,
/// line, µs)` one sample.
fn on_lines(samples: &[(&str, &str, u32, u64)]) -> Arc<Profile> {
    let mut b = ProfileBuilder::new("test");
    for &(f, file, line, us) in samples {
        let (n, m) = (b.intern(f), b.intern(""));
        let id = b.function(n, m);
        let file = b.intern(file);
        let l = b.line(file, line, Some(id));
        b.add_sample(Sample {
            frames: &[id],
            time_ns: Some(us * 1000),
            line: Some(l),
        });
    }
    Arc::new(b.finish())
}

#[test]
fn lines_pair_by_file_and_line() {
    let base = on_lines(&[("a", "x.prg", 10, 100), ("a", "x.prg", 12, 50)]);
    let new = on_lines(&[("a", "x.prg", 10, 300), ("b", "y.prg", 3, 20)]);
    let c = whole(&base, &new);
    let pairs = c.pairs(Of::Lines);
    let named: Vec<(String, &str)> = (0..pairs.len())
        .map(|i| (pairs.name(&c, i), pairs.status(i)))
        .collect();
    assert_eq!(
        named,
        [
            ("x.prg:10".to_string(), "both"),
            ("x.prg:12".to_string(), "gone"),
            ("y.prg:3".to_string(), "new"),
        ]
    );
    // x.prg:10 went from 0.1 ms to 0.3 ms; x.prg:12 is gone (0 in NEW).
    assert_eq!(pairs.change_cell(&c, 0, false), "+0.200");
    assert_eq!(pairs.change_cell(&c, 1, false), "-0.050");
    assert_eq!(pairs.change_pct_cell(&c, 1, false), "-100.00%");
    assert_eq!(pairs.change_pct_cell(&c, 2, false), "—");
    assert_eq!(pairs.ordered(&c, false), [0, 1, 2]);
    // Compared with itself: every line in both, no change.
    let same = whole(&base, &base);
    let p = same.pairs(Of::Lines);
    for i in 0..p.len() {
        assert_eq!(p.status(i), "both");
        assert_eq!(p.delta(&same, i, false).map(Delta::get), Some(0.0));
        assert_eq!(p.delta(&same, i, true).map(Delta::get), Some(0.0));
    }
}

#[test]
fn stacks_pair_by_their_path_as_json_does() {
    let base = run(&[(&["main", "a"], 100), (&["main", "b"], 50)]);
    let new = run(&[(&["main", "a"], 250)]);
    let c = whole(&base, &new);
    let pairs = c.pairs(Of::Stacks);
    assert_eq!(pairs.len(), pair::stacks(&c).len());
    let names: Vec<String> = (0..pairs.len()).map(|i| pairs.name(&c, i)).collect();
    assert_eq!(names, ["main → a", "main → b"]);
    assert_eq!(pairs.status(1), "gone");
    assert_eq!(pairs.change_cell(&c, 0, false), "+0.150");
}

/// Each link of a butterfly compared as (neighbour's name, status, change).
fn links(c: &Comparison, b: &Butterfly, callers: bool) -> Vec<(String, &'static str, Option<f64>)> {
    let list = if callers { &b.callers } else { &b.callees };
    list.iter()
        .map(|l| {
            let name = c.rows()[l.row].name(c).to_string();
            (name, l.status(), b.delta(c, l).map(|d| d.get()))
        })
        .collect()
}

/// A run compared with itself: every function's neighbours in both runs,
/// every change 0, in values and in shares.
#[test]
fn a_butterfly_compared_with_itself_changes_nothing() {
    let base = run(&[
        (&["main", "F", "G"], 30),
        (&["main", "G"], 10),
        (&["main", "F", "F"], 5),
    ]);
    let c = whole(&base, &base);
    let n = Neighbours::of(&c);
    assert!(!n.is_empty());
    for row in 0..c.rows().len() {
        for shares in [false, true] {
            let b = n.butterfly(&c, row, shares);
            for callers in [true, false] {
                for (name, status, d) in links(&c, &b, callers) {
                    assert_eq!(status, "both", "{name}");
                    assert_eq!(d, Some(0.0), "{name} shares: {shares}");
                }
            }
        }
    }
    // F's callers: main and F itself (F calls F), no change: in
    // canonical order.
    let f = c.rows_named("F")[0];
    let b = n.butterfly(&c, f, false);
    let names: Vec<String> = links(&c, &b, true).into_iter().map(|l| l.0).collect();
    assert_eq!(names, ["F", "main"]);
}

/// Swapped, every link's change is negated and new is gone; a function
/// gone from NEW keeps its callers and callees, BASE's against nothing;
/// the lists are by the largest absolute change.
#[test]
fn a_swapped_butterfly_negates_every_change_and_gone_keeps_its_edges() {
    let base = run(&[
        (&["main", "F", "G"], 30),
        (&["main", "OLD", "G"], 10),
        (&["main", "F"], 4),
    ]);
    let new = run(&[
        (&["main", "F", "G"], 10),
        (&["main", "F", "H"], 25),
        (&["main", "G"], 5),
    ]);
    let (ab, ba) = (whole(&base, &new), whole(&new, &base));
    let (nab, nba) = (Neighbours::of(&ab), Neighbours::of(&ba));
    for row in 0..ab.rows().len() {
        let name = ab.rows()[row].name(&ab);
        let other = ba.rows_named(name)[0];
        for callers in [true, false] {
            let mut x = links(&ab, &nab.butterfly(&ab, row, false), callers);
            let mut y = links(&ba, &nba.butterfly(&ba, other, false), callers);
            x.sort_by(|a, b| a.0.cmp(&b.0));
            y.sort_by(|a, b| a.0.cmp(&b.0));
            assert_eq!(x.len(), y.len(), "{name}");
            for (l, m) in x.iter().zip(&y) {
                assert_eq!(l.0, m.0);
                let flipped = match l.1 {
                    "new" => "gone",
                    "gone" => "new",
                    both => both,
                };
                assert_eq!(m.1, flipped, "{name} → {}", l.0);
                assert_eq!(l.2.map(|d| -d), m.2, "{name} → {}", l.0);
            }
        }
    }
    // G's callers: F (30 → 10 µs), OLD (gone: 10 → 0), main (new: 0 → 5).
    let g = nab.butterfly(&ab, ab.rows_named("G")[0], false);
    assert_eq!(
        links(&ab, &g, true),
        [
            ("F".to_string(), "both", Some(-0.02)),
            ("OLD".to_string(), "gone", Some(-0.01)),
            ("main".to_string(), "new", Some(0.005)),
        ]
    );
    // OLD is gone from NEW: its caller and callee are BASE's.
    let old = nab.butterfly(&ab, ab.rows_named("OLD")[0], false);
    assert_eq!(
        links(&ab, &old, true),
        [("main".into(), "gone", Some(-0.01))]
    );
    assert_eq!(links(&ab, &old, false), [("G".into(), "gone", Some(-0.01))]);
    let cell = |l: &Link| old.change_cell(&ab, l);
    assert_eq!(cell(&old.callees[0]), "-0.010");
    assert_eq!(old.change_pct_cell(&ab, &old.callees[0]), "-100.00%");
    // The values are `--json`'s edges'.
    let l = &g.callers[0];
    assert_eq!(l.edges[0].and_then(|e| e.elapsed_inclusive_ms), Some(0.03));
    assert_eq!(l.edges[1].and_then(|e| e.hits), Some(1));
}

/// Every path of `other`'s tree that `tree` lacks, as names root first:
/// the gone children found at each of `other`'s nodes, walked whole.
fn gone_paths(tree: &TreeBase, other: &Profile) -> Vec<Vec<String>> {
    let ix = crate::calltree::TreeIndex::build(other);
    let mut out = Vec::new();
    let mut todo: Vec<(Option<NodeId>, Vec<String>)> = vec![(None, Vec::new())];
    while let Some((at, path)) = todo.pop() {
        let kids = ix.children().of(at);
        let names: Vec<&str> = kids
            .iter()
            .map(|&k| ix.label(other, k).name(other))
            .collect();
        let refs: Vec<&str> = path.iter().map(String::as_str).collect();
        let here = match at {
            None => None,
            Some(_) => match tree.node_at(&refs) {
                Some(n) => Some(n),
                None => continue,
            },
        };
        for g in tree.gone_children(here, &names) {
            let mut p = path.clone();
            p.push(tree.name(g).to_string());
            out.push(p);
        }
        for (&k, name) in kids.iter().zip(&names) {
            let mut p = path.clone();
            p.push(name.to_string());
            todo.push((Some(k), p));
        }
    }
    out.sort();
    out
}

/// A tree compared with itself has no path of one side only; BASE's
/// paths NEW lacks are found under the node where they would be, and
/// swapped, they are NEW's paths BASE lacks.
#[test]
fn a_trees_gone_paths_are_bases_only() {
    let base = run(&[
        (&["main", "F", "G"], 30),
        (&["main", "OLD", "G"], 10),
        (&["main", "F", "X"], 4),
    ]);
    let new = run(&[(&["main", "F", "G"], 10), (&["main", "H"], 25)]);
    let same = whole(&base, &base);
    assert!(gone_paths(&TreeBase::of(&same), &base).is_empty());
    let c = whole(&base, &new);
    let gone = gone_paths(&TreeBase::of(&c), &new);
    assert_eq!(gone, [vec!["main", "F", "X"], vec!["main", "OLD"]]);
    let old = TreeBase::of(&c)
        .node_at(&["main", "OLD"])
        .expect("BASE's node");
    let b = TreeBase::of(&c);
    assert_eq!(b.weight(old), 0.01);
    assert_eq!(b.children(Some(old)).len(), 1, "OLD → G, gone too");
    assert_eq!(tree_delta(Some(b.weight(old)), 0.0, false).get(), -0.01);
    let swapped = whole(&new, &base);
    let newer = gone_paths(&TreeBase::of(&swapped), &base);
    assert_eq!(newer, [vec!["main", "H"]]);
}

/// A node's totals that differ by a float sum's noise do not change.
#[test]
fn a_trees_change_within_a_sums_noise_is_none() {
    let d = tree_delta(Some(983.6000000000001), 983.6, false);
    assert_eq!(d, Delta::Real(0.0));
    assert_eq!(signed(d), "0.000");
    assert_eq!(tree_delta(Some(1.0), 0.999, false), Delta::Real(-0.001));
}
