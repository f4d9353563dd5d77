use super::*;
use crate::br::Br;
use crate::{Detection, Input, Loader};
use crate::{LoadOptions, load_inputs};
use profx_fixtures::br::compile;
use profx_model::MetaValue;
use profx_model::testing::{function, kinds, percents, stack_paths, warnings};
use profx_model::{Place, Profile, WarningKind};

fn load(desc: &str) -> Profile {
    let input = Input::owned("t.prof", compile(desc).expect("description compiles"));
    let opts = LoadOptions {
        format: Some("br".into()),
        ..Default::default()
    };
    load_inputs(&[input], &opts).expect("loads")
}

/// Module records are 5 + name bytes long: "A.BR" → 9, "LIB.BR" → 11.
const MODULES: &str = "module 1 \"A.BR\"\nmodule 2 \"LIB.BR\"\n";

#[test]
fn timed_samples_give_hits_times_stacks_lines_and_events() {
    let p = load(&format!(
        "{MODULES}\
         sample 2 40 1\ntime 3ms\nname \"FN8  \\x00\"\nback 1 120 0\nmain\nend\n\
         sample 1 121 2\ntime 1ms\nmain\nend\n"
    ));
    assert_eq!(p.meta["mode"], MetaValue::Text("timed".into()));
    let fn8 = function(&p, "FN8");
    assert_eq!((fn8.hits_self, fn8.hits_total), (Some(1), Some(1)));
    assert_eq!(
        (fn8.time.elapsed_exclusive, fn8.time.elapsed_inclusive),
        (Some(3.0), Some(3.0))
    );
    let main = function(&p, "(main)");
    assert_eq!((main.hits_self, main.hits_total), (Some(1), Some(2)));
    assert_eq!(
        (main.time.elapsed_exclusive, main.time.elapsed_inclusive),
        (Some(1.0), Some(4.0))
    );
    assert_eq!(p.totals.samples, Some(2));
    assert_eq!(p.totals.elapsed_inclusive_ms, Some(4.0));
    assert_eq!(percents(&p, "FN8").hits_self, Some(50.0));
    assert_eq!(stack_paths(&p), ["(main)>FN8", "(main)"]);
    let frames = p.frames(p.stack_ids().next().unwrap());
    assert_eq!(p.function_module(frames[0]), "A.BR");
    assert_eq!(p.function_module(frames[1]), "LIB.BR");
    let lines: Vec<_> = p
        .lines()
        .iter()
        .map(|l| (p.name(l.file), l.line, l.hits, l.time_ms))
        .collect();
    assert_eq!(
        lines,
        [
            ("LIB.BR", 40, Some(1), Some(3.0)),
            ("A.BR", 121, Some(1), Some(1.0))
        ]
    );
    let packet = &p.packets()[0];
    assert_eq!((packet.first_ms, packet.last_ms), (Some(0.0), Some(4.0)));
    let second = packet.events.get(1).unwrap();
    assert_eq!(
        (second.time_ms, second.line, second.op.as_str()),
        (Some(3.0), Some(121), "sample")
    );
    assert_eq!(second.params.as_deref(), Some("clause 2"));
    assert_eq!(second.function.map(|f| p.function_name(f)), Some("(main)"));
    assert!(p.warnings().is_empty(), "{:?}", warnings(&p));
}

#[test]
fn sampled_profiles_have_hits_and_no_times() {
    let p = load(&format!(
        "{MODULES}sample 1 1 0\nend\nsample 1 1 0\nend\nsample 2 5 0\ngosub\nend\n"
    ));
    assert_eq!(p.meta["mode"], MetaValue::Text("sampled".into()));
    let a = function(&p, "A.BR");
    assert_eq!(
        p.function_module(
            p.function_ids()
                .find(|&f| p.function_name(f) == "A.BR")
                .unwrap()
        ),
        "A.BR"
    );
    assert_eq!(a.hits_self, Some(2));
    assert!((percents(&p, "A.BR").hits_self.unwrap() - 200.0 / 3.0).abs() < 1e-12);
    assert_eq!(a.time.elapsed_inclusive, None);
    assert_eq!(function(&p, "(gosub)").hits_total, Some(1));
    assert_eq!(p.totals.elapsed_inclusive_ms, None);
    assert_eq!(p.lines()[0].time_ms, None);
    let packet = &p.packets()[0];
    assert_eq!((packet.first_ms, packet.last_ms), (None, None));
    assert_eq!(packet.events.get(0).unwrap().time_ms, None);
}

