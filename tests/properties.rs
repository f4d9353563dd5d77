//! Properties of every loader over generated input (issue 8):
//! - a generated valid file loads without a warning, and its numbers hold
//!   together (exclusive sums within the session, inclusive ≥ exclusive,
//!   stacks of known functions, percents within 0–100);
//! - the same file cut at any byte never panics, every warning's place is
//!   inside what is left, and a cut binary file always says so;
//! - a trace or BR log loaded without its stacks (what a report of
//!   functions or lines asks for) has every other number of one loaded
//!   with them, to the bit, whole or cut anywhere;
//! - flipped bytes never panic (`profx::fuzzing::exercise`, the fuzz
//!   targets' own check, including the reports and every screen);
//! - a format's reference loader (one thread, the general grammar, each
//!   format's rules in one file: `load/<format>/reference.rs`) and its
//!   fast engine give the same `--json`, warnings and errors included, on
//!   generated files, cut anywhere and with bytes flipped.

use profx::fixture_gen::{br, dbf};
use profx::load::{Input, KeepStacks, LoadOptions, load_inputs};
use profx::model::{Place, Profile};
use proptest::prelude::*;

const EPS: f64 = 1e-6;

/// A call tree per thread as a flat list of (thread, op, name index),
/// every call returned; times advance on each event.
fn calls() -> impl Strategy<Value = Vec<(u8, bool, usize)>> {
    prop::collection::vec((1u8..=2, any::<bool>(), 0usize..6), 1..60).prop_map(|steps| {
        let mut stacks: [Vec<usize>; 2] = Default::default();
        let mut out = Vec::new();
        for (thread, call, name) in steps {
            let stack = &mut stacks[usize::from(thread) - 1];
            match stack.pop() {
                Some(top) if !call => out.push((thread, false, top)),
                popped => {
                    stack.extend(popped);
                    stack.push(name);
                    out.push((thread, true, name));
                }
            }
        }
        for (i, stack) in stacks.iter_mut().enumerate() {
            while let Some(top) = stack.pop() {
                out.push((i as u8 + 1, false, top));
            }
        }
        out
    })
}

const NAMES: [&str; 6] = ["MAIN", "CALC", "PRINT", "DB.SEEK", "LOG", "TAX"];

fn deldbe(events: &[(u8, bool, usize)]) -> Vec<u8> {
    let mut out = String::new();
    for (i, &(thread, call, name)) in events.iter().enumerate() {
        let op = if call { "i" } else { "o" };
        let line = if call { 10 + name } else { 0 };
        out += &format!(
            "{thread},{}.{:03},\"{op}\",\"{}\",{line}\n",
            i,
            i % 7,
            NAMES[name]
        );
    }
    out.into_bytes()
}

fn dbf_trace(events: &[(u8, bool, usize)]) -> Vec<u8> {
    let mut desc = String::from(
        "field THREAD N 4\nfield TIME N 12 3\nfield OP C 1\nfield CALL C 20\nfield LINE N 6\n",
    );
    for (i, &(thread, call, name)) in events.iter().enumerate() {
        let op = if call { "i" } else { "o" };
        let line = if call { 10 + name } else { 0 };
        desc += &format!("row {thread} {i}.5 {op} {} {line}\n", NAMES[name]);
    }
    dbf::compile(&desc).expect("the description compiles")
}

/// BR samples: each a leaf and its callers, nearest first.
fn br_log(samples: &[(Vec<usize>, u32, bool)]) -> Vec<u8> {
    br_log_and_ends(samples).0
}

