//! `profx export` through the real binary, on every fixture that loads and
//! on the public samples: each export is read back and checked against the
//! numbers of `profx report --json` (the same model code):
//! - folded: the weights add up to the profile's total, and inferno (the
//!   library behind inferno-flamegraph) renders the file;
//! - speedscope: valid against speedscope's published schema; a trace's
//!   evented profiles nest, and replaying them gives back every function's
//!   calls and exclusive time;
//! - chrome: B/E events nest per thread and their count is the calls;
//! - csv: the row count and column totals of each view.

mod common;

use common::{profx, real_file, report_json, stderr};
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

/// Every fixture as a loadable file (BR and DBF descriptions compiled),
/// plus the public Visual Studio samples.
fn inputs() -> Vec<PathBuf> {
    // Read by every test here through `loadable`'s static, which is never
    // dropped, so no guard could remove it: one fixed folder, made anew by
    // each run.
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("export-inputs");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut out = Vec::new();
    for sub in [
        "plist",
        "br",
        "vs-csv",
        "xpp",
        "xpp/packeted-deldbe",
        "xpp/packeted-dbf",
    ] {
        for entry in std::fs::read_dir(Path::new(FIXTURES).join(sub)).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                continue;
            }
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let target = dir
                .join(sub.replace('/', "_"))
                .join(name.replace("desc", ""));
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            let bytes = compile(&path, &name);
            std::fs::write(&target, bytes).unwrap();
            // A packet is loaded through its base file.
            if !name.contains(".0000") {
                out.push(target);
            }
        }
    }
    out.push(real_file("inferno_CallTreeSummary.csv").into());
    // VSPerfReport's command-line report: times in ticks (formats.md).
    out.push(real_file("visperf_l4_cc.csv").into());
    out
}

/// How many of a folded or speedscope weight make one of the profile's
/// time unit (`meta.time_unit`): ms are written in µs, ticks as they are.
fn time_scale(r: &Value) -> f64 {
    match r["meta"]["time_unit"].as_str() {
        Some("ticks") => 1.0,
        _ => 1000.0,
    }
}

fn compile(path: &Path, name: &str) -> Vec<u8> {
    let text = || std::fs::read_to_string(path).unwrap();
    if name.ends_with(".brdesc") {
        profx::fixture_gen::br::compile(&text()).unwrap()
    } else if name.ends_with(".dbfdesc") {
        let mut bytes = profx::fixture_gen::dbf::compile(&text()).unwrap();
        if name.starts_with("vfp-") {
            bytes[0] = b'0';
        }
        bytes
    } else {
        std::fs::read(path).unwrap()
    }
}

fn scratch(name: &str) -> common::Scratch {
    common::scratch("export", name)
}

/// The inputs that load, each with its `--json` report; made once for all
/// the tests of this file, which run at the same time.
fn loadable() -> &'static [(PathBuf, Value)] {
    static INPUTS: std::sync::OnceLock<Vec<(PathBuf, Value)>> = std::sync::OnceLock::new();
    INPUTS.get_or_init(|| {
        inputs()
            .into_iter()
            .filter_map(|p| {
                let o = profx(&["report", p.to_str().unwrap(), "--json"]);
                (o.status.code() == Some(0))
                    .then(|| (p, serde_json::from_slice(&o.stdout).unwrap()))
            })
            .collect()
    })
}

/// `profx export INPUT ARGS -o -`, its standard output.
fn export(input: &Path, args: &[&str]) -> Vec<u8> {
    let mut all = vec!["export", input.to_str().unwrap()];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-o", "-"]);
    let o = profx(&all);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{input:?} {args:?}: {}",
        stderr(&o)
    );
    o.stdout
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or(0.0)
}

fn sum(rows: &Value, key: &str) -> f64 {
    rows.as_array().unwrap().iter().map(|r| f(&r[key])).sum()
}

fn is_timed(r: &Value) -> bool {
    r["functions"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| !f["elapsed_exclusive_ms"].is_null())
        || r["stacks"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| !s["self_ms"].is_null())
}

