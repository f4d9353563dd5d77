//! Replay from any point: a log fed to the rules in parts, split at any
//! record boundary, makes what it makes fed at once; fed as data appended
//! later, it does too on the logs `rules.rs` says it does, and keeps what
//! it decided on the others.

use super::*;
use crate::br::record::read;
use crate::br::reference::{Later, feed};
use profx_fixtures::br::compile;
use profx_model::{HitsCount, Profile};
use proptest::prelude::*;

/// The replay of `bytes` fed in parts ending at `cuts` (record
/// boundaries, ascending) and then at the end: its result, the profile and
/// every event, as text to compare. With `appended`, each part is fed as
/// data appended to the log: the rules' reader reads only the log as it
/// stands then; without, it reads the whole log from the start.
fn replayed(bytes: &[u8], cuts: &[usize], appended: bool) -> String {
    let input = Input::owned("log", bytes.to_vec());
    let whole = input.bytes();
    let mut b = ProfileBuilder::new("br");
    b.hits_count(HitsCount::Samples);
    let first = if appended {
        cuts.first().copied().unwrap_or(whole.len())
    } else {
        whole.len()
    };
    let mut replay = Replay::new(&mut b, &input, KeepEvents::Indexed, Later(&whole[..first]));
    let (mut pos, mut why) = (0, None);
    for &end in cuts.iter().chain([&whole.len()]) {
        let now = &whole[..end];
        if appended {
            replay.appended(Later(now));
        }
        (pos, why) = feed(&mut replay, &mut b, now, pos);
        if why.is_some() {
            break;
        }
    }
    let result = replay.finish(&mut b, "log", pos, why);
    described(result, b.finish())
}

fn described(result: Result<(), LoadError>, p: Profile) -> String {
    let mut out = format!("{result:?}\n{p:?}\n");
    for k in p.packets() {
        for i in 0..k.events.len() {
            out += &format!("{:?}\n", k.events.get(i));
        }
    }
    out
}

/// Where each record of `bytes` ends, up to the first that does not read.
fn boundaries(bytes: &[u8]) -> Vec<usize> {
    let (mut pos, mut ends) = (0, Vec::new());
    while let Some(Ok((_, len))) = bytes.get(pos..).filter(|r| !r.is_empty()).map(read) {
        pos += len;
        ends.push(pos);
    }
    ends
}

/// The records a generated log is made of, every rule's case among
/// them: mappings early, late, again and never; samples closed, closed
/// by the next, left open; records outside samples; times here and there;
/// named, GOSUB, main and program frames; damage that stops the reading.
fn line(kind: u8, v: u8) -> String {
    let module = v % 4;
    match kind {
        0 => format!("module {module} \"M{}.BR\"\n", v % 3),
        1..=3 => format!("sample {module} {v} {}\n", v % 3),
        4 => format!("time {v}us\n"),
        5 | 6 => format!("back {module} {} 0\n", 100 + u32::from(v)),
        7 => format!(
            "name \"FN{}{}\"\n",
            v % 5,
            ["", "  ", " \\x00"][usize::from(v % 3)]
        ),
        8 => "gosub\n".into(),
        9 => "main\n".into(),
        10 | 11 => "end\n".into(),
        _ if v.is_multiple_of(8) => "bytes 02\n".into(),
        _ => "sample 1 7 0\nname \"FNA\"\nback 2 9 0\nmain\nend\n".into(),
    }
}

fn log() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec((0u8..14, any::<u8>()), 1..60).prop_map(|lines| {
        let desc: String = lines.iter().map(|&(k, v)| line(k, v)).collect();
        compile(&desc).unwrap_or_default()
    })
}

/// Whether the log is one `rules.rs` says a replay of appended data makes
/// as one feed does: every module mapped before its first use (or never),
/// and no sample without time closed before the first time record of a
/// timed log.
fn as_brs_logs_are(bytes: &[u8]) -> bool {
    let mut records = Vec::new();
    let mut pos = 0;
    while let Some(Ok((rec, len))) = bytes.get(pos..).filter(|r| !r.is_empty()).map(read) {
        records.push(rec);
        pos += len;
    }
    let mapped_ever: Vec<u16> = records
        .iter()
        .filter_map(|r| match r {
            Record::Module { module, .. } => Some(*module),
            _ => None,
        })
        .collect();
    let timed_ever = records.iter().any(|r| matches!(r, Record::Time(_)));
    let (mut mapped, mut seen_time, mut open_untimed) = (Vec::new(), false, None::<bool>);
    for rec in &records {
        let untimed_closes = open_untimed == Some(true) && !seen_time && timed_ever;
        match rec {
            Record::Module { module, .. } => mapped.push(*module),
            Record::Current(f) | Record::Back(f)
                if !mapped.contains(&f.module) && mapped_ever.contains(&f.module) =>
            {
                return false;
            }
            _ => {}
        }
        match rec {
            Record::Current(_) if untimed_closes => return false,
            Record::Current(_) => open_untimed = Some(true),
            Record::End if untimed_closes => return false,
            Record::End => open_untimed = None,
            Record::Time(_) => {
                seen_time = true;
                open_untimed = open_untimed.map(|_| false);
            }
            _ => {}
        }
    }
    !(open_untimed == Some(true) && !seen_time && timed_ever)
}

