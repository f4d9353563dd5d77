//! Running the real `profx` binary from integration tests.

#![allow(dead_code)] // each test file uses a different part of this helper

use std::process::{Command, Output};

/// Runs `profx ARGS` in the crate root, so fixture paths (and the
/// `sources` they show up as) are the same on every machine.
pub fn profx(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_profx"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .expect("the profx binary runs")
}

/// One test's folder under the target directory, removed when dropped, a
/// failing test's too: a run leaves none of its files (some are tens of
/// megabytes), and tests running side by side never share one.
pub struct Scratch(tempfile::TempDir);

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        self.0.path()
    }
}

impl AsRef<std::path::Path> for Scratch {
    fn as_ref(&self) -> &std::path::Path {
        self.0.path()
    }
}

/// A fresh `Scratch` named after the test file (`group`) and the test.
pub fn scratch(group: &str, test: &str) -> Scratch {
    let dir = tempfile::Builder::new()
        .prefix(&format!("{group}-{test}-"))
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .expect("a scratch folder");
    Scratch(dir)
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `profx report FILE --json` parsed, asserting it exits 0.
pub fn report_json(path: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["report", path, "--json"];
    args.extend_from_slice(extra);
    let o = profx(&args);
    assert_eq!(o.status.code(), Some(0), "{path}: {}", stderr(&o));
    serde_json::from_slice(&o.stdout).expect("valid JSON")
}

/// Path of a real file written by the real tools, copied into the
/// repository with its source and licence (`tests/fixtures/real/SOURCES.md`).
pub fn real_file(rel: &str) -> String {
    format!("{}/tests/fixtures/real/{rel}", env!("CARGO_MANIFEST_DIR"))
}

/// Asserts a report's warnings are exactly `expected`, in order, as
/// (`where`, `kind`): which problems were found where. Their messages are
/// pinned by the `--json` snapshots.
pub fn assert_warnings(name: &str, report: &serde_json::Value, expected: &[(&str, &str)]) {
    let got: Vec<(&str, &str, &str)> = report["warnings"]
        .as_array()
        .expect("warnings is an array")
        .iter()
        .map(|w| {
            let s = |k: &str| w[k].as_str().unwrap();
            (s("where"), s("kind"), s("message"))
        })
        .collect();
    let places_and_kinds: Vec<(&str, &str)> = got.iter().map(|&(p, k, _)| (p, k)).collect();
    assert_eq!(places_and_kinds, expected, "{name}: {got:?}");
}

/// `profx report FILE --view V`, run in `dir`, prints for the functions,
/// lines and stacks views what the same table of FILE loaded with every
/// stack prints: the first two views load without stacks
/// (`KeepStacks::Skipped`), the third with them.
pub fn tables_match_a_load_with_stacks(dir: &std::path::Path, file: &str) {
    use profx::analysis::view::Table;
    use profx::report::table::{TableOptions, render};
    let path = dir.join(file).to_string_lossy().into_owned();
    let kept = profx::load::load_paths(&[path], &profx::load::LoadOptions::default())
        .expect("the file loads");
    for (table, arg) in [
        (Table::Functions, "functions"),
        (Table::Lines, "lines"),
        (Table::Stacks, "stacks"),
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_profx"))
            .args(["report", file, "--view", arg])
            .current_dir(dir)
            .output()
            .expect("the profx binary runs");
        assert_eq!(o.status.code(), Some(0), "{file}: {}", stderr(&o));
        let want = render(&kept, table, &TableOptions::default()).expect("a known table");
        assert_eq!(stdout(&o), want, "{file} --view {arg}");
    }
    assert!(!kept.stacks().is_empty(), "{file} has stacks");
}

/// Each stack of a report, root first, as (name, module) pairs.
pub fn stack_frames(report: &serde_json::Value) -> Vec<Vec<(String, String)>> {
    let text = |v: &serde_json::Value| v.as_str().expect("a string").to_string();
    report["stacks"]
        .as_array()
        .expect("stacks is an array")
        .iter()
        .map(|s| {
            s["frames"]
                .as_array()
                .expect("frames is an array")
                .iter()
                .map(|f| (text(&f["name"]), text(&f["module"])))
                .collect()
        })
        .collect()
}

/// The function of a report with this name (and module, when given).
pub fn function<'r>(
    report: &'r serde_json::Value,
    name: &str,
    module: Option<&str>,
) -> &'r serde_json::Value {
    report["functions"]
        .as_array()
        .expect("functions is an array")
        .iter()
        .find(|f| f["name"] == name && module.is_none_or(|m| f["module"] == m))
        .unwrap_or_else(|| panic!("no function {name} ({module:?})"))
}

/// Writes a generated DELDBE trace of about `bytes` bytes and `names`
/// functions (`fixture_gen::large`, the current shape) at `path`.
pub fn generated_trace(path: &std::path::Path, bytes: u64, names: u32) {
    use profx::fixture_gen::large::{Format, Spec, write};
    let spec = Spec {
        kind: Format::Deldbe,
        bytes,
        names,
        shape: Default::default(),
    };
    let file = std::fs::File::create(path).expect("a scratch file");
    write(spec, std::io::BufWriter::new(file)).expect("generates");
}
