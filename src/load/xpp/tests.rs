use super::*;
use crate::load::load_inputs;
use crate::model::testing::{function, stack_paths, warnings};
use crate::model::{MetaValue, Profile};

fn load_with(text: &str, columns: Option<&str>) -> Profile {
    let input = Input::owned("T.PRF", text.as_bytes().to_vec());
    let opts = LoadOptions {
        format: Some("xpp".into()),
        columns: columns.map(String::from),
        ..Default::default()
    };
    load_inputs(&[input], &opts).expect("loads")
}

fn load(text: &str) -> Profile {
    load_with(text, None)
}

fn times(p: &Profile, name: &str) -> (Option<u64>, Option<f64>, Option<f64>) {
    let f = function(p, name);
    (f.calls, f.time.elapsed_inclusive, f.time.elapsed_exclusive)
}

#[test]
fn hand_example_of_model_md() {
    let p = load("1,0,\"i\",\"A\",5\n1,10,\"i\",\"B\",7\n1,30,\"o\",\"B\"\n1,35,\"o\",\"A\"\n");
    assert_eq!(times(&p, "A"), (Some(1), Some(35.0), Some(15.0)));
    assert_eq!(times(&p, "B"), (Some(1), Some(20.0), Some(20.0)));
    assert_eq!(p.totals.elapsed_inclusive_ms, Some(35.0));
    assert_eq!(p.totals.outside_ms, Some(0.0));
    assert_eq!(stack_paths(&p), ["A", "A>B"]);
    assert_eq!(p.meta["threads"], MetaValue::Int(1));
    let lines: Vec<_> = p
        .line_ids()
        .map(|l| {
            (
                p.name(p.line(l).file),
                p.line(l).line,
                p.line_function_name(l),
            )
        })
        .collect();
    assert_eq!(
        lines,
        [("(top level)", 5, Some("(top level)")), ("A", 7, Some("A"))]
    );
    assert_eq!(p.lines()[1].time_ms, Some(20.0));
    let e = p.packets()[0].events.get(2).unwrap();
    assert_eq!(
        (
            e.op.as_str(),
            e.time_ms,
            e.function.map(|f| p.function_name(f))
        ),
        ("o", Some(30.0), Some("B"))
    );
    assert!(p.warnings().is_empty());
}

#[test]
fn unfiltered_four_records_make_one_call() {
    // A is compiled with /profile (i I O o); B is not (i o only).
    let p = load(
        "1,0,\"i\",\"A\"\n1,1,\"I\",\"A\"\n1,2,\"i\",\"B\"\n1,6,\"o\",\"B\"\n1,9,\"O\",\"A\"\n1,10,\"o\",\"A\"\n1,12,\"I\",\"C\"\n1,15,\"O\",\"C\"\n",
    );
    assert_eq!(times(&p, "A"), (Some(1), Some(10.0), Some(6.0)));
    assert_eq!(times(&p, "B"), (Some(1), Some(4.0), Some(4.0)));
    assert_eq!(
        times(&p, "C"),
        (Some(1), Some(3.0), Some(3.0)),
        "I pushes, O pops when no i came first"
    );
    assert_eq!(p.totals.outside_ms, Some(2.0));
    assert!(p.warnings().is_empty(), "{:?}", warnings(&p));
}

#[test]
fn threads_have_their_own_stacks_and_clocks() {
    let p = load("1,0,\"i\",\"A\"\n2,5,\"i\",\"B\"\n1,10,\"o\",\"A\"\n2,25,\"o\",\"B\"\n");
    assert_eq!(times(&p, "A"), (Some(1), Some(10.0), Some(10.0)));
    assert_eq!(times(&p, "B"), (Some(1), Some(20.0), Some(20.0)));
    assert_eq!(
        p.totals.elapsed_inclusive_ms,
        Some(30.0),
        "sum over threads of last − first"
    );
    assert_eq!(p.meta["threads"], MetaValue::Int(2));
    assert_eq!(stack_paths(&p), ["A", "B"]);
}

#[test]
fn break_unwinds_with_one_warning_and_stray_returns_are_skipped() {
    let p = load(
        "1,0,\"i\",\"A\"\n1,1,\"i\",\"B\"\n1,2,\"i\",\"C\"\n1,4,\"o\",\"A\"\n1,5,\"o\",\"Z\"\n",
    );
    let w = warnings(&p);
    assert_eq!(w.len(), 2, "{w:?}");
    assert_eq!(w[0].0, Place::Line(4));
    assert!(w[0].1.contains("unwinds 2 call(s)"));
    assert_eq!(w[1].0, Place::Line(5));
    assert!(w[1].1.contains("\"Z\", which is not on thread 1's stack"));
    assert_eq!(times(&p, "A"), (Some(1), Some(4.0), Some(1.0)));
    assert_eq!(times(&p, "C"), (Some(1), Some(2.0), Some(2.0)));
    assert!(
        p.function_ids().all(|f| p.function_name(f) != "Z"),
        "no phantom function"
    );
}