#[test]
fn recursion_counts_once_per_sample() {
    let p = load(&format!(
        "{MODULES}sample 1 10 0\ntime 2ms\nname \"F\"\nback 1 10 0\nname \"F\"\nback 1 1 0\nmain\nend\n"
    ));
    let f = function(&p, "F");
    assert_eq!((f.hits_self, f.hits_total), (Some(1), Some(1)));
    assert_eq!(f.time.elapsed_inclusive, Some(2.0));
    assert_eq!(stack_paths(&p), ["(main)>F>F"]);
}

#[test]
fn modules_resolve_wherever_they_are_mapped_and_unmapped_ones_warn_once() {
    // sample at 0 (8), back at 8 uses module 7 (unmapped), end at 16, the
    // second sample at 17 uses 7 again, then module 1 is mapped at the end.
    let p = load("sample 1 1 0\nback 7 2 0\nend\nsample 7 3 0\nend\nmodule 1 \"LATE.BR\"\n");
    assert!(p.functions().iter().any(|f| p.name(f.name) == "LATE.BR"));
    assert!(p.functions().iter().any(|f| p.name(f.name) == "module#7"));
    assert_eq!(kinds(&p), [(Place::Offset(8), WarningKind::UnmappedModule)]);
}

#[test]
fn a_second_different_mapping_keeps_the_first() {
    let p = load("module 1 \"A.BR\"\nmodule 1 \"A.BR\"\nmodule 1 \"B.BR\"\nsample 1 1 0\nend\n");
    assert_eq!(kinds(&p), [(Place::Offset(18), WarningKind::MappedAgain)]);
    assert!(warnings(&p)[0].1.contains("kept \"A.BR\""));
    assert_eq!(p.function_name(p.function_ids().next().unwrap()), "A.BR");
}

#[test]
fn damaged_sequences_warn_at_the_record_they_are_about() {
    // 0 module(9) · 9 time outside(9) · 18 sample(8) · 26 sample(8): closes
    // the first · 34 time(9) · 43 end(1) · 44 end outside(1) · 45 name outside(3)
    let p = load(
        "module 1 \"A.BR\"\ntime 1ms\nsample 1 1 0\nsample 1 2 0\ntime 1ms\nend\nend\nname \"X\"\n",
    );
    use WarningKind::*;
    let expected = [
        (9, OutOfPlace),
        (18, MissingTime), // the unclosed sample had no time
        (26, Unclosed),
        (44, OutOfPlace),
        (45, OutOfPlace),
    ];
    assert_eq!(kinds(&p), expected.map(|(at, k)| (Place::Offset(at), k)));
    assert!(
        warnings(&p)[2]
            .1
            .contains("sample at offset 18 was not closed")
    );
    assert_eq!(p.totals.samples, Some(2), "the unclosed sample is kept");
}

/// Whether a profile is timed is known only at its end: samples before
/// the first time record, in chunks of their own too, weigh 0 ms with a
/// warning each.
#[test]
fn samples_before_the_first_time_record_warn_in_a_timed_profile() {
    let desc =
        "module 1 \"A.BR\"\nsample 1 1 0\nend\nsample 1 2 0\nend\nsample 1 3 0\ntime 2ms\nend\n";
    let bytes = compile(desc).expect("description compiles");
    for size in [None, Some(1), Some(9)] {
        let p = crate::testing::load_chunked("br", &bytes, size);
        let expected = [9, 18].map(|at| (Place::Offset(at), WarningKind::MissingTime));
        assert_eq!(kinds(&p), expected, "{size:?}");
        assert_eq!(
            p.meta.get("mode").map(|m| m.to_string()),
            Some("timed".into())
        );
        assert_eq!(p.totals.elapsed_inclusive_ms, Some(2.0));
    }
}

