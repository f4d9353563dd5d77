//! Writes a large synthetic profile for benchmarks (issue 7):
//!
//! ```text
//! cargo run --release --example gen_large -- FORMAT SIZE NAMES OUT
//!   FORMAT  deldbe | dbf | br | plist
//!   SIZE    bytes, with k/M/G suffixes (PLIST: ignored, one record per name)
//!   NAMES   distinct function names
//! ```
//!
//! The same arguments always give the same file (fixed seed).

use profx::fixture_gen::large::{Kind, Spec, write};
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
    let [format, bytes, names, out] = args.as_slice() else {
        eprintln!("usage: gen_large deldbe|dbf|br|plist SIZE NAMES OUT");
        return ExitCode::from(2);
    };
    let (Some(kind), Some(bytes), Ok(names)) = (Kind::parse(format), size(bytes), names.parse())
    else {
        eprintln!("gen_large: bad FORMAT, SIZE or NAMES");
        return ExitCode::from(2);
    };
    let result = std::fs::File::create(out).and_then(|f| write(Spec { kind, bytes, names }, f));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gen_large: {out}: {e}");
            ExitCode::FAILURE
        }
    }
}
