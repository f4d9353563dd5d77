//! The `profx` command: argument parsing and exit codes. Everything it
//! shows comes from the library; errors become one line on stderr.

#![forbid(unsafe_code)]
#![cfg_attr(not(test), deny(clippy::unwrap_used))]

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::main()
}
