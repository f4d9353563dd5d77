use super::*;
use crate::{Input, LoadOptions, load_inputs};
use profx_model::testing::{kinds, stack_paths, warnings};
use profx_model::{MetaValue, Place, Profile, WarningKind};

fn load(text: &str) -> Profile {
    let input = Input::owned("t.txt", text.as_bytes().to_vec());
    let opts = LoadOptions {
        format: Some("plist".into()),
        ..Default::default()
    };
    load_inputs(&[input], &opts).expect("loads")
}

const TIMED: &str = "0\t1.0\tMicrosoft PLIST\n1\t522\tFunction timing\n2\t100.0\t4.5\t3\n\
6\tP.EXE\tp.obj\t1\t10.0\t90.0\tmain\n\
6\tP.EXE\tp.obj\t4\t80.0\t80.0\twork(int, char)\n";

#[test]
fn function_records_carry_calls_and_times_and_session_comes_from_tag_2() {
    let p = load(TIMED);
    let work = p
        .function_ids()
        .find(|&f| p.function_name(f) == "work(int, char)")
        .unwrap();
    let f = p.function(work);
    assert_eq!(p.function_module(work), "p.obj");
    assert_eq!(f.calls, Some(4));
    assert_eq!(f.time.elapsed_exclusive, Some(80.0));
    assert_eq!(f.time.elapsed_inclusive, Some(80.0));
    assert_eq!(p.percents(work).elapsed_inclusive, Some(80.0));
    assert_eq!(p.totals.elapsed_inclusive_ms, Some(100.0));
    assert_eq!(p.totals.outside_ms, Some(4.5));
    assert_eq!(p.meta["method_code"], MetaValue::Int(522));
    assert_eq!(p.meta["call_depth"], MetaValue::Int(3));
    assert!(p.warnings().is_empty());
}

#[test]
fn zero_total_time_falls_back_to_largest_inclusive() {
    let p = load(&TIMED.replace("2\t100.0", "2\t0"));
    assert_eq!(p.totals.elapsed_inclusive_ms, Some(90.0));
}

#[test]
fn counting_methods_have_absent_times() {
    for method in ["321", "324", "521", "524"] {
        let text = TIMED.replace("522", method) + "8\t1\n9\t1\t3\t0\t0\n10\twork(int, char)\n";
        let p = load(&text);
        let f = &p.functions().get(0);
        assert_eq!(f.calls, Some(1), "{method}: counts are kept");
        assert_eq!(f.time.elapsed_inclusive, None, "{method}");
        assert_eq!(p.totals.elapsed_inclusive_ms, None);
        assert_eq!(p.totals.outside_ms, None);
        assert_eq!(p.stacks()[0].self_ms, None);
        assert_eq!(p.stacks()[0].hits, Some(3));
    }
}

#[test]
fn duplicate_function_is_merged_with_a_warning_on_the_later_line() {
    let p = load(&format!("{TIMED}6\tP.EXE\tp.obj\t2\t5.0\t6.0\tmain\n"));
    let main = &p.functions().get(0);
    assert_eq!(main.calls, Some(3));
    assert_eq!(main.time.elapsed_inclusive, Some(96.0));
    assert_eq!(p.functions().len(), 2);
    assert_eq!(kinds(&p), [(Place::Line(6), WarningKind::ListedAgain)]);
    let w = warnings(&p);
    assert!(w[0].1.contains("after line 4"), "{}", w[0].1);
}

#[test]
fn same_name_in_another_module_is_another_function() {
    let p = load(&format!("{TIMED}6\tP.EXE\tq.obj\t2\t5.0\t6.0\tmain\n"));
    assert_eq!(p.functions().len(), 3);
    assert!(p.warnings().is_empty());
}

#[test]
fn stacks_are_oriented_root_first_with_the_owner_as_leaf() {
    let text = format!(
        "{TIMED}8\t3\n\
         9\t2\t1\t1.0\t0\n10\tmain\n10\twork(int, char)\n\
         9\t2\t2\t2.0\t0\n10\twork(int, char)\n10\tmain\n\
         9\t1\t3\t3.0\t0\n10\tmain\n"
    );
    let p = load(&text);
    // Listed after `work`: owner is work. Root-first as listed; leaf-first
    // reversed (same path, so merged); owner at neither end appended.
    assert_eq!(stack_paths(&p), ["main>work(int, char)"]);
    assert_eq!(p.stacks()[0].hits, Some(6));
    assert_eq!(p.stacks()[0].self_ms, Some(6.0));
    assert!(p.warnings().is_empty(), "{:?}", warnings(&p));
}

