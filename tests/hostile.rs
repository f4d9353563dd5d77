//! Hostile and broken input through the real binary (issue 8): a warning
//! budget for files made of bad records, resource limits on lengths and
//! counts a header or a line claims, terminal safety of every report, and
//! inputs left exactly as they were.

mod common;

use common::{profx, stderr, stdout};
use std::path::Path;

fn scratch(test: &str) -> common::Scratch {
    common::scratch("hostile", test)
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("writes a test input");
    path.to_string_lossy().into_owned()
}

fn json(o: &std::process::Output) -> serde_json::Value {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
    serde_json::from_slice(&o.stdout).expect("valid JSON")
}

fn messages(report: &serde_json::Value) -> Vec<(String, String)> {
    report["warnings"]
        .as_array()
        .expect("warnings is an array")
        .iter()
        .map(|w| {
            let s = |k: &str| w[k].as_str().unwrap_or_default().to_string();
            (s("where"), s("message"))
        })
        .collect()
}

// ---- the warning budget ---------------------------------------------------

#[test]
fn a_million_bad_trace_lines_give_a_thousand_warnings_and_a_count() {
    let dir = scratch("million-deldbe");
    let mut text = b"1,0.000,\"i\",\"MAIN\",1\n".to_vec();
    for i in 0..1_000_000u32 {
        // Two kinds of damage, alternating.
        text.extend_from_slice(if i % 2 == 0 {
            b"1,x\n"
        } else {
            b"1,abc,\"i\",\"B\",3\n"
        });
    }
    text.extend_from_slice(b"1,1.000,\"o\",\"MAIN\",0\n");
    let path = write(&dir, "bad.prf", &text);
    let r = json(&profx(&["report", &path, "--json", "--format", "xpp"]));
    let w = messages(&r);
    assert!(w.len() <= 1000 + 2, "{} warnings", w.len());
    assert_eq!(w[0].0, "line 2");
    assert_eq!(w[999].0, "line 1001");
    let summaries = &w[1000..];
    assert_eq!(summaries.len(), 2, "{summaries:?}");
    let counted: u64 = summaries
        .iter()
        .map(|(_, m)| {
            m.split(' ')
                .next()
                .and_then(|n| n.parse::<u64>().ok())
                .unwrap_or(0)
        })
        .sum();
    assert_eq!(counted, 1_000_000 - 1000, "{summaries:?}");
    assert_eq!(summaries[0].0, "line 1002");
    // One summary a kind, whatever the records' own words.
    let kinds: Vec<&str> = r["warnings"].as_array().unwrap()[1000..]
        .iter()
        .map(|w| w["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["missing_field", "not_a_number"]);
    assert!(summaries[0].1.contains("to line 1000000"), "{summaries:?}");
    assert!(summaries[1].1.contains("to line 1000001"), "{summaries:?}");
    assert_eq!(r["totals"]["functions"], 1, "the good records still load");
}

#[test]
fn a_million_unknown_plist_tags_are_counted_not_listed() {
    let dir = scratch("million-plist");
    let mut text = b"1\t522\tFunction timing\n6\tt.exe\tt.obj\t1\t1.0\t1.0\tmain\n".to_vec();
    for _ in 0..1_000_000u32 {
        text.extend_from_slice(b"42\tjunk\n");
    }
    let path = write(&dir, "bad.txt", &text);
    let r = json(&profx(&["report", &path, "--json"]));
    let w = messages(&r);
    assert_eq!(w.len(), 1001, "{:?}", &w[w.len().saturating_sub(2)..]);
    assert!(
        w[1000]
            .1
            .starts_with("999000 more warnings of this kind, from line 1003 to line 1000002"),
        "{:?}",
        w[1000]
    );
    assert!(w[1000].1.ends_with("unknown format tag 42; record skipped"));
    assert_eq!(r["warnings"][1000]["kind"], "unknown_record_type");
}

#[test]
fn strict_stops_on_the_first_warning_with_its_place() {
    let dir = scratch("strict");
    let path = write(
        &dir,
        "t.prf",
        b"1,0,\"i\",\"A\",1\n1,x\n1,2,\"o\",\"A\",0\n",
    );
    let o = profx(&["report", &path, "--json", "--strict"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    let err = stderr(&o);
    assert!(err.contains("t.prf") && err.contains("line 2"), "{err}");
}

// ---- resource limits -------------------------------------------------------

/// A DBF trace with the given header record count, record length and
/// records (fields THREAD N 2, CALL C 8, OP C 1).
fn dbf(count: u32, record_len: u16, records: &[&str]) -> Vec<u8> {
    let fields: [(&[u8], u8, u8); 3] = [(b"THREAD", b'N', 2), (b"CALL", b'C', 8), (b"OP", b'C', 1)];
    let header_len = 32 + 32 * fields.len() as u16 + 1;
    let mut out = vec![0x03, 124, 1, 1];
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&header_len.to_le_bytes());
    out.extend_from_slice(&record_len.to_le_bytes());
    out.resize(32, 0);
    for (name, kind, len) in fields {
        let mut d = [0u8; 32];
        d[..name.len()].copy_from_slice(name);
        d[11] = kind;
        d[16] = len;
        out.extend_from_slice(&d);
    }
    out.push(0x0D);
    for r in records {
        out.push(b' ');
        out.extend_from_slice(r.as_bytes());
    }
    out.push(0x1A);
    out
}

#[test]
fn a_dbf_header_claiming_four_billion_records_reads_what_is_there() {
    let dir = scratch("dbf-count");
    let bytes = dbf(u32::MAX, 12, &[" 1MAIN    i", " 1MAIN    o"]);
    let path = write(&dir, "t.prf", &bytes);
    let r = json(&profx(&["report", &path, "--json"]));
    assert_eq!(r["totals"]["events"], 2);
    let w = messages(&r);
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(w[0].0, "offset 4");
    assert!(
        w[0].1
            .contains("header says 4294967295 records, 2 are present"),
        "{w:?}"
    );
}

#[test]
fn a_dbf_header_claiming_a_64_kb_record_is_refused_with_the_reason() {
    let dir = scratch("dbf-record");
    let bytes = dbf(2, u16::MAX, &[" 1MAIN    i", " 1MAIN    o"]);
    let path = write(&dir, "t.prf", &bytes);
    let o = profx(&["report", &path, "--json", "--format", "xpp"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(
        err.contains("t.prf") && err.contains("record length 65535"),
        "{err}"
    );
}

#[test]
fn a_br_name_longer_than_the_file_is_a_cut_record() {
    let dir = scratch("br-name");
    // Module 2 mapped to a name of 65535 bytes, of which 3 are present.
    let mut bytes = vec![1, 0, 1, 0, 4];
    bytes.extend_from_slice(b"A.BR");
    bytes.extend_from_slice(&[1, 0, 2, 255, 255, b'B', b'.', b'B']);
    let path = write(&dir, "t.prof", &bytes);
    let r = json(&profx(&["report", &path, "--json", "--format", "br"]));
    let w = messages(&r);
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(w[0].0, "offset 9");
    assert!(w[0].1.contains("cut off by the end of the file"), "{w:?}");
}

#[test]
fn a_trace_line_of_100_mb_is_skipped_without_holding_it() {
    let dir = scratch("long-line");
    let mut text = b"1,0.000,\"i\",\"MAIN\",1\n1,0.002,\"i\",\"".to_vec();
    text.resize(text.len() + (100 << 20), b'A');
    text.extend_from_slice(b"\",2\n1,0.004,\"o\",\"MAIN\",0\n");
    let path = write(&dir, "t.prf", &text);
    let r = json(&profx(&["report", &path, "--json"]));
    let w = messages(&r);
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(w[0].0, "line 2");
    assert!(
        w[0].1.contains("a line of 104857616 bytes is longer than"),
        "{w:?}"
    );
    assert_eq!(r["totals"]["functions"], 1);
}

// ---- terminal safety -------------------------------------------------------

/// Everything a hostile name carries: escape sequences (CSI, OSC with BEL),
/// backspace, carriage return, NUL, DEL, a C1 control, right-to-left and
/// invisible marks, and bytes that are not UTF-8.
const EVIL: &[u8] =
    b"E\x1b[2J\x1b]0;pwned\x07\x08\r\x00\x7f\xc2\x9b\xe2\x80\xae\xe2\x80\x8b\xff\xfeX";

/// Hostile files in every format, each with the evil name as a function
/// (and as a module or file where the format has one), with the format to
/// name: a NUL in the first lines rightly stops detection of a text format.
fn hostile_files(dir: &Path) -> Vec<(String, &'static str)> {
    let with = |template: &[u8]| -> Vec<u8> {
        let mut out = Vec::new();
        for (i, part) in template.split(|&b| b == b'@').enumerate() {
            if i > 0 {
                out.extend_from_slice(EVIL);
            }
            out.extend_from_slice(part);
        }
        out
    };
    let mut br = vec![1, 0, 1, 0, EVIL.len() as u8];
    br.extend_from_slice(EVIL);
    br.extend_from_slice(&[3, 0, 1, 0, 0, 0, 7, 1, 7, EVIL.len() as u8]);
    br.extend_from_slice(EVIL);
    br.extend_from_slice(&[5, 0, 1, 0, 0, 0, 9, 0, 9, 6]);
    let files = vec![
        write(
            dir,
            "evil.txt",
            &with(b"1\t522\tFunction timing\n6\t@\t@\t1\t1.0\t2.0\tmain\n6\tt.exe\tt.obj\t1\t1.0\t1.0\t@\n8\t1\n9\t1\t1\t1.0\t1.0\n10\tmain\n10\t@\n"),
        ),
        write(dir, "evil.prf", &with(b"1,0,\"i\",\"@\",10\n1,1,\"i\",\"MAIN\",11\n1,2,\"o\",\"MAIN\",12\n1,3,\"o\",\"@\",13\n")),
        write(dir, "evil.prof", &br),
        write(
            dir,
            "evil.csv",
            // A CR inside a quoted field reads as a quote run past its
            // line (a skipped row); the second row has every other trick.
            &[
                &with(b"Function Name,Number of Calls,Elapsed Inclusive Time,Elapsed Exclusive Time,Module Name\n\"@\",1,2.0,1.0,\"@\"\n")[..],
                &with(b"\"@\",1,2.0,1.0,\"@\"\n").into_iter().filter(|&b| b != b'\r').collect::<Vec<u8>>(),
            ]
            .concat(),
        ),
    ];
    files
        .into_iter()
        .zip(["plist", "xpp", "br", "vs-csv"])
        .collect()
}

/// Bytes no report may carry to a terminal: C0 controls but the newline,
/// DEL, and the UTF-8 of C1 controls and of bidi and invisible marks.
/// Written out here rather than calling `profx::text::is_unsafe`, so that a
/// character that function forgets is still caught.
fn raw_control(out: &[u8]) -> Option<usize> {
    let text = String::from_utf8_lossy(out);
    text.char_indices()
        .find(|&(_, c)| {
            (c.is_control() && c != '\n')
                || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}')
        })
        .map(|(i, _)| i)
}

#[test]
fn no_report_of_a_hostile_file_carries_a_raw_control() {
    let dir = scratch("terminal");
    for (path, format) in hostile_files(&dir) {
        let mut runs: Vec<Vec<&str>> = ["functions", "lines", "stacks", "packets", "info"]
            .iter()
            .map(|v| vec!["report", &path, "--format", format, "--table", "--view", v])
            .collect();
        runs.push(vec!["report", &path, "--format", format, "--json"]);
        let mut shown = false;
        for args in runs {
            let o = profx(&args);
            assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
            for (stream, bytes) in [("stdout", &o.stdout), ("stderr", &o.stderr)] {
                if let Some(at) = raw_control(bytes) {
                    let text = String::from_utf8_lossy(bytes);
                    panic!(
                        "{args:?} {stream} has a raw control at {at}: {:?}",
                        &text[at.saturating_sub(40)..]
                    );
                }
            }
            shown |= stdout(&o).contains("E\\x1b[2J\\x1b]0;pwned\\x07");
        }
        assert!(shown, "{path}: the name is shown escaped somewhere");
    }
}

#[test]
fn errors_about_a_hostile_file_name_are_escaped_too() {
    let dir = scratch("terminal-name");
    let name = "bad\u{1b}]0;pwned\u{7}.prf";
    let path = write(&dir, name, b"\x00\x01\x02 not a profile");
    let o = profx(&["report", &path, "--json"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(raw_control(&o.stderr).is_none(), "{:?}", stderr(&o));
    assert!(
        stderr(&o).contains("bad\\x1b]0;pwned\\x07.prf"),
        "{}",
        stderr(&o)
    );
}

// ---- inputs are left alone -------------------------------------------------

#[test]
fn inputs_keep_their_bytes_and_modification_time() {
    let dir = scratch("read-only");
    let mut files: Vec<String> = hostile_files(&dir).into_iter().map(|(f, _)| f).collect();
    files.push(write(&dir, "cut.prf", b"1,0,\"i\",\"A\",1\n1,1,\"i\""));
    for path in files {
        let before = (
            std::fs::read(&path).ok(),
            std::fs::metadata(&path).and_then(|m| m.modified()).ok(),
        );
        for args in [
            vec!["report", &path, "--json"],
            vec!["report", &path, "--table", "--view", "stacks"],
            vec!["report", &path, "--json", "--strict"],
        ] {
            let _ = profx(&args);
        }
        let after = (
            std::fs::read(&path).ok(),
            std::fs::metadata(&path).and_then(|m| m.modified()).ok(),
        );
        assert!(before.0.is_some() && before.1.is_some(), "{path}");
        assert_eq!(before, after, "{path} changed");
    }
}
