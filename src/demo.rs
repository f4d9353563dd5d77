//! The demo profile built into the binary, so `profx` with no file (and
//! `profx report --demo`) shows real content on a first run anywhere.
//!
//! It is an ordinary BR log in `assets/demo/`, loaded by the ordinary
//! loader, so the demo exercises the same code as a user's file. It is made
//! by `cargo run --example make_demo` (see `fixture_gen::demo`); a test
//! checks the committed file is what the generator writes.

use crate::load::Input;

pub use crate::fixture_gen::demo::{BYTES, NAME};

/// The demo as an input, ready for `load::load_inputs`.
pub fn input() -> Input {
    Input::from_static(NAME, BYTES)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture_gen::{br, demo};
    use crate::load::{LoadOptions, load_inputs};

    #[test]
    fn the_committed_demo_is_what_the_generator_writes() {
        let fresh = br::compile(&demo::orders_description()).expect("compiles");
        assert!(
            fresh == BYTES,
            "run `cargo run --example make_demo` and commit assets/demo/orders.prof"
        );
    }

    /// Every pane of the app has rows to show, and nothing is damaged.
    #[test]
    fn the_demo_fills_every_pane_without_warnings() {
        let p = load_inputs(
            &[input()],
            &LoadOptions {
                strict: true,
                ..Default::default()
            },
        )
        .expect("loads");
        assert_eq!(p.format, "br");
        assert!(p.functions().len() >= 8);
        assert!(p.lines().len() >= 30);
        assert!(p.stacks().len() >= 10);
        assert_eq!(p.packets().len(), 1);
        assert_eq!(p.event_count(), 3010);
        assert!(!p.meta.is_empty());
        let names: Vec<&str> = p.function_ids().map(|f| p.function_name(f)).collect();
        for expected in ["(main)", "(gosub)", "FNEXPAND", "LIB\\DBLIB.BR"] {
            assert!(names.contains(&expected), "{expected} in {names:?}");
        }
    }
}