/// A stack repeating one of its owner's is merged with it: many stacks
/// later, or in a second listing of the owner with other owners' stacks
/// between them.
#[test]
fn repeated_stacks_are_merged_wherever_they_come() {
    let stack = |hits: u32, caller: &str| {
        format!("9\t2\t{hits}\t1.0\t0\n10\t{caller}\n10\twork(int, char)\n")
    };
    let hits = |p: &Profile, path: &str| {
        let paths = stack_paths(p);
        let i = paths.iter().position(|x| x == path).expect(path);
        p.stacks()[i].hits
    };
    let mut long = format!("{TIMED}8\t14\n");
    for i in 0..12 {
        long += &stack(1 + i, &format!("c{i}"));
    }
    long += &(stack(100, "c0") + &stack(200, "c11"));
    let p = load(&long);
    assert_eq!(p.stacks().len(), 12);
    assert_eq!(hits(&p, "c0>work(int, char)"), Some(101));
    assert_eq!(hits(&p, "c11>work(int, char)"), Some(212));

    let mut twice = format!("{TIMED}8\t2\n{}{}", stack(1, "c0"), stack(2, "c1"));
    twice += "6\tP.EXE\tp.obj\t1\t1.0\t1.0\tother\n8\t1\n";
    twice += "9\t2\t7\t1.0\t0\n10\tc0\n10\tother\n";
    twice += "6\tP.EXE\tp.obj\t4\t80.0\t80.0\twork(int, char)\n8\t2\n";
    twice += &(stack(1000, "c1") + &stack(3000, "c2"));
    let p = load(&twice);
    assert_eq!(stack_paths(&p).len(), 4, "{:?}", stack_paths(&p));
    assert_eq!(hits(&p, "c1>work(int, char)"), Some(1002));
    assert_eq!(hits(&p, "c2>work(int, char)"), Some(3000));
    assert_eq!(hits(&p, "c0>other"), Some(7));
}

#[test]
fn frame_modules_come_from_functions_of_that_name() {
    let text = format!(
        "{TIMED}6\tP.EXE\tq.obj\t1\t1\t1\tdup\n6\tP.EXE\tr.obj\t1\t1\t1\tdup\n\
         8\t1\n9\t3\t1\t1\t0\n10\tmain\n10\tdup\n10\tunknown\n"
    );
    let p = load(&text);
    let s = p.stack_ids().next().unwrap();
    let frames: Vec<_> = p
        .frames(s)
        .iter()
        .map(|&f| (p.function_name(f), p.function_module(f)))
        .collect();
    // `dup` is ambiguous (two modules), `unknown` is no function: module "".
    // The owner (the second `dup`, r.obj) is appended as the leaf.
    assert_eq!(
        frames,
        [
            ("main", "p.obj"),
            ("dup", ""),
            ("unknown", ""),
            ("dup", "r.obj")
        ]
    );
}

#[test]
fn every_stack_warning_names_its_line() {
    let text = format!(
        "{TIMED}8\t2\n\
         9\t3\t1\t1\t0\n10\tmain\n10\twork(int, char)\n\
         6\tP.EXE\tp.obj\t1\t1\t1\tthird\n8\t1\n9\t1\t1\t1\t0\n10\tthird\n10\textra\n\
         10\tstray\n"
    );
    let p = load(&text);
    // line 6: 8 promises 2 stacks, 1 follows; line 7: 9 promises 3 frames,
    // 2 follow; lines 14-15: frames past the declared size.
    let places = [6, 7, 14, 15].map(|n| (Place::Line(n), WarningKind::CountMismatch));
    assert_eq!(kinds(&p), places);
    assert_eq!(stack_paths(&p), ["main>work(int, char)", "third"]);
}

