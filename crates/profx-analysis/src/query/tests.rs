//! The query core on small hand-made profiles; its properties over
//! generated profiles of every format are in `tests/properties.rs`.

use super::*;
use profx_model::Watch;
use profx_model::metrics::Sample;
use profx_model::{FuncId, ProfileBuilder};

/// A sampled profile: `(main)` → F → G (2 ms), `(main)` → F (1 ms), and
/// the two functions named `DUP` of modules `a` and `b` under `(main)`.
fn sampled() -> Arc<Profile> {
    let mut b = ProfileBuilder::new("test");
    let (m, a, bm) = (b.intern(""), b.intern("a"), b.intern("b"));
    let names = ["(main)", "F", "G", "operator!=", "DUP"];
    let ids: Vec<NameIds> = names.iter().map(|n| b.intern(n)).collect();
    let main = b.function(ids[0], m);
    let f = b.function(ids[1], m);
    let g = b.function(ids[2], m);
    let op = b.function(ids[3], m);
    let da = b.function(ids[4], a);
    let db = b.function(ids[4], bm);
    for (frames, ns) in [
        (vec![main, f, g], 2_000_000),
        (vec![main, f], 1_000_000),
        (vec![main, op], 1_000_000),
        (vec![main, da], 1_000_000),
        (vec![main, db], 3_000_000),
    ] {
        b.add_sample(Sample {
            frames: &frames,
            time_ns: Some(ns),
            line: None,
        });
    }
    Arc::new(b.finish())
}

type NameIds = profx_model::NameId;

/// One step's profile and what it dropped.
#[derive(Debug)]
struct One {
    profile: Arc<Profile>,
    dropped: Dropped,
}

/// `step` on `p` as the app asks it (`Policy::App`).
fn apply(
    p: &Arc<Profile>,
    step: &Step,
    cancel: &(dyn Fn() -> bool + Sync),
) -> Result<One, QueryError> {
    let w = Watch {
        cancel,
        progress: &|_, _| {},
    };
    let a = Answer::whole(Arc::clone(p)).push(step.clone(), Policy::App, &w)?;
    let l = &a.levels()[1];
    Ok(One {
        profile: Arc::clone(&l.profile),
        dropped: l.dropped.clone(),
    })
}

fn script(p: &Arc<Profile>, q: &Query) -> Answer {
    Answer::run(p, q, Policy::Script, &Watch::NONE).expect("run")
}

fn named(p: &Profile, name: &str, module: &str) -> Option<FuncId> {
    p.function_ids()
        .find(|&f| p.function_name(f) == name && p.function_module(f) == module)
}

fn excl(p: &Profile, name: &str, module: &str) -> Option<f64> {
    named(p, name, module).and_then(|f| p.function(f).time.elapsed_exclusive)
}

#[test]
fn a_name_stands_for_every_module_and_module_bang_name_for_one() {
    let p = sampled();
    assert_eq!(resolve(&p, &Target("DUP".into())).map(|v| v.len()), Ok(2));
    assert_eq!(resolve(&p, &Target("b!DUP".into())).map(|v| v.len()), Ok(1));
    // A name holding `!` is itself first.
    assert_eq!(
        resolve(&p, &Target("operator!=".into())).map(|v| v.len()),
        Ok(1)
    );
    let Err(QueryError::NoFunction { closest, .. }) = resolve(&p, &Target("DUPE".into())) else {
        panic!("DUPE is no function");
    };
    assert_eq!(closest.first().map(String::as_str), Some("DUP"));
}

#[test]
fn the_spelling_of_a_shared_name_is_module_bang_name() {
    let p = sampled();
    let db = named(&p, "DUP", "b").expect("b!DUP");
    assert_eq!(spelling(&p, db), Target("b!DUP".into()));
    let f = named(&p, "F", "").expect("F");
    assert_eq!(spelling(&p, f), Target("F".into()));
}

