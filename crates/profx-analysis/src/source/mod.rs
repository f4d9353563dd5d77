//! Source beside its cost (issue 67): the files a profile names, found in
//! the source folders (`find.rs`), read safely (`read.rs`), and each line
//! given the cost the Lines pane shows for it. One reading for the app's
//! source view and `profx report --view source`: the numbers are the
//! model's `Line` rows, a (file, line) listed twice summed as the Lines
//! pane sums it, so a line reads the same everywhere.
//!
//! Per format (formats.md), by the facts the loader states:
//! - a line's number is its place in the file, or (`LineNumbers::Stated`,
//!   a Business Rules! program) the number its text starts with;
//! - a line filed under its caller (`LineFile::Caller`, an Xbase++ trace)
//!   is in the `.prg` file that declares that caller (`FUNCTION`,
//!   `PROCEDURE`, `METHOD`);
//! - a printed PLIST listing carries each line's text: shown where no
//!   file is found;
//! - a VS report's functions say where they begin: that line carries the
//!   function's totals.

pub mod find;
pub mod read;

pub use find::{Located, SourceFolders, SourceMap};

use profx_model::{FuncId, HitsWord, LineFile, LineNumbers, Profile, TOP_LEVEL};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Lines shown around the counted ones in a listing (`pprof list`'s).
pub const CONTEXT: usize = 3;

/// One line of a source file with its cost.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SourceLine {
    /// Its number as the profile counts lines (a BR program's stated
    /// number); `None` for a line that has none (BR text between
    /// numbered lines).
    pub line: Option<u32>,
    /// Its text, shown safely; `None` where the file has no such line.
    pub text: Option<String>,
    /// Hits (or calls) counted at it.
    pub hits: Option<u64>,
    /// Time counted at it, in the profile's unit.
    pub time_ms: Option<f64>,
    /// Whether the profile counts it at all.
    pub counted: bool,
    /// The function that begins here, where the profile says (VS).
    pub starts: Option<String>,
}

/// One file of the profile, with every line's cost.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SourceFile {
    /// The file as the profile names it (an Xbase++ trace: the `.prg`
    /// declaring the callers, or the caller where none was found).
    pub path: String,
    /// The functions whose lines these are (an Xbase++ trace's callers).
    pub functions: Vec<String>,
    /// Where it was found and read.
    pub found_at: Option<PathBuf>,
    /// Where it was looked for, in order.
    pub looked_in: Vec<PathBuf>,
    /// What a reader should know: two files that fit, lines past the
    /// file's end, text taken from the listing, a file that cannot be read.
    pub notes: Vec<String>,
    /// The text is the listing's own (no file was found).
    pub from_listing: bool,
    /// Every line: the file's, in order, or the listing's.
    pub lines: Vec<SourceLine>,
}

impl SourceFile {
    /// The places of the counted lines in `lines`, in order.
    pub fn counted(&self) -> Vec<usize> {
        (0..self.lines.len())
            .filter(|&i| self.lines[i].counted)
            .collect()
    }

    /// The lines `pprof list` prints: from [`CONTEXT`] before the first
    /// counted line to [`CONTEXT`] after the last.
    pub fn window(&self) -> &[SourceLine] {
        let counted = self.counted();
        let (Some(&first), Some(&last)) = (counted.first(), counted.last()) else {
            return &[];
        };
        let from = first.saturating_sub(CONTEXT);
        let to = (last + CONTEXT + 1).min(self.lines.len());
        &self.lines[from..to]
    }

    /// The sum of the counted lines' hits and times: what a line's share
    /// is of.
    pub fn totals(&self) -> (Option<u64>, Option<f64>) {
        let mut t = (None, None);
        for l in self
            .lines
            .iter()
            .filter(|l| l.counted && l.starts.is_none())
        {
            t.0 = add(t.0, l.hits);
            t.1 = add_f(t.1, l.time_ms);
        }
        t
    }
}

fn add(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.saturating_add(b)),
        (a, b) => a.or(b),
    }
}

fn add_f(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a + b),
        (a, b) => a.or(b),
    }
}

/// Costs by file (as the profile names it), by line number.
type Costs = BTreeMap<String, BTreeMap<u32, Cost>>;

#[derive(Clone, Debug, Default)]
struct Cost {
    hits: Option<u64>,
    time_ms: Option<f64>,
    starts: Option<String>,
}