#[test]
fn bad_and_unknown_records_are_skipped_with_their_line() {
    let text = format!(
        "{TIMED}\nProgram Statistics\n12\tfuture\n6\tP.EXE\tp.obj\tmany\t1\t1\tbad\n7\tP\n"
    );
    let p = load(&text);
    assert_eq!(
        kinds(&p),
        [
            (Place::Line(7), WarningKind::NotARecord),
            (Place::Line(8), WarningKind::UnknownRecordType),
            (Place::Line(9), WarningKind::NotANumber),
            (Place::Line(10), WarningKind::MissingField)
        ]
    );
    // The words a user reads, once for each format's first rules.
    let w = warnings(&p);
    assert_eq!(
        w[0],
        (
            Place::Line(7),
            "first field \"Program\" is not a PLIST format tag; line skipped".into()
        )
    );
    assert_eq!(
        w[1],
        (
            Place::Line(8),
            "unknown format tag 12; record skipped".into()
        )
    );
    assert_eq!(w[2].0, Place::Line(9));
    assert!(w[2].1.contains("count \"many\" is not a number"));
    assert_eq!(w[3].0, Place::Line(10));
    assert_eq!(
        p.functions().len(),
        2,
        "the bad function is not in the model"
    );
}

#[test]
fn space_separated_listing_text_loads() {
    let p = load("6  P.EXE  p.obj  2  1.5  3.0  operator new(unsigned int)\n7 P.EXE a.c 12 4\n");
    assert_eq!(
        p.function_name(p.function_ids().next().unwrap()),
        "operator new(unsigned int)"
    );
    assert_eq!(p.lines()[0].line, 12);
    assert_eq!(p.lines()[0].hits, Some(4));
}

#[test]
fn detection() {
    let plist = Plist;
    assert_eq!(plist.detect(TIMED.as_bytes(), true), Detection::Yes);
    assert_eq!(
        plist.detect(b"\r\n6\tP.EXE\tp.obj\t1\t1\t1\tf\r\n", true),
        Detection::Yes
    );
    assert_eq!(
        plist.detect(b"0\t1.0\tMicrosoft PL", false),
        Detection::NeedMore
    );
    assert_eq!(
        plist.detect(b"1,0.5,\"i\",\"MAIN\",12\n", true),
        Detection::No
    );
    assert_eq!(
        plist.detect(b"Level,Function Name\n0,x\n", true),
        Detection::No
    );
    assert_eq!(
        plist.detect(b"\x01\x00\x01\x00\x05A.BR", true),
        Detection::No
    );
    assert_eq!(
        plist.detect(b"  Profile: Function timing\n", true),
        Detection::No
    );
    assert_eq!(plist.detect(b"", true), Detection::No);
    assert_eq!(
        plist.detect(b"  1    2.00iB           1    5.00oB", true),
        Detection::No,
        "a DBF packet"
    );
    let stray = b"1\t522\tx\nProgram Statistics\n12\tfuture\n6\tt\tt.obj\t1\t1\t1\tf\n";
    assert_eq!(plist.detect(stray, true), Detection::Yes);
    assert_eq!(
        plist.detect(b"12\tfuture\n1\t522\tx\n", true),
        Detection::No
    );
    assert_eq!(
        plist.detect(b"1\t522\tx\nsome\ntext\n", true),
        Detection::No
    );
}

/// Every byte of a listing replaced by a few values: never a panic.
#[test]
fn flipped_bytes_never_panic() {
    let text =
        format!("{TIMED}8\t2\n9\t2\t1\t1.0\t0\n10\tmain\n10\twork(int, char)\n7\tP\ta.c\t3\t4\n");
    crate::testing::flips_never_panic(text.as_bytes(), b"\t \n9x\0\xff", "plist", |_| {});
}

/// Every line its own chunk (so a stack's records, its function and its
/// frames go to different workers, each numbering names its own way) gives
/// the same profile, warnings and places included, as one chunk.
#[test]
fn chunked_parsing_keeps_stacks_places_and_warnings() {
    let mut text = b"\xEF\xBB\xBF".to_vec();
    text.extend_from_slice(TIMED.as_bytes());
    text.extend_from_slice(b"8\t2\r\n9\t3\t1\t1\t0\n10\tmain\n\n10\twork(int, char)\n");
    text.extend_from_slice(b"Program Statistics\n7\tP.EXE\tCaf\xE9.c\t3\t2\n12\tx\n");
    text.extend_from_slice(
        b"6\tP.EXE\tp.obj\t1\t1\t1\tthird\n8\t1\n9\t1\t1\t1\t0\n10\tthird\n10\textra",
    );
    let load = |chunk_bytes| crate::testing::load_chunked("plist", &text, chunk_bytes);
    let (one, many) = (load(None), load(Some(1)));
    assert_eq!(
        profx_analysis::report::json::render(&one),
        profx_analysis::report::json::render(&many)
    );
    let places: Vec<_> = warnings(&many).into_iter().map(|(p, _)| p).collect();
    let lines = [6, 7, 11, 13, 18].map(Place::Line);
    assert_eq!(places, lines);
    assert_eq!(stack_paths(&many), ["main>work(int, char)", "third"]);
    // Not UTF-8: read as Windows-1252, as a lone line would be.
    assert_eq!(many.name(many.lines()[0].file), "Café.c");
}