proptest! {
    /// Fed in parts at any record boundaries, with the look-ahead of the
    /// whole log, a replay makes what one feed makes.
    #[test]
    fn a_replay_in_parts_is_one_replay(bytes in log(), picks in prop::collection::vec(any::<usize>(), 0..6)) {
        let ends = boundaries(&bytes);
        prop_assume!(!ends.is_empty());
        let mut cuts: Vec<usize> = picks.iter().map(|p| ends[p % ends.len()]).collect();
        cuts.sort_unstable();
        cuts.dedup();
        prop_assert_eq!(replayed(&bytes, &cuts, false), replayed(&bytes, &[], false));
    }

    /// Fed as data appended part after part, each part's look-ahead read
    /// from the log as it stood, a log mapped and timed as BR writes them
    /// makes what one feed makes.
    #[test]
    fn appended_data_replays_as_one_feed(bytes in log(), picks in prop::collection::vec(any::<usize>(), 0..6)) {
        let ends = boundaries(&bytes);
        prop_assume!(!ends.is_empty() && as_brs_logs_are(&bytes));
        let mut cuts: Vec<usize> = picks.iter().map(|p| ends[p % ends.len()]).collect();
        cuts.sort_unstable();
        cuts.dedup();
        prop_assert_eq!(replayed(&bytes, &cuts, true), replayed(&bytes, &[], false));
    }
}

/// A log of every rule's case, split in two at each record boundary and
/// into one part a record: each replay is the one feed's.
#[test]
fn every_boundary_splits_a_replay_alike() {
    let bytes = compile(
        "end\nsample 3 1 0\nback 1 2 0\nname \"FN  \"\nend\nmodule 1 \"A.BR\"\n\
         sample 1 5 1\ntime 3us\ngosub\nback 1 6 0\nmain\n\
         sample 2 8 0\ntime 1us\nend\ntime 2us\nmodule 1 \"B.BR\"\nmodule 2 \"C.BR\"\n\
         sample 1 9 0\nbytes 02\n",
    )
    .unwrap();
    let once = replayed(&bytes, &[], false);
    assert!(once.contains("MappedAgain") && once.contains("Unclosed"));
    assert!(once.contains("UnmappedModule") && once.contains("MissingTime"));
    let ends = boundaries(&bytes);
    for &cut in &ends {
        assert_eq!(replayed(&bytes, &[cut], false), once, "cut at {cut}");
    }
    assert_eq!(replayed(&bytes, &ends, false), once, "a record a part");
}

/// A module used in one part and mapped only in data appended after it:
/// the part replayed first named it `module#N`, with its warning, and
/// keeps that; a sample replayed after the append takes the mapping.
#[test]
fn appended_data_does_not_go_back() {
    let first = "sample 4 1 0\nend\n";
    let bytes = compile(&format!("{first}module 4 \"LATE.BR\"\nsample 4 2 0\nend\n")).unwrap();
    let cut = compile(first).unwrap().len();
    let once = replayed(&bytes, &[], false);
    assert!(!once.contains("UnmappedModule"), "{once}");
    let appended = replayed(&bytes, &[cut], true);
    assert!(appended.contains("UnmappedModule"), "{appended}");
    assert!(appended.contains("module#4") && appended.contains("LATE.BR"));
    // Appended after the second mapping's use, the first part knows it.
    let whole_first = replayed(&bytes, &[bytes.len()], true);
    assert_eq!(whole_first, once);
}

/// A sample without time replayed before the log's first time record
/// arrived weighs nothing, with no warning; fed at once, the log is timed
/// from the start and the sample counts 0 ms, with one.
#[test]
fn a_sample_replayed_before_the_first_time_record_stays_weightless() {
    let first = "module 1 \"A.BR\"\nsample 1 1 0\nend\n";
    let bytes = compile(&format!("{first}sample 1 2 0\ntime 5us\nend\n")).unwrap();
    let cut = compile(first).unwrap().len();
    let once = replayed(&bytes, &[], false);
    assert!(once.contains("MissingTime"), "{once}");
    let appended = replayed(&bytes, &[cut], true);
    assert!(!appended.contains("MissingTime"), "{appended}");
    assert!(
        appended.contains("\"timed\""),
        "the log is timed at its end"
    );
}