/// What the profile says about where its source is: whether a source
/// view has anything to open, and if not, why (the app's `o`).
pub fn why_no_source(p: &Profile) -> Option<&'static str> {
    if !p.lines().is_empty() || p.has_function_starts() {
        return None;
    }
    Some("this profile names no source lines (no line records, no function's source file)")
}

/// The words a hits column is headed by.
pub fn hits_heading(p: &Profile) -> &'static str {
    match p.facts().hits_word {
        HitsWord::Hits => "Hits",
        HitsWord::Calls => "Calls",
    }
}

/// The line costs of `p` (the Lines pane's rows, summed by (file, line)),
/// narrowed to `only`'s functions where given; a VS report's function
/// starts (read from `loaded`, the profile as the file gave it) with
/// their totals.
fn costs(p: &Profile, loaded: &Profile, only: Option<&[FuncId]>) -> Costs {
    let mut out: Costs = BTreeMap::new();
    for l in p.lines() {
        if only.is_some_and(|fs| !l.function.is_some_and(|f| fs.contains(&f))) {
            continue;
        }
        let c = out
            .entry(p.name(l.file).to_string())
            .or_default()
            .entry(l.line)
            .or_default();
        c.hits = add(c.hits, l.hits);
        c.time_ms = add_f(c.time_ms, l.time_ms);
    }
    if loaded.has_function_starts() {
        let by_name: std::collections::HashMap<(&str, &str), FuncId> = p
            .function_ids()
            .map(|f| ((p.function_name(f), p.function_module(f)), f))
            .collect();
        for lf in loaded.function_ids() {
            let Some((file, line)) = loaded.function_start(lf) else {
                continue;
            };
            let key = (loaded.function_name(lf), loaded.function_module(lf));
            let Some(&f) = by_name.get(&key) else {
                continue;
            };
            if only.is_some_and(|fs| !fs.contains(&f)) {
                continue;
            }
            let func = p.function(f);
            let c = out
                .entry(file.to_string())
                .or_default()
                .entry(line)
                .or_default();
            c.hits = add(c.hits, func.hits_total.or(func.calls));
            c.time_ms = add_f(c.time_ms, func.time.elapsed_inclusive);
            let name = p.function_name(f).to_string();
            c.starts = Some(match c.starts.take() {
                Some(before) => format!("{before}, {name}"),
                None => name,
            });
        }
    }
    out
}

/// Every file the profile's lines name (narrowed to `only`'s functions),
/// found and read, each line with its cost. `p` is the profile the Lines
/// pane reads; `loaded` the profile as loaded (a listing's texts, where
/// functions begin).
pub fn files(
    p: &Profile,
    loaded: &Profile,
    folders: &SourceFolders,
    only: Option<&[FuncId]>,
) -> Vec<SourceFile> {
    let costs = costs(p, loaded, only);
    match p.facts().line_file {
        LineFile::Source => costs
            .into_iter()
            .map(|(path, lines)| one_file(p, loaded, folders, path, &lines))
            .collect(),
        LineFile::Caller => callers(folders, costs),
    }
}

/// The one file `name` names (as a line's `file` does: an Xbase++
/// trace's caller), found, read and given every line's cost, for a
/// source view; `None` where no line of the profile is in it.
pub fn file_named(
    p: &Profile,
    loaded: &Profile,
    folders: &SourceFolders,
    name: &str,
) -> Option<SourceFile> {
    let mut costs = costs(p, loaded, None);
    match p.facts().line_file {
        LineFile::Source => {
            let lines = costs.remove(name)?;
            Some(one_file(p, loaded, folders, name.to_string(), &lines))
        }
        LineFile::Caller => callers(folders, costs)
            .into_iter()
            .find(|f| f.functions.iter().any(|c| c == name)),
    }
}

/// Where function `f` of `p` is in its source: where the file says it
/// begins (a VS report's), else its costliest line; as a line's `file`
/// and number.
pub fn where_is(p: &Profile, loaded: &Profile, f: FuncId) -> Option<(String, u32)> {
    let key = (p.function_name(f), p.function_module(f));
    let start = loaded
        .function_ids()
        .find(|&lf| (loaded.function_name(lf), loaded.function_module(lf)) == key)
        .and_then(|lf| loaded.function_start(lf));
    if let Some((file, line)) = start {
        return Some((file.to_string(), line));
    }
    let weight = |l: &profx_model::Line| l.time_ms.unwrap_or(l.hits.unwrap_or(0) as f64);
    p.lines()
        .iter()
        .filter(|l| l.function == Some(f))
        .max_by(|a, b| weight(a).total_cmp(&weight(b)))
        .map(|l| (p.name(l.file).to_string(), l.line))
}

