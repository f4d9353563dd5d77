//! The report's header and rows: columns found by name, in any order.

use super::number;
use crate::problem::Problem;
use profx_model::WarningKind;
use profx_model::text::decode;

/// The four values of seed 003, in the order the model keeps them.
pub(super) const VALUES: [&str; 4] = [
    "elapsed inclusive",
    "elapsed exclusive",
    "application inclusive",
    "application exclusive",
];

/// Where one value's columns are: `X Time`, `X Time %`, `Avg X Time`,
/// `Min X Time`, `Max X Time`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct ValueCols {
    pub time: Option<usize>,
    pub pct: Option<usize>,
    pub avg: Option<usize>,
    pub min: Option<usize>,
    pub max: Option<usize>,
}

/// The places of a row's value columns in `Row::values`.
pub(super) const TIME: usize = 0;
pub(super) const PCT: usize = 1;
pub(super) const AVG: usize = 2;
pub(super) const MIN: usize = 3;
pub(super) const MAX: usize = 4;

/// Column positions of a report.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Columns {
    pub level: Option<usize>,
    pub kind: Option<usize>,
    pub root: Option<usize>,
    pub name: Option<usize>,
    pub module: Option<usize>,
    /// `Source File` and `Function Line Number`: where a function begins.
    pub source_file: Option<usize>,
    pub source_line: Option<usize>,
    pub calls: Option<usize>,
    pub values: [ValueCols; 4],
    /// Inclusive samples, exclusive samples, and their percents.
    pub samples: [Option<usize>; 4],
    /// `Time Inclusive Probe Overhead` (or its exclusive twin): a column
    /// only VSPerfReport's command-line reports write, whose times are
    /// processor ticks (formats.md § vs-csv, Time unit). Never read.
    pub probe_overhead: Option<usize>,
}

impl Columns {
    /// Finds columns by name, case-insensitively (`AVG` is `Avg`).
    pub(super) fn find(header: &[String]) -> Columns {
        let mut c = Columns::default();
        let names: Vec<String> = header
            .iter()
            .map(|h| h.trim().to_ascii_lowercase())
            .collect();
        let at = |n: &str| names.iter().position(|h| h == n);
        c.level = at("level");
        c.kind = at("type");
        c.root = at("root function name");
        c.name = at("function name").or_else(|| at("name"));
        c.module = at("module name");
        c.source_file = at("source file");
        c.source_line = at("function line number");
        c.calls = at("number of calls");
        for (v, x) in c.values.iter_mut().zip(VALUES) {
            v.time = at(&format!("{x} time"));
            v.pct = at(&format!("{x} time %"));
            v.avg = at(&format!("avg {x} time"));
            v.min = at(&format!("min {x} time"));
            v.max = at(&format!("max {x} time"));
        }
        let samples = [
            "inclusive samples",
            "exclusive samples",
            "inclusive samples %",
            "exclusive samples %",
        ];
        for (s, n) in c.samples.iter_mut().zip(samples) {
            *s = at(n);
        }
        c.probe_overhead =
            at("time inclusive probe overhead").or_else(|| at("time exclusive probe overhead"));
        c
    }

    /// Whether the report's times are processor ticks: VSPerfReport's
    /// command-line reports have a probe overhead column, which the IDE's
    /// exports (milliseconds) never have. The column, not how a number is
    /// written, decides: an IDE export's whole numbers are still ms.
    pub(super) fn in_ticks(&self) -> bool {
        self.probe_overhead.is_some()
    }

    /// The last column position a row must have.
    pub(super) fn last_used(&self) -> usize {
        let values = self
            .values
            .iter()
            .flat_map(|v| [v.time, v.pct, v.avg, v.min, v.max]);
        [
            self.level,
            self.kind,
            self.root,
            self.name,
            self.module,
            self.calls,
        ]
        .into_iter()
        .chain(values)
        .chain(self.samples)
        .flatten()
        .max()
        .unwrap_or(0)
    }

    /// formats.md: a `Function Name` (or `Name`) column and at least one
    /// VS value column.
    pub(super) fn recognised(&self) -> bool {
        let any_value = self
            .values
            .iter()
            .any(|v| v.time.or(v.pct).or(v.avg).is_some());
        self.name.is_some() && (any_value || self.samples.iter().any(Option::is_some))
    }
}

