//! What a load will need in memory, said before it starts (issue 69;
//! docs/large-inputs.md § What memory a file needs): a load that would
//! take more than the machine has is refused with what it needs and how
//! to allow it (`--max-memory SIZE`), rather than killed by the system
//! halfway.
//!
//! The figure is an estimate from what the file tells of its size: its
//! bytes, and a DBF trace's records (its header's count where the bytes
//! hold as many; a header claiming more is not believed). Each format's
//! factors are the peaks measured on this project's generated inputs of
//! the realistic shapes (BENCHMARKS.md), rounded up: an estimate errs on
//! the side of loading.

use crate::{Input, Loader};

/// What the profile is loaded for: a report keeps less than the app,
/// which keeps what its panes read (a small trace's calls in time order,
/// the call graph, each pane's rows).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    /// `report` and `export`, every stack kept (`--json`, the stack views,
    /// exports).
    Report,
    /// A `report` of functions or lines, which keeps no stack: a listing
    /// then holds its rows and names only.
    Table,
    /// The app.
    App,
}

/// What a load is estimated to need.
#[derive(Clone, Debug, PartialEq)]
pub struct Need {
    /// Bytes of memory at the load's peak.
    pub bytes: u64,
    /// How the figure was made, in words (`2.0 × the file`).
    pub how: String,
}

/// Fixed cost of any load (the binary, its threads, a load's buffers).
const BASE: u64 = 100 << 20;

/// The estimate for `inputs`, loaded by `loader` for `use_`.
pub fn need(inputs: &[Input], loader: &dyn Loader, use_: Use) -> Need {
    let size: u64 = inputs.iter().map(Input::len).sum();
    if let Some(records) = dbf_records(inputs, loader) {
        // A record's share of what a trace keeps: its event's index,
        // its call's durations and lanes, its paths and lines.
        let per = match use_ {
            Use::Report | Use::Table => 24,
            Use::App => 48,
        };
        return Need {
            bytes: BASE + records.saturating_mul(per),
            how: format!("{per} bytes a record, {records} records"),
        };
    }
    // Tenths of the file's size.
    let tenths: u64 = match (loader.name(), use_) {
        // A listing is all rows, each a function's name, numbers and
        // stack, and the app adds every pane's orders, its call tree and
        // its call graph (BENCHMARKS.md, issue 69, has what a function
        // costs: 1.5 × the file after every pane; room left for a listing
        // of more call paths a function).
        ("plist", Use::Table) => 6,
        ("plist", Use::Report) => 19,
        ("plist", Use::App) => 20,
        // Traces and logs keep their events in the file: what grows is
        // the profile (paths, lines) and each call's durations.
        ("xpp" | "br", Use::Report | Use::Table) => 6,
        ("xpp" | "br", Use::App) => 10,
        // A VS report is small rows of text, read whole.
        (_, Use::Report | Use::Table) => 20,
        (_, Use::App) => 40,
    };
    Need {
        bytes: BASE + size / 10 * tenths,
        how: format!("{}.{} × the file", tenths / 10, tenths % 10),
    }
}

/// A DBF trace's records, where the first input is one: its header's
/// count, unless its bytes hold fewer (a header may claim anything).
fn dbf_records(inputs: &[Input], loader: &dyn Loader) -> Option<u64> {
    let first = inputs.first()?;
    if loader.name() != "xpp" {
        return None;
    }
    let (header_len, record_len) = crate::xpp::dbf_layout(first.bytes())?;
    let bytes = first.bytes();
    let declared = u64::from(u32::from_le_bytes(bytes.get(4..8)?.try_into().ok()?));
    let rest: u64 = inputs.iter().map(Input::len).sum::<u64>() - header_len as u64;
    Some(declared.min(rest / record_len.max(1) as u64))
}

/// Refuses a load of `inputs` for `use_` that would need more memory than
/// `max` (`--max-memory`), or without it, than the machine has available:
/// said before a byte is parsed, naming what it needs and how to allow it.
/// Inputs no loader recognises pass (the load says why itself).
pub fn check(
    inputs: &[Input],
    format: Option<&str>,
    use_: Use,
    max: Option<u64>,
) -> Result<(), crate::LoadError> {
    let Some(first) = inputs.first() else {
        return Ok(());
    };
    let loader = match format {
        Some(name) => crate::by_name(name),
        None => crate::detect(first),
    };
    let Ok(loader) = loader else {
        return Ok(());
    };
    let (limit, machine) = match max {
        Some(m) => (m, false),
        None => match available() {
            Some(a) => (a, true),
            None => return Ok(()),
        },
    };
    let need = need(inputs, loader, use_);
    if need.bytes <= limit {
        return Ok(());
    }
    Err(crate::LoadError::Memory {
        path: first.name().to_string(),
        format: loader.name(),
        app: use_ == Use::App,
        need: written(need.bytes),
        how: need.how,
        limit: written(limit),
        machine,
    })
}