#[test]
fn time_records_of_one_sample_add_up() {
    let p = load("module 1 \"A.BR\"\nsample 1 1 0\ntime 1ms\ntime 250us\nend\n");
    assert_eq!(p.totals.elapsed_inclusive_ms, Some(1.25));
}

#[test]
fn a_record_cut_off_at_the_end_keeps_what_came_before() {
    let mut bytes = compile("module 1 \"A.BR\"\nsample 1 1 0\nend\nsample 1 2 0\n").unwrap();
    bytes.extend_from_slice(&[5, 0, 1]); // a backtrace record cut after 3 bytes
    let input = Input::owned("t.prof", bytes);
    let p = load_inputs(&[input], &LoadOptions::default()).unwrap();
    assert_eq!(
        kinds(&p),
        [
            (Place::Offset(26), WarningKind::TruncatedRecord),
            (Place::Offset(26), WarningKind::Unclosed)
        ]
    );
    let w = warnings(&p);
    assert_eq!(
        w[0].1,
        "record type 5 cut off by the end of the file (3 bytes)"
    );
    assert!(
        w[1].1
            .contains("sample at offset 18 was not closed before the end")
    );
    assert_eq!(p.totals.samples, Some(2));
}

#[test]
fn an_unknown_record_type_stops_the_load_there() {
    let p = load("module 1 \"A.BR\"\nsample 1 1 0\nend\nbytes 2a 00 00 00\nsample 1 1 0\nend\n");
    assert_eq!(
        kinds(&p),
        [(Place::Offset(18), WarningKind::UnknownRecordType)]
    );
    assert_eq!(
        warnings(&p),
        [(
            Place::Offset(18),
            "unknown record type 42; stopped reading, 13 bytes not read".into()
        )]
    );
    assert_eq!(p.totals.samples, Some(1));
}

#[test]
fn a_file_with_nothing_usable_fails() {
    let input = Input::owned("x.prof", vec![2, 0, 0]);
    let err = load_inputs(
        &[input],
        &LoadOptions {
            format: Some("br".into()),
            ..Default::default()
        },
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            crate::LoadError::Invalid {
                place: Place::Offset(0),
                kind: crate::InvalidKind::NoRecords,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .contains("x.prof: offset 0: no sample or module record"),
        "{err}"
    );
}

#[test]
fn detection_accepts_logs_and_refuses_other_binaries() {
    let br = Br;
    let log = compile(&format!("{MODULES}sample 1 1 0\nend\n")).unwrap();
    assert_eq!(br.detect(&log, true), Detection::Yes);
    assert_eq!(br.detect(&log[..12], false), Detection::NeedMore);
    let sampled = compile("sample 1 1 0\nend\nsample 1 1 0\nend\n").unwrap();
    assert_eq!(br.detect(&sampled, true), Detection::Yes);
    // dBASE III header: 0x03, date, count, header length 257, record length 40.
    let dbf = [3, 124, 1, 1, 10, 0, 0, 0, 0x01, 0x01, 40, 0, 0, 0, 0, 0];
    assert_eq!(br.detect(&dbf, true), Detection::No);
    assert_eq!(
        br.detect(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", true),
        Detection::No
    );
    assert_eq!(br.detect(b"1,0.5,\"i\",\"MAIN\"\n", true), Detection::No);
    assert_eq!(
        br.detect(b"6\tt.exe\tt.obj\t1\t1\t1\tf\n", true),
        Detection::No
    );
    let mut x: u32 = 12345;
    let noise: Vec<u8> = (0..4096)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            (x >> 24) as u8
        })
        .collect();
    let damaged = compile("module 1 \"A.BR\"\nsample 1 1 0\nend\nbytes 02").unwrap();
    assert_eq!(br.detect(&damaged, true), Detection::Yes);
    for start in 0..64 {
        let mut n = noise[start..].to_vec();
        n[0] = 1;
        assert_eq!(br.detect(&n, true), Detection::No, "noise at {start}");
    }
}

