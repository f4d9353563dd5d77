//! Issue 68: a trace followed while it is written gives, once the writer
//! stops, exactly what a fresh load of the final files gives; a partial
//! record waits; packets may come out of order or go away after they were
//! read; a DBF header packet is rewritten as records come.

mod common;

use profx::fixture_gen::large::{Format, Shape, Spec, bytes};
use profx::load::follow::{Follower, OPEN_CALLS, Readiness};
use profx::load::{LoadOptions, load_paths};
use profx::model::{MetaValue, Profile, WarningKind};
use std::path::Path;

/// A small generated trace of `kind` (the generator keeps 4 KiB for
/// closing the calls it left open).
fn trace(kind: Format, size: u64) -> Vec<u8> {
    bytes(Spec {
        kind,
        bytes: size,
        names: 12,
        shape: Shape::Current,
    })
}

/// The whole `--json` of a profile, and its events' streams.
fn json(p: &Profile) -> String {
    profx::report::json::render(p)
}

fn fresh(path: &Path) -> String {
    let p = load_paths(
        &[path.to_string_lossy().into_owned()],
        &LoadOptions::default(),
    );
    json(&p.expect("the final files load"))
}

fn append(path: &Path, bytes: &[u8]) {
    profx::fixture_gen::append(path, bytes).expect("written");
}

fn follower(path: &Path) -> Follower {
    Follower::new(&path.to_string_lossy(), &LoadOptions::default()).expect("followed")
}

/// Written in two pieces cut at every byte, DELDBE and DBF alike, the
/// followed trace ends as the whole file loads; the live profile in
/// between never panics and never warns about the cut record.
#[test]
fn appending_at_every_byte_boundary_gives_the_whole_files_model() {
    for kind in [Format::Deldbe, Format::Dbf] {
        let whole = trace(kind, 4700);
        let dir = common::scratch("follow", "every-byte");
        let path = dir.join("T.PRF");
        std::fs::write(&path, &whole).expect("written");
        let want = fresh(&path);
        for cut in 1..whole.len() {
            std::fs::write(&path, &whole[..cut]).expect("written");
            let mut f = follower(&path);
            f.poll().expect("read");
            if f.readiness().expect("a trace") == Readiness::Ready
                && let Ok(live) = f.profile()
            {
                let cut_warned = live.warnings().iter().any(|w| {
                    matches!(
                        w.kind,
                        WarningKind::TruncatedRecord
                            | WarningKind::Unclosed
                            | WarningKind::CountMismatch
                    )
                });
                assert!(!cut_warned, "{kind:?} cut at {cut}: {:?}", live.warnings());
            }
            append(&path, &whole[cut..]);
            f.poll().expect("read");
            let got = json(&f.finish().expect("the whole trace loads"));
            assert!(
                got == want,
                "{kind:?} cut at {cut}: not the whole file's model"
            );
        }
    }
}

/// A live profile counts the calls still open (their time so far), where
/// the final one closes them with a warning.
#[test]
fn calls_still_open_are_counted_while_live_and_warned_about_at_the_end() {
    let dir = common::scratch("follow", "open");
    let path = dir.join("open.prf");
    std::fs::copy("tests/fixtures/xpp/open-calls.prf", &path).expect("copied");
    let mut f = follower(&path);
    f.poll().expect("read");
    let live = f.profile().expect("live");
    assert_eq!(live.meta.get(OPEN_CALLS), Some(&MetaValue::Int(3)));
    assert!(
        live.warnings()
            .iter()
            .all(|w| w.kind != WarningKind::Unclosed)
    );
    let done = f.finish().expect("final");
    assert!(
        done.warnings()
            .iter()
            .any(|w| w.kind == WarningKind::Unclosed)
    );
    assert_eq!(json(&done), fresh(&path));
}

/// Packets appear out of order and with a gap; one is moved away after it
/// was read: the followed trace keeps its numbers.
#[test]
fn packets_out_of_order_and_moved_away_keep_their_numbers() {
    let dir = common::scratch("follow", "packets");
    let from = Path::new("tests/fixtures/xpp/packeted-deldbe");
    let copy = |name: &str| std::fs::copy(from.join(name), dir.join(name)).expect("copied");
    let path = dir.join("D.PRF");
    copy("D.PRF");
    let mut f = follower(&path);
    f.poll().expect("read");
    copy("D.PRF.000003");
    f.poll().expect("read");
    copy("D.PRF.000001");
    f.poll().expect("read");
    assert_eq!(f.pieces(), 3);
    let want = fresh(&path);
    assert!(want.contains("D.PRF.000002"), "the gap is said: {want}");
    assert_eq!(json(&f.finish().expect("final")), want);
    std::fs::remove_file(dir.join("D.PRF.000001")).expect("moved away");
    f.poll().expect("read");
    assert_eq!(json(&f.finish().expect("final")), want, "its numbers kept");
}