/// The log and where its records end at a sample's end or a module
/// mapping's: a cut there leaves a complete log, which nothing can tell
/// from one that was never longer.
fn br_log_and_ends(samples: &[(Vec<usize>, u32, bool)]) -> (Vec<u8>, Vec<usize>) {
    let mut desc = String::new();
    let mut ends = Vec::new();
    let mut mark = |desc: &str| ends.push(br::compile(desc).expect("compiles").len());
    for module in ["module 1 \"ORDERS.BR\"\n", "module 2 \"LIB\\\\FNS.BR\"\n"] {
        desc += module;
        mark(&desc);
    }
    for (frames, us, timed) in samples {
        desc += &format!("sample 2 {} 0\n", 10 + frames[0]);
        if *timed {
            desc += &format!("time {us}us\n");
        }
        for (depth, &f) in frames.iter().enumerate() {
            if depth > 0 {
                desc += &format!("back 2 {} 0\n", 20 + f);
            }
            desc += &format!("name \"FN{}\"\n", NAMES[f].replace('.', ""));
        }
        desc += "back 1 100 0\nmain\nend\n";
        mark(&desc);
    }
    (br::compile(&desc).expect("the description compiles"), ends)
}

/// A BR log with what `br_log` never writes: a module used before it is
/// mapped (`late`) or never mapped, GOSUB and program frames, a sample
/// without its time or its type 6, records outside any sample, a module
/// mapped again to another file.
fn br_log_rich(samples: &[(Vec<usize>, u32, bool)], late: bool) -> Vec<u8> {
    let mut desc = String::from("module 1 \"ORDERS.BR\"\nend\n");
    for (i, (frames, us, timed)) in samples.iter().enumerate() {
        let module = if frames[0] % 3 == 0 { 3 } else { 2 };
        desc += &format!("sample {module} {} 0\n", 10 + frames[0]);
        if *timed && i % 4 != 1 {
            desc += &format!("time {us}us\n");
        }
        for (depth, &f) in frames.iter().enumerate() {
            if depth > 0 {
                desc += &format!("back 2 {} 0\n", 20 + f);
            }
            match f % 3 {
                0 => desc += &format!("name \"FN{}\"\n", NAMES[f].replace('.', "")),
                1 => desc += "gosub\n",
                _ => {}
            }
        }
        desc += "back 1 100 0\nmain\n";
        if i % 5 != 2 {
            desc += "end\n";
        }
        if i == 0 {
            desc += "module 2 \"LIB\\\\FNS.BR\"\ntime 5us\n";
        }
        if i == 1 {
            desc += "module 1 \"OTHER.BR\"\n";
        }
    }
    if late {
        desc += "module 3 \"LATE.BR\"\n";
    }
    br::compile(&desc).expect("the description compiles")
}

/// `br_log_rich` holds each thing it says it does: a property test of it
/// would otherwise pass on logs that never meet them.
#[test]
fn the_rich_br_log_meets_every_rule() {
    let s = vec![(vec![0, 1, 2], 100, true); 6];
    for late in [true, false] {
        let opts = LoadOptions {
            format: Some("br".into()),
            ..Default::default()
        };
        let input = Input::owned("rich", br_log_rich(&s, late));
        let p = load_inputs(&[input], &opts).expect("loads");
        let warnings: Vec<&str> = p.warnings().iter().map(|w| w.message.as_str()).collect();
        let mut want = vec![
            "mapped again",
            "outside a sample",
            "no time record",
            "not closed before the next sample",
        ];
        if !late {
            want.push("never mapped");
        }
        for w in want {
            assert!(warnings.iter().any(|m| m.contains(w)), "{w}: {warnings:?}");
        }
        let names: Vec<&str> = p.functions().iter().map(|f| p.name(f.name)).collect();
        for n in ["(gosub)", "(main)", "FNMAIN"] {
            assert!(names.contains(&n), "{n}: {names:?}");
        }
        let modules: Vec<&str> = p.functions().iter().map(|f| p.name(f.module)).collect();
        let want = if late { "LATE.BR" } else { "module#3" };
        assert!(modules.contains(&want), "{want}: {modules:?}");
    }
}

fn samples() -> impl Strategy<Value = Vec<(Vec<usize>, u32, bool)>> {
    (
        any::<bool>(),
        prop::collection::vec((prop::collection::vec(0usize..6, 1..5), 1u32..5000), 1..30),
    )
        .prop_map(|(timed, s)| s.into_iter().map(|(f, us)| (f, us, timed)).collect())
}

