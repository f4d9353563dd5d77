use super::*;
use crate::load_inputs;
use profx_model::testing::{function, kinds, stack_paths, warnings};
use profx_model::{MetaValue, Profile, WarningKind};

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
    assert_eq!(
        kinds(&p),
        [
            (Place::Line(4), WarningKind::Unwind),
            (Place::Line(5), WarningKind::ReturnWithoutCall)
        ]
    );
    assert!(warnings(&p)[0].1.contains("unwinds 2 call(s)"));
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
    assert_eq!(
        kinds(&p),
        [
            (Place::Line(2), WarningKind::UnknownOp),
            (Place::Line(4), WarningKind::UnknownOp),
            (Place::File("T.PRF".into()), WarningKind::Unclosed)
        ]
    );
    assert!(warnings(&p)[2].1.starts_with("2 call(s) still open"));
    assert_eq!(times(&p, "A"), (Some(1), Some(9.0), Some(8.0)));
    assert_eq!(times(&p, "B"), (Some(1), Some(1.0), Some(1.0)));
}

#[test]
fn time_going_backwards_counts_zero() {
    let p = load("1,10,\"i\",\"A\"\n1,5,\"i\",\"B\"\n1,12,\"o\",\"B\"\n1,13,\"o\",\"A\"\n");
    assert_eq!(kinds(&p), [(Place::Line(2), WarningKind::TimeBackwards)]);
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

/// `--columns` that names no call is refused as the option's fault, not
/// the file's.
#[test]
fn columns_without_a_call_are_refused() {
    let input = Input::owned("T.PRF", b"1,\"i\",\"A\"\n".to_vec());
    let opts = LoadOptions {
        format: Some("xpp".into()),
        columns: Some("thread,op".into()),
        ..Default::default()
    };
    let err = load_inputs(&[input], &opts).unwrap_err();
    assert!(matches!(err, LoadError::Columns { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        "T.PRF: --columns: --columns needs an call column"
    );
}

/// `--strict` fails on the first warning in input order, with its place
/// and kind, and says it as the warning does.
#[test]
fn strict_fails_on_the_first_warning_by_its_kind() {
    let input = Input::owned(
        "T.PRF",
        b"1,0,\"i\",\"A\"\n1,1,\"o\",\"Z\"\n1,x,\"o\",\"A\"\n".to_vec(),
    );
    let opts = LoadOptions {
        format: Some("xpp".into()),
        strict: true,
        ..Default::default()
    };
    let err = load_inputs(&[input], &opts).unwrap_err();
    let LoadError::Strict { place, kind, .. } = &err else {
        panic!("{err:?}");
    };
    assert_eq!(
        (place, *kind),
        (&Place::Line(2), WarningKind::ReturnWithoutCall)
    );
    assert_eq!(
        err.to_string(),
        "T.PRF: line 2: return from \"Z\", which is not on thread 1's stack; skipped \
         (--strict makes every warning fatal)"
    );
}

#[test]
fn bad_lines_are_skipped_with_their_line() {
    let p = load("1,0,\"i\",\"A\"\ngarbage here\n1,4,\"o\",\"A\"\n");
    assert_eq!(kinds(&p), [(Place::Line(2), WarningKind::MissingField)]);
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

mod foxdbe {
    use super::*;
    use profx_fixtures::dbf::compile;

    const FIELDS: &str = "field THREAD N 3\nfield TIME N 8 2\nfield OP C 1\nfield CALL C 12\nfield LINE N 5\nfield USER C 4\n";

    fn dbf(rows: &str) -> Vec<u8> {
        compile(&format!("{FIELDS}{rows}")).expect("compiles")
    }

    fn load_bytes(bytes: Vec<u8>) -> Result<Profile, crate::LoadError> {
        load_inputs(&[Input::owned("T.PRF", bytes)], &LoadOptions::default())
    }

    /// Header 32 + 6·32 + 1 = 225 bytes; records 1 + 33 = 34 bytes.
    const H: u64 = 225;
    const R: u64 = 34;

    #[test]
    fn hand_example_from_a_table() {
        let p = load_bytes(dbf(
            "row 1 0 i A 5 ann\nrow 1 10 i B 7 ann\nrow 1 30 o B 0 ann\nrow 1 35 o A 0 bob\n",
        ))
        .unwrap();
        assert_eq!(p.format, "xpp");
        assert_eq!(times(&p, "A"), (Some(1), Some(35.0), Some(15.0)));
        assert_eq!(times(&p, "B"), (Some(1), Some(20.0), Some(20.0)));
        assert!(p.warnings().is_empty(), "{:?}", warnings(&p));
        let e = p.packets()[0].events.get(3).unwrap();
        assert_eq!(
            e.params.as_deref(),
            Some("USER=bob"),
            "unknown fields are kept"
        );
        assert_eq!(e.time_ms, Some(35.0));
    }

    #[test]
    fn traps_a_digit_version_byte_stale_count_deleted_partial_and_end_mark() {
        let mut bytes = dbf(
            "count 9\nrow 1 0 i A 5 x\ndeleted 1 1 i Z 5 x\nrow 1 4 o A 0 x\nnoeof\nbytes 20 31 31\n",
        );
        bytes[0] = b'0'; // Visual FoxPro's version byte is the digit 0.
        let p = load_bytes(bytes).unwrap();
        assert_eq!(
            kinds(&p),
            [
                (Place::Offset(4), WarningKind::CountMismatch),
                (Place::Offset(H + R), WarningKind::DeletedRecords),
                (Place::Offset(H + 3 * R), WarningKind::TruncatedRecord)
            ],
        );
        let w = warnings(&p);
        assert!(w[0].1.contains("header says 9 records, 3 are present"));
        assert!(w[1].1.contains("1 deleted record(s)"));
        assert!(w[2].1.contains("partial record (3 of 34 bytes)"));
        assert_eq!(times(&p, "A"), (Some(1), Some(4.0), Some(4.0)));

        let tail = load_bytes(dbf("row 1 0 i A 5 x\nrow 1 4 o A 0 x\nbytes 1a 00")).unwrap();
        let tail_kinds: Vec<_> = kinds(&tail).into_iter().map(|(_, k)| k).collect();
        assert_eq!(tail_kinds, [WarningKind::TrailingBytes]);
        assert!(
            warnings(&tail)[0]
                .1
                .contains("2 bytes after the end-of-file mark")
        );
    }

    #[test]
    fn numeric_types_and_missing_time() {
        let bytes =
            compile("field TID I 4\nfield OPERATION C 1\nfield SYMBOL C 8\nrow 2 i A\nrow 2 o A\n")
                .unwrap();
        let p = load_bytes(bytes).unwrap();
        assert_eq!(times(&p, "A"), (Some(1), None, None));
        assert_eq!(p.packets()[0].events.get(0).unwrap().thread, Some(2));
        let b = compile("field MS B 8\nfield OP C 1\nfield FUNC C 8\nrow 1.5 i A\nrow 4 o A\n")
            .unwrap();
        assert_eq!(
            times(&load_bytes(b).unwrap(), "A"),
            (Some(1), Some(2.5), Some(2.5))
        );
    }

    #[test]
    fn a_table_without_op_or_call_fails_listing_its_fields() {
        let err = load_bytes(compile("field THREAD N 3\nfield WHAT C 4\nrow 1 x\n").unwrap())
            .unwrap_err();
        assert!(
            matches!(
                err,
                LoadError::Invalid {
                    place: Place::Offset(32),
                    kind: InvalidKind::NoColumns,
                    ..
                }
            ),
            "{err:?}"
        );
        assert!(
            err.to_string()
                .contains("no op and call fields among THREAD, WHAT"),
            "{err}"
        );
    }

    #[test]
    fn columns_override_maps_fields_by_position() {
        let bytes =
            compile("field A N 3\nfield B C 1\nfield C C 8\nrow 1 i F\nrow 1 o F\n").unwrap();
        let input = Input::owned("T.PRF", bytes);
        let opts = LoadOptions {
            columns: Some("thread,op,call".into()),
            ..Default::default()
        };
        let p = load_inputs(&[input], &opts).unwrap();
        assert_eq!(times(&p, "F"), (Some(1), None, None));
    }

    #[test]
    fn detection_tells_tables_from_logs() {
        let table = dbf("row 1 0 i A 5 x\n");
        assert_eq!(Xpp.detect(&table, true), Detection::Yes);
        assert_eq!(Xpp.detect(&table[..100], false), Detection::NeedMore);
        assert_eq!(crate::br::Br.detect(&table, true), Detection::No);
        let log = profx_fixtures::br::compile("module 1 \"A.BR\"\nsample 1 1 0\nend\n").unwrap();
        assert_eq!(Xpp.detect(&log, true), Detection::No);
    }
}

mod packeted {
    use super::*;
    use crate::load_paths;
    use profx_fixtures::dbf::compile;

    const FIELDS: &str = "field THREAD N 3\nfield TIME N 8 2\nfield OP C 1\nfield CALL C 12\n";

    /// A fresh folder holding `files` (name, bytes), removed when dropped.
    fn folder(test: &str, files: &[(&str, Vec<u8>)]) -> tempfile::TempDir {
        let dir = tempfile::Builder::new()
            .prefix(&format!("profx-packets-{test}-"))
            .tempdir()
            .unwrap();
        for (name, bytes) in files {
            std::fs::write(dir.path().join(name), bytes).unwrap();
        }
        dir
    }

    fn open(dir: impl AsRef<std::path::Path>, name: &str) -> Result<Profile, crate::LoadError> {
        let path = dir.as_ref().join(name).to_string_lossy().into_owned();
        load_paths(&[path], &LoadOptions::default())
    }

    fn packet_names(p: &Profile) -> Vec<String> {
        p.packets()
            .iter()
            .map(|k| k.source.rsplit('/').next().unwrap().to_string())
            .collect()
    }

    #[test]
    fn dbf_header_packet_and_numbered_packets_load_as_one_trace() {
        // The header counts the whole trace: its record and packet 1's and
        // 3's, so only the missing packet 2 is worth a warning.
        let header = compile(&format!("{FIELDS}count 4\nrow 1 0 i A\n")).unwrap();
        let p1 = compile(&format!("{FIELDS}noheader\nnoeof\nrow 1 10 i B\n")).unwrap();
        let p3 = compile(&format!("{FIELDS}row 1 30 o B\nrow 1 35 o A\n")).unwrap();
        let dir = folder(
            "dbf",
            &[
                ("T.PRF", header),
                ("T.PRF.000001", p1),
                ("T.PRF.000003", p3),
            ],
        );
        let p = open(&dir, "T.PRF").unwrap();
        assert_eq!(packet_names(&p), ["T.PRF", "T.PRF.000001", "T.PRF.000003"]);
        assert_eq!(p.sources.len(), 3);
        assert_eq!(times(&p, "A"), (Some(1), Some(35.0), Some(15.0)));
        assert_eq!(times(&p, "B"), (Some(1), Some(20.0), Some(20.0)));
        let w = kinds(&p);
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(matches!(&w[0].0, Place::File(f) if f.ends_with("T.PRF.000002")));
        assert_eq!(w[0].1, WarningKind::MissingPacket);
        assert_eq!(p.packets()[2].events.len(), 2);
        assert_eq!(
            (p.packets()[2].first_ms, p.packets()[2].last_ms),
            (Some(30.0), Some(35.0))
        );
        let e = p.packets()[1].events.get(0).unwrap();
        assert_eq!(e.function.map(|f| p.function_name(f)), Some("B"));
    }

    #[test]
    fn a_lone_dbf_packet_reads_its_header_packet_or_says_it_is_missing() {
        let header = compile(&format!("{FIELDS}row 1 0 i A\n")).unwrap();
        let packet = compile(&format!("{FIELDS}noheader\nrow 1 2 i B\nrow 1 5 o B\n")).unwrap();
        let dir = folder(
            "lone-dbf",
            &[("T.PRF", header), ("T.PRF.000002", packet.clone())],
        );
        let p = open(&dir, "T.PRF.000002").unwrap();
        assert_eq!(packet_names(&p), ["T.PRF.000002"]);
        assert_eq!(times(&p, "B"), (Some(1), Some(3.0), Some(3.0)));
        assert!(
            p.function_ids().all(|f| p.function_name(f) != "A"),
            "only that packet's events"
        );

        let alone = folder("lone-dbf-missing", &[("U.PRF.000002", packet)]);
        let err = open(&alone, "U.PRF.000002").unwrap_err();
        assert!(
            matches!(
                err,
                LoadError::Invalid {
                    kind: InvalidKind::NoHeaderPacket,
                    ..
                }
            ),
            "{err:?}"
        );
        let err = err.to_string();
        assert!(
            err.contains("needs its header packet") && err.contains("U.PRF"),
            "{err}"
        );
    }

    #[test]
    fn deldbe_packets_load_together_or_alone() {
        let dir = folder(
            "del",
            &[
                ("D.PRF", b"1,0,\"i\",\"A\"\n".to_vec()),
                (
                    "D.PRF.000001",
                    b"1,10,\"i\",\"B\"\n1,30,\"o\",\"B\"\n".to_vec(),
                ),
                ("D.PRF.000002", b"1,35,\"o\",\"A\"\n".to_vec()),
            ],
        );
        let p = open(&dir, "D.PRF").unwrap();
        assert_eq!(packet_names(&p), ["D.PRF", "D.PRF.000001", "D.PRF.000002"]);
        assert_eq!(times(&p, "A"), (Some(1), Some(35.0), Some(15.0)));
        assert!(p.warnings().is_empty(), "{:?}", warnings(&p));
        let lone = open(&dir, "D.PRF.000001").unwrap();
        assert_eq!(packet_names(&lone), ["D.PRF.000001"]);
        assert_eq!(times(&lone, "B"), (Some(1), Some(20.0), Some(20.0)));
    }
}

/// Every byte of a DBF table and of a DELDBE file replaced by a few values:
/// detection and loading never panic, and on-demand events decode or say none.
#[test]
fn flipped_bytes_never_panic() {
    let table = profx_fixtures::dbf::compile(
        "field THREAD N 3\nfield TIME N 6 1\nfield OP C 1\nfield CALL C 6\nfield LINE N 4\nrow 1 0 i A 5\nrow 1 2 i B 6\nrow 1 3 o B 0\nrow 1 4 o A 0\n",
    )
    .unwrap();
    let text = b"1,0,\"i\",\"A\",5\n2,1,\"I\",\"B\",6\n1,3,\"O\",\"A\"\n2,4,\"o\",\"B\"\n";
    for original in [&table[..], &text[..]] {
        crate::testing::flips_never_panic(original, b"\0 *,\"\n\r\x1a9\xff", "xpp", |p| {
            for k in p.packets() {
                (0..k.events.len() + 1).for_each(|e| drop(k.events.get(e)));
            }
        });
    }
}

/// Every line its own chunk (so records, blanks, a header, a bad line and
/// a non-UTF-8 name land with different workers) gives the same profile,
/// warnings and places included, as reading the file in one piece.
#[test]
fn chunked_parsing_keeps_lines_places_and_warnings() {
    let mut text = b"\xEF\xBB\xBF\r\nTHREAD,TIME,OP,CALL,LINE\r\n".to_vec();
    text.extend_from_slice(b"1,0,\"i\",\"A\",5\r\n\r\n2,1,\"i\",\"Caf\xE9\",3\n");
    text.extend_from_slice(b"1,2,\"x\",\"A\",1\nnot a record\n1,3,\"i\",\"B\",7\n");
    text.extend_from_slice(b"2,4,\"o\",\"Caf\xE9\"\n1,6,\"o\",\"B\"\n1,9,\"o\",\"A\"");
    let load = |chunk_bytes| crate::testing::load_chunked("xpp", &text, chunk_bytes);
    let (one, many) = (load(None), load(Some(1)));
    assert_eq!(
        profx_analysis::report::json::render(&one),
        profx_analysis::report::json::render(&many)
    );
    assert_eq!(
        warnings(&many),
        [
            (
                Place::Line(6),
                "unknown operation \"x\"; records with it skipped".to_string()
            ),
            (
                Place::Line(7),
                "not a trace record: thread \"not a record\" is not a number; line skipped"
                    .to_string()
            )
        ]
    );
    assert_eq!(times(&many, "Café"), (Some(1), Some(3.0), Some(3.0)));
    assert_eq!(many.event_count(), 7);
}

/// Threads are numbered in the order the file first names them, whichever
/// worker parses the line that first names them.
#[test]
fn threads_keep_the_order_of_the_file_across_chunks() {
    let ids: Vec<u64> = (0..12u64).map(|i| (i * 37 + 5) % 50 + 1).collect();
    let mut text = String::new();
    for (k, id) in ids.iter().enumerate() {
        text.push_str(&format!("{id},{k},\"i\",\"F{k}\",{k}\n"));
    }
    for (k, id) in ids.iter().enumerate().rev() {
        text.push_str(&format!("{id},{},\"o\",\"F{k}\"\n", 20 + k));
    }
    let threads = |p: &Profile| -> Vec<u64> {
        let timeline = p.timeline().expect("asked for");
        timeline.threads.iter().map(|t| t.id).collect()
    };
    for chunk_bytes in [None, Some(1), Some(40)] {
        let opts = LoadOptions {
            format: Some("xpp".into()),
            chunk_bytes,
            timeline: true,
            ..Default::default()
        };
        let input = Input::owned("T.PRF", text.clone().into_bytes());
        let p = load_inputs(&[input], &opts).expect("loads");
        assert_eq!(threads(&p), ids, "{chunk_bytes:?}");
        assert_eq!(p.meta["threads"], MetaValue::Int(12));
        assert!(p.warnings().is_empty(), "{:?}", p.warnings());
    }
}

/// Each event shows at its depth: an entry and its return at the caller's,
/// an unfiltered trace's `I` and `O` one deeper, a return that unwinds
/// calls above it at the depth that stays, and a skipped record where the
/// stack stands.
#[test]
fn events_show_at_the_depth_of_their_call() {
    let text = "1,0,\"i\",\"A\",1\n1,1,\"I\",\"A\"\n1,2,\"i\",\"B\",2\n1,3,\"O\",\"B\"\n\
                1,4,\"o\",\"B\"\n1,5,\"i\",\"C\",3\n1,6,\"i\",\"D\",4\n1,7,\"o\",\"A\"\n\
                1,8,\"o\",\"X\"\n1,9,\"i\",\"E\",5\n1,10,\"x\",\"E\"\n1,11,\"o\",\"E\"\n";
    let p = load(text);
    let events = &p.packets()[0].events;
    let depths: Vec<_> = (0..events.len()).map(|i| events.depth(i)).collect();
    let want = [0, 1, 1, 2, 1, 1, 2, 0, 0, 0, 1, 0];
    assert_eq!(depths, want.map(Some));
}

/// model.md § Intervals' example of recursion at one call site (MAIN calls
/// F from line 5, F itself twice from line 20), with a second thread doing
/// the same at once: the line (F, 20) holds each thread's outermost call
/// from it (11 + 3 ms), not the inner ones again, and counts every call.
/// The same through the fast engine (whole and in chunks of a line), the
/// reference loader, without stacks, unfiltered (`I`/`O` around the
/// calls), from a table, and with one thread chosen.
#[test]
fn recursion_through_one_call_site_counts_once_in_every_engine() {
    // (thread, ms, op, call, line)
    let rows: [(u8, u8, &str, &str, u32); 14] = [
        (1, 0, "i", "MAIN", 1),
        (1, 1, "i", "F", 5),
        (2, 2, "i", "MAIN", 1),
        (1, 3, "i", "F", 20),
        (2, 4, "i", "F", 5),
        (1, 5, "i", "F", 20),
        (2, 6, "i", "F", 20),
        (2, 9, "o", "F", 0),
        (2, 10, "o", "F", 0),
        (2, 11, "o", "MAIN", 0),
        (1, 13, "o", "F", 0),
        (1, 14, "o", "F", 0),
        (1, 16, "o", "F", 0),
        (1, 17, "o", "MAIN", 0),
    ];
    let text = |unfiltered: bool| {
        let mut out = String::new();
        for &(t, ms, op, call, line) in &rows {
            let mut ops = vec![op];
            if unfiltered && call == "F" {
                ops = if op == "i" {
                    vec!["i", "I"]
                } else {
                    vec!["O", "o"]
                };
            }
            for op in ops {
                out.push_str(&format!("{t},{ms},\"{op}\",\"{call}\",{line}\n"));
            }
        }
        out.into_bytes()
    };
    let table = {
        let mut desc = String::from(
            "field THREAD N 3\nfield TIME N 8 2\nfield OP C 1\nfield CALL C 12\nfield LINE N 5\n",
        );
        for &(t, ms, op, call, line) in &rows {
            desc.push_str(&format!("row {t} {ms} {op} {call} {line}\n"));
        }
        profx_fixtures::dbf::compile(&desc).expect("compiles")
    };
    let site = |p: &Profile, file: &str, line: u32| {
        let l = p
            .lines()
            .iter()
            .find(|l| p.name(l.file) == file && l.line == line);
        let l = l.expect("the line");
        (l.hits, l.time_ms)
    };
    let opts = |f: fn(&mut LoadOptions)| {
        let mut o = LoadOptions {
            format: Some("xpp".into()),
            ..Default::default()
        };
        f(&mut o);
        o
    };
    let ways: [(&str, LoadOptions); 4] = [
        ("fast", opts(|_| {})),
        (
            "chunks",
            opts(|o| (o.chunk_bytes, o.workers) = (Some(1), Some(3))),
        ),
        ("reference", opts(|o| o.reference = true)),
        ("no stacks", opts(|o| o.stacks = crate::KeepStacks::Skipped)),
    ];
    for (bytes, what) in [
        (text(false), "filtered"),
        (text(true), "unfiltered"),
        (table, "table"),
    ] {
        for (how, o) in &ways {
            let input = Input::owned("T.PRF", bytes.clone());
            let p = load_inputs(&[input], o).expect("loads");
            let at = format!("{what}, {how}");
            assert!(p.warnings().is_empty(), "{at}: {:?}", warnings(&p));
            assert_eq!(site(&p, "F", 20), (Some(3), Some(14.0)), "{at}");
            assert_eq!(site(&p, "MAIN", 5), (Some(2), Some(21.0)), "{at}");
            assert_eq!(times(&p, "F"), (Some(5), Some(21.0), Some(21.0)), "{at}");
        }
        // Thread 1 alone: model.md's example.
        let o = opts(|o| o.threads = Some(vec![1]));
        let p = load_inputs(&[Input::owned("T.PRF", bytes.clone())], &o).expect("loads");
        assert_eq!(site(&p, "F", 20), (Some(2), Some(11.0)), "{what}, thread 1");
        assert_eq!(times(&p, "F"), (Some(3), Some(15.0), Some(15.0)), "{what}");
    }
}