#[test]
fn unknown_ops_warn_once_per_code_and_open_calls_close_at_the_end() {
    let p = load(
        "1,0,\"i\",\"A\"\n1,1,\"x\",\"A\"\n1,2,\"x\",\"A\"\n1,3,\"Q\",\"A\"\n1,8,\"i\",\"B\"\n1,9,\"I\",\"B\"\n",
    );
    let w = warnings(&p);
    let places: Vec<_> = w.iter().map(|(p, _)| p.clone()).collect();
    assert_eq!(
        places,
        [Place::Line(2), Place::Line(4), Place::File("T.PRF".into())],
        "{w:?}"
    );
    assert!(w[2].1.starts_with("2 call(s) still open"));
    assert_eq!(times(&p, "A"), (Some(1), Some(9.0), Some(8.0)));
    assert_eq!(times(&p, "B"), (Some(1), Some(1.0), Some(1.0)));
}

#[test]
fn time_going_backwards_counts_zero() {
    let p = load("1,10,\"i\",\"A\"\n1,5,\"i\",\"B\"\n1,12,\"o\",\"B\"\n1,13,\"o\",\"A\"\n");
    assert_eq!(warnings(&p).len(), 1);
    assert_eq!(warnings(&p)[0].0, Place::Line(2));
    assert_eq!(times(&p, "B"), (Some(1), Some(2.0), Some(2.0)));
    assert_eq!(times(&p, "A"), (Some(1), Some(3.0), Some(1.0)));
}

#[test]
fn traces_without_time_have_calls_stacks_and_lines_only() {
    let p = load(
        "1,\"i\",\"A\",3\n1,\"i\",\"B\",4\n1,\"o\",\"B\"\n1,\"i\",\"B\",4\n1,\"o\",\"B\"\n1,\"o\",\"A\"\n",
    );
    assert_eq!(times(&p, "B"), (Some(2), None, None));
    assert_eq!(p.totals.elapsed_inclusive_ms, None);
    assert_eq!(p.stacks()[1].hits, Some(2));
    assert_eq!(p.lines()[1].hits, Some(2));
    assert_eq!(p.lines()[1].time_ms, None);
    assert_eq!(p.packets()[0].first_ms, None);
}

#[test]
fn header_rows_and_columns_override() {
    let p = load("\"OP\",\"CALL\",\"THREAD\",\"TIME\"\n\"i\",\"A\",1,0\n\"o\",\"A\",1,4\n");
    assert_eq!(times(&p, "A"), (Some(1), Some(4.0), Some(4.0)));
    let p = load_with("\"i\",\"A\",0\n\"o\",\"A\",6\n", Some("op,call,time"));
    assert_eq!(times(&p, "A"), (Some(1), Some(6.0), Some(6.0)));
}

#[test]
fn bad_lines_are_skipped_with_their_line() {
    let p = load("1,0,\"i\",\"A\"\ngarbage here\n1,4,\"o\",\"A\"\n");
    assert_eq!(warnings(&p).len(), 1);
    assert_eq!(warnings(&p)[0].0, Place::Line(2));
    assert_eq!(p.event_count(), 2);
}

#[test]
fn detection() {
    let x = Xpp;
    assert_eq!(x.detect(b"1,0.5,\"i\",\"MAIN\",12\n", true), Detection::Yes);
    assert_eq!(
        x.detect(b"\"THREAD\",\"OP\",\"CALL\"\n", true),
        Detection::Yes
    );
    assert_eq!(x.detect(b"1,0.5,\"i\",\"MA", false), Detection::NeedMore);
    assert_eq!(
        x.detect(b"6\tt.exe\tt.obj\t1\t1\t1\tf\n", true),
        Detection::No
    );
    assert_eq!(
        x.detect(b"Level,Function Name,Number of Calls\n", true),
        Detection::No
    );
    assert_eq!(
        x.detect(b"\x01\x00\x01\x00\x04A.BR\x03", true),
        Detection::No
    );
    assert_eq!(
        x.detect(b"\"a\",\"i\",\"F\"\n", true),
        Detection::No,
        "a text field before the op"
    );
}
