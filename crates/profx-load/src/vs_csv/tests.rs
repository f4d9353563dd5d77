use super::*;
use crate::load_inputs;
use profx_model::testing::{function, kinds, percents, stack_paths, warnings};
use profx_model::{Place, Profile, WarningKind};

fn load(text: &str) -> Profile {
    let input = Input::owned(
        "r.csv",
        format!("\u{feff}{}", text.replace('\n', "\r\n")).into_bytes(),
    );
    load_inputs(&[input], &LoadOptions::default()).expect("loads")
}

const TREE_HEADER: &str = "Level,Function Name,Number of Calls,Elapsed Inclusive Time,Elapsed Exclusive Time,Application Inclusive Time,Application Exclusive Time,Module Name,\n";

#[test]
fn bad_rows_are_reported_at_their_own_line() {
    let p = load(&format!(
        "{TREE_HEADER}0,\"p.exe\",0,10,0,8,0,\"\",\nx,\"f\",1,1,1,1,1,\"m\",\n1,\"g\",1,2,2,1,1,\"m\",\n"
    ));
    assert_eq!(kinds(&p), [(Place::Line(3), WarningKind::NotANumber)]);
    assert_eq!(
        warnings(&p)[0].1,
        "level \"x\" is not a depth; row skipped with its subtree"
    );
}

#[test]
fn call_tree_with_times_counts_recursion_once_and_keeps_application_values() {
    let p = load(&format!(
        "{TREE_HEADER}0,\"p.exe\",0,100,0,80,0,\"\",\n\
         1,\"main\",1,100,10,80,8,\"p.exe\",\n\
         2,\"walk\",2,60,20,50,15,\"p.exe\",\n\
         3,\"walk\",5,40,40,35,35,\"p.exe\",\n\
         2,\"\"\"quoted\"\", name\",\"1,000\",30,30,22,22,\"p.exe\",\n"
    ));
    assert_eq!(
        p.meta["report"],
        profx_model::MetaValue::Text("calltree".into())
    );
    let walk = function(&p, "walk");
    assert_eq!(walk.calls, Some(7));
    assert_eq!(
        walk.time.elapsed_inclusive,
        Some(60.0),
        "the nested walk node is not added again"
    );
    assert_eq!(walk.time.elapsed_exclusive, Some(60.0));
    assert_eq!(walk.time.application_inclusive, Some(50.0));
    assert_eq!(function(&p, "\"quoted\", name").calls, Some(1000));
    // No percent columns: the session is the sum of level 1 inclusive times.
    assert_eq!(p.totals.elapsed_inclusive_ms, Some(100.0));
    assert_eq!(p.totals.application_inclusive_ms, Some(80.0));
    assert_eq!(
        stack_paths(&p),
        [
            "main",
            "main>walk",
            "main>walk>walk",
            "main>\"quoted\", name"
        ]
    );
    let s = &p.stacks()[2];
    assert_eq!(
        (s.hits, s.self_ms, s.child_ms),
        (Some(5), Some(40.0), Some(0.0))
    );
    assert_eq!(p.stacks()[1].child_ms, Some(40.0));
}

#[test]
fn ide_export_recovers_the_total_from_averages_and_percents() {
    let header = "Level,Function Name,Number of Calls,Elapsed Inclusive Time %,Elapsed Exclusive Time %,Avg Elapsed Inclusive Time,AVG Elapsed Exclusive Time,Module Name,\n";
    let p = load(&format!(
        "{header}0,\"p\",0,100.00,0.00,0.00,0.00,\"\",\n1,\"a\",4,80.00,20.00,50.00,12.50,\"m\",\n2,\"b\",2,60.00,60.00,75.00,75.00,\"m\",\n2,\"c\",3,0.00,0.00,0.01,0.01,\"m\",\n"
    ));
    // Largest Avg × Calls with a percent: a, 200 ms at 80 % → T = 250 ms.
    assert_eq!(p.totals.elapsed_inclusive_ms, Some(250.0));
    let b = function(&p, "b");
    assert_eq!(
        b.time.elapsed_inclusive,
        Some(150.0),
        "60 % of 250, not 75 × 2"
    );
    assert_eq!(percents(&p, "b").elapsed_inclusive, Some(60.0));
    assert_eq!(function(&p, "a").time.elapsed_exclusive, Some(50.0));
    let c = function(&p, "c");
    assert_eq!(
        c.time.elapsed_inclusive,
        Some(0.0),
        "a zero percent is a percent: 0 × T"
    );
}

