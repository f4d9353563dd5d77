//! Writers of input files from readable descriptions, for fixtures, the
//! demo and benchmarks. Never used when loading.

pub mod br;
pub mod demo;
