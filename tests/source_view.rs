//! `profx report --view source` (issue 67) through the real binary: every
//! format's fixture with its source files (`tests/fixtures/source/`), a
//! renamed tree found through `--source-map`, a CP1252 file, tabs and
//! control characters, a `--source` folder that is not there.

mod common;

use common::{profx, stderr, stdout};
use serde_json::Value;

const DIR: &str = "tests/fixtures/source";

fn json(args: &[&str]) -> Value {
    let mut all = vec!["report"];
    all.extend_from_slice(args);
    all.extend(["--view", "source", "--json"]);
    let o = profx(&all);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    serde_json::from_slice(&o.stdout).expect("valid JSON")
}

/// The file whose `path` ends with `tail`.
fn file<'v>(doc: &'v Value, tail: &str) -> &'v Value {
    doc["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"].as_str().unwrap().ends_with(tail))
        .unwrap_or_else(|| panic!("no file {tail} in {doc:#}"))
}

/// (line, text, hits) of a file's lines.
fn lines(f: &Value) -> Vec<(Option<u64>, Option<String>, Option<u64>)> {
    f["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["line"].as_u64(),
                l["text"].as_str().map(str::to_string),
                l["hits"].as_u64(),
            )
        })
        .collect()
}

fn line(n: u64, text: &str, hits: Option<u64>) -> (Option<u64>, Option<String>, Option<u64>) {
    (Some(n), Some(text.to_string()), hits)
}

#[test]
fn plist_lines_are_found_by_file_name_under_the_profiles_folder() {
    let doc = json(&[&format!("{DIR}/plist/line-counting.txt")]);
    assert_eq!(doc["schema"], 1);
    let f = file(&doc, r"ProfTest.cpp");
    assert!(
        f["found_at"]
            .as_str()
            .unwrap()
            .ends_with("src/ProfTest/ProfTest.cpp")
    );
    assert_eq!(
        lines(f),
        [
            line(2, "#include \"stdafx.h\"", None),
            line(3, "", None),
            line(4, "int Waste(int n) {", None),
            line(5, "  int x = 0;", Some(1)),
            line(6, "  for (int i = 0; i < n; i++)", Some(600)),
            // Listed twice (600 and 4): one line with the sum.
            line(7, "    x += i;", Some(604)),
            line(8, "  return x;", None),
            line(9, "}", None),
            line(10, "", None),
        ]
    );
}

#[test]
fn cp1252_tabs_and_control_characters_are_shown_safely() {
    let doc = json(&[&format!("{DIR}/plist/line-counting.txt")]);
    let got = lines(file(&doc, "MainFrm.cpp"));
    assert_eq!(got[0], line(1, "// MainFrm.cpp: café « CP1252 »", None));
    assert_eq!(
        got[2],
        line(3, "        int a = 1;      // tabbed", Some(3))
    );
    assert_eq!(got[3], line(4, "        Paint(\"\\x1b[2J\");", Some(0)));
}

