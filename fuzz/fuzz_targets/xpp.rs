//! Detection, loading (as "xpp" and by detection), every report and every
//! screen of the app over arbitrary bytes: `profx::fuzzing::exercise`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| profx::fuzzing::exercise(data, "xpp"));