/// A PLIST function timing: per function calls, self and child time, the
/// session total their sum.
fn plist(funcs: &[(u32, u32, u32)]) -> Vec<u8> {
    let total: f64 = funcs
        .iter()
        .map(|&(_, s, c)| f64::from(s + c) / 1000.0)
        .sum();
    let mut out = format!(
        "0\t1.10\tMicrosoft PLIST\n1\t522\tProfile: Function timing, sorted by function name\n2\t{total:.3}\t0.000\t3\n"
    );
    for (i, &(calls, self_us, child_us)) in funcs.iter().enumerate() {
        let (s, t) = (
            f64::from(self_us) / 1000.0,
            f64::from(self_us + child_us) / 1000.0,
        );
        out += &format!("6\tt.exe\tt.obj\t{calls}\t{s:.3}\t{t:.3}\tf{i}(void)\n");
    }
    out.into_bytes()
}

/// A VS function summary; the session total is the sum of exclusive times,
/// so each inclusive time is kept within it.
fn vs_csv(funcs: &[(u32, u32, u32)]) -> Vec<u8> {
    let total: u32 = funcs.iter().map(|&(_, s, _)| s).sum();
    let mut out = String::from(
        "Function Name,Number of Calls,Elapsed Inclusive Time,Elapsed Exclusive Time,Module Name\n",
    );
    for (i, &(calls, excl, extra)) in funcs.iter().enumerate() {
        let incl = excl + extra % (total - excl + 1);
        out += &format!("\"F{i}()\",{calls},{incl}.00,{excl}.00,\"m.dll\"\n");
    }
    out.into_bytes()
}

fn funcs() -> impl Strategy<Value = Vec<(u32, u32, u32)>> {
    prop::collection::vec((1u32..100, 1u32..10_000, 0u32..10_000), 1..25)
}

/// A PLIST `/T` file using every tag: the session, functions (some listed
/// twice), lines, and stacks whose frames name functions listed before or
/// after, or by a name two functions share, listed root first or leaf
/// first, some short of their declared size; a counting method now and then,
/// lines without TABs, and blank lines.
fn plist_rich(funcs: &[(u32, u32, u32)], spaced: bool, method: u32) -> Vec<u8> {
    let sep = if spaced { "  " } else { "\t" };
    let mut out = format!(
        "0\t1.10\tMicrosoft PLIST\n1\t{method}\tFunction timing\n2\t99.500\t0.250\t4\n3\t7\t5\t4\n\n"
    );
    let name = |i: usize| format!("f{}(int, char *)", i % 7);
    for (i, &(calls, self_us, child_us)) in funcs.iter().enumerate() {
        let (s, t) = (
            f64::from(self_us) / 1000.0,
            f64::from(self_us + child_us) / 1000.0,
        );
        // Two object modules: a name can be two functions.
        let module = if i % 4 == 3 { "u.obj" } else { "t.obj" };
        out += &format!(
            "6{sep}t.exe{sep}{module}{sep}{calls}{sep}{s:.3}{sep}{t:.3}{sep}{}\n",
            name(i)
        );
        out += &format!("7\tt.exe\tt.c\t{}\t{calls}\n", 10 + i % 5);
        let stacks = (calls % 3) as usize;
        out += &format!("8\t{}\n", stacks + usize::from(calls % 5 == 0));
        for k in 0..stacks {
            let size = 1 + (calls as usize + k) % 3;
            out += &format!("9\t{size}\t{}\t{s:.3}\t{:.3}\n", k + 1, t - s);
            let mut frames: Vec<String> = (0..size).map(|j| name(i + j + k + 1)).collect();
            if (calls + k as u32).is_multiple_of(2) {
                frames.insert(0, name(i));
                frames.truncate(size);
            }
            // A stack now and then one frame short of its size.
            let listed = if self_us % 11 == 0 { size - 1 } else { size };
            for f in &frames[..listed] {
                out += &format!("10\t{f}\n");
            }
        }
    }
    out.into_bytes()
}

