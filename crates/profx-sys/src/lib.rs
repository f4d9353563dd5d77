//! Everything profx asks of the operating system that Rust cannot check:
//! memory maps and their advice, bytes shared while they grow, the heap's
//! freed pages given back, the CPU's prefetch hint, the terminal's
//! settings, signal handlers and a thread's priority. Every `unsafe` block
//! of the workspace's crates is here, each with its SAFETY comment; the
//! other crates forbid `unsafe` and call these safe wrappers.

#![deny(missing_docs)]
#![warn(unreachable_pub)]
#![deny(clippy::undocumented_unsafe_blocks)]
#![cfg_attr(not(test), deny(clippy::unwrap_used))]

pub mod fs;
pub mod grow;
pub mod heap;
pub mod map;
pub mod prefetch;
pub mod signals;
pub mod terminal;
pub mod thread;
