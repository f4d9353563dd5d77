//! `profx diff BASE NEW --to csv`: the function comparison as CSV, a row
//! a function in canonical order of (name, module): `name, module,
//! status, paired_by, base_module, new_module`, then for each value either
//! run records its base, new and delta columns (`base_calls, new_calls,
//! delta_calls, …`). Cells are written as `export --to csv` writes them
//! (`export::csv::field`): numbers in full, an absent value empty, text
//! safe; a time's column names the runs' unit.

use super::{Comparison, Delta, Metric, Num, Which};
use crate::columns::Value;
use crate::export::csv::field;
use profx_model::TimeUnit;
use std::io::Write;

/// Writes the function comparison; returns what was written (`12 rows`).
pub fn write_csv(c: &Comparison, out: &mut dyn Write) -> Result<String, csv::Error> {
    let mut w = csv::Writer::from_writer(out);
    let metrics: Vec<Metric> = Metric::ALL
        .into_iter()
        .filter(|&m| Which::BOTH.iter().any(|&s| c.records(s, m)))
        .collect();
    let ticks = c.time_unit() == Some(TimeUnit::Ticks);
    let mut head: Vec<String> = [
        "name",
        "module",
        "status",
        "paired_by",
        "base_module",
        "new_module",
    ]
    .map(String::from)
    .to_vec();
    for m in &metrics {
        let key = match (ticks, m.key().strip_suffix("_ms")) {
            (true, Some(stem)) => format!("{stem}_ticks"),
            _ => m.key().to_string(),
        };
        head.extend(["base_", "new_", "delta_"].map(|side| format!("{side}{key}")));
    }
    w.write_record(&head)?;
    let text = |t: Option<&str>| t.map_or(String::new(), |t| field(Value::Text(t)));
    let num = |n: Option<Num>| match n {
        Some(Num::Count(n)) => field(Value::Count(Some(n))),
        Some(Num::Real(x)) => field(Value::Ms(Some(x))),
        None => String::new(),
    };
    let mut record = Vec::with_capacity(head.len());
    for r in c.rows() {
        record.clear();
        record.extend([
            text(Some(r.name(c))),
            text(Some(r.module(c))),
            r.status().to_string(),
            r.paired_by.map_or(String::new(), |p| p.key().to_string()),
            text(r.module_on(c, Which::Base)),
            text(r.module_on(c, Which::New)),
        ]);
        for &m in &metrics {
            // A run's own values, as `--json` gives them (`null` where the
            // function is not in it); the delta against 0 there.
            let own = |s: Which| c.function(s, r).and_then(|f| m.of(&f));
            record.push(num(own(Which::Base)));
            record.push(num(own(Which::New)));
            record.push(match c.delta(r, m) {
                Some(Delta::Count(n)) => n.to_string(),
                Some(Delta::Real(x)) => field(Value::Ms(Some(x))),
                None => String::new(),
            });
        }
        w.write_record(&record)?;
    }
    w.flush()?;
    Ok(crate::report::fmt::counted(c.rows().len() as u64, "rows"))
}