/// Every byte of a log replaced by a few values: detection and loading
/// never panic, and a loaded profile only holds known functions in stacks.
#[test]
fn flipped_bytes_never_panic() {
    let log = compile(&profx_fixtures::demo::orders_description()).unwrap();
    crate::testing::flips_never_panic(&log[..600], &[0, 1, 3, 6, 7, 0x7f, 0xff], "br", |p| {
        let n = p.functions().len();
        assert!(
            p.stack_ids()
                .all(|s| p.frames(s).iter().all(|f| f.index() < n))
        );
    });
}

/// Every sample its own chunk (and chunks of a few samples) gives the same
/// profile, warnings and places included, as reading the log in one piece:
/// damage before, between and at the end of chunks, a second mapping, an
/// unmapped module, names first met by different workers.
#[test]
fn chunked_decoding_keeps_ids_sums_and_warnings() {
    let desc = "module 1 \"A.BR\"\ntime 1ms\nsample 1 1 0\nname \"F\"\nsample 1 2 0\ntime 1ms\n\
                name \"G\"\nback 7 3 0\nmain\nend\nend\nsample 1 4 0\ntime 2ms\nname \"G\"\n\
                back 1 5 0\nname \"H\"\nend\nmodule 1 \"B.BR\"\nsample 1 6 0\ntime 3ms\n\
                name \"F\"\nend\nsample 7 8 0\ntime 1ms\n";
    let mut bytes = compile(desc).expect("description compiles");
    bytes.extend_from_slice(&[5, 0, 1]); // a backtrace cut off by the end
    let load = |chunk_bytes| crate::testing::load_chunked("br", &bytes, chunk_bytes);
    let one = load(None);
    assert_eq!(warnings(&one).len(), 8, "{:?}", warnings(&one));
    for size in [1, 20, 40] {
        let many = load(Some(size));
        assert_eq!(warnings(&many), warnings(&one), "chunks of {size}");
        assert_eq!(
            profx_analysis::report::json::render(&many),
            profx_analysis::report::json::render(&one),
            "chunks of {size}"
        );
    }
}

/// Where the careful reading ahead, record by record with `measure`, gets
/// from `pos` over the records `skip` may skip.
fn skipped_by_measure(bytes: &[u8], mut pos: usize, pause_at: usize) -> (usize, bool) {
    let mut timed = false;
    while pos < bytes.len().saturating_sub(257) {
        let kind = bytes[pos];
        if (kind == 3 && pos >= pause_at) || !matches!(kind, 3..=9) {
            break;
        }
        let Ok((kind, len)) = measure(&bytes[pos..]) else {
            break;
        };
        timed |= kind == 4;
        pos += len;
    }
    (pos, timed)
}

proptest::proptest! {
    /// On logs of every record type, names up to 255 bytes, unknown types
    /// and any place to pause, reading ahead's tight loop stops where
    /// reading record by record with `measure` does, and sees the same
    /// time records.
    #[test]
    fn reading_ahead_skips_what_measure_reads(
        records in proptest::collection::vec((0u8..12, 0u8..=255, 0u16..300), 1..120),
        pause_at in 0usize..3000,
    ) {
        let mut bytes = Vec::new();
        for (kind, n, module) in records {
            bytes.push(kind);
            match kind {
                1 => {
                    bytes.extend_from_slice(&module.to_be_bytes());
                    bytes.extend_from_slice(&u16::from(n % 8).to_be_bytes());
                    bytes.extend(std::iter::repeat_n(b'M', usize::from(n % 8)));
                }
                3 | 5 => bytes.extend_from_slice(&[0, 1, 0, 0, 0, n, 0]),
                4 => bytes.extend_from_slice(&[0, 0, 0, 0, 0, 0, 1, n]),
                7 => {
                    bytes.push(n);
                    bytes.extend(std::iter::repeat_n(b'F', usize::from(n)));
                }
                _ => {}
            }
        }
        for pos in [0, 1, bytes.len() / 2] {
            let mut timed = false;
            let skipped = skip(&bytes, pos, pause_at, &mut timed);
            proptest::prop_assert_eq!((skipped, timed), skipped_by_measure(&bytes, pos, pause_at));
        }
    }
}

