//! Attacks from outside (issue 37), through the real binary: each test is
//! named after the promise it holds. The terminal's side (signals while
//! the app runs, a file truncated under the Trace pane, bursts and pastes)
//! is in `tui_tmux.rs`; `scripts/attack.sh` runs the same list against a
//! release build with memory limits.

mod common;

use common::{profx, stderr, stdout};
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn scratch(test: &str) -> common::Scratch {
    common::scratch("attacks", test)
}

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn mkfifo(path: &Path) {
    profx::sys::fs::make_fifo(path).expect("a FIFO in a test folder");
}

/// A packeted DELDBE trace: `T.PRF` and packets 1 and 2.
fn packeted(dir: &Path) -> PathBuf {
    let base = dir.join("T.PRF");
    std::fs::write(&base, "1,0,\"i\",\"A\",1\n").unwrap();
    std::fs::write(dir.join("T.PRF.000001"), "1,5,\"i\",\"B\",2\n").unwrap();
    std::fs::write(
        dir.join("T.PRF.000002"),
        "1,9,\"o\",\"B\"\n1,12,\"o\",\"A\"\n",
    )
    .unwrap();
    base
}

#[test]
fn export_never_replaces_a_packet_of_the_input() {
    let dir = scratch("packet");
    let base = packeted(&dir);
    let packet = dir.join("T.PRF.000002");
    let before = std::fs::read(&packet).unwrap();
    let o = profx(&[
        "export",
        s(&base),
        "--to",
        "csv",
        "-o",
        s(&packet),
        "--force",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("is the input"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&packet).unwrap(), before);
}

/// A hard link and a symbolic link reach the input by another name, as a
/// bind mount does: the device and inode tell.
#[test]
fn export_never_replaces_the_input_under_another_name() {
    let dir = scratch("other-name");
    let input = dir.join("t.prf");
    std::fs::copy(fixture("xpp/hand-example.prf"), &input).unwrap();
    let before = std::fs::read(&input).unwrap();
    let hard = dir.join("hard.csv");
    std::fs::hard_link(&input, &hard).unwrap();
    let soft = dir.join("soft.csv");
    std::os::unix::fs::symlink(&input, &soft).unwrap();
    for out in [&hard, &soft] {
        let o = profx(&["export", s(&input), "--to", "csv", "-o", s(out), "--force"]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        // Exit 2 is also clap's for any usage error: the message tells.
        let why = format!("{} is the input {}", s(out), s(&input));
        assert!(stderr(&o).contains(&why), "{}", stderr(&o));
        assert_eq!(std::fs::read(&input).unwrap(), before);
    }
}

#[test]
fn export_never_replaces_a_device_or_a_fifo() {
    let dir = scratch("device");
    let fifo = dir.join("fifo");
    mkfifo(&fifo);
    for out in [Path::new("/dev/null"), fifo.as_path()] {
        let o = profx(&[
            "export",
            "--demo",
            "--to",
            "folded",
            "-o",
            s(out),
            "--force",
        ]);
        assert_eq!(o.status.code(), Some(2), "{out:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("replaces only a regular file"));
    }
    assert!(
        std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    // `-` stays the way to stream.
    let o = profx(&["export", "--demo", "--to", "folded", "-o", "-"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(!o.stdout.is_empty());
}

/// A trace big enough that its CSV export takes a while.
fn big_trace(dir: &Path) -> PathBuf {
    let path = dir.join("big.prf");
    common::generated_trace(&path, 48 << 20, 2000);
    path
}

fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with(".profx-export-"))
        .collect()
}

#[test]
fn an_export_ended_by_a_signal_leaves_no_temporary_file() {
    let dir = scratch("signal-export");
    let input = big_trace(&dir);
    for (sig, name) in [
        (libc::SIGTERM, "TERM"),
        (libc::SIGHUP, "HUP"),
        (libc::SIGINT, "INT"),
    ] {
        let out = dir.join(format!("out-{name}.json"));
        let mut child = Command::new(env!("CARGO_BIN_EXE_profx"))
            .args(["export", s(&input), "--to", "chrome", "-o", s(&out)])
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Wait for the temporary to appear: the export is under way.
        let start = Instant::now();
        while temporaries(&dir).is_empty() {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "no temporary appeared"
            );
            if child.try_wait().unwrap().is_some() {
                panic!("the export ended before it could be interrupted");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        profx::sys::signals::send(child.id(), sig).expect("our own child");
        let status = child.wait().unwrap();
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(status.signal(), Some(sig), "{name}: dies of the signal");
        assert!(
            temporaries(&dir).is_empty(),
            "{name}: {:?}",
            temporaries(&dir)
        );
        assert!(!out.exists(), "{name}: no half file");
    }
}

/// `profx FILE > out.txt`: nobody can see the app, so the report table
/// comes instead of escape codes.
#[test]
fn the_app_with_output_redirected_prints_the_report_table() {
    let file = fixture("xpp/hand-example.prf");
    let app = profx(&[s(&file)]);
    assert_eq!(app.status.code(), Some(0), "{}", stderr(&app));
    let report = profx(&["report", s(&file), "--table"]);
    assert_eq!(stdout(&app), stdout(&report));
    assert!(!stdout(&app).contains('\x1b'));
}

#[test]
fn a_fifo_as_input_is_refused_at_once() {
    let dir = scratch("fifo-input");
    let fifo = dir.join("t.prf");
    mkfifo(&fifo);
    let o = profx(&["report", s(&fifo)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("is a FIFO"), "{}", stderr(&o));
}

#[test]
fn a_fifo_among_the_packets_is_named_not_waited_on() {
    let dir = scratch("fifo-packet");
    let base = packeted(&dir);
    std::fs::remove_file(dir.join("T.PRF.000002")).unwrap();
    mkfifo(&dir.join("T.PRF.000002"));
    let o = profx(&["report", s(&base), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let fifo = s(&dir.join("T.PRF.000002")).to_string();
    let named = r["warnings"].as_array().unwrap().iter().any(|w| {
        w["where"] == fifo.as_str()
            && w["message"]
                .as_str()
                .unwrap()
                .contains(&format!("{fifo}: is a FIFO"))
    });
    assert!(named, "{}", r["warnings"]);
}

#[test]
fn a_directory_as_input_says_it_is_one() {
    let o = profx(&["report", env!("CARGO_TARGET_TMPDIR")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("is a directory"), "{}", stderr(&o));
}

/// Two files are a usage error (exit 2) that says what to do, for the
/// report and the app alike, before either is read.
#[test]
fn two_files_are_a_usage_error_that_says_what_to_do() {
    let (a, b) = (
        "tests/fixtures/xpp/two-threads.prf",
        "tests/fixtures/plist/demo-orders.txt",
    );
    for args in [vec!["report", a, b], vec![a, b]] {
        let o = profx(&args);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        let e = stderr(&o);
        assert!(e.contains("one profile at a time (2 files given)"), "{e}");
        assert!(e.contains(&format!("`profx {a}`")), "{e}");
        assert!(!e.contains("loads one file"), "names no format: {e}");
    }
}

#[test]
fn standard_input_is_read_with_a_dash() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_profx"))
        .args(["report", "-", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let bytes = std::fs::read(fixture("xpp/hand-example.prf")).unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(&bytes).unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["totals"]["elapsed_inclusive_ms"], 35.0);
}

/// One stray sibling numbered 999999999 is one warning for a run of
/// missing packets, not a billion names.
#[test]
fn a_far_packet_number_is_one_missing_run() {
    let dir = scratch("far-packet");
    let base = packeted(&dir);
    std::fs::write(dir.join("T.PRF.999999999"), "").unwrap();
    let o = profx(&["report", s(&base), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let missing: Vec<&serde_json::Value> = r["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["message"].as_str().unwrap().contains("missing"))
        .collect();
    assert_eq!(missing.len(), 1, "{missing:?}");
    assert!(
        missing[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("999999996 packets missing, up to T.PRF.999999998")
    );
}

/// More packets than the kernel allows memory maps (about 65,530).
#[test]
fn any_number_of_packets_loads() {
    let dir = scratch("many-packets");
    let base = dir.join("M.PRF");
    std::fs::write(&base, "1,0,\"i\",\"MAIN\",1\n").unwrap();
    let n = 66_000;
    for i in 1..=n {
        let op = if i % 2 == 1 { "i" } else { "o" };
        std::fs::write(
            dir.join(format!("M.PRF.{i:06}")),
            format!("1,{i},\"{op}\",\"F\",2\n"),
        )
        .unwrap();
    }
    let o = profx(&["report", s(&base), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["totals"]["packets"], n + 1);
}

#[test]
fn a_file_name_that_is_not_utf8_is_opened() {
    use std::os::unix::ffi::OsStrExt;
    let dir = scratch("non-utf8");
    let name = std::ffi::OsStr::from_bytes(b"t\xff.prf");
    let path = dir.join(name);
    std::fs::copy(fixture("xpp/hand-example.prf"), &path).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_profx"))
        .arg("report")
        .arg(&path)
        .arg("--json")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["totals"]["elapsed_inclusive_ms"], 35.0);
}

/// Names that hold invisible characters never reach the terminal raw:
/// every format and separator character, and letters that draw nothing.
#[test]
fn invisible_characters_in_names_are_shown_escaped() {
    let dir = scratch("invisible");
    let path = dir.join("t.prf");
    let names = [
        "A\u{061C}",
        "B\u{2028}",
        "C\u{2029}",
        "D\u{FFF9}",
        "E\u{E0001}\u{E0041}",
        "F\u{00AD}",
        "G\u{180E}",
        "H\u{3164}",
    ];
    let mut text = String::new();
    for (i, n) in names.iter().enumerate() {
        text.push_str(&format!(
            "1,{},\"i\",\"{n}\",1\n1,{},\"o\",\"{n}\"\n",
            2 * i,
            2 * i + 1
        ));
    }
    std::fs::write(&path, text).unwrap();
    // Shown, not dropped: each hidden character spelt out where it stands.
    let shown = [
        "A\\u{61c}",
        "B\\u{2028}",
        "C\\u{2029}",
        "D\\u{fff9}",
        "E\\u{e0001}\\u{e0041}",
        "F\\xad",
        "G\\u{180e}",
        "H\\u{3164}",
    ];
    let table = stdout(&profx(&["report", s(&path)]));
    for name in shown {
        assert!(
            table.lines().any(|l| l.starts_with(&format!("{name} "))),
            "{name} in:\n{table}"
        );
    }
    // --json keeps the real names; JSON's own escapes carry them.
    let json = profx(&["report", s(&path), "--json"]);
    let r: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let mut kept: Vec<&str> = r["functions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    kept.sort_unstable();
    assert_eq!(kept, names);
    for args in [&["report", s(&path)][..], &["report", s(&path), "--json"]] {
        let o = profx(args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let out = stdout(&o);
        let raw: Vec<char> = out
            .chars()
            .filter(|&c| profx::text::is_unsafe(c) && c != '\n')
            .collect();
        assert!(raw.is_empty(), "{args:?}: raw {raw:?}");
    }
}