/// One named file: found, read, its lines given their costs.
fn one_file(
    p: &Profile,
    loaded: &Profile,
    folders: &SourceFolders,
    path: String,
    costs: &BTreeMap<u32, Cost>,
) -> SourceFile {
    let mut located = folders.locate(&path);
    if located.found.is_none() && p.facts().line_numbers == LineNumbers::Stated {
        // A Business Rules! log names the compiled program (`ORDERS.BR`);
        // its text is kept as `.brs` or `.wbs` beside it.
        for ext in ["brs", "wbs"] {
            let other = folders.locate(&with_extension(&path, ext));
            if other.found.is_some() {
                located = other;
                break;
            }
        }
    }
    let mut file = SourceFile {
        looked_in: located.looked_in.clone(),
        notes: located.note().into_iter().collect(),
        ..SourceFile::default()
    };
    match located.found.as_deref().map(read::read_lines) {
        Some(Ok(text)) => {
            file.found_at = located.found.clone();
            file.lines = match p.facts().line_numbers {
                LineNumbers::Position => by_position(text, costs, &mut file.notes),
                LineNumbers::Stated => by_stated(text, costs, &mut file.notes),
            };
        }
        other => {
            if let Some(Err(e)) = other {
                file.notes.push(e.to_string());
            }
            file.lines = from_listing(loaded, &path, costs);
            file.from_listing = file.lines.iter().any(|l| l.text.is_some());
            if file.from_listing {
                file.notes
                    .push("no file found: the text is the listing's own".into());
            }
        }
    }
    file.path = path;
    file
}

/// `path` with its extension (after the last `.` of its file name)
/// replaced by `ext`.
fn with_extension(path: &str, ext: &str) -> String {
    let name_at = path.rfind(['/', '\\']).map_or(0, |i| i + 1);
    match path[name_at..].rfind('.') {
        Some(dot) => format!("{}.{ext}", &path[..name_at + dot]),
        None => format!("{path}.{ext}"),
    }
}

fn counted_line(n: u32, text: Option<String>, c: Option<&Cost>) -> SourceLine {
    SourceLine {
        line: Some(n),
        text,
        hits: c.and_then(|c| c.hits),
        time_ms: c.and_then(|c| c.time_ms),
        counted: c.is_some(),
        starts: c.and_then(|c| c.starts.clone()),
    }
}

/// The file's lines numbered by place; counted lines past its end follow
/// it, with no text and a note.
fn by_position(
    text: Vec<String>,
    costs: &BTreeMap<u32, Cost>,
    notes: &mut Vec<String>,
) -> Vec<SourceLine> {
    let len = text.len();
    let mut out: Vec<SourceLine> = text
        .into_iter()
        .enumerate()
        .map(|(i, t)| {
            let n = u32::try_from(i + 1).unwrap_or(u32::MAX);
            counted_line(n, Some(t), costs.get(&n))
        })
        .collect();
    let past: Vec<u32> = costs
        .keys()
        .copied()
        .filter(|&n| n == 0 || n as usize > len)
        .collect();
    if !past.is_empty() {
        notes.push(format!(
            "{} counted line(s) not in the file ({len} lines): {}; is it the version profiled?",
            past.len(),
            list(&past)
        ));
        let (before, after): (Vec<u32>, Vec<u32>) = past.into_iter().partition(|&n| n == 0);
        let mut head: Vec<SourceLine> = before
            .into_iter()
            .map(|n| counted_line(n, None, costs.get(&n)))
            .collect();
        head.append(&mut out);
        out = head;
        out.extend(
            after
                .into_iter()
                .map(|n| counted_line(n, None, costs.get(&n))),
        );
    }
    out
}

fn list(ns: &[u32]) -> String {
    let shown: Vec<String> = ns.iter().take(10).map(u32::to_string).collect();
    let more = if ns.len() > 10 { ", …" } else { "" };
    format!("{}{more}", shown.join(", "))
}

/// The number a BR program's line starts with (`00120 LET X=1`).
pub fn stated_number(text: &str) -> Option<u32> {
    let t = text.trim_start();
    let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    t[..digits].parse().ok()
}