/// The memory this machine can give a process now: what the kernel says
/// is available (`MemAvailable`) and free swap; `None` where it does not
/// say (no `/proc/meminfo`).
pub fn available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = text.lines().find(|l| l.starts_with(name))?;
        let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib * 1024)
    };
    Some(field("MemAvailable:")? + field("SwapFree:").unwrap_or(0))
}

/// A size as people write it: `512M`, `4G`, `1.5G`, `300000000` (bytes;
/// K, M, G, T are powers of 1024).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let (num, scale) = match t.chars().last() {
        Some(c @ ('k' | 'K' | 'm' | 'M' | 'g' | 'G' | 't' | 'T')) => {
            let power = match c.to_ascii_uppercase() {
                'K' => 10,
                'M' => 20,
                'G' => 30,
                _ => 40,
            };
            (&t[..t.len() - 1], (1u64 << power) as f64)
        }
        _ => (t, 1.0),
    };
    match num.trim().parse::<f64>() {
        Ok(n) if n.is_finite() && n > 0.0 && n * scale < u64::MAX as f64 => Ok((n * scale) as u64),
        _ => Err(format!(
            "{text:?} is not a size (a number of bytes, or with K, M, G or T: 512M, 4G)"
        )),
    }
}

/// A size written for people: `4.2 GB` (powers of 1024, one decimal).
pub fn written(bytes: u64) -> String {
    let units = ["bytes", "KB", "MB", "GB", "TB"];
    let mut v = bytes as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < units.len() {
        v /= 1024.0;
        u += 1;
    }
    match u {
        0 => format!("{bytes} bytes"),
        _ => format!("{v:.1} {}", units[u]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_as_people_write_them() {
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("4g"), Ok(4 << 30));
        assert_eq!(parse_size("1.5G"), Ok(3 << 29));
        assert_eq!(parse_size("1000"), Ok(1000));
        assert!(parse_size("lots").is_err());
        assert!(parse_size("-1G").is_err());
        assert!(parse_size("0").is_err());
    }

    #[test]
    fn a_dbf_header_claiming_more_records_than_its_bytes_is_not_believed() {
        let mut b = profx_fixtures::large::bytes(profx_fixtures::large::Spec {
            kind: profx_fixtures::large::Format::Dbf,
            bytes: 6000,
            names: 5,
            shape: Default::default(),
        });
        let honest = need(&[Input::owned("t", b.clone())], &crate::xpp::Xpp, Use::App);
        b[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
        let lying = need(&[Input::owned("t", b)], &crate::xpp::Xpp, Use::App);
        assert_eq!(honest, lying);
        assert!(honest.bytes < BASE + (1 << 20), "{honest:?}");
    }

    /// A listing's report that keeps its stacks needs more than its
    /// table; a trace's keeps its events in the file either way.
    #[test]
    fn a_listings_stacks_need_more_than_its_table() {
        let input = Input::owned("t", vec![b'x'; 10 << 20]);
        let of = |loader: &dyn Loader, use_| need(std::slice::from_ref(&input), loader, use_);
        let plist = crate::by_name("plist").unwrap();
        assert!(of(plist, Use::Report).bytes > of(plist, Use::Table).bytes);
        let xpp = crate::by_name("xpp").unwrap();
        assert_eq!(of(xpp, Use::Report), of(xpp, Use::Table));
    }

    #[test]
    fn the_app_needs_more_than_a_report() {
        let input = Input::owned("t", vec![b'x'; 10 << 20]);
        for loader in crate::LOADERS {
            let r = need(std::slice::from_ref(&input), *loader, Use::Report);
            let a = need(std::slice::from_ref(&input), *loader, Use::App);
            assert!(a.bytes > r.bytes, "{}", loader.name());
        }
    }

    #[test]
    fn the_machine_says_what_it_has() {
        if std::path::Path::new("/proc/meminfo").exists() {
            assert!(available().is_some_and(|b| b > 0));
        }
    }
}