/// The same `--json` (or the same error) from the reference loader and
/// from the fast engine in chunks of a few lines on every core.
fn same_as_reference(bytes: &[u8], format: &str) -> Result<(), TestCaseError> {
    let run = |reference: bool, chunk_bytes: Option<usize>| {
        let opts = LoadOptions {
            format: Some(format.into()),
            reference,
            chunk_bytes,
            ..Default::default()
        };
        load_inputs(&[Input::owned("generated", bytes.to_vec())], &opts)
            .map(|p| profx::report::json::render(&p))
            .map_err(|e| e.to_string())
    };
    let want = run(true, None);
    for chunk in [None, Some(97)] {
        let got = run(false, chunk);
        if got != want {
            // The first line where the two documents part, not both whole.
            let (g, w) = (format!("{got:?}"), format!("{want:?}"));
            let (g, w) = (g.split("\\n"), w.split("\\n"));
            let at = g.zip(w).find(|(a, b)| a != b);
            let file = String::from_utf8_lossy(bytes);
            return Err(TestCaseError::fail(format!(
                "chunk {chunk:?}: fast and reference differ at {at:?}\n{file}"
            )));
        }
    }
    Ok(())
}

/// `bytes` with each (place, value) of `flips` written in, places taken
/// modulo the length.
fn flipped(bytes: &[u8], flips: &[(usize, u8)]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for &(at, v) in flips {
        let n = out.len();
        out[at % n] = v;
    }
    out
}

fn load(bytes: &[u8], format: &str) -> Result<Profile, String> {
    let opts = LoadOptions {
        format: Some(format.to_string()),
        ..Default::default()
    };
    load_inputs(&[Input::owned("generated", bytes.to_vec())], &opts).map_err(|e| e.to_string())
}

/// The numbers of a clean profile hold together.
fn consistent(p: &Profile) -> Result<(), TestCaseError> {
    let session = p.totals.elapsed_inclusive_ms;
    let mut exclusive_sum = 0.0;
    for (id, f) in p.function_ids().zip(p.functions()) {
        let t = &f.time;
        if let (Some(i), Some(e)) = (t.elapsed_inclusive, t.elapsed_exclusive) {
            prop_assert!(i + EPS >= e, "inclusive {i} < exclusive {e}");
        }
        exclusive_sum += t.elapsed_exclusive.unwrap_or(0.0);
        if let (Some(h), Some(s)) = (f.hits_total, f.hits_self) {
            prop_assert!(h >= s, "hits total {h} < self {s}");
        }
        let pct = p.percents(id);
        for v in [
            pct.elapsed_inclusive,
            pct.elapsed_exclusive,
            pct.hits_self,
            pct.hits_total,
        ]
        .into_iter()
        .flatten()
        {
            prop_assert!((0.0..=100.0 + EPS).contains(&v), "percent {v}");
        }
    }
    if let Some(s) = session {
        prop_assert!(
            exclusive_sum <= s * (1.0 + EPS) + EPS,
            "exclusive sum {exclusive_sum} > session {s}"
        );
    }
    let n = p.functions().len();
    for s in p.stack_ids() {
        prop_assert!(p.frames(s).iter().all(|f| f.index() < n));
    }
    Ok(())
}