/// A DBF header packet whose record count the writer rewrites as records
/// come: no count warning while live, the count compared at the end.
#[test]
fn a_rewritten_dbf_header_is_read_again() {
    let whole = trace(Format::Dbf, 8000);
    let header_len = usize::from(u16::from_le_bytes([whole[8], whole[9]]));
    let record_len = usize::from(u16::from_le_bytes([whole[10], whole[11]]));
    let records = (whole.len() - header_len) / record_len;
    let dir = common::scratch("follow", "dbf-header");
    let path = dir.join("T.PRF");
    let with_count = |n: usize, upto: usize| {
        let mut b = whole[..header_len + upto * record_len].to_vec();
        b[4..8].copy_from_slice(&u32::try_from(n).expect("small").to_le_bytes());
        b
    };
    std::fs::write(&path, with_count(records / 3, records / 3)).expect("written");
    let mut f = follower(&path);
    f.poll().expect("read");
    let live = f.profile().expect("live");
    assert!(
        live.warnings()
            .iter()
            .all(|w| w.kind != WarningKind::CountMismatch)
    );
    // The writer adds records, then rewrites the count in place.
    std::fs::write(&path, with_count(records / 3, records)).expect("written");
    f.poll().expect("read");
    std::fs::write(&path, with_count(records, records)).expect("written");
    f.poll().expect("read");
    std::fs::write(&path, &whole).expect("written");
    f.poll().expect("read");
    assert_eq!(json(&f.finish().expect("final")), fresh(&path));
}