#[test]
fn a_file_not_found_says_where_it_was_looked_for() {
    let o = profx(&[
        "report",
        &format!("{DIR}/plist/line-counting.txt"),
        "--view",
        "source",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(out.contains("== C:\\code\\ProfTest\\Missing.cpp"), "{out}");
    assert!(
        out.contains("not found: looked in tests/fixtures/source/plist; add a source folder with --source DIR"),
        "{out}"
    );
}

#[test]
fn a_renamed_tree_is_found_through_a_source_map() {
    let profile = format!("{DIR}/renamed/util-lines.txt");
    let doc = json(&[&profile]);
    assert_eq!(file(&doc, "util.c")["found_at"], Value::Null);
    let map = format!(r"--source-map=C:\build\app={DIR}/renamed-tree/app");
    let doc = json(&[&profile, &map]);
    let got = lines(file(&doc, "util.c"));
    assert_eq!(
        got[1],
        line(2, "  int s = n * 2;   /* seven hits */", Some(7))
    );
    assert_eq!(
        got[3],
        line(4, "    s -= 10;        /* three hits */", Some(3))
    );
    // By name under a --source folder too: the longest tail of its path.
    let doc = json(&[&profile, "--source", &format!("{DIR}/renamed-tree")]);
    assert_eq!(lines(file(&doc, "util.c"))[1].2, Some(7));
}

#[test]
fn a_source_folder_that_is_not_there_is_said_on_stderr_only() {
    let o = profx(&[
        "report",
        &format!("{DIR}/renamed/util-lines.txt"),
        "--view",
        "source",
        "--source",
        "no/such/folder",
        "--strict",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("source folder no/such/folder does not exist"));
    let o = profx(&[
        "report",
        &format!("{DIR}/renamed/util-lines.txt"),
        "--json",
        "--source",
        "no/such/folder",
    ]);
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["warnings"], serde_json::json!([]));
}

#[test]
fn a_printed_listing_shows_its_own_text_where_no_file_is_found() {
    let doc = json(&[&format!("{DIR}/listing/listing-line-counting.txt")]);
    let f = file(&doc, "test.c");
    assert_eq!(f["text_from_listing"], true);
    let got = lines(f);
    assert!(
        got.contains(&line(11, "             lX = 57L;", Some(1000))),
        "{got:?}"
    );
    assert!(got.contains(&line(6, "{", Some(1))), "{got:?}");
}

#[test]
fn xbase_lines_are_in_the_prg_declaring_their_caller() {
    let doc = json(&[&format!("{DIR}/xpp/orders-run.prf")]);
    let f = file(&doc, "orders.prg");
    let got = lines(f);
    assert!(
        got.contains(&line(20, "      ReadItem(i)", Some(6))),
        "{got:?}"
    );
    assert!(got.contains(&line(44, "   nPrice := FnPrice( nId )", Some(6))));
    assert!(got.contains(&line(61, "   RETURN Round( nId * 1.19, 2 )", Some(6))));
    let w = file(&doc, "worker.prg");
    assert!(lines(w).contains(&line(70, "   Parse()", Some(3))));
    let notes = w["notes"].to_string();
    assert!(notes.contains("FETCH is declared in two files"), "{notes}");
}

#[test]
fn a_function_narrows_the_view() {
    let doc = json(&[
        &format!("{DIR}/xpp/orders-run.prf"),
        "--function",
        "READITEM",
    ]);
    let files = doc["files"].as_array().unwrap();
    assert_eq!(files.len(), 1);
    let counted: Vec<u64> = lines(&files[0])
        .iter()
        .filter(|l| l.2.is_some())
        .filter_map(|l| l.0)
        .collect();
    assert_eq!(counted, [44]);
}

#[test]
fn a_br_program_is_matched_by_its_line_numbers() {
    let scratch = common::scratch("source_view", "br");
    let desc = std::fs::read_to_string(format!("{DIR}/br/timed.brdesc")).unwrap();
    let bytes = profx::fixture_gen::br::compile(&desc).unwrap();
    let log = scratch.join("timed.prof");
    std::fs::write(&log, bytes).unwrap();
    let doc = json(&[log.to_str().unwrap(), "--source", &format!("{DIR}/br/prog")]);
    let orders = lines(file(&doc, "ORDERS.BR"));
    assert!(
        orders.contains(&line(121, "00121 PRINT TOTAL", Some(1))),
        "{orders:?}"
    );
    let lib = file(&doc, r"FNSLIB.BR");
    assert!(lib["found_at"].as_str().unwrap().ends_with("FNSLIB.BRS"));
    let got = lines(lib);
    assert!(got.contains(&line(13, "00013   FNEND", Some(1))), "{got:?}");
    assert!(
        got.contains(&line(40, "00040   LET FNTAX=X*1.19", Some(1))),
        "{got:?}"
    );
    assert!(got.contains(&(None, Some("! a comment line without a number".into()), None)));
}

#[test]
fn a_vs_report_marks_each_functions_first_line_with_its_totals() {
    let csv = format!("{DIR}/vs/function-summary.csv");
    let doc = json(&[&csv]);
    let f = file(&doc, "main.cpp");
    let got = lines(f);
    assert_eq!(got[2], line(3, "int main() {", Some(10)));
    assert_eq!(got[8], line(9, "int Translate(const char* s) {", Some(8)));
    assert_eq!(f["lines"][2]["function_begins"], "main");
    // Never as Lines; on the function in --json.
    let all = common::report_json(&csv, &[]);
    assert_eq!(all["lines"], serde_json::json!([]));
    let main = &all["functions"][0];
    assert_eq!(main["source_file"], r"D:\work\pig\src\main.cpp");
    assert_eq!(main["source_line"], 3);
    // A query's profile states them as the loaded one did.
    let dropped = common::report_json(&csv, &["--drop", "main"]);
    let translate = &dropped["functions"][0];
    assert_eq!(translate["name"], "Translate");
    assert_eq!(translate["source_file"], r"D:\work\pig\src\main.cpp");
    assert_eq!(translate["source_line"], 9);
}