/// One data row, decoded.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Row {
    pub line: u64,
    pub level: Option<u32>,
    pub kind: Option<u8>,
    /// Caller/callee reports: the function a caller or callee row is about.
    pub root: Option<String>,
    pub name: String,
    pub module: String,
    /// Where the function begins, where the report says (a file and a
    /// line above 0).
    pub start: Option<(String, u32)>,
    /// A `Function Line Number` that is no line number (not blank, not
    /// VS's `0`), as written: warned about where the rows are built, the
    /// row kept without its start.
    pub start_unread: Option<String>,
    pub calls: Option<u64>,
    /// Per value: time, percent, average, minimum, maximum (`TIME` …).
    pub values: [[Option<f64>; 5]; 4],
    pub samples: [Option<f64>; 4],
}

impl Row {
    /// Divides every time of the row (`X Time`, `Avg`, `Min`, `Max`; not
    /// the percents) by `by`: ticks to milliseconds under `--clock-mhz`.
    pub(super) fn divide_times(&mut self, by: f64) {
        for v in &mut self.values {
            for k in [TIME, AVG, MIN, MAX] {
                if let Some(x) = &mut v[k] {
                    *x /= by;
                }
            }
        }
    }
}

/// A function's `Source File` and `Function Line Number`, where both say
/// something: VS writes `""` and `0` for a function of no known source.
fn start(file: &str, line: &str) -> Option<(String, u32)> {
    let file = file.trim();
    let line = line.trim().parse::<u32>().ok().filter(|&l| l > 0)?;
    (!file.is_empty()).then(|| (file.to_string(), line))
}

/// A `Function Line Number` that is neither blank nor a whole number.
fn unread_line(line: &str) -> Option<String> {
    let t = line.trim();
    (!t.is_empty() && t.parse::<u32>().is_err()).then(|| t.to_string())
}

/// A row's level alone, to skip a bad row's subtree even when the rest of
/// it cannot be read.
pub(super) fn level(fields: &[String], cols: &Columns) -> Option<u32> {
    cols.level.and_then(|i| fields.get(i)?.trim().parse().ok())
}

/// Decodes a row; the error says what is wrong with it.
pub(super) fn row(line: u64, fields: &[String], cols: &Columns) -> Result<Row, Problem> {
    let get = |i: Option<usize>| i.and_then(|i| fields.get(i)).map_or("", |s| s.as_str());
    let num = |i: Option<usize>, what: &str| {
        number::parse(get(i)).map_err(|()| {
            let text = get(i).trim();
            let digits = !text.is_empty()
                && text
                    .bytes()
                    .all(|b| b.is_ascii_digit() || b"-.,".contains(&b));
            match digits {
                true => Problem::new(
                    WarningKind::NumberTooLarge,
                    format!(
                        "{what} {:?} overflows any number",
                        profx_model::text::visible(text)
                    ),
                ),
                false => Problem::new(
                    WarningKind::NotANumber,
                    format!(
                        "{what} {:?} is not a number",
                        profx_model::text::visible(text)
                    ),
                ),
            }
        })
    };
    if fields.iter().any(|f| f.contains(['\n', '\r'])) {
        let why = "a quote is not closed: a field runs on past its line";
        return Err(Problem::new(WarningKind::NotARecord, why));
    }
    let needed = cols.last_used() + 1;
    if fields.len() < needed {
        let why = format!(
            "{} fields where the header's columns need {needed}",
            fields.len()
        );
        return Err(Problem::new(WarningKind::MissingField, why));
    }
    let name = get(cols.name).trim();
    if name.is_empty() {
        let why = format!("no function name ({} fields)", fields.len());
        return Err(Problem::new(WarningKind::MissingField, why));
    }
    let whole = |x: Option<f64>, what: &str| match x {
        Some(x) if x < 0.0 || x.fract() != 0.0 => {
            let why = format!(
                "{what} {:?} is not a whole number",
                profx_model::text::visible(get(cols.calls))
            );
            Err(Problem::new(WarningKind::NotANumber, why))
        }
        other => Ok(other.map(|x| x as u64)),
    };
    let mut row = Row {
        line,
        name: name.to_string(),
        module: get(cols.module).trim().to_string(),
        start: start(get(cols.source_file), get(cols.source_line)),
        start_unread: unread_line(get(cols.source_line)),
        root: cols
            .root
            .map(|_| get(cols.root).trim().to_string())
            .filter(|r| !r.is_empty()),
        calls: whole(num(cols.calls, "number of calls")?, "number of calls")?,
        ..Row::default()
    };
    if cols.level.is_some() {
        row.level = Some(level(fields, cols).ok_or_else(|| {
            let why = format!("level {:?} is not a depth", get(cols.level));
            Problem::new(WarningKind::NotANumber, why)
        })?);
    }
    if cols.kind.is_some() {
        let kind = get(cols.kind).trim();
        row.kind = Some(row_type(kind).ok_or_else(|| {
            let why = format!(
                "type {:?} is not Root, Caller or Callee (or 0, 1, 2)",
                profx_model::text::visible(kind)
            );
            Problem::new(WarningKind::UnknownRecordType, why)
        })?);
    }
    for (out, v) in row.values.iter_mut().zip(&cols.values) {
        *out = [
            num(v.time, "time")?,
            num(v.pct, "percent")?,
            num(v.avg, "average")?,
            num(v.min, "minimum")?,
            num(v.max, "maximum")?,
        ];
    }
    for (out, &c) in row.samples.iter_mut().zip(&cols.samples) {
        *out = num(c, "samples")?;
    }
    Ok(row)
}

