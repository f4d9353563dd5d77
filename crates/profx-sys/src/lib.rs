//! Everything profx asks of the operating system that Rust cannot check:
//! memory maps and their advice, the CPU's prefetch hint, the terminal's
//! settings, signal handlers and a thread's priority. Every `unsafe` block
//! of the workspace is here, each with its SAFETY comment; the other
//! crates forbid `unsafe` and call these safe wrappers.

pub mod fs;
pub mod map;
pub mod prefetch;
pub mod signals;
pub mod terminal;
pub mod thread;