/// A log of `records`, each (kind, value): whole samples, and records
/// one by one: samples, backtraces and times whose numbers hold the bytes
/// 06 03 that begin a guessed chunk, names that hold them too, mappings,
/// and damage (unknown types, stray bytes).
fn log_of(records: &[(u8, u32)]) -> Vec<u8> {
    let mut bytes = Vec::new();
    for &(kind, v) in records {
        let tricky = [v, 0x0603, 0x0006_0300, 0x0306_0306][(v % 4) as usize];
        if kind > 10 {
            let sample = [(1, v), (3, v >> 1), (5, v), (2, v >> 2), (9, 0), (6, 0)];
            bytes.extend(log_of(&sample[usize::from(kind % 2)..]));
            continue;
        }
        match kind {
            0 => bytes.extend_from_slice(&[1, 0, (v % 3) as u8, 0, 4, b'A', 6, 3, b'R']),
            1 | 2 => {
                bytes.push(if kind == 1 { 3 } else { 5 });
                bytes.extend_from_slice(&((v % 4) as u16).to_be_bytes());
                bytes.extend_from_slice(&tricky.to_be_bytes());
                bytes.push((v % 3) as u8);
            }
            3 => {
                bytes.push(4);
                bytes.extend_from_slice(&u64::from(tricky).to_be_bytes());
            }
            4 => bytes.extend_from_slice(&[7, 3, 6, 3, b'F']),
            5 => bytes.extend_from_slice(&[7, 2, b'G', (v % 256) as u8]),
            6 | 7 => bytes.push(6),
            8 => bytes.push(8),
            9 => bytes.push(9),
            _ => bytes.push((v % 256) as u8),
        }
    }
    bytes
}

/// The load of `bytes`, or its error, as text to compare: its `--json`
/// and its names (what a wrong guess read never becomes a name). Their
/// ids' order is not compared: a batch's new names are interned before
/// its module mappings, so it follows where the chunks begin.
fn loaded(bytes: &[u8], chunk_bytes: Option<usize>) -> Result<String, String> {
    let opts = LoadOptions {
        format: Some("br".into()),
        chunk_bytes,
        ..Default::default()
    };
    let input = Input::owned("chunked", bytes.to_vec());
    load_inputs(&[input], &opts)
        .map(|p| {
            let mut names: Vec<&str> = (0..p.name_count())
                .map(|i| p.name(profx_model::NameId::from_index(i)))
                .collect();
            names.sort_unstable();
            format!("{} {names:?}", profx_analysis::report::json::render(&p))
        })
        .map_err(|e| e.to_string())
}

/// Logs for the proptests below: records of every type, damaged.
fn records() -> impl proptest::strategy::Strategy<Value = Vec<(u8, u32)>> {
    proptest::collection::vec((0u8..24, proptest::prelude::any::<u32>()), 1..160)
}

proptest::proptest! {
    /// Chunks that begin at a guess (right or wrong, on damaged logs too)
    /// give the profile, warnings and errors of reading in one piece.
    #[test]
    fn guessed_chunks_load_as_one_piece(records in records(), size in 1usize..48) {
        let bytes = log_of(&records);
        proptest::prop_assert_eq!(loaded(&bytes, Some(size)), loaded(&bytes, None));
    }

    /// Reading a sample in one go decodes what reading it record by record
    /// does, chunk after chunk: the same ops, frames, numbers and span, on
    /// damaged logs and samples cut by the file's end too.
    #[test]
    fn whole_samples_decode_as_record_by_record(records in records(), size in 1usize..96) {
        let bytes = log_of(&records);
        let shared = Shared { bytes: &bytes, size };
        let mut whole = Decoder::new(shared, Default::default());
        let mut each = Decoder::record_by_record(shared, Default::default());
        for k in 0..bytes.len().div_ceil(size) {
            let range = k * size..bytes.len().min((k + 1) * size);
            let a = whole.chunk(range.clone(), Batch::default());
            let b = each.chunk(range, Batch::default());
            proptest::prop_assert_eq!(with_frames(&bytes, &a), with_frames(&bytes, &b));
        }
    }
}