/// `report --follow --until-idle` on a trace no one writes: a live table,
/// then the final report, equal to a plain report's; `--json` prints the
/// final one alone, equal to `report --json`.
#[test]
fn report_follow_until_idle_ends_with_the_final_report() {
    let file = "tests/fixtures/xpp/two-threads.prf";
    let o = common::profx(&["report", file, "--follow", "--until-idle", "0.3"]);
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    let text = common::stdout(&o);
    assert!(text.starts_with("# following "), "{text}");
    let plain = common::stdout(&common::profx(&["report", file]));
    assert!(text.ends_with(&plain), "{text}\n---\n{plain}");
    assert!(text.contains("# final: "), "{text}");
    let o = common::profx(&["report", file, "--follow", "--until-idle", "0.3", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    let want = common::profx(&["report", file, "--json"]);
    assert_eq!(common::stdout(&o), common::stdout(&want));
}

/// `--json --follow` needs `--until-idle`; a profile that cannot grow is
/// refused, naming what can be followed.
#[test]
fn report_follow_refuses_what_it_cannot_follow() {
    let file = "tests/fixtures/xpp/two-threads.prf";
    let o = common::profx(&["report", file, "--follow", "--json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        common::stderr(&o).contains("--until-idle"),
        "{}",
        common::stderr(&o)
    );
    let plist = "tests/fixtures/plist/bad-first-field.txt";
    let o = common::profx(&["report", plist, "--follow", "--until-idle", "5"]);
    assert_eq!(o.status.code(), Some(2));
    let err = common::stderr(&o);
    assert!(
        err.contains("cannot be followed") && err.contains("Xbase++"),
        "{err}"
    );
    let o = common::profx(&["report", plist, "--follow", "--format", "plist"]);
    assert_eq!(o.status.code(), Some(2), "{}", common::stderr(&o));
}

/// The writer script grows a packeted trace, lines and records cut
/// anywhere, while `report --follow --until-idle --json` follows it from
/// before its first file exists: the report is a fresh load's, byte for
/// byte.
#[test]
fn report_follow_of_a_running_writer_equals_a_fresh_load() {
    for format in ["deldbe", "dbf"] {
        let dir = common::scratch("follow", format);
        let path = dir.join("T.PRF");
        let path_s = path.to_string_lossy().into_owned();
        let follower = std::process::Command::new(env!("CARGO_BIN_EXE_profx"))
            .args([
                "report",
                &path_s,
                "--follow",
                "--until-idle",
                "1.5",
                "--json",
            ])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("profx runs");
        let writer = std::process::Command::new("python3")
            .args(["scripts/grow_trace.py", &path_s, "--format", format])
            .args([
                "--events",
                "12000",
                "--packet-every",
                "5000",
                "--flush-every",
                "250",
            ])
            .args(["--cut", "--rate", "20000"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .expect("the writer runs");
        assert!(writer.success());
        let followed = follower.wait_with_output().expect("profx ends");
        assert_eq!(
            followed.status.code(),
            Some(0),
            "{}",
            common::stderr(&followed)
        );
        let fresh = common::profx(&["report", &path_s, "--json"]);
        assert!(
            followed.stdout == fresh.stdout,
            "{format}: the followed report is not a fresh load's"
        );
    }
}

/// A reader that goes away (`profx report T --follow | head -1`) ends
/// following quietly, as it ends any report: exit 0, no panic.
#[test]
fn report_follow_into_a_closed_pipe_ends_quietly() {
    use std::io::Read;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_profx"))
        .args(["report", "tests/fixtures/xpp/two-threads.prf", "--follow"])
        .args(["--until-idle", "3"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("profx runs");
    let mut first = [0u8; 12];
    let mut out = child.stdout.take().expect("its output");
    out.read_exact(&mut first).expect("the live heading");
    assert_eq!(&first, b"# following ");
    drop(out);
    // The file does not grow: the next write is the final report's, at
    // --until-idle, after the first table's last line; either write
    // finds the pipe closed.
    let o = child.wait_with_output().expect("it ends");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// A line the writer had not ended when following stops is read as it
/// stands, with a warning at it saying so; while live it waits, unread.
#[test]
fn a_line_cut_when_following_stops_is_read_with_its_warning() {
    let dir = common::scratch("follow", "cut-line");
    let path = dir.join("C.PRF");
    std::fs::write(&path, "1,10.5,\"i\",\"MAIN\",1\n1,10.7,\"i\",\"FN0").expect("written");
    let mut f = follower(&path);
    f.poll().expect("read");
    let live = f.profile().expect("live");
    assert!(live.warnings().is_empty(), "{:?}", live.warnings());
    let done = f.finish().expect("read whole");
    let cut: Vec<_> = (done.warnings().iter())
        .filter(|w| w.kind == WarningKind::TruncatedRecord)
        .collect();
    assert_eq!(cut.len(), 1, "{:?}", done.warnings());
    assert_eq!(cut[0].place, profx::model::Place::Line(2));
    assert!(
        cut[0].message.contains("still being written"),
        "{}",
        cut[0].message
    );
}

/// A numbered DBF packet followed on its own (records only; its header is
/// its NAME.PRF's) is read as its records come, not waited for as a file
/// too short to recognise, and ends as a load of it alone.
#[test]
fn a_dbf_packet_followed_on_its_own_is_read() {
    let fields =
        "field THREAD N 4\nfield TIME N 12 3\nfield OP C 1\nfield CALL C 20\nfield LINE N 6\n";
    let rows =
        "row 1 1.000 i MAIN 1\nrow 1 2.500 i CALC 7\nrow 1 4.000 o CALC 0\nrow 1 6.000 o MAIN 0\n";
    let dbf = |extra: &str| {
        profx::fixture_gen::dbf::compile(&format!("{fields}{extra}{rows}")).expect("compiles")
    };
    let dir = common::scratch("follow", "dbf-packet");
    std::fs::write(dir.join("P.PRF"), dbf("")).expect("written");
    let packet = dir.join("P.PRF.000001");
    let records = dbf("noheader\nnoeof\n");
    std::fs::write(&packet, &records[..records.len() / 2 + 3]).expect("written");
    let mut f = follower(&packet);
    f.poll().expect("read");
    assert_eq!(f.readiness().expect("a trace"), Readiness::Ready);
    let live = f.profile().expect("live");
    assert!(live.event_count() > 0, "the whole records so far");
    append(&packet, &records[records.len() / 2 + 3..]);
    f.poll().expect("read");
    assert_eq!(json(&f.finish().expect("read whole")), fresh(&packet));
}