/// The file's lines numbered by the numbers their text starts with; a
/// counted number no line states follows, with no text and a note.
fn by_stated(
    text: Vec<String>,
    costs: &BTreeMap<u32, Cost>,
    notes: &mut Vec<String>,
) -> Vec<SourceLine> {
    let mut seen = std::collections::HashSet::new();
    let mut out: Vec<SourceLine> = text
        .into_iter()
        .map(|t| match stated_number(&t) {
            // A number stated twice is counted at its first line.
            Some(n) if seen.insert(n) => counted_line(n, Some(t), costs.get(&n)),
            _ => SourceLine {
                text: Some(t),
                ..SourceLine::default()
            },
        })
        .collect();
    let missing: Vec<u32> = costs
        .keys()
        .copied()
        .filter(|n| !seen.contains(n))
        .collect();
    if !missing.is_empty() {
        notes.push(format!(
            "{} counted line number(s) no line of the file starts with: {}; is it the version profiled?",
            missing.len(),
            list(&missing)
        ));
        out.extend(
            missing
                .into_iter()
                .map(|n| counted_line(n, None, costs.get(&n))),
        );
    }
    out
}

/// Where no file is found: the listing's own text of its lines (a printed
/// PLIST listing), else the counted lines alone, without text.
fn from_listing(loaded: &Profile, path: &str, costs: &BTreeMap<u32, Cost>) -> Vec<SourceLine> {
    let texts = loaded.line_texts(path);
    let mut numbers: Vec<u32> = texts
        .iter()
        .map(|t| t.0)
        .chain(costs.keys().copied())
        .collect();
    numbers.sort_unstable();
    numbers.dedup();
    let text: BTreeMap<u32, &str> = texts.into_iter().collect();
    numbers
        .into_iter()
        .map(|n| {
            let t = text.get(&n).map(|t| read::shown_line(t));
            counted_line(n, t, costs.get(&n))
        })
        .collect()
}

/// One `.prg` file's callers, their lines' costs, and its notes.
type Gathered = (Vec<String>, BTreeMap<u32, Cost>, Vec<String>);

/// An Xbase++ trace's lines, filed by caller: each caller's `.prg` found
/// by its declaration, the callers of one file shown together.
fn callers(folders: &SourceFolders, costs: Costs) -> Vec<SourceFile> {
    let decls = declarations(folders);
    let mut found: BTreeMap<PathBuf, Gathered> = BTreeMap::new();
    let mut out = Vec::new();
    for (caller, lines) in costs {
        let mut files = if caller == TOP_LEVEL {
            Vec::new()
        } else {
            declared_in(&decls, &caller)
        };
        // Of two files declaring it, the one whose declaration encloses
        // the most of its counted lines (the nearest declaration above
        // each is the caller's) is where they are.
        let fits = |f: &PathBuf| {
            let upper = caller.trim().to_uppercase();
            let Some(ds) = decls.by_file.get(f) else {
                return 0;
            };
            lines
                .keys()
                .filter(|&&n| {
                    ds.iter().rev().find(|d| d.0 <= n).is_some_and(|d| {
                        d.1.iter()
                            .any(|x| *x == upper || upper.ends_with(&format!(":{x}")))
                    })
                })
                .count()
        };
        files.sort_by_key(|f| std::cmp::Reverse(fits(f)));
        let Some(first) = files.first() else {
            let why = if caller == TOP_LEVEL {
                "calls made at top level are in no function to find".to_string()
            } else {
                format!(
                    "no .prg file in the source folders declares FUNCTION, PROCEDURE or METHOD {}",
                    profx_model::text::visible(&caller)
                )
            };
            out.push(SourceFile {
                path: caller.clone(),
                functions: vec![caller],
                looked_in: folders.folders().to_vec(),
                notes: vec![why],
                lines: lines
                    .iter()
                    .map(|(&n, c)| counted_line(n, None, Some(c)))
                    .collect(),
                ..SourceFile::default()
            });
            continue;
        };
        let entry = found.entry(first.clone()).or_default();
        if let Some(second) = files.get(1) {
            entry.2.push(format!(
                "{} is declared in two files: {} (shown) and {}",
                profx_model::text::visible(&caller),
                first.display(),
                second.display()
            ));
        }
        entry.0.push(caller);
        for (n, c) in lines {
            let e = entry.1.entry(n).or_default();
            e.hits = add(e.hits, c.hits);
            e.time_ms = add_f(e.time_ms, c.time_ms);
        }
    }
    let mut files: Vec<SourceFile> = found
        .into_iter()
        .map(|(path, (functions, lines, mut notes))| {
            let mut file = SourceFile {
                path: path.display().to_string(),
                functions,
                looked_in: folders.folders().to_vec(),
                ..SourceFile::default()
            };
            match read::read_lines(&path) {
                Ok(text) => {
                    file.lines = by_position(text, &lines, &mut notes);
                    file.found_at = Some(path);
                }
                Err(e) => {
                    notes.push(e.to_string());
                    file.lines = lines
                        .iter()
                        .map(|(&n, c)| counted_line(n, None, Some(c)))
                        .collect();
                }
            }
            file.notes = notes;
            file
        })
        .collect();
    files.append(&mut out);
    files
}

