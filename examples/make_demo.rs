//! Regenerates the demo profile built into profx:
//!
//! ```sh
//! cargo run --example make_demo -- assets/demo/orders.prof
//! ```

use std::process::ExitCode;

fn main() -> ExitCode {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "assets/demo/orders.prof".into());
    let desc = profx::fixture_gen::demo::orders_description();
    let written = profx::fixture_gen::br::compile(&desc)
        .map_err(|e| e.to_string())
        .and_then(|bytes| std::fs::write(&out, bytes).map_err(|e| format!("{out}: {e}")));
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("make_demo: {e}");
            ExitCode::FAILURE
        }
    }
}
