//! `plist`, printed: the listing PLIST writes without `/T` (formats.md §
//! "plist, printed"). Most PLIST output that survives is this listing:
//!
//! ```text
//! Profile: Function timing, sorted by time
//! Date:    Thu Nov 26 21:53:31 1998
//!
//! Program Statistics
//! ------------------
//!     Total time: 72884.827 millisecond
//!     ...
//! Module Statistics for lame.exe
//! ------------------------------
//!         Func          Func+Child           Hit
//!         Time   %         Time      %      Count  Function
//! ---------------------------------------------------------
//!    12879.346  17.7    12938.753  17.8   107166 _quantize (loop.obj)
//! ```
//!
//! Real listings differ in indentation, in where the rules and blank lines
//! stand, and in whether long names are wrapped onto continuation lines, so
//! every line is read by its shape (words and numbers), never by column
//! positions. The five kinds of listing and their row shapes:
//!
//! | kind              | row                                   |
//! |-------------------|---------------------------------------|
//! | Function timing   | `time % time+child % count name (obj)` |
//! | Function counting | `count % name (obj)`                  |
//! | Function coverage | `* name (obj)` or `. name (obj)`      |
//! | Line counting     | `line: count % source text`           |
//! | Line coverage     | `line: * source text` (`.` not run)   |
//!
//! The percent columns are the file's rounding of what the model computes
//! and are not read. Listings are small (one row a function or line), so
//! this reader is one plain pass over the lines.

use super::super::split::{MAX_LINE, numbered_lines};
use crate::problem::Problem;
use profx_model::text::{decode, visible};
use profx_model::{
    FuncId, FuncSummary, LineId, MetaValue, Place, ProfileBuilder, TimeValues, WarningKind,
};
use rustc_hash::FxHashMap;

/// How far into a file the `Profile:` line is looked for: what stands
/// before it is the profiled program's own output, a few lines as a rule.
const HEADER_WITHIN: usize = 256 << 10;

/// The kinds of listing, with the `/T` method numbers of seed 001.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ListingKind {
    FunctionTiming,
    FunctionCounting,
    FunctionCoverage,
    LineCounting,
    LineCoverage,
}

impl ListingKind {
    fn of(words: &str) -> Option<ListingKind> {
        let words = words.trim().to_ascii_lowercase();
        Some(match words.as_str() {
            "function timing" => ListingKind::FunctionTiming,
            "function counting" => ListingKind::FunctionCounting,
            "function coverage" => ListingKind::FunctionCoverage,
            "line counting" => ListingKind::LineCounting,
            "line coverage" => ListingKind::LineCoverage,
            _ => return None,
        })
    }

    fn method_code(self) -> i64 {
        match self {
            ListingKind::LineCounting => 321,
            ListingKind::LineCoverage => 324,
            ListingKind::FunctionCounting => 521,
            ListingKind::FunctionTiming => 522,
            ListingKind::FunctionCoverage => 524,
        }
    }

    fn by_line(self) -> bool {
        matches!(self, ListingKind::LineCounting | ListingKind::LineCoverage)
    }
}

/// The kind named by a `Profile: KIND, sorted by KEY` line.
fn header(line: &str) -> Option<ListingKind> {
    let rest = line.trim().strip_prefix("Profile:")?;
    let (kind, sorted) = rest.split_once(',')?;
    sorted
        .trim_start()
        .to_ascii_lowercase()
        .starts_with("sorted by")
        .then_some(())?;
    ListingKind::of(kind)
}

/// Where the listing's `Profile:` line is: its line number and kind.
pub(super) fn find(bytes: &[u8]) -> Option<(u64, ListingKind)> {
    let head = &bytes[..bytes.len().min(HEADER_WITHIN)];
    numbered_lines(head)
        .filter(|(_, l)| l.len() < MAX_LINE)
        .find_map(|(n, l)| header(&decode(l)).map(|k| (n, k)))
}