#[test]
fn percents_only_become_the_percent_values() {
    let p = load(
        "Function Name,Elapsed Inclusive Time %,Elapsed Exclusive Time %,\n\"a\",90.5,10.25,\n\"b\",80.25,80.25,\n",
    );
    assert_eq!(
        p.meta["report"],
        profx_model::MetaValue::Text("function".into())
    );
    let a = function(&p, "a");
    assert_eq!(a.time.elapsed_inclusive, None);
    assert_eq!(
        (
            percents(&p, "a").elapsed_inclusive,
            percents(&p, "a").elapsed_exclusive
        ),
        (Some(90.5), Some(10.25))
    );
    assert_eq!(p.totals.elapsed_inclusive_ms, None);
}

#[test]
fn function_summary_with_times_and_percents() {
    let p = load(
        "Function Name,Number of Calls,Elapsed Inclusive Time,Elapsed Inclusive Time %,Elapsed Exclusive Time,Elapsed Exclusive Time %,\n\"main\",1,\"1.234,5\",50.00,\"1,000.00\",40.5,\n\"f\",10,200,8.1,200,8.1,\n",
    );
    assert_eq!(
        p.totals.elapsed_inclusive_ms,
        Some(2469.0),
        "1234.5 ms is 50 %"
    );
    assert_eq!(function(&p, "main").time.elapsed_inclusive, Some(1234.5));
    assert_eq!(function(&p, "main").time.elapsed_exclusive, Some(1000.0));
}

#[test]
fn caller_callee_keeps_each_edge_once() {
    let p = load(
        "Type,Root Function Name,Function Name,Number of Calls,Elapsed Inclusive Time,Elapsed Exclusive Time,Module Name,\n\
         1,\"f\",\"main\",3,30,1,\"m\",\n0,\"f\",\"f\",3,30,10,\"m\",\n2,\"f\",\"g\",6,20,20,\"m\",\n\
         1,\"g\",\"f\",6,20,20,\"m\",\n0,\"g\",\"g\",6,20,20,\"m\",\n",
    );
    assert_eq!(
        p.meta["report"],
        profx_model::MetaValue::Text("callercallee".into())
    );
    assert_eq!(function(&p, "f").calls, Some(3));
    assert_eq!(function(&p, "g").time.elapsed_exclusive, Some(20.0));
    assert_eq!(
        function(&p, "main").calls,
        None,
        "callers are frames, not function rows"
    );
    assert!(
        p.stacks().is_empty(),
        "a caller/callee report has no call paths"
    );
    assert_eq!(
        edge_paths(&p),
        ["main>f", "f>g"],
        "f>g stated twice, kept once"
    );
    assert_eq!(p.stated_edges()[1].calls, Some(6));
    assert_eq!(p.stated_edges()[1].elapsed_inclusive_ms, Some(20.0));
    assert_eq!(
        p.totals.elapsed_inclusive_ms,
        Some(30.0),
        "sum of the function rows' exclusive times"
    );
}

#[test]
fn without_a_root_column_rows_belong_to_the_latest_function() {
    let p = load(
        "Type,Function Name,Number of Calls,Elapsed Inclusive Time,\n0,\"f\",1,5,\n1,\"main\",1,5,\n2,\"g\",1,2,\n2,\"x\",1,1,\n",
    );
    assert_eq!(edge_paths(&p), ["main>f", "f>g", "f>x"]);
}