#[test]
fn merge_gives_the_callers_the_time_and_drop_takes_it_out_of_the_total() {
    let p = sampled();
    let merged = apply(&p, &Step::Merge(Target("F".into())), &|| false).expect("merge");
    let q = &merged.profile;
    assert_eq!(excl(q, "(main)", ""), Some(1.0));
    assert_eq!(excl(q, "G", ""), Some(2.0));
    assert_eq!(named(q, "F", ""), None);
    assert_eq!(q.totals.elapsed_inclusive_ms, p.totals.elapsed_inclusive_ms);
    let dropped = apply(&p, &Step::Drop(Target("b!DUP".into())), &|| false).expect("drop");
    assert_eq!(dropped.dropped.ms, Some(3.0));
    assert_eq!(dropped.profile.totals.elapsed_inclusive_ms, Some(5.0));
    assert_eq!(excl(&dropped.profile, "DUP", "a"), Some(1.0));
}

#[test]
fn merging_the_root_makes_its_callees_roots() {
    let p = sampled();
    let a = apply(&p, &Step::Merge(Target("(main)".into())), &|| false).expect("merge");
    // No sample was in (main) alone: nothing is dropped, and each path
    // starts at what (main) called.
    assert_eq!(a.dropped.paths, 0);
    assert_eq!(excl(&a.profile, "F", ""), Some(1.0));
    let roots: Vec<&str> = a
        .profile
        .nodes()
        .iter()
        .filter(|n| n.parent().is_none())
        .map(|n| a.profile.function_name(n.func))
        .collect();
    assert_eq!(roots.len(), 4, "{roots:?}");
}

#[test]
fn a_path_step_names_a_node_the_profile_has() {
    let p = sampled();
    let path = split_path("(main);F");
    let a = apply(&p, &Step::FocusPath(path), &|| false).expect("focus");
    assert_eq!(a.profile.totals.elapsed_inclusive_ms, Some(3.0));
    let none = apply(&p, &Step::FocusPath(split_path("F;G")), &|| false);
    assert!(matches!(none, Err(QueryError::NoPath { .. })), "{none:?}");
}

#[test]
fn a_cancelled_step_says_so_and_threads_need_a_trace() {
    let p = sampled();
    let r = apply(&p, &Step::Merge(Target("F".into())), &|| true);
    assert_eq!(r.err(), Some(QueryError::Cancelled));
    let t = choose_threads(&p, Some(&[1]), &Watch::NONE);
    assert!(matches!(t, Err(QueryError::NoThreads { .. })), "{t:?}");
    assert!(Arc::ptr_eq(
        &choose_threads(&p, None, &Watch::NONE).expect("all"),
        &p
    ));
}

#[test]
fn asked_sums_its_steps_and_labels_read_as_breadcrumbs() {
    let p = sampled();
    let q = Query {
        threads: None,
        steps: vec![
            Step::Drop(Target("G".into())),
            Step::Drop(Target("b!DUP".into())),
        ],
    };
    let answer = script(&p, &q);
    assert_eq!(answer.levels().len(), 3);
    let asked = answer.asked();
    assert_eq!(asked.dropped.ms, Some(5.0));
    assert_eq!(asked.dropped.paths, 2);
    assert_eq!(q.steps[1].label(), "drop b!DUP");
    assert_eq!(
        Step::FocusPath(split_path("A;B")).label(),
        "focus subtree A>B"
    );
    assert_eq!(join_path(&split_path("A;B;C")), "A;B;C");
}

#[test]
fn the_app_refuses_a_step_that_changes_nothing_and_a_script_keeps_it() {
    let p = sampled();
    let step = Step::CollapseRecursion(Target("F".into()));
    let refused = apply(&p, &step, &|| false);
    assert!(
        matches!(refused, Err(QueryError::ChangesNothing { .. })),
        "{refused:?}"
    );
    let q = Query {
        threads: None,
        steps: vec![step],
    };
    let answers = script(&p, &q);
    let answers = answers.levels();
    assert!(Arc::ptr_eq(&answers[1].profile, &p), "the profile itself");
    assert_eq!(
        answers[1].dropped.notes,
        ["collapse recursion F changes nothing here"]
    );
    // Dropping the root leaves nothing: the app refuses, a script gets the
    // empty profile and the note.
    let root = Step::Drop(Target("(main)".into()));
    assert!(matches!(
        apply(&p, &root, &|| false),
        Err(QueryError::LeavesNothing { .. })
    ));
    let q = Query {
        threads: None,
        steps: vec![root],
    };
    let answers = script(&p, &q);
    let answers = answers.levels();
    assert!(answers[1].profile.functions().is_empty());
    assert_eq!(answers[1].profile.totals.elapsed_inclusive_ms, Some(0.0));
}

