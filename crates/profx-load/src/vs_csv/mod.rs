//! `vs-csv`: Visual Studio profiler reports exported as CSV (seed 003).
//!
//! VSPerfReport and the Visual Studio IDE export a report as CSV: UTF-8 (a
//! BOM may lead), CRLF, a header row, text quoted, every row ending with a
//! comma, and numbers of 1,000 and up quoted with thousands separators. The
//! IDE's call-tree export, as in `tests/fixtures/real/`, reads:
//!
//! ```text
//! Level,Function Name,Number of Calls,Elapsed Inclusive Time %,…,Avg Elapsed Inclusive Time,…
//! 2,"Raytracer.Primitives.IPrimitive.Intersect(class Raytracer.Ray&,bool&)","2,893,824",54.37,4.21,0.04,…
//! ```
//!
//! The kind of report follows from its columns (`build.rs`); times, or the
//! session totals behind the file's percents, are recovered as formats.md
//! says and fed to the builder as summaries, stacks and stated percents.

mod build;
mod number;
mod table;

use super::split::MAX_LINE;
use super::{Detection, Input, InvalidKind, LoadError, LoadOptions, Loader};
use crate::problem::Problem;
use build::{Parsed, ReportKind};
use profx_model::{Facts, HitsWord, MetaValue, Place, ProfileBuilder, TimeUnit, WarningKind};
use table::Columns;

/// The Visual Studio CSV report loader.
pub(crate) struct VsCsv;

impl Loader for VsCsv {
    fn name(&self) -> &'static str {
        "vs-csv"
    }

    /// Yes when the first line is a CSV header with a `Function Name` (or
    /// `Name`) column and at least one VS value column.
    fn detect(&self, head: &[u8], at_eof: bool) -> Detection {
        let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
        let Some(end) = head
            .iter()
            .position(|&b| b == b'\n')
            .or(at_eof.then_some(head.len()))
        else {
            return Detection::NeedMore;
        };
        match header(&head[..end]) {
            Some(cols) if cols.recognised() => Detection::Yes,
            _ => Detection::No,
        }
    }

    fn load(
        &self,
        input: &Input,
        opts: &LoadOptions,
        b: &mut ProfileBuilder,
    ) -> Result<(), LoadError> {
        let bytes = input.bytes();
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let invalid = |line: u64, kind: InvalidKind, reason: String| LoadError::Invalid {
            path: input.name().to_string(),
            place: Place::Line(line),
            kind,
            reason,
        };
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(bytes);
        let mut records = reader.byte_records();
        let first = records
            .next()
            .and_then(Result::ok)
            .map(|r| table::fields(&r))
            .unwrap_or_default();
        let cols = Columns::find(&first);
        if !cols.recognised() {
            let found = first
                .iter()
                .map(|s| profx_model::text::visible(s).into_owned())
                .collect::<Vec<_>>()
                .join(", ");
            return Err(invalid(
                1,
                InvalidKind::NoColumns,
                format!("no Function Name column with VS value columns (found: {found})"),
            ));
        }
        let mut lines = LineCounter::default();
        let mut parsed = Vec::new();
        for record in records {
            parsed.push(match record {
                Ok(rec) if rec.as_slice().len() > MAX_LINE => Parsed::Bad {
                    line: lines.at(bytes, rec.position().map_or(0, |p| p.byte())),
                    level: None,
                    why: Problem::new(
                        WarningKind::LineTooLong,
                        format!(
                            "a row of {} bytes is longer than a report row can be ({MAX_LINE} bytes)",
                            rec.as_slice().len()
                        ),
                    ),
                },
                Ok(rec) => {
                    let line = lines.at(bytes, rec.position().map_or(0, |p| p.byte()));
                    parse(line, &rec, &cols)
                }
                Err(e) => {
                    let line = lines.at(bytes, e.position().map_or(0, |p| p.byte()));
                    Parsed::Bad {
                        line,
                        level: None,
                        why: Problem::new(WarningKind::NotARecord, format!("not CSV: {e}")),
                    }
                }
            });
        }
        if !parsed.iter().any(|p| matches!(p, Parsed::Row(_))) {
            let reason = "no usable row under the header".into();
            return Err(invalid(2, InvalidKind::NoRecords, reason));
        }
        let kind = ReportKind::of(&cols);
        b.set_meta("report", MetaValue::Text(kind.meta().into()));
        let (time_unit, half_digit) = times(&cols, opts.clock_mhz, &mut parsed, b);
        b.state_facts(Facts {
            // A call tree's and a caller/callee report's counts are the
            // IDE's `Number of Calls`.
            hits_word: match kind {
                ReportKind::Function => HitsWord::Hits,
                _ => HitsWord::Calls,
            },
            time_unit,
            ..Facts::default()
        });
        build::build(parsed, &cols, half_digit, b);
        Ok(())
    }
}

/// The unit of the report's times, and half the last digit a time is
/// written with in it (`ProfileBuilder::stated_rounding`). A report in
/// ticks writes whole ticks; with `clock_mhz` its times become ms here, as
/// read (ms = ticks / (MHz × 1000)), and the clock is stated in meta. The
/// IDE writes hundredths of a ms.
fn times(
    cols: &Columns,
    clock_mhz: Option<f64>,
    parsed: &mut [Parsed],
    b: &mut ProfileBuilder,
) -> (TimeUnit, f64) {
    if !cols.in_ticks() {
        return (TimeUnit::Ms, 0.005);
    }
    let Some(mhz) = clock_mhz else {
        return (TimeUnit::Ticks, 0.5);
    };
    let per_ms = mhz * 1000.0;
    for p in parsed.iter_mut() {
        if let Parsed::Row(r) = p {
            r.divide_times(per_ms);
        }
    }
    // A whole number of MHz reads as one (`2400`, not `2400.0`).
    let stated = match mhz.fract() == 0.0 && mhz < i64::MAX as f64 {
        true => MetaValue::Int(mhz as i64),
        false => MetaValue::Float(mhz),
    };
    b.set_meta(crate::CLOCK_MHZ, stated);
    (TimeUnit::Ms, 0.5 / per_ms)
}

/// 1-based line numbers from byte offsets. The csv crate's own line count
/// lags a record behind with CRLF endings; its byte offsets are exact.
#[derive(Default)]
struct LineCounter {
    offset: usize,
    newlines: u64,
}

impl LineCounter {
    /// The line of `offset`; offsets come in increasing order. With CRLF
    /// the crate reports a record as starting on the previous `\n`.
    fn at(&mut self, bytes: &[u8], offset: u64) -> u64 {
        let mut offset = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(bytes.len());
        if bytes.get(offset) == Some(&b'\n') {
            offset += 1;
        }
        if offset > self.offset {
            self.newlines += bytes[self.offset..offset]
                .iter()
                .filter(|&&b| b == b'\n')
                .count() as u64;
            self.offset = offset;
        }
        self.newlines + 1
    }
}

fn parse(line: u64, rec: &csv::ByteRecord, cols: &Columns) -> Parsed {
    let fields = table::fields(rec);
    match table::row(line, &fields, cols) {
        Ok(row) => Parsed::Row(Box::new(row)),
        Err(why) => Parsed::Bad {
            line,
            level: table::level(&fields, cols),
            why,
        },
    }
}

/// The columns of a header line.
fn header(line: &[u8]) -> Option<Columns> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(line);
    let rec = reader.byte_records().next()?.ok()?;
    Some(Columns::find(&table::fields(&rec)))
}

#[cfg(test)]
mod tests;