#[test]
fn sampling_reports_give_hits() {
    let p = load(
        "Function Name,Inclusive Samples,Exclusive Samples,Inclusive Samples %,Exclusive Samples %,\n\"main\",\"1,200\",100,96.00,8.00,\n\"f\",900,900,72.00,72.00,\n",
    );
    assert_eq!(p.totals.samples, Some(1250));
    let f = function(&p, "f");
    assert_eq!((f.hits_self, f.hits_total), (Some(900), Some(900)));
    assert_eq!(percents(&p, "f").hits_self, Some(72.0));
}

#[test]
fn level_jumps_skip_the_subtree() {
    let p = load(&format!(
        "{TREE_HEADER}1,\"a\",1,5,1,5,1,\"m\",\n3,\"lost\",1,1,1,1,1,\"m\",\n4,\"lost2\",1,1,1,1,1,\"m\",\n2,\"b\",1,4,4,4,4,\"m\",\n"
    ));
    assert_eq!(kinds(&p), [(Place::Line(3), WarningKind::OutOfPlace)]);
    assert_eq!(stack_paths(&p), ["a", "a>b"]);
}

#[test]
fn an_unclosed_quote_is_a_warning_not_a_function() {
    let p = load(&format!(
        "{TREE_HEADER}1,\"a\",1,5,1,5,1,\"m\",\n1,\"b,1,1,1,1,1,\"m\",\n1,\"c\",1,1,1,1,1,\"m\",\n"
    ));
    assert_eq!(kinds(&p), [(Place::Line(3), WarningKind::MissingField)]);
    let w = warnings(&p);
    assert!(
        w[0].1
            .contains("3 fields where the header's columns need 8"),
        "{}",
        w[0].1
    );
}

#[test]
fn detection() {
    let v = VsCsv;
    assert_eq!(
        v.detect(format!("\u{feff}{TREE_HEADER}").as_bytes(), true),
        Detection::Yes
    );
    assert_eq!(v.detect(b"Name,Exclusive Samples\n", true), Detection::Yes);
    assert_eq!(v.detect(b"Level,Function Na", false), Detection::NeedMore);
    assert_eq!(
        v.detect(b"This is not a correct header\r\n", true),
        Detection::No
    );
    assert_eq!(v.detect(b"Function Name,Colour\n", true), Detection::No);
    assert_eq!(v.detect(b"1,0.5,\"i\",\"MAIN\"\n", true), Detection::No);
}

/// Every byte of a report replaced by a few values: never a panic.
#[test]
fn flipped_bytes_never_panic() {
    let text = format!(
        "{TREE_HEADER}0,\"p.exe\",0,\"1,000\",0,8,0,\"\",\n1,\"main\",1,100,10,80,8,\"p.exe\",\n2,\"walk\",2,60,20,50,15,\"p.exe\",\n"
    );
    crate::testing::flips_never_panic(text.as_bytes(), b",\"\n\r9.\0\xff", "vs-csv", |_| {});
}

/// The stated edges as `caller>callee`, in the order the file states them.
fn edge_paths(p: &profx_model::Profile) -> Vec<String> {
    p.stated_edges()
        .iter()
        .map(|e| {
            format!(
                "{}>{}",
                p.function_name(e.caller),
                p.function_name(e.callee)
            )
        })
        .collect()
}

/// A command-line caller/callee report, VSPerfReport's shape: whole
/// numbers, probe overhead columns, min/avg/max per call.
const CMDLINE_HEADER: &str = "Type,Function Name,Elapsed Inclusive Time,Elapsed Exclusive Time,Elapsed Inclusive Time %,Elapsed Exclusive Time %,Time Inclusive Probe Overhead,Time Exclusive Probe Overhead,Min Elapsed Inclusive Time,Avg Elapsed Inclusive Time,Max Elapsed Inclusive Time,Number of Calls,Module Name,Root Function Name,\n";

