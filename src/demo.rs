//! The demo profile built into the binary, so `profx` with no file (and
//! `profx report --demo`) shows real content on a first run anywhere.
//!
//! It is an ordinary input file in `assets/`, loaded by the ordinary loader:
//! the demo exercises the same code as a user's file.

use crate::load::Input;

/// File name the demo reports as its source.
pub const NAME: &str = "demo/orders.plist.txt";

const BYTES: &[u8] = include_bytes!("../assets/demo/orders.plist.txt");

/// The demo as an input, ready for `load::load_inputs`.
pub fn input() -> Input {
    Input::from_static(NAME, BYTES)
}