/// What the weights of `weight` must add up to, from the report alone, by
/// model.md's words (§ Calling-context tree): each function's own value
/// or its stacks' self, the larger; the time a stack's stated child time
/// holds beyond its listed callees (`(unlisted)`); the time outside any
/// function. For samples and traces that is the session total, checked
/// too; every sample; every call.
fn expected_total(r: &Value, weight: &str) -> f64 {
    let (key, stack_key) = match weight {
        "time" => ("elapsed_exclusive_ms", "self_ms"),
        "hits" => return f(&r["totals"]["samples"]),
        _ => ("calls", "hits"),
    };
    // A flame graph has no negative widths: a time a file states below
    // zero (kept, with a warning) draws nothing.
    let stacks = r["stacks"].as_array().unwrap();
    let frames = |s: &Value| -> Vec<(String, String)> {
        s["frames"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| {
                (
                    x["name"].as_str().unwrap().into(),
                    x["module"].as_str().unwrap().into(),
                )
            })
            .collect()
    };
    let mut held: HashMap<(String, String), f64> = HashMap::new();
    for s in stacks {
        let leaf = frames(s).last().cloned().unwrap();
        *held.entry(leaf).or_default() += f(&s[stack_key]).max(0.0);
    }
    let own: f64 = r["functions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            let id = (
                x["name"].as_str().unwrap().to_string(),
                x["module"].as_str().unwrap().to_string(),
            );
            f(&x[key])
                .max(0.0)
                .max(held.get(&id).copied().unwrap_or(0.0))
        })
        .sum();
    let mut total = own;
    if weight == "time" {
        // Half the last digit a time is written with, for each value
        // summed, is rounding (model.md): PLIST writes µs, VS hundredths
        // of a ms, or of a percent of the session where it gives percents.
        let session = f(&r["totals"]["elapsed_inclusive_ms"]);
        let rounding = match (r["format"].as_str(), r["meta"]["time_unit"].as_str()) {
            (Some("plist"), _) => 0.0005,
            // VSPerfReport writes whole ticks.
            (_, Some("ticks")) => 0.5,
            _ => 0.005f64.max(session * 0.005 / 100.0),
        };
        total += stated_unlisted(stacks, &frames, rounding) + f(&r["totals"]["outside_ms"]);
        if r["format"] == "br" || r["format"] == "xpp" {
            let session = f(&r["totals"]["elapsed_inclusive_ms"]);
            assert!(
                (total - session).abs() <= 1e-6 * session.max(1.0),
                "{}",
                r["totals"]
            );
        }
        total *= time_scale(r);
    }
    total
}

/// A path's frames, root first, each as (name, module).
type Frames = Vec<(String, String)>;

/// The time stacks' stated child times hold beyond their listed callees:
/// a path's total is its self time and its callees' totals, or what it
/// states (self + child) where that is more.
fn stated_unlisted(stacks: &[Value], frames: &dyn Fn(&Value) -> Frames, rounding: f64) -> f64 {
    let mut by_path: HashMap<Frames, (f64, Option<f64>)> = HashMap::new();
    for s in stacks {
        let e = by_path.entry(frames(s)).or_insert((0.0, None));
        e.0 += f(&s["self_ms"]);
        if !s["child_ms"].is_null() {
            e.1 = Some(e.1.unwrap_or(0.0) + f(&s["child_ms"]));
        }
    }
    // Every prefix is a node; deepest first, so callees come before callers.
    let mut nodes: Vec<Frames> = Vec::new();
    for p in by_path.keys() {
        for k in 1..=p.len() {
            nodes.push(p[..k].to_vec());
        }
    }
    nodes.sort();
    nodes.dedup();
    nodes.sort_by_key(|p| std::cmp::Reverse(p.len()));
    let mut kids: HashMap<Frames, usize> = HashMap::new();
    for p in &nodes {
        if p.len() > 1 {
            *kids.entry(p[..p.len() - 1].to_vec()).or_default() += 1;
        }
    }
    // A node's statement is held to its children's statements (their
    // totals where they state none), and the unlisted time is the
    // difference; its total is its listed sum plus that (model.md).
    let mut totals: HashMap<Frames, f64> = HashMap::new();
    let mut said: HashMap<Frames, f64> = HashMap::new();
    let mut extra = 0.0;
    for p in nodes {
        let (own, child) = by_path.get(&p).copied().unwrap_or((0.0, None));
        let listed = own + totals.get(&p).copied().unwrap_or(0.0);
        let compared = own + said.get(&p).copied().unwrap_or(0.0);
        let slack = rounding * (kids.get(&p).copied().unwrap_or(0) + 2) as f64;
        let t = match child {
            Some(c) if own + c - compared > slack.max(1e-9 * (own + c)) => {
                extra += own + c - compared;
                listed + own + c - compared
            }
            _ => listed,
        };
        if p.len() > 1 {
            let parent = p[..p.len() - 1].to_vec();
            *totals.entry(parent.clone()).or_default() += t;
            *said.entry(parent).or_default() += child.map_or(t, |c| own + c);
        }
        totals.insert(p, t);
    }
    extra
}