fn cmdline_report() -> String {
    format!(
        "{CMDLINE_HEADER}\"Root\",\"main\",4800000,1200000,100.00,25.00,378,189,4800000,4800000,4800000,1,\"p.exe\",\"main\",\n\
         \"Callee\",\"work\",3600000,3600000,75.00,75.00,189,189,0,1800000,2400000,2,\"p.exe\",\"main\",\n\
         \"Root\",\"work\",3600000,3600000,75.00,75.00,189,189,1200000,1800000,2400000,2,\"p.exe\",\"work\",\n\
         \"Caller\",\"main\",3600000,3600000,75.00,75.00,189,189,0,1800000,2400000,2,\"p.exe\",\"work\",\n"
    )
}

fn load_with(text: &str, opts: &LoadOptions) -> Result<Profile, LoadError> {
    let input = Input::owned("r.csv", text.replace('\n', "\r\n").into_bytes());
    load_inputs(&[input], opts)
}

fn real(name: &str) -> Profile {
    let path = format!(
        "{}/../../tests/fixtures/real/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    crate::load_paths(&[path], &LoadOptions::default()).expect(name)
}

/// formats.md § vs-csv, Time unit: VSPerfReport's command-line reports
/// (a probe overhead column) are in ticks, the IDE's exports in ms, and a
/// report without times (a sampling report) has no unit.
#[test]
fn the_public_reports_state_their_time_unit() {
    use profx_model::TimeUnit;
    let l4 = real("visperf_l4_cc.csv");
    assert_eq!(l4.time_unit(), Some(TimeUnit::Ticks));
    assert_eq!(l4.time_unit_name(), "ticks");
    // Times are kept as the file states them: ___CxxSetUnhandledExceptionFilter's
    // 39489 ticks, its probe overhead (189) beside it.
    let f = function(&l4, "___CxxSetUnhandledExceptionFilter");
    assert_eq!(f.time.elapsed_inclusive, Some(39489.0));
    let pig = real("visperf_pigLatin.csv");
    assert_eq!(
        pig.time_unit(),
        None,
        "samples only: no time to have a unit"
    );
    let ide = real("inferno_CallTreeSummary.csv");
    assert_eq!(ide.time_unit(), Some(TimeUnit::Ms));
}

#[test]
fn a_made_command_line_report_is_in_ticks_whatever_its_kind() {
    use profx_model::TimeUnit;
    let p = load_with(&cmdline_report(), &LoadOptions::default()).expect("loads");
    assert_eq!(p.time_unit(), Some(TimeUnit::Ticks));
    assert_eq!(
        function(&p, "main").time.elapsed_inclusive,
        Some(4_800_000.0)
    );
    assert_eq!(p.totals.elapsed_inclusive_ms, Some(4_800_000.0));
    assert!(!p.meta.contains_key(crate::CLOCK_MHZ));
    // The shape decides, not the kind: a function summary with the column.
    let summary = load_with(
        "Function Name,Elapsed Inclusive Time,Elapsed Exclusive Time,Time Exclusive Probe Overhead,\n\"f\",500,500,189,\n",
        &LoadOptions::default(),
    )
    .expect("loads");
    assert_eq!(summary.time_unit(), Some(TimeUnit::Ticks));
}

/// An IDE export writes its ms with two decimals, whole or not; without
/// the probe overhead column it is ms even when every number is whole.
#[test]
fn a_made_ide_export_with_whole_numbers_stays_ms() {
    use profx_model::TimeUnit;
    let p = load_with(
        "Type,Function Name,Elapsed Inclusive Time,Elapsed Exclusive Time,Elapsed Inclusive Time %,Number of Calls,\n\"Root\",\"main\",120.00,20.00,100.00,1,\n\"Callee\",\"f\",100.00,100.00,83.33,4,\n\"Root\",\"f\",100.00,100.00,83.33,4,\n",
        &LoadOptions::default(),
    )
    .expect("loads");
    assert_eq!(p.time_unit(), Some(TimeUnit::Ms));
    assert_eq!(function(&p, "main").time.elapsed_inclusive, Some(120.0));
}

/// `--clock-mhz N`: ms = ticks / (N × 1000), every time of the report
/// (values, per-call statistics, edges, the total), percents untouched.
#[test]
fn clock_mhz_turns_ticks_into_ms() {
    use profx_model::{MetaValue, TimeUnit};
    let opts = LoadOptions {
        clock_mhz: Some(2400.0),
        ..LoadOptions::default()
    };
    let p = load_with(&cmdline_report(), &opts).expect("loads");
    assert_eq!(p.time_unit(), Some(TimeUnit::Ms));
    assert_eq!(p.meta[crate::CLOCK_MHZ], MetaValue::Int(2400));
    let main = function(&p, "main");
    assert_eq!(
        main.time.elapsed_inclusive,
        Some(2.0),
        "4,800,000 / 2,400,000"
    );
    assert_eq!(main.time.elapsed_exclusive, Some(0.5));
    assert_eq!(percents(&p, "main").elapsed_exclusive, Some(25.0));
    assert_eq!(p.totals.elapsed_inclusive_ms, Some(2.0));
    let work = p
        .function_ids()
        .find(|&f| p.function_name(f) == "work")
        .expect("work");
    let per_call = p.per_call(work);
    assert_eq!(
        (per_call.min_inclusive, per_call.max_inclusive),
        (Some(0.5), Some(1.0))
    );
    assert_eq!(p.stated_edges()[0].elapsed_inclusive_ms, Some(1.5));
    // A fraction of a MHz is kept as given.
    let opts = LoadOptions {
        clock_mhz: Some(2.5),
        ..LoadOptions::default()
    };
    let p = load_with(&cmdline_report(), &opts).expect("loads");
    assert_eq!(p.meta[crate::CLOCK_MHZ], MetaValue::Float(2.5));
    assert_eq!(function(&p, "main").time.elapsed_inclusive, Some(1920.0));
}

/// A profile not in ticks refuses `--clock-mhz`, saying what its times are.
#[test]
fn clock_mhz_on_a_profile_not_in_ticks_is_refused() {
    let opts = LoadOptions {
        clock_mhz: Some(2400.0),
        ..LoadOptions::default()
    };
    let ms = "Function Name,Elapsed Inclusive Time,\n\"f\",1.50,\n";
    let err = load_with(ms, &opts).expect_err("ms already");
    assert!(matches!(err, LoadError::ClockMhz { .. }), "{err}");
    assert!(
        err.to_string().contains("its times are ms already"),
        "{err}"
    );
    let samples = "Function Name,Inclusive Samples,Exclusive Samples,\n\"f\",3,3,\n";
    let err = load_with(samples, &opts).expect_err("no times");
    assert!(err.to_string().contains("has no times"), "{err}");
}

/// A `Function Line Number` that is no line number is warned about at its
/// row, which is kept without its start; VS's `0` for no known source is
/// no defect.
#[test]
fn a_function_line_number_that_is_no_number_is_warned_about() {
    let p = load(
        "Function Name,Inclusive Samples,Exclusive Samples,Source File,Function Line Number,Module Name\n\
         \"main\",10,2,\"C:\\src\\main.c\",12,\"p.exe\"\n\
         \"f\",8,8,\"C:\\src\\f.c\",twelve,\"p.exe\"\n\
         \"g\",1,1,\"\",0,\"p.exe\"\n",
    );
    assert_eq!(kinds(&p), [(Place::Line(3), WarningKind::NotANumber)]);
    assert_eq!(
        warnings(&p)[0].1,
        "function line number \"twelve\" is no line number; the function's start left out"
    );
    assert_eq!(function(&p, "f").hits_total, Some(8), "the row is kept");
}
