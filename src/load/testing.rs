//! A robustness check shared by every loader's unit tests.

use super::{Input, LoadOptions, load_inputs};
use crate::model::Profile;

/// Replaces every byte of `original` by each of `values` and loads the
/// result with detection and as `format`: no panic, and `check` holds for
/// every profile that loads.
pub fn flips_never_panic(original: &[u8], values: &[u8], format: &str, check: impl Fn(&Profile)) {
    for i in 0..original.len() {
        for &v in values {
            let mut bytes = original.to_vec();
            bytes[i] = v;
            for format in [None, Some(format.to_string())] {
                let input = Input::owned("flipped", bytes.clone());
                if let Ok(p) = load_inputs(
                    &[input],
                    &LoadOptions {
                        format,
                        ..Default::default()
                    },
                ) {
                    check(&p);
                }
            }
        }
    }
}