#[test]
fn a_function_of_the_events_reaches_the_paths_by_its_one_mapping() {
    let p = sampled();
    let whole = Answer::whole(Arc::clone(&p));
    let g = named(&p, "G", "").expect("G");
    let f = named(&p, "F", "").expect("F");
    let db = named(&p, "DUP", "b").expect("b!DUP");
    assert_eq!(whole.to_paths(whole.time_order_function(g)), Ok(g));
    let a = whole
        .push(Step::Merge(Target("F".into())), Policy::App, &Watch::NONE)
        .expect("merge")
        .push(
            Step::Drop(Target("b!DUP".into())),
            Policy::App,
            &Watch::NONE,
        )
        .expect("drop");
    let q = a.paths();
    // G keeps its name and module, not (necessarily) its id.
    let to = a.to_paths(a.time_order_function(g)).expect("G is kept");
    assert_eq!(q.function_name(to), "G");
    let da = named(&p, "DUP", "a").expect("a!DUP");
    let to = a
        .to_paths(a.time_order_function(da))
        .expect("a!DUP is kept");
    assert_eq!((q.function_name(to), q.function_module(to)), ("DUP", "a"));
    let gone = a
        .to_paths(a.time_order_function(f))
        .expect_err("F is merged");
    assert_eq!(gone.to_string(), "F: merged by step 1 (merge F)");
    let gone = a
        .to_paths(a.time_order_function(db))
        .expect_err("b!DUP is dropped");
    assert_eq!((gone.step, gone.did), (2, "dropped"));
    // Popping a step gives the answer before it, whose mapping is its own.
    let (back, step, why) = a.pop().expect("a step");
    assert_eq!((step, why), (Step::Drop(Target("b!DUP".into())), None));
    assert!(back.to_paths(back.time_order_function(db)).is_ok());
}

#[test]
fn the_app_leaves_out_what_a_script_refuses() {
    let p = sampled();
    let q = Query {
        threads: None,
        steps: vec![
            Step::Merge(Target("NOPE".into())),
            Step::Drop(Target("G".into())),
        ],
    };
    let e = Answer::run(&p, &q, Policy::Script, &Watch::NONE).expect_err("NOPE");
    assert!(matches!(e, QueryError::NoFunction { .. }), "{e:?}");
    let a = Answer::run(&p, &q, Policy::App, &Watch::NONE).expect("left out");
    assert_eq!(a.asked_steps().count(), 2);
    assert_eq!(
        a.steps().collect::<Vec<_>>(),
        [&Step::Drop(Target("G".into()))]
    );
    let (step, why) = a.left_out_steps().next().expect("one left out");
    assert_eq!(step, &Step::Merge(Target("NOPE".into())));
    assert!(why.starts_with("no function is named \"NOPE\""), "{why}");
    // The query an output states is the steps applied.
    assert_eq!(a.query().describe().as_deref(), Some("drop G"));
    assert_eq!(a.dropped().ms, Some(2.0));
}

#[test]
fn a_query_prints_as_words_and_as_a_command_line() {
    let q = Query {
        threads: Some(vec![2]),
        steps: vec![
            Step::Merge(Target("&(MACRO)".into())),
            Step::FocusPath(split_path("A;B")),
            Step::CollapseModule("it's".into()),
        ],
    };
    assert_eq!(
        q.describe().as_deref(),
        Some("thread 2 › merge &(MACRO) › focus subtree A>B › collapse module it's")
    );
    assert_eq!(Query::default().describe(), None);
    let args = q.to_args();
    assert_eq!(
        shell_words(&args),
        "--thread 2 --merge '&(MACRO)' --focus-path 'A;B' --collapse-module 'it'\\''s'"
    );
    assert_eq!(shell_words(&[""]), "''");
    assert_eq!(
        Step::CollapseDirectRecursion(Target("F".into())).flag(),
        "--collapse-direct-recursion"
    );
}

#[test]
fn which_profile_a_view_reads_is_said_once() {
    use crate::view::{Table, View};
    assert_eq!(Reads::of_view(View::Table(Table::Packets)), Reads::Events);
    for v in [
        View::Table(Table::Functions),
        View::Tree,
        View::Flame,
        View::Info,
    ] {
        assert_eq!(Reads::of_view(v), Reads::Paths, "{v:?}");
    }
}