/// A batch as reading record by record makes it: a sample read whole
/// keeps no frames (its `raw` is empty), so they are read again here.
fn with_frames<'a>(bytes: &'a [u8], batch: &Batch<'a>) -> String {
    let mut ops = Vec::new();
    for op in &batch.ops {
        let mut op = op.clone();
        let (mut frames, mut numbers) = (Vec::new(), Vec::new());
        if let Op::Sample {
            offset,
            funcs,
            raw,
            len,
            ..
        } = &mut op
        {
            let decode::Sent::Numbers(raw_frames, funcs_of) = batch.sample(*funcs, *raw, *len)
            else {
                panic!("a worker given no ids sends none");
            };
            (frames, numbers) = (raw_frames.to_vec(), funcs_of.to_vec());
            if *raw == decode::NO_RAW {
                assert!(reread(bytes, *offset as usize, &mut frames), "at {offset}");
            }
            // Where they stand in the batch differs between the readings.
            (*funcs, *raw) = (0, 0);
        }
        ops.push(format!("{op:?} {numbers:?} {frames:?}"));
    }
    let news = (&batch.new_names, &batch.new_funcs, &batch.new_lines);
    format!(
        "{ops:?} {news:?} {:?} {} {}",
        batch.span, batch.last, batch.timed
    )
}

/// A batch holds an op a sample: `Op::Sample` keeps places, not ranges,
/// to stay at 48 bytes (with two ranges it took 64).
#[test]
fn an_op_takes_48_bytes() {
    assert_eq!(size_of::<Op<'_>>(), 48);
}

/// A worker given the builder's ids of its functions sends a whole sample
/// as those ids, root first, with the hash the builder would make of
/// them; a sample with a function it has no id for stays numbers.
#[test]
fn a_worker_sends_a_sample_as_the_ids_it_was_given() {
    let desc = "sample 1 1 0\nname \"A\"\nback 1 2 0\nname \"B\"\nend\n\
                sample 1 3 0\nname \"C\"\nend\n";
    let log = compile(desc).unwrap();
    let shared = Shared {
        bytes: &log,
        size: log.len(),
    };
    // The worker numbers A, B, C as 0, 1, 2, in the order it meets them.
    let given: Arc<Mutex<Given>> = Arc::default();
    given.lock().unwrap().give(0, FuncId::from_raw(7));
    given.lock().unwrap().give(1, FuncId::from_raw(3));
    let batch = Decoder::new(shared, given).chunk(0..log.len(), Batch::default());
    let places: Vec<_> = batch.ops.iter().filter_map(places).collect();
    let root_first = [FuncId::from_raw(3), FuncId::from_raw(7)];
    let hash = ProfileBuilder::stack_hash(&root_first);
    assert_eq!(places[0], (0, decode::IDS, 2, hash));
    assert_eq!(batch.ids, root_first);
    let (funcs, raw, len, _) = places[0];
    let sent = batch.sample(funcs, raw, len);
    assert!(matches!(sent, Sent::Ids(ids) if ids == root_first));
    let (funcs, raw, len, _) = places[1];
    let sent = batch.sample(funcs, raw, len);
    assert!(matches!(sent, Sent::Numbers([], [2])));
    assert_eq!(places[1], (0, decode::NO_RAW, 1, 0), "C has no id");
    assert_eq!(
        batch.funcs,
        [2],
        "only the numbers of a sample sent as such"
    );
}

/// A sample op's places in its batch and its hash.
fn places(op: &Op<'_>) -> Option<(usize, usize, u32, u32)> {
    let &Op::Sample {
        funcs,
        raw,
        len,
        hash,
        ..
    } = op
    else {
        return None;
    };
    Some((funcs, raw, len, hash))
}
