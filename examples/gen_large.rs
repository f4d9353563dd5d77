//! Writes a large synthetic profile for benchmarks (issue 7):
//!
//! ```text
//! cargo run --release --example gen_large -- FORMAT SIZE NAMES OUT [SHAPE]
//!   FORMAT  deldbe | dbf | br | plist
//!   SIZE    bytes, with k/M/G suffixes (PLIST: ignored, one record per name)
//!   NAMES   distinct function names
//!   SHAPE   current (the default) | real: long and C++-style names sharing
//!           prefixes, a parameters field, tens of call sites per caller,
//!           eight threads (`fixture_gen::large::Shape`)
//! ```
//!
//! The same arguments always give the same file (fixed seed).

use profx::fixture_gen::large::{Format, Shape, Spec, write};
use std::process::ExitCode;

fn size(s: &str) -> Option<u64> {
    let (num, scale) = match s.chars().last()? {
        'k' | 'K' => (&s[..s.len() - 1], 1 << 10),
        'm' | 'M' => (&s[..s.len() - 1], 1 << 20),
        'g' | 'G' => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    num.parse::<u64>().ok().map(|n| n * scale)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (format, bytes, names, out, shape) = match args.as_slice() {
        [f, b, n, o] => (f, b, n, o, "current"),
        [f, b, n, o, s] => (f, b, n, o, s.as_str()),
        _ => {
            eprintln!("usage: gen_large deldbe|dbf|br|plist SIZE NAMES OUT [current|real]");
            return ExitCode::from(2);
        }
    };
    let (Some(kind), Some(bytes), Ok(names), Some(shape)) = (
        Format::parse(format),
        size(bytes),
        names.parse(),
        Shape::parse(shape),
    ) else {
        eprintln!("gen_large: bad FORMAT, SIZE, NAMES or SHAPE");
        return ExitCode::from(2);
    };
    let spec = Spec {
        kind,
        bytes,
        names,
        shape,
    };
    let result = std::fs::File::create(out).and_then(|f| write(spec, f));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gen_large: {out}: {e}");
            ExitCode::FAILURE
        }
    }
}
