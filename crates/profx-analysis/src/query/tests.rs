//! Tests of the query core; the properties over generated profiles are in `tests/properties.rs`.