/// Detection: yes when a `Profile:` line of a known kind stands within the
/// first [`HEADER_WITHIN`] bytes. A listing is text: a NUL says no at once,
/// so binary traces are not searched.
pub(super) fn detect(head: &[u8], at_eof: bool) -> super::Detection {
    use super::Detection;
    let complete = match super::text_lines(head, at_eof) {
        Ok(complete) => complete,
        Err(decided) => return decided,
    };
    match find(complete) {
        Some(_) => Detection::Yes,
        None if at_eof || head.len() >= HEADER_WITHIN => Detection::No,
        None => Detection::NeedMore,
    }
}

/// A number as PLIST prints it: digits with at most one `.` (infinite when
/// there are too many digits). Rejects what `str::parse` would also take
/// (`inf`, `NaN`, exponents).
fn decimal(tok: &str) -> Option<f64> {
    let digits = tok.strip_prefix('-').unwrap_or(tok);
    let ok = !digits.is_empty()
        && digits.bytes().any(|b| b.is_ascii_digit())
        && digits.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && digits.bytes().filter(|&b| b == b'.').count() <= 1;
    // Digits only, so `parse` cannot fail; a run too long for f64 is
    // infinite, which `number` reports.
    ok.then(|| tok.parse().ok()).flatten()
}

fn whole(tok: &str) -> Option<u64> {
    tok.bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| tok.parse().ok())
        .flatten()
}

/// The first `n` whitespace-separated words of `line` and the rest after
/// them, trimmed.
fn words(line: &str, n: usize) -> Option<(Vec<&str>, &str)> {
    let mut rest = line.trim_start();
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        if end == 0 {
            return None;
        }
        out.push(&rest[..end]);
        rest = rest[end..].trim_start();
    }
    Some((out, rest.trim_end()))
}

/// Splits `name (module.obj)` into the name and the object module, as
/// `/T`'s source field. The module is a final parenthesised file name
/// (`(loop.obj)`, `(user32.def)`, `(mfc42d.dll)`); a final group that is
/// not one (`f(void)`) is part of the name.
pub(super) fn split_module(text: &str) -> (&str, &str) {
    let text = text.trim();
    if let Some(open) = text.strip_suffix(')').and_then(|t| t.rfind('(')) {
        let module = &text[open + 1..text.len() - 1];
        let looks_like_file = module.rsplit_once('.').is_some_and(|(stem, ext)| {
            !stem.is_empty()
                && !ext.is_empty()
                && ext.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        }) && !module
            .contains(|c: char| c.is_whitespace() || "(),*&<>".contains(c));
        let name = text[..open].trim_end();
        if looks_like_file && !name.is_empty() {
            return (name, module);
        }
    }
    (text, "")
}

/// Joins a continuation line to a wrapped name: no space after `::` or
/// before a `(` that does not follow `)`; one space otherwise.
pub(super) fn join(name: &mut String, more: &str) {
    let more = more.trim();
    let tight = name.ends_with("::") || (more.starts_with('(') && !name.ends_with(')'));
    if !tight && !name.is_empty() {
        name.push(' ');
    }
    name.push_str(more);
}

/// What a line is to the table being read.
enum Row {
    Read,
    /// A row, but unusable: why.
    Bad(Problem),
    /// Not a row: a heading, a statistic, or a continuation.
    Not,
}

/// A number token: `None` when it is not one, an error when it is digits
/// but too large for any value (it would be infinite).
fn number(tok: &str) -> Option<Result<f64, Problem>> {
    let x = decimal(tok)?;
    Some(if x.is_finite() {
        Ok(x)
    } else {
        let why = format!("{} overflows any time", visible(tok));
        Err(Problem::new(WarningKind::NumberTooLarge, why))
    })
}

fn number_whole(tok: &str) -> Option<Result<u64, Problem>> {
    if tok.is_empty() || !tok.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(tok.parse().map_err(|_| {
        let why = format!("hit count {tok} overflows any count");
        Problem::new(WarningKind::NumberTooLarge, why)
    }))
}

/// A function row whose name may still continue on the next lines.
struct Pending {
    line: u64,
    text: String,
    calls: u64,
    /// Func time and Func+Child time (function timing only).
    times: Option<(f64, f64)>,
}

