//! The BR profiler log read the plain way (`--reference`): one thread,
//! record by record through `record::read` (nom's streaming parsers), each
//! record fed to the format's rules (`rules.rs`, which lists them). Read
//! the two to learn the format; the fast engine (`fast/`) decodes the same
//! records on every core and feeds the same rules, and a property test
//! (`tests/properties.rs`, `trace_and_log_reference_and_fast_agree`) holds that both
//! make the same profile, events and warnings.

use super::record::{Record, Stop, read};
use super::rules::{Ahead, ReadAhead, Replay};
use crate::{Input, LoadError, LoadOptions};
use profx_model::ProfileBuilder;

/// Reads the whole log into `b`.
pub(super) fn load(
    input: &Input,
    opts: &LoadOptions,
    b: &mut ProfileBuilder,
) -> Result<(), LoadError> {
    let bytes = input.bytes();
    let mut replay = Replay::new(b, input, opts.events, Later(bytes));
    let (read_to, why) = feed(&mut replay, b, bytes, 0);
    replay.finish(b, input.name(), read_to, why)
}

/// Feeds `replay` the records of `bytes` (the log as it is now) from
/// `pos`, where a record begins, one by one; says where reading ended and,
/// at a record that does not read, why and how many bytes were left.
pub(super) fn feed<'a>(
    replay: &mut Replay<'a, Later<'a>>,
    b: &mut ProfileBuilder,
    bytes: &'a [u8],
    mut pos: usize,
) -> (usize, Option<(Stop, u64)>) {
    loop {
        let Some(rest) = bytes.get(pos..).filter(|r| !r.is_empty()) else {
            return (pos, None);
        };
        match read(rest) {
            Ok((rec, len)) => {
                replay.record(b, pos as u64, rec);
                pos += len;
            }
            Err(why) => return (pos, Some((why, rest.len() as u64))),
        }
    }
}

/// The look-ahead read the plain way, record by record from the log's
/// start up to the first record that does not read.
pub(super) struct Later<'a>(pub &'a [u8]);

impl<'a> ReadAhead<'a> for Later<'a> {
    fn read_ahead(&self) -> Ahead<'a> {
        let mut ahead = Ahead::default();
        let mut pos = 0;
        while let Some(Ok((rec, len))) = self.0.get(pos..).filter(|r| !r.is_empty()).map(read) {
            match rec {
                Record::Module { module, name } => {
                    ahead.modules.entry(module).or_insert(name);
                }
                Record::Time(_) => ahead.timed = true,
                _ => {}
            }
            pos += len;
        }
        ahead
    }
}