/// A caller/callee row's `Type`: VS writes the words `Root`, `Caller`,
/// `Callee` (seen in any case); the numbers 0, 1, 2 say the same.
fn row_type(text: &str) -> Option<u8> {
    const WORDS: [&str; 3] = ["root", "caller", "callee"];
    WORDS
        .iter()
        .position(|w| text.eq_ignore_ascii_case(w))
        .map(|i| i as u8)
        .or_else(|| text.parse().ok().filter(|k| *k <= 2))
}

/// A CSV record's fields as text (UTF-8, else Windows-1252).
pub(super) fn fields(record: &csv::ByteRecord) -> Vec<String> {
    record.iter().map(|f| decode(f).into_owned()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn finds_columns_by_name_in_any_order() {
        let c = Columns::find(&strings(&[
            "Module Name",
            "AVG Elapsed Inclusive Time",
            "Level",
            "Function Name",
            "Elapsed Inclusive Time %",
            "",
        ]));
        assert_eq!((c.level, c.name, c.module), (Some(2), Some(3), Some(0)));
        assert_eq!(
            c.values[0],
            ValueCols {
                time: None,
                pct: Some(4),
                avg: Some(1),
                min: None,
                max: None,
            }
        );
        assert!(c.recognised());
        assert!(!Columns::find(&strings(&["This is not a correct header"])).recognised());
    }

    #[test]
    fn rows_and_their_defects() {
        let c = Columns::find(&strings(&[
            "Level",
            "Function Name",
            "Number of Calls",
            "Elapsed Inclusive Time",
        ]));
        let r = row(3, &strings(&["2", "f", "2,893,824", "18,160.51"]), &c).unwrap();
        assert_eq!(
            (r.level, r.calls, r.values[0][0]),
            (Some(2), Some(2_893_824), Some(18_160.51))
        );
        let defect = |line, fields: &[&str]| row(line, &strings(fields), &c).unwrap_err();
        let calls = defect(4, &["1", "f", "4,718.25", "1"]);
        assert_eq!(calls.kind, WarningKind::NotANumber);
        assert!(calls.why.starts_with("number of calls"), "{calls}");
        let level = defect(5, &["x", "f", "1", "1"]);
        assert_eq!(level.kind, WarningKind::NotANumber);
        assert!(level.why.starts_with("level \"x\""), "{level}");
        let short = defect(6, &["0"]);
        assert_eq!(short.kind, WarningKind::MissingField);
        assert_eq!(
            short.why, "1 fields where the header's columns need 4",
            "the words are a contract too"
        );
        assert_eq!(
            defect(7, &["1", "", "1", "1"]).kind,
            WarningKind::MissingField
        );
        let unclosed = defect(8, &["1", "f\r\n", "1", "1"]);
        assert_eq!(unclosed.kind, WarningKind::NotARecord);
    }

    #[test]
    fn type_is_a_word_in_any_case_or_a_number() {
        for (text, kind) in [
            ("Root", 0),
            ("CALLER", 1),
            ("callee", 2),
            ("0", 0),
            ("2", 2),
        ] {
            assert_eq!(row_type(text), Some(kind), "{text}");
        }
        for text in ["3", "Roots", "", "-1"] {
            assert_eq!(row_type(text), None, "{text}");
        }
    }
}
