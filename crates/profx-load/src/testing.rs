//! A robustness check shared by every loader's unit tests.

use super::{Input, LoadOptions, load_inputs};
use profx_model::Profile;

/// Replaces every byte of `original` by each of `values` and loads the
/// result with detection and as `format`: no panic, and `check` holds for
/// every profile that loads.
pub(crate) fn flips_never_panic(
    original: &[u8],
    values: &[u8],
    format: &str,
    check: impl Fn(&Profile),
) {
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

/// Loads `bytes` as `format`, cut into chunks of `chunk_bytes` for the
/// parsing workers (`None`: the loader's own size), for the tests that
/// check chunked loading gives the one-piece profile.
pub(crate) fn load_chunked(format: &str, bytes: &[u8], chunk_bytes: Option<usize>) -> Profile {
    let opts = LoadOptions {
        format: Some(format.into()),
        chunk_bytes,
        ..Default::default()
    };
    load_inputs(&[Input::owned("chunked", bytes.to_vec())], &opts).expect("loads")
}