/// The declarations of the `.prg` files in the source folders.
#[derive(Default)]
struct Declarations {
    /// Declared names (upper case) → the files declaring them, in the
    /// folders' order.
    by_name: BTreeMap<String, Vec<PathBuf>>,
    /// Each file's declarations: (line, names), in line order.
    by_file: BTreeMap<PathBuf, Vec<(u32, Vec<String>)>>,
}

fn declarations(folders: &SourceFolders) -> Declarations {
    let mut out = Declarations::default();
    for path in folders.with_extension("prg") {
        let Ok(text) = read::read_lines(&path) else {
            continue;
        };
        for (i, line) in text.iter().enumerate() {
            let names = declared(line);
            for name in &names {
                let files = out.by_name.entry(name.clone()).or_default();
                if !files.contains(&path) {
                    files.push(path.clone());
                }
            }
            if !names.is_empty() {
                let n = u32::try_from(i + 1).unwrap_or(u32::MAX);
                out.by_file
                    .entry(path.clone())
                    .or_default()
                    .push((n, names));
            }
        }
    }
    out
}

/// The names a line of Xbase++ declares: `[STATIC|INIT|EXIT|CLASS]
/// FUNCTION|PROCEDURE|FUNC|PROC|METHOD name`, a method `Class:name` both
/// as that and as `name`.
pub fn declared(line: &str) -> Vec<String> {
    let upper = line.trim_start().to_uppercase();
    let mut rest = upper.as_str();
    for lead in ["STATIC ", "INIT ", "EXIT ", "CLASS "] {
        if let Some(r) = rest.strip_prefix(lead) {
            rest = r.trim_start();
        }
    }
    let Some(after) = ["FUNCTION ", "PROCEDURE ", "FUNC ", "PROC ", "METHOD "]
        .iter()
        .find_map(|k| rest.strip_prefix(k))
    else {
        return Vec::new();
    };
    let name: String = after
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | ':' | '.'))
        .collect();
    if name.is_empty() {
        return Vec::new();
    }
    let mut out = vec![name.clone()];
    if let Some((_, method)) = name.rsplit_once([':', '.'])
        && !method.is_empty()
    {
        out.push(method.to_string());
    }
    out
}

/// The files declaring `caller`: by its whole name, else (a method
/// `Class:name` the trace names so) by its last part.
fn declared_in(decls: &Declarations, caller: &str) -> Vec<PathBuf> {
    let upper = caller.trim().to_uppercase();
    if let Some(files) = decls.by_name.get(&upper) {
        return files.clone();
    }
    upper
        .rsplit_once([':', '.'])
        .and_then(|(_, m)| decls.by_name.get(m))
        .cloned()
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_of_xbase() {
        assert_eq!(declared("FUNCTION ReadItem( nId )"), ["READITEM"]);
        assert_eq!(declared("  static procedure Main"), ["MAIN"]);
        assert_eq!(declared("METHOD Order:Add(x)"), ["ORDER:ADD", "ADD"]);
        assert!(declared("// FUNCTION x").is_empty());
        assert!(declared("RETURN").is_empty());
    }

    #[test]
    fn a_br_line_states_its_number() {
        assert_eq!(stated_number("00120 LET X=1"), Some(120));
        assert_eq!(stated_number("  40 PRINT"), Some(40));
        assert_eq!(stated_number("! no number"), None);
    }

    #[test]
    fn the_window_is_three_lines_around_the_counted_ones() {
        let mut f = SourceFile::default();
        for n in 1..=20 {
            let c = [8, 10].contains(&n).then(Cost::default);
            f.lines
                .push(counted_line(n, Some(String::new()), c.as_ref()));
        }
        let w: Vec<Option<u32>> = f.window().iter().map(|l| l.line).collect();
        assert_eq!(w, (5..=13).map(Some).collect::<Vec<_>>());
    }
}