/// `bytes` (a trace or log, perhaps cut) loads alike with and without
/// stacks: functions, lines, totals, meta, warnings and the event count
/// equal to the bit (sums of many fractional times, whose order would
/// show in their last bits), and no stack without.
fn same_without_stacks(bytes: &[u8], format: &str) -> Result<(), TestCaseError> {
    let load = |stacks| {
        let opts = LoadOptions {
            format: Some(format.into()),
            stacks,
            ..Default::default()
        };
        load_inputs(&[Input::owned("generated", bytes.to_vec())], &opts)
    };
    let (kept, skipped) = match (load(KeepStacks::Kept), load(KeepStacks::Skipped)) {
        (Ok(k), Ok(s)) => (k, s),
        (Err(k), Err(s)) => {
            prop_assert_eq!(k.to_string(), s.to_string());
            return Ok(());
        }
        (k, s) => return Err(TestCaseError::fail(format!("{k:?} against {s:?}"))),
    };
    prop_assert_eq!(kept.functions(), skipped.functions());
    prop_assert_eq!(kept.lines(), skipped.lines());
    prop_assert_eq!(&kept.totals, &skipped.totals);
    prop_assert_eq!(&kept.meta, &skipped.meta);
    prop_assert_eq!(kept.warnings(), skipped.warnings());
    prop_assert_eq!(kept.event_count(), skipped.event_count());
    prop_assert!(skipped.stacks().is_empty());
    prop_assert_eq!(kept.stacks().is_empty(), kept.functions().is_empty());
    Ok(())
}

fn clean(bytes: &[u8], format: &str) -> Result<(), TestCaseError> {
    let p = load(bytes, format).map_err(TestCaseError::fail)?;
    let w: Vec<_> = p
        .warnings()
        .iter()
        .map(|w| format!("{}: {}", w.place, w.message))
        .collect();
    prop_assert!(w.is_empty(), "{w:?}\n{}", String::from_utf8_lossy(bytes));
    prop_assert!(!p.functions().is_empty());
    consistent(&p)
}

