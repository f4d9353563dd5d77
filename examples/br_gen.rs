//! Writes a BR profiler log from a readable description
//! (see `profx::fixture_gen::br` for the language):
//!
//! ```sh
//! cargo run --example br_gen -- tests/fixtures/br/timed.brdesc /tmp/timed.prof
//! ```

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [desc, out] = args.as_slice() else {
        eprintln!("usage: br_gen DESCRIPTION OUTPUT");
        return ExitCode::from(2);
    };
    let result = std::fs::read_to_string(desc)
        .map_err(|e| e.to_string())
        .and_then(|text| profx::fixture_gen::br::compile(&text).map_err(|e| format!("{desc}: {e}")))
        .and_then(|bytes| std::fs::write(out, bytes).map_err(|e| e.to_string()));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("br_gen: {e}");
            ExitCode::FAILURE
        }
    }
}