/// A function listed again in another chunk is named in its warning from
/// that chunk's own names (the profile's table is busy on another thread).
#[test]
fn a_function_listed_again_in_another_chunk_is_named_in_its_warning() {
    let text = format!("{TIMED}6\tP.EXE\tp.obj\t2\t5.0\t6.0\twork(int, char)\n");
    let many = crate::testing::load_chunked("plist", text.as_bytes(), Some(1));
    let w = warnings(&many);
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(w[0].0, Place::Line(6));
    let expected = "function \"work(int, char)\" (p.obj) listed again after line 5";
    assert!(w[0].1.starts_with(expected), "{}", w[0].1);
}

/// How a replay feeds the rules: the reference reading a line at a time,
/// or the fast engine's workers (three of them, chunks of a few lines).
#[derive(Clone, Copy, Debug)]
enum Feed {
    Reference,
    Fast,
}

/// The profile (its `--json` and every warning, kind, place and words) of
/// `parts` fed one after the other to one engine, then finished; or the
/// error the end gives.
fn replayed(parts: &[&[u8]], feed: Feed) -> String {
    let mut b = profx_model::ProfileBuilder::new("plist");
    b.begin_source("t.txt");
    b.stated_rounding(0.0005);
    let done = match feed {
        Feed::Reference => {
            let mut r = reference::Reader::new();
            for part in parts {
                r.text(&mut b, part);
            }
            r.finish(&mut b, "t.txt")
        }
        Feed::Fast => {
            let opts = LoadOptions {
                chunk_bytes: Some(97),
                workers: Some(3),
                ..Default::default()
            };
            let mut e = fast::Engine::new();
            for part in parts {
                e.text(&Input::owned("t.txt", part.to_vec()), &opts, &mut b);
            }
            e.finish(&mut b, "t.txt")
        }
    };
    if let Err(e) = done {
        return format!("error: {e}");
    }
    let p = b.finish();
    let mut out = profx_analysis::report::json::render(&p);
    for w in p.warnings() {
        out += &format!("{:?} {:?} {}\n", w.place, w.kind, w.message);
    }
    out
}