/// The file cut at `at`: no panic, every warning inside what is left; a
/// cut binary file (BR, DBF) that loads always warns, unless the cut falls
/// where a complete file may end (`complete`).
fn cut(
    bytes: &[u8],
    at: usize,
    format: &str,
    binary: bool,
    complete: &[usize],
) -> Result<(), TestCaseError> {
    let at = at % bytes.len();
    let left = &bytes[..at];
    let Ok(p) = load(left, format) else {
        return Ok(());
    };
    let lines = left.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
    for w in p.warnings() {
        match w.place {
            Place::Offset(o) => prop_assert!(o <= at as u64, "{} past {at}", w.place),
            Place::Line(l) => prop_assert!(l <= lines, "{} past line {lines}", w.place),
            Place::File(_) => {}
        }
    }
    if binary && !complete.contains(&at) {
        prop_assert!(
            !p.warnings().is_empty(),
            "a cut at {at} of {} bytes went unsaid",
            bytes.len()
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn deldbe_generated_loads_clean(events in calls()) {
        clean(&deldbe(&events), "xpp")?;
    }

    #[test]
    fn dbf_generated_loads_clean(events in calls()) {
        clean(&dbf_trace(&events), "xpp")?;
    }

    #[test]
    fn br_generated_loads_clean(s in samples()) {
        clean(&br_log(&s), "br")?;
    }

    #[test]
    fn plist_generated_loads_clean(f in funcs()) {
        clean(&plist(&f), "plist")?;
    }

    #[test]
    fn vs_csv_generated_loads_clean(f in funcs()) {
        clean(&vs_csv(&f), "vs-csv")?;
    }

    #[test]
    fn cuts_never_panic_and_warn_inside(
        events in calls(), s in samples(), f in funcs(), at in any::<usize>()
    ) {
        let (br, br_ends) = br_log_and_ends(&s);
        cut(&deldbe(&events), at, "xpp", false, &[])?;
        // A DBF header counts its records: every cut is visible but the
        // one that takes only the end-of-file mark, which is optional.
        let dbf = dbf_trace(&events);
        cut(&dbf, at, "xpp", true, &[dbf.len() - 1])?;
        cut(&br, at, "br", true, &br_ends)?;
        cut(&plist(&f), at, "plist", false, &[])?;
        cut(&vs_csv(&f), at, "vs-csv", false, &[])?;
    }

    #[test]
    fn profiles_without_stacks_keep_every_other_number(
        events in calls(), s in samples(), at in any::<usize>()
    ) {
        for (file, format) in [(deldbe(&events), "xpp"), (dbf_trace(&events), "xpp"), (br_log(&s), "br")] {
            same_without_stacks(&file, format)?;
            same_without_stacks(&file[..at % file.len()], format)?;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn plist_reference_and_fast_agree(
        f in funcs(), spaced in any::<bool>(), counting in any::<bool>(),
        at in any::<usize>(),
        flips in prop::collection::vec((any::<usize>(), any::<u8>()), 1..6)
    ) {
        let method = if counting { 321 } else { 522 };
        let bytes = plist_rich(&f, spaced, method);
        // The whole file loads, with its stacks: the comparison is of
        // something.
        let whole = load(&bytes, "plist").map_err(TestCaseError::fail)?;
        let stacked = f.iter().any(|&(calls, _, _)| calls % 3 != 0);
        prop_assert_eq!(whole.stacks().is_empty(), !stacked);
        same_as_reference(&bytes, "plist")?;
        same_as_reference(&bytes[..at % bytes.len()], "plist")?;
        same_as_reference(&flipped(&bytes, &flips), "plist")?;
        // The small generated file too, as the other properties see it.
        same_as_reference(&plist(&f), "plist")?;
    }
}

/// A DELDBE trace with the parameters column, some empty, some holding
/// commas and quotes, as the Xbase++ profiler writes them, and unfiltered:
/// some calls also have their `I` (entered) and `O` (about to return).
fn deldbe_params(events: &[(u8, bool, usize)]) -> Vec<u8> {
    let mut out = String::new();
    for (i, &(thread, call, name)) in events.iter().enumerate() {
        let ops: &[&str] = match (call, name % 2 == 0) {
            (true, true) => &["i", "I"],
            (true, false) => &["i"],
            (false, true) => &["O", "o"],
            (false, false) => &["o"],
        };
        let line = if call { 10 + name } else { 0 };
        let params = match i % 3 {
            0 => String::new(),
            1 => format!("'A', {i}"),
            _ => "\"\"x\"\", 2".to_string(),
        };
        for (k, op) in ops.iter().enumerate() {
            let name = NAMES[name];
            out += &format!("{thread},{i}.{k}5,\"{op}\",\"{name}\",{line},\"{params}\"\n");
        }
    }
    out.into_bytes()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// The traces' and the BR log's reference loaders and their fast
    /// engines agree, whole, cut anywhere and with bytes flipped.
    #[test]
    fn trace_and_log_reference_and_fast_agree(
        events in calls(), s in samples(), at in any::<usize>(),
        flips in prop::collection::vec((any::<usize>(), any::<u8>()), 1..6)
    ) {
        let files = [
            (deldbe(&events), "xpp"),
            (deldbe_params(&events), "xpp"),
            (dbf_trace(&events), "xpp"),
            (br_log(&s), "br"),
            (br_log_rich(&s, true), "br"),
            (br_log_rich(&s, false), "br"),
        ];
        for (bytes, format) in files {
            same_as_reference(&bytes, format)?;
            same_as_reference(&bytes[..at % bytes.len()], format)?;
            same_as_reference(&flipped(&bytes, &flips), format)?;
        }
    }
}

proptest! {
    // Each case loads twice and draws eight screens: fewer cases.
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn flipped_bytes_never_panic(
        events in calls(), s in samples(), f in funcs(),
        flips in prop::collection::vec((any::<usize>(), any::<u8>()), 1..8)
    ) {
        let files = [
            (deldbe(&events), "xpp"),
            (dbf_trace(&events), "xpp"),
            (br_log(&s), "br"),
            (plist(&f), "plist"),
            (vs_csv(&f), "vs-csv"),
        ];
        for (bytes, format) in files {
            profx::fuzzing::exercise(&flipped(&bytes, &flips), format);
        }
    }
}