fn weights_of(r: &Value) -> Vec<&'static str> {
    let mut w = Vec::new();
    if is_timed(r) {
        w.push("time");
    }
    if r["totals"]["samples"].is_null() {
        if r["functions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| !f["calls"].is_null())
        {
            w.push("calls");
        }
    } else {
        w.push("hits");
    }
    w
}

fn folded_total(text: &str) -> u64 {
    text.lines()
        .map(|l| {
            let (_, n) = l.rsplit_once(' ').unwrap();
            n.parse::<u64>().unwrap()
        })
        .sum()
}

/// A profile of lines only has no paths to weigh: the export says so.
fn assert_nothing_to_draw(input: &Path, to: &str) {
    let o = profx(&["export", input.to_str().unwrap(), "--to", to, "-o", "-"]);
    assert_eq!(o.status.code(), Some(2), "{input:?}");
    assert!(stderr(&o).contains("nothing to draw"), "{}", stderr(&o));
}

#[test]
fn folded_weights_add_up_to_the_profile_total_and_inferno_renders_them() {
    let mut checked = 0;
    for (input, r) in loadable() {
        let (input, r) = (input.as_path(), r);
        if weights_of(r).is_empty() {
            assert_nothing_to_draw(input, "folded");
        }
        for weight in weights_of(r) {
            let text =
                String::from_utf8(export(input, &["--to", "folded", "--weight", weight])).unwrap();
            let want = expected_total(r, weight).round() as u64;
            assert_eq!(folded_total(&text), want, "{input:?} --weight {weight}");
            if text.is_empty() {
                continue;
            }
            let mut svg = Vec::new();
            let mut opts = inferno::flamegraph::Options::default();
            inferno::flamegraph::from_lines(&mut opts, text.lines(), &mut svg)
                .unwrap_or_else(|e| panic!("{input:?}: inferno: {e}"));
            let svg = String::from_utf8(svg).unwrap();
            assert!(svg.contains("<svg"), "{input:?}");
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked} folded exports checked");
}

#[test]
fn the_default_weight_is_time_then_hits_then_calls() {
    for (input, r) in loadable() {
        let (input, r) = (input.as_path(), r);
        let Some(&first) = weights_of(r).first() else {
            continue;
        };
        let default = String::from_utf8(export(input, &["--to", "folded"])).unwrap();
        let chosen =
            String::from_utf8(export(input, &["--to", "folded", "--weight", first])).unwrap();
        assert_eq!(default, chosen, "{input:?}");
    }
}

fn schema() -> jsonschema::Validator {
    let text = std::fs::read_to_string(format!(
        "{}/tests/fixtures/speedscope/file-format-schema.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("the speedscope schema beside the checkout");
    jsonschema::validator_for(&serde_json::from_str(&text).unwrap()).unwrap()
}

/// Replays an evented profile: checks that every close matches the open on
/// top and that times never go back; adds each frame's calls and
/// exclusive time.
fn replay_evented(profile: &Value, calls: &mut [f64], excl: &mut [f64]) {
    let mut stack: Vec<usize> = Vec::new();
    let mut clock = f(&profile["startValue"]);
    for e in profile["events"].as_array().unwrap() {
        let (at, frame) = (f(&e["at"]), e["frame"].as_u64().unwrap() as usize);
        assert!(at >= clock, "time goes back: {e}");
        if let Some(&top) = stack.last() {
            excl[top] += at - clock;
        }
        clock = at;
        if e["type"] == "O" {
            calls[frame] += 1.0;
            stack.push(frame);
        } else {
            assert_eq!(stack.pop(), Some(frame), "close of a frame not on top: {e}");
        }
    }
    assert!(stack.is_empty(), "calls left open");
    assert!(f(&profile["endValue"]) >= clock);
}

#[test]
fn speedscope_exports_validate_and_give_back_the_model() {
    let validator = schema();
    let mut evented = 0;
    for (input, r) in loadable() {
        let (input, r) = (input.as_path(), r);
        if weights_of(r).is_empty() && r["packets"].as_array().unwrap().is_empty() {
            assert_nothing_to_draw(input, "speedscope");
            continue;
        }
        let doc: Value = serde_json::from_slice(&export(input, &["--to", "speedscope"])).unwrap();
        if let Some(e) = validator.iter_errors(&doc).next() {
            panic!(
                "{input:?}: not speedscope's format: {e} at {}",
                e.instance_path()
            );
        }
        let funcs = r["functions"].as_array().unwrap();
        let frames = doc["shared"]["frames"].as_array().unwrap();
        let profiles = doc["profiles"].as_array().unwrap();
        if profiles.first().is_some_and(|p| p["type"] == "evented") {
            let (mut calls, mut excl) = (vec![0.0; frames.len()], vec![0.0; frames.len()]);
            for p in profiles {
                replay_evented(p, &mut calls, &mut excl);
            }
            let by_name: HashMap<&str, usize> = frames
                .iter()
                .enumerate()
                .map(|(i, fr)| (fr["name"].as_str().unwrap(), i))
                .collect();
            for func in funcs {
                let i = by_name[func["name"].as_str().unwrap()];
                assert_eq!(calls[i], f(&func["calls"]), "{input:?} {func}");
                if is_timed(r) {
                    let want = f(&func["elapsed_exclusive_ms"]);
                    assert!(
                        (excl[i] - want).abs() <= 1e-6 * want.max(1.0),
                        "{input:?} {func}"
                    );
                }
            }
            evented += 1;
        } else {
            let weights: f64 = profiles[0]["weights"]
                .as_array()
                .unwrap()
                .iter()
                .map(f)
                .sum();
            let weight = weights_of(r).first().copied().unwrap_or("calls");
            let scale = if weight == "time" { time_scale(r) } else { 1.0 };
            let want = expected_total(r, weight);
            assert!(
                (weights * scale - want).abs() <= 1e-6 * want.max(1.0),
                "{input:?}: {weights} vs {want}"
            );
        }
    }
    assert!(
        evented >= 10,
        "only {evented} traces exported as evented profiles"
    );
}

#[test]
fn chrome_trace_events_nest_per_thread() {
    let (mut traces, mut ranged) = (0, 0);
    for (input, r) in loadable() {
        let (input, r) = (input.as_path(), r);
        if r["format"] != "xpp" {
            let o = profx(&[
                "export",
                input.to_str().unwrap(),
                "--to",
                "chrome",
                "-o",
                "-",
            ]);
            assert_eq!(o.status.code(), Some(1), "{input:?}");
            assert!(stderr(&o).contains("needs a trace"), "{}", stderr(&o));
            continue;
        }
        let doc: Value = serde_json::from_slice(&export(input, &["--to", "chrome"])).unwrap();
        let begins = chrome_begins(&doc, input);
        assert_eq!(begins, sum(&r["functions"], "calls"), "{input:?}");
        // A range reaching the run's last event covers it whole (model.md
        // § Time ranges): a call entered at that instant is written too.
        if !r["meta"]["time_unit"].is_null() {
            let whole = ["--to", "chrome", "--until", "1e12"];
            let doc: Value = serde_json::from_slice(&export(input, &whole)).unwrap();
            assert_eq!(chrome_begins(&doc, input), begins, "{input:?} {whole:?}");
            ranged += 1;
        }
        traces += 1;
    }
    assert!(traces >= 10);
    assert!(ranged >= 5, "{ranged}");
}

/// A Chrome trace's calls (its `B` events), checking that they nest per
/// thread and that time never goes back on one.
fn chrome_begins(doc: &Value, input: &Path) -> f64 {
    let mut stacks: HashMap<u64, (Vec<String>, f64)> = HashMap::new();
    let mut begins = 0.0;
    for e in doc["traceEvents"].as_array().unwrap() {
        let ph = e["ph"].as_str().unwrap();
        if ph == "M" {
            continue;
        }
        let (stack, clock) = stacks.entry(e["tid"].as_u64().unwrap()).or_default();
        let ts = f(&e["ts"]);
        assert!(ts >= *clock, "{input:?}: time goes back: {e}");
        *clock = ts;
        let name = e["name"].as_str().unwrap().to_string();
        match ph {
            "B" => {
                begins += 1.0;
                stack.push(name);
            }
            "E" => assert_eq!(stack.pop(), Some(name), "{input:?}: {e}"),
            other => panic!("unexpected phase {other}"),
        }
    }
    assert!(stacks.values().all(|(s, _)| s.is_empty()), "{input:?}");
    begins
}

fn csv_rows(bytes: &[u8]) -> (Vec<String>, Vec<Vec<String>>) {
    let mut rd = csv::Reader::from_reader(bytes);
    let head = rd.headers().unwrap().iter().map(String::from).collect();
    let rows = rd
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    (head, rows)
}

#[test]
fn csv_views_have_the_model_rows_and_totals() {
    for (input, r) in loadable() {
        let (input, r) = (input.as_path(), r);
        for (view, key) in [
            ("functions", "functions"),
            ("lines", "lines"),
            ("stacks", "stacks"),
        ] {
            let (head, rows) = csv_rows(&export(input, &["--to", "csv", "--view", view]));
            let want = r[key].as_array().unwrap();
            assert_eq!(rows.len(), want.len(), "{input:?} {view}");
            // A time's header names the profile's unit; --json's key is
            // `…_ms` whatever the unit.
            let unit = r["meta"]["time_unit"].as_str().unwrap_or("ms");
            if unit != "ms" {
                assert!(
                    !head.iter().any(|h| h.ends_with("_ms")),
                    "{input:?} {head:?}"
                );
            }
            let keys: Vec<String> = head
                .iter()
                .map(|h| match h.strip_suffix(&format!("_{unit}")) {
                    Some(stem) => format!("{stem}_ms"),
                    None => h.clone(),
                })
                .collect();
            for (i, col) in keys.iter().enumerate() {
                let Some(first) = want.first() else { break };
                if !first.get(col).is_some_and(Value::is_number)
                    && !want.iter().any(|x| x[col].is_number())
                {
                    continue;
                }
                let got: f64 = rows
                    .iter()
                    .map(|row| row[i].parse::<f64>().unwrap_or(0.0))
                    .sum();
                let total = sum(&r[key], col);
                assert!(
                    (got - total).abs() <= 1e-9 * total.abs().max(1.0),
                    "{input:?} {view}.{col}: {got} vs {total}"
                );
            }
        }
    }
}

/// A profile in ticks says so in every export's metadata: speedscope has
/// no tick unit (`none`, the profile's name saying `ticks`), the CSV
/// header names it, the folded export's message counts ticks; with
/// `--clock-mhz` they are ms again.
#[test]
fn exports_of_a_profile_in_ticks_say_ticks() {
    let l4 = PathBuf::from(real_file("visperf_l4_cc.csv"));
    let doc: Value = serde_json::from_slice(&export(&l4, &["--to", "speedscope"])).unwrap();
    let profile = &doc["profiles"][0];
    assert_eq!(profile["unit"], "none");
    assert!(
        profile["name"]
            .as_str()
            .unwrap()
            .ends_with("weights in ticks"),
        "{}",
        profile["name"]
    );
    let csv = String::from_utf8(export(&l4, &["--to", "csv"])).unwrap();
    assert!(
        csv.starts_with("name,module,calls,elapsed_inclusive_ticks,"),
        "{csv}"
    );
    let dir = scratch("ticks");
    let out = dir.join("l4.folded");
    let args = ["export", l4.to_str().unwrap(), "--to", "folded", "-o"];
    let o = profx(&[&args[..], &[out.to_str().unwrap()]].concat());
    assert!(stderr(&o).contains(" ticks to "), "{}", stderr(&o));
    let clocked = ["--to", "speedscope", "--clock-mhz", "2400"];
    let doc: Value = serde_json::from_slice(&export(&l4, &clocked)).unwrap();
    assert_eq!(doc["profiles"][0]["unit"], "milliseconds");
}

#[test]
fn an_existing_output_is_replaced_only_with_force() {
    let dir = scratch("force");
    let out = dir.join("out.folded");
    let out_s = out.to_str().unwrap();
    std::fs::write(&out, "keep me\n").unwrap();
    let o = profx(&["export", "--demo", "--to", "folded", "-o", out_s]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("exists; add --force"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "keep me\n");
    let o = profx(&["export", "--demo", "--to", "folded", "-o", out_s, "--force"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("wrote 10 stacks"), "{}", stderr(&o));
    let text = std::fs::read_to_string(&out).unwrap();
    let r = report_json("--demo", &[]);
    let want = (f(&r["totals"]["elapsed_inclusive_ms"]) * 1000.0).round() as u64;
    assert_eq!(folded_total(&text), want);
    // Only the output is left in the folder: no temporary.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
}

#[test]
fn the_input_is_never_the_output() {
    let dir = scratch("input");
    let input = dir.join("t.prf");
    std::fs::copy(Path::new(FIXTURES).join("xpp/hand-example.prf"), &input).unwrap();
    let before = std::fs::read(&input).unwrap();
    let s = input.to_str().unwrap();
    let o = profx(&["export", s, "--to", "csv", "-o", s, "--force"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("is the input"));
    assert_eq!(std::fs::read(&input).unwrap(), before);
}

#[test]
fn options_that_do_not_go_together_are_usage_errors() {
    for args in [
        &["--to", "folded", "--view", "lines"][..],
        &["--to", "csv", "--weight", "time"][..],
        &["--to", "chrome", "--weight", "calls"][..],
    ] {
        let mut all = vec!["export", "--demo", "-o", "-"];
        all.extend_from_slice(args);
        let o = profx(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty());
    }
    // A weight the profile does not record names one it does.
    let o = profx(&[
        "export", "--demo", "--to", "folded", "--weight", "calls", "-o", "-",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("records no calls; use --weight time"),
        "{}",
        stderr(&o)
    );
}

/// `| head` closing the pipe early is the reader's choice: exit 0, quiet.
#[test]
fn a_closed_pipe_ends_an_export_quietly() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let dir = scratch("pipe");
    let input = dir.join("big.prf");
    common::generated_trace(&input, 2 << 20, 300);
    for to in ["speedscope", "chrome", "folded", "csv"] {
        let mut args = vec!["export", input.to_str().unwrap(), "--to", to, "-o", "-"];
        if to == "csv" {
            args.extend(["--view", "stacks"]);
        }
        let mut child = Command::new(env!("CARGO_BIN_EXE_profx"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut head = [0u8; 100];
        child.stdout.take().unwrap().read_exact(&mut head).unwrap();
        // The pipe is closed here, with most of the export unread.
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{to}: {}", stderr(&out));
        assert!(out.stderr.is_empty(), "{to}: {}", stderr(&out));
    }
}