struct Reader<'b> {
    b: &'b mut ProfileBuilder,
    kind: ListingKind,
    pending: Option<Pending>,
    /// Function rows by id: the line that first listed each.
    seen: FxHashMap<FuncId, u64>,
    lines_seen: FxHashMap<LineId, u64>,
    /// The `Module Statistics for NAME` block being read.
    block: String,
    /// Where the `Source` heading starts in a line listing: a coverage mark
    /// stands left of it, source text at or right of it.
    source_col: Option<usize>,
    /// Where the `Source` heading of a line listing stands: a row's text
    /// starts there (either kind), as the listing aligned it.
    text_col: Option<usize>,
    session: Option<f64>,
    outside: Option<f64>,
    rows: u64,
}

/// Reads a printed listing whose `Profile:` line is line `start`; the
/// error says why nothing could be used (no function or line row).
pub(super) fn load(
    bytes: &[u8],
    start: u64,
    kind: ListingKind,
    b: &mut ProfileBuilder,
) -> Result<(), String> {
    b.set_meta("layout", MetaValue::Text("listing".into()));
    b.set_meta("method_code", MetaValue::Int(kind.method_code()));
    let mut r = Reader {
        b,
        kind,
        pending: None,
        seen: FxHashMap::default(),
        lines_seen: FxHashMap::default(),
        block: String::new(),
        source_col: None,
        text_col: None,
        session: None,
        outside: None,
        rows: 0,
    };
    for (n, raw) in numbered_lines(bytes).skip_while(|(n, _)| *n < start) {
        if raw.len() > MAX_LINE {
            r.flush();
            let why = format!(
                "a line of {} bytes is longer than a listing row can be ({MAX_LINE} bytes); skipped",
                raw.len()
            );
            r.b.warn(Place::Line(n), WarningKind::LineTooLong, why);
            continue;
        }
        let text = decode(raw);
        if n == start {
            r.b.set_meta("method", MetaValue::Text(text.trim().to_string()));
            continue;
        }
        r.line(n, &text);
    }
    r.finish()
}