/// A `/T` line of any kind the rules tell apart: the session's records
/// (a counting method now and then), functions (listed again, in two
/// modules, times impossible or negative, spaced out), lines, stacks and
/// their frames (more and fewer than declared, before any function),
/// and lines that are no usable record.
fn plist_line() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    const NAMES: [&str; 5] = [
        "main",
        "work(int, char)",
        "f2",
        "Caf\u{e9}::g",
        "operator new",
    ];
    let name = proptest::sample::select(&NAMES[..]);
    let ms = (0u32..3000).prop_map(|us| format!("{:.3}", f64::from(us) / 1000.0));
    prop_oneof![
        1 => Just("0\t1.10\tMicrosoft PLIST".to_string()),
        1 => proptest::sample::select(&[522, 321][..])
            .prop_map(|m| format!("1\t{m}\tFunction timing")),
        1 => Just("2\t100.500\t0.250\t3".to_string()),
        1 => Just("3\t7\t5\tq".to_string()),
        4 => (proptest::sample::select(&["p.obj", "q.obj"][..]), 0u32..9, ms.clone(), ms.clone(), name.clone(), any::<bool>())
            .prop_map(|(module, calls, t, c, f, spaced)| {
                let sep = if spaced { "  " } else { "\t" };
                format!("6{sep}P.EXE{sep}{module}{sep}{calls}{sep}{t}{sep}{c}{sep}{f}")
            }),
        1 => Just("6\tP.EXE\tp.obj\t1\t-1.0\t2.0\tmain".to_string()),
        1 => (1u32..40, 0u32..9).prop_map(|(line, hits)| format!("7\tP.EXE\ta.c\t{line}\t{hits}")),
        2 => (0u32..3).prop_map(|n| format!("8\t{n}")),
        3 => (0u32..4, 0u32..9, ms.clone(), ms).prop_map(|(size, hits, t, c)| format!("9\t{size}\t{hits}\t{t}\t{c}")),
        6 => name.prop_map(|f| format!("10\t{f}")),
        1 => Just(String::new()),
        1 => proptest::sample::select(&["x\ty", "12\tz", "9\t1", "9\t1\tz\t0\t0", "7\tP\ta.c\t99999999999\t1"][..])
            .prop_map(str::to_string),
    ]
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(96))]

    /// Replay from any point: a file's lines fed to one engine in parts,
    /// split at any line boundaries (as data appended later comes), give
    /// what they give fed at once, through either reading.
    #[test]
    fn a_replay_in_parts_is_the_replay_at_once(
        lines in proptest::collection::vec((plist_line(), proptest::prelude::any::<bool>()), 1..60),
        cuts in proptest::collection::vec(proptest::prelude::any::<proptest::sample::Index>(), 1..4),
        last_ended in proptest::prelude::any::<bool>(),
    ) {
        let mut text = Vec::new();
        let mut ends = Vec::new();
        for (i, (line, crlf)) in lines.iter().enumerate() {
            text.extend_from_slice(line.as_bytes());
            if i + 1 < lines.len() || last_ended {
                text.extend_from_slice(if *crlf { b"\r\n" } else { b"\n" });
            }
            ends.push(text.len());
        }
        let mut at: Vec<usize> = cuts.iter().map(|c| ends[c.index(ends.len())]).collect();
        at.sort_unstable();
        at.dedup();
        let mut parts = Vec::new();
        let mut from = 0;
        for &to in at.iter().chain([&text.len()]) {
            parts.push(&text[from..to.max(from)]);
            from = to.max(from);
        }
        let whole = replayed(&[&text[..]], Feed::Reference);
        for feed in [Feed::Reference, Feed::Fast] {
            proptest::prop_assert_eq!(&replayed(&parts, feed), &whole, "{:?} in {} parts", feed, parts.len());
        }
        proptest::prop_assert_eq!(&replayed(&[&text[..]], Feed::Fast), &whole);
    }
}

/// What waits for the end waits for the replay's end: a frame naming a
/// function only a later part lists is that function, module and all; an
/// open stack and group take records from the next part; and the method
/// a later part states decides the times of functions before it.
#[test]
fn what_needs_the_whole_file_waits_for_the_replay_s_end() {
    let first = "1\t522\tFunction timing\n\
6\tP.EXE\tp.obj\t1\t10.0\t90.0\tmain\n8\t2\n9\t2\t1\t1.0\t0\n10\tmain\n";
    let second = "10\twork(int, char)\n9\t1\t1\t1.0\t0\n10\tmain\n\
6\tP.EXE\tq.obj\t4\t80.0\t80.0\twork(int, char)\n";
    let whole = format!("{first}{second}");
    for feed in [Feed::Reference, Feed::Fast] {
        let parts = [first.as_bytes(), second.as_bytes()];
        assert_eq!(
            replayed(&parts, feed),
            replayed(&[whole.as_bytes()], feed),
            "{feed:?}"
        );
    }
    let p = load(&whole);
    // Listed leaf first (the owner first): stored root first.
    assert_eq!(stack_paths(&p), ["work(int, char)>main", "main"]);
    assert!(p.warnings().is_empty(), "{:?}", warnings(&p));
    // The frame is the function the second part lists, in its module.
    let stack = p.stack_ids().next().unwrap();
    assert_eq!(p.function_module(p.frames(stack)[0]), "q.obj");
    // A counting method stated last makes the first part's times absent.
    let counted = format!("{whole}1\t321\tcounting\n");
    let parts = [whole.as_bytes(), b"1\t321\tcounting\n"];
    for feed in [Feed::Reference, Feed::Fast] {
        assert_eq!(
            replayed(&parts, feed),
            replayed(&[counted.as_bytes()], feed)
        );
    }
    assert_eq!(
        load(&counted).functions().get(0).time.elapsed_inclusive,
        None
    );
}
