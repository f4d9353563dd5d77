//! Chrome's trace-event JSON (the "JSON Object Format" that Perfetto and
//! chrome://tracing open): one `B` (begin) and one `E` (end) event per call,
//! per thread, with timestamps in microseconds.
//!
//! Threads are numbered 1, 2, … in id order (as profx lists threads
//! everywhere), and named `thread <id>` after the file's own id, which may
//! not fit a JSON number exactly. An untimed trace has only an order: each event's
//! position stands in for its time.

use super::json::{number, string};
use super::speedscope::{by_thread, profile_name, said};
use profx_model::Profile;
use profx_model::timeline::Timeline;
use std::io::{self, Write};

pub(super) fn write(
    p: &Profile,
    tl: &Timeline,
    query: Option<&str>,
    out: &mut dyn Write,
) -> io::Result<String> {
    // Chrome shows its microsecond timestamps as ms or ns only: a trace's
    // (the only profile with a time order) are ms. otherData states the
    // profile's own unit beside it, `null` for an untimed trace.
    out.write_all(b"{\"displayTimeUnit\":\"ms\",\"otherData\":{\"exporter\":")?;
    string(out, &format!("profx {}", env!("CARGO_PKG_VERSION")))?;
    write!(out, ",\"timed\":{}", tl.timed)?;
    out.write_all(b",\"time_unit\":")?;
    match p.time_unit().filter(|_| tl.timed) {
        Some(unit) => string(out, unit.name())?,
        None => out.write_all(b"null")?,
    }
    if let Some(q) = query {
        out.write_all(b",\"query\":")?;
        string(out, q)?;
    }
    out.write_all(b"},\"traceEvents\":[")?;
    out.write_all(
        b"\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":",
    )?;
    string(out, &profile_name(p, query))?;
    out.write_all(b"}}")?;
    let order = crate::query::by_id(tl.threads.iter().map(|s| s.id));
    for (t, &i) in order.iter().enumerate() {
        write!(
            out,
            ",\n{{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":{},\"args\":{{\"name\":\"thread {}\"}}}}",
            t + 1,
            tl.threads[i].id
        )?;
    }
    // Grouped by thread so each thread's events read in order even where
    // a tool does not sort them.
    let groups = by_thread(tl);
    for (t, &i) in order.iter().enumerate() {
        for &k in &groups[i] {
            let m = &tl.marks[k as usize];
            out.write_all(b",\n{\"name\":")?;
            string(out, p.function_name(m.func()))?;
            let module = p.function_module(m.func());
            out.write_all(b",\"cat\":")?;
            string(
                out,
                if module.is_empty() {
                    "function"
                } else {
                    module
                },
            )?;
            let ph = if m.open() { "B" } else { "E" };
            write!(out, ",\"ph\":\"{ph}\",\"pid\":1,\"tid\":{},\"ts\":", t + 1)?;
            number(out, m.at * 1000.0)?;
            out.write_all(b"}")?;
        }
    }
    out.write_all(b"\n]}\n")?;
    Ok(said(tl))
}