impl Reader<'_> {
    fn line(&mut self, n: u64, text: &str) {
        let t = text.trim();
        if t.is_empty() {
            self.flush();
            return;
        }
        if t.bytes().all(|b| b == b'-') {
            return;
        }
        // With a page length (`/PL`), every page starts with the Profile
        // line again (a form feed before it is white space).
        if header(t).is_some() {
            self.flush();
            return;
        }
        let row = if self.kind.by_line() {
            self.line_row(n, text)
        } else {
            self.function_row(n, t)
        };
        match row {
            Row::Read => return,
            Row::Bad(why) => {
                let msg = format!("{why}: {:?}; row skipped", visible(t));
                self.b.warn(Place::Line(n), why.kind, msg);
                return;
            }
            Row::Not => {}
        }
        if self.statistic(t) || self.heading(text) {
            self.flush();
            return;
        }
        if self.kind.by_line() {
            // Source text wrapped from the line above it: no line number
            // of its own, nothing to count.
            if self.rows > 0 {
                return;
            }
        } else if let Some(p) = &mut self.pending {
            join(&mut p.text, t);
            return;
        }
        self.flush();
        let msg = format!("not a line of a PLIST listing: {:?}; skipped", visible(t));
        self.b.warn(Place::Line(n), WarningKind::NotARecord, msg);
    }

    /// A function row of this listing's kind.
    fn function_row(&mut self, n: u64, t: &str) -> Row {
        let Some((calls, times, name)) = self.function_numbers(t) else {
            return Row::Not;
        };
        self.flush();
        let (calls, times) = match (calls, times) {
            (Ok(calls), Ok(times)) => (calls, times),
            (Err(why), _) | (_, Err(why)) => return Row::Bad(why),
        };
        if name.is_empty() {
            let why = "a row with no function name";
            return Row::Bad(Problem::new(WarningKind::MissingField, why));
        }
        self.pending = Some(Pending {
            line: n,
            text: name.to_string(),
            calls,
            times,
        });
        Row::Read
    }

    /// A function row's shape: the count, the two times (function timing)
    /// and the name text; a number too large to hold is an error of a row
    /// that is still one.
    #[allow(clippy::type_complexity)]
    fn function_numbers<'t>(
        &self,
        t: &'t str,
    ) -> Option<(
        Result<u64, Problem>,
        Result<Option<(f64, f64)>, Problem>,
        &'t str,
    )> {
        match self.kind {
            ListingKind::FunctionTiming => {
                let (w, name) = words(t, 5)?;
                let nums = w[..4]
                    .iter()
                    .map(|x| number(x))
                    .collect::<Option<Vec<_>>>()?;
                let count = number_whole(w[4])?;
                let times = match (nums[0].clone(), nums[2].clone()) {
                    (Ok(func), Ok(child)) => Ok(Some((func, child))),
                    (Err(e), _) | (_, Err(e)) => Err(e),
                };
                Some((count, times, name))
            }
            ListingKind::FunctionCounting => {
                let (w, name) = words(t, 2)?;
                let _percent = number(w[1])?;
                Some((number_whole(w[0])?, Ok(None), name))
            }
            ListingKind::FunctionCoverage => {
                let (w, name) = words(t, 1)?;
                let covered = match w[0] {
                    "*" => 1,
                    "." => 0,
                    _ => return None,
                };
                Some((Ok(covered), Ok(None), name))
            }
            ListingKind::LineCounting | ListingKind::LineCoverage => None,
        }
    }

    /// A source line of a line listing: `N:` then, where the line was
    /// profiled, its count and percent (counting) or a mark (coverage).
    /// Lines with neither are source text PLIST prints for context.
    fn line_row(&mut self, n: u64, text: &str) -> Row {
        let t = text.trim_start();
        let Some(colon) = t.find(':') else {
            return Row::Not;
        };
        let Some(number) = whole(&t[..colon]) else {
            return Row::Not;
        };
        let Ok(number) = u32::try_from(number) else {
            let why = "a line number past 4294967295";
            return Row::Bad(Problem::new(WarningKind::NumberTooLarge, why));
        };
        let after = &t[colon + 1..];
        let hits = match self.kind {
            ListingKind::LineCounting => words(after, 2)
                .filter(|(w, _)| whole(w[0]).is_some() && decimal(w[1]).is_some())
                .and_then(|(w, _)| whole(w[0])),
            _ => {
                let lead = after.len() - after.trim_start().len();
                let mark_at = text.len() - after.len() + lead;
                let in_column = self.source_col.is_none_or(|c| mark_at < c);
                match words(after, 1) {
                    Some((w, _)) if in_column && w[0] == "*" => Some(1),
                    Some((w, _)) if in_column && w[0] == "." => Some(0),
                    _ => None,
                }
            }
        };
        self.rows += 1;
        let file = self.b.intern(&self.block);
        let source = self.source_text(text, after, hits.is_some());
        self.b.line_text(file, number, source);
        let Some(hits) = hits else { return Row::Read };
        let id = self.b.line(file, number, None);
        let first = *self.lines_seen.entry(id).or_insert(n);
        if first != n {
            let msg = format!("line {number} listed again after line {first}; merged by summing");
            self.b.warn(Place::Line(n), WarningKind::ListedAgain, msg);
        }
        self.b.line_summary(id, Some(hits), None);
        Row::Read
    }

    /// A line row's source text: what stands under the `Source` heading,
    /// else what follows its numbers or mark (`after` is the row past its
    /// `N:`), so a source view shows the line as the listing printed it.
    fn source_text<'t>(&self, row: &'t str, after: &'t str, counted: bool) -> &'t str {
        let prefix = row.len() - after.len();
        if let Some(rest) = self.text_col.and_then(|c| row.get(c..)) {
            let before = &row[..row.len() - rest.len()];
            // Numbers reaching into the column: the row is not aligned.
            if before.len() >= prefix && (before.len() == prefix || before.ends_with(' ')) {
                return rest.trim_end();
            }
        }
        let numbers = match (counted, self.kind) {
            (false, _) => 0,
            (true, ListingKind::LineCounting) => 2,
            (true, _) => 1,
        };
        words(after, numbers).map_or("", |(_, rest)| rest)
    }

    /// Program and module statistics; true when `t` is one.
    fn statistic(&mut self, t: &str) -> bool {
        if let Some(name) = t.split_once("Statistics for ").map(|x| x.1) {
            self.block = name.trim().to_string();
            return true;
        }
        if t == "Program Statistics" {
            return true;
        }
        if let Some(rest) = t.strip_prefix("Date:") {
            self.meta_text("date", rest);
            return true;
        }
        if let Some(rest) = t.strip_prefix("Command line at ") {
            match rest.split_once(": ") {
                Some((when, cmd)) => {
                    self.meta_text("command_line_at", when);
                    self.meta_text("command_line", cmd);
                }
                None => self.meta_text("command_line", rest),
            }
            return true;
        }
        let Some((key, value)) = t.split_once(':') else {
            // `Overhead Calculated 6`: PLIST's timing overhead, no colon.
            return self.overhead(t);
        };
        let key = key.trim().to_ascii_lowercase();
        let value = value.trim();
        let ms = || {
            value
                .strip_suffix("millisecond")
                .or_else(|| value.strip_suffix("milliseconds"))
                .and_then(|v| decimal(v.trim()))
                .filter(|v| v.is_finite())
        };
        let count = || whole(value).map(|v| MetaValue::Int(v.min(i64::MAX as u64) as i64));
        let pct = || {
            value
                .strip_suffix('%')
                .and_then(|v| decimal(v.trim()))
                .map(MetaValue::Float)
        };
        let set = |r: &mut Self, k: &str, v: Option<MetaValue>| match v {
            Some(v) => {
                r.b.set_meta(k, v);
                true
            }
            None => false,
        };
        match key.as_str() {
            "total time" => ms().map(|v| self.session = Some(v)).is_some(),
            k if k.starts_with("time outside of") => ms().map(|v| self.outside = Some(v)).is_some(),
            "call depth" => set(self, "call_depth", count()),
            "total functions" | "total lines" => set(self, "units_marked", count()),
            "total hits" => set(self, "total_hits", count()),
            "function coverage" | "line coverage" => set(self, "coverage_pct", pct()),
            // A module's share of what Program Statistics states: derived
            // numbers, recognised so they are not mistaken for rows.
            k if k.ends_with("in module") || k.starts_with("module ") => true,
            // Another statistic of PLIST's (`Key: value`, the key words
            // only): kept in meta under its own name, never a warning. Not
            // while a name may go on (`CWinThread::` is no statistic).
            k if self.pending.is_none()
                && !value.is_empty()
                && !value.starts_with(':')
                && k.split_whitespace().count() <= 6
                && k.chars().all(|c| c.is_ascii_alphabetic() || c == ' ') =>
            {
                let slug = k.split_whitespace().collect::<Vec<_>>().join("_");
                self.meta_text(&format!("stat_{slug}"), value);
                true
            }
            _ => false,
        }
    }

    fn overhead(&mut self, t: &str) -> bool {
        let Some((w, rest)) = words(t, 3) else {
            return false;
        };
        if !w[0].eq_ignore_ascii_case("overhead") || !rest.is_empty() {
            return false;
        }
        let Some(v) = whole(w[2]) else { return false };
        let key = format!("overhead_{}", w[1].to_ascii_lowercase());
        self.b
            .set_meta(&key, MetaValue::Int(v.min(i64::MAX as u64) as i64));
        true
    }

    fn meta_text(&mut self, key: &str, value: &str) {
        self.b
            .set_meta(key, MetaValue::Text(value.trim().to_string()));
    }

    /// Column headings (`Func Time % ... Function`, `Line Covered Source`):
    /// every word is a heading word.
    fn heading(&mut self, text: &str) -> bool {
        const WORDS: [&str; 11] = [
            "func",
            "time",
            "%",
            "func+child",
            "hit",
            "count",
            "function",
            "line",
            "covered",
            "source",
            "hits",
        ];
        let all = text
            .split_whitespace()
            .all(|w| WORDS.contains(&w.to_ascii_lowercase().as_str()));
        if all && self.kind == ListingKind::LineCoverage {
            self.source_col = text.find("Source").or(self.source_col);
        }
        if all {
            self.text_col = text.find("Source").or(self.text_col);
        }
        all
    }

    /// Ends the pending function row: its name is complete.
    fn flush(&mut self) {
        let Some(p) = self.pending.take() else { return };
        self.rows += 1;
        let (name, module) = split_module(&p.text);
        let (name_id, module_id) = (self.b.intern(name), self.b.intern(module));
        let id = self.b.function(name_id, module_id);
        let first = *self.seen.entry(id).or_insert(p.line);
        if first != p.line {
            let msg = format!(
                "function {:?} ({}) listed again after line {first}; merged by summing",
                visible(name),
                visible(module)
            );
            self.b
                .warn(Place::Line(p.line), WarningKind::ListedAgain, msg);
        }
        let time = match p.times {
            Some((func, child)) => {
                if child < func {
                    let msg = format!(
                        "Func+Child time {child} is below Func time {func}; both kept as the file states them"
                    );
                    let kind = WarningKind::ImpossibleValue;
                    self.b.warn(Place::Line(p.line), kind, msg);
                }
                for (what, v) in [("Func time", func), ("Func+Child time", child)] {
                    if v < 0.0 {
                        let msg = format!("{what} {v} is negative; kept as the file states it");
                        let kind = WarningKind::ImpossibleValue;
                        self.b.warn(Place::Line(p.line), kind, msg);
                    }
                }
                TimeValues {
                    elapsed_inclusive: Some(child),
                    elapsed_exclusive: Some(func),
                    ..Default::default()
                }
            }
            None => TimeValues::default(),
        };
        let summary = FuncSummary {
            calls: Some(p.calls),
            time,
            ..Default::default()
        };
        self.b.summary(id, summary);
    }

    fn finish(mut self) -> Result<(), String> {
        self.flush();
        if self.rows == 0 {
            let what = if self.kind.by_line() {
                "line"
            } else {
                "function"
            };
            return Err(format!("no {what} row under the Profile line"));
        }
        if self.kind == ListingKind::FunctionTiming {
            let totals = self.b.totals_mut();
            totals.elapsed_inclusive_ms = self.session.filter(|t| *t > 0.0);
            totals.outside_ms = self.outside;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_header_after_program_output() {
        let text = b"WAVE : Found WAV header\nEncoding as 44.1 kHz\n  Profile: Function timing, sorted by time\n";
        assert_eq!(find(text), Some((3, ListingKind::FunctionTiming)));
        assert_eq!(
            find(b"Profile: Line coverage, sorted by line\n"),
            Some((1, ListingKind::LineCoverage))
        );
        assert_eq!(find(b"Profile: Memory, sorted by size\n"), None);
        assert_eq!(
            find(b"1\t522\tProfile: Function timing, sorted by name\n"),
            None
        );
    }

    #[test]
    fn module_is_a_final_file_name_in_parentheses() {
        assert_eq!(
            split_module("_quantize (loop.obj)"),
            ("_quantize", "loop.obj")
        );
        assert_eq!(
            split_module("getbits(int) (common.obj)"),
            ("getbits(int)", "common.obj")
        );
        assert_eq!(
            split_module("LoadCursorA@8(user32.def)"),
            ("LoadCursorA@8", "user32.def")
        );
        assert_eq!(split_module("f(void)"), ("f(void)", ""));
        assert_eq!(split_module("g(class CWnd *)"), ("g(class CWnd *)", ""));
        assert_eq!(split_module("(a.obj)"), ("(a.obj)", ""));
    }

    #[test]
    fn wrapped_names_join_as_formats_md_says() {
        let mut s = String::from("CWinThread::");
        join(&mut s, "PreTranslateMessage(struct");
        join(&mut s, "tagMSG *) (mfc42d.dll)");
        assert_eq!(
            s,
            "CWinThread::PreTranslateMessage(struct tagMSG *) (mfc42d.dll)"
        );
        let mut s = String::from("CMDIFrameWnd::DefWindowProcA");
        join(&mut s, "(unsigned int,unsigned");
        join(&mut s, "int,long) (mfc42d.dll)");
        assert_eq!(
            s,
            "CMDIFrameWnd::DefWindowProcA(unsigned int,unsigned int,long) (mfc42d.dll)"
        );
    }

    #[test]
    fn numbers_are_digits_and_one_point() {
        assert_eq!(decimal("12.5"), Some(12.5));
        assert_eq!(decimal("-0.5"), Some(-0.5));
        for bad in ["inf", "NaN", "1e5", "1.2.3", "-", ".", ""] {
            assert_eq!(decimal(bad), None, "{bad}");
        }
    }
}
