//! The way back from a trace's profile to its input (`profx_model::Replay`):
//! a query choosing threads loads the input again, through the same
//! loader and so the same rules engine (`xpp/rules.rs`), with only those
//! threads' records let through. Its events are the chosen threads', its
//! session their span: exactly a trace holding only their events.
//!
//! A time range replays every record of those threads (the calls open at
//! its start are the range's stack), its numbers cut to the range
//! (`ProfileBuilder::cut_to`). Its profile keeps no events of its own: what
//! happened in time is the thread choice's to show (`Reads::Events`).

use crate::{Input, LoadError, LoadOptions, Loader, load_one};
use profx_model::{Profile, Replay, TimeRange, Watch};

/// A loaded input, its loader and the options it was loaded with.
pub(crate) struct FromInput {
    input: Input,
    loader: &'static dyn Loader,
    opts: LoadOptions,
}

impl std::fmt::Debug for FromInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FromInput")
            .field("input", &self.input.name())
            .field("loader", &self.loader.name())
            .finish()
    }
}

impl FromInput {
    pub(crate) fn new(input: &Input, loader: &'static dyn Loader, opts: &LoadOptions) -> FromInput {
        FromInput {
            input: input.clone(),
            loader,
            opts: opts.clone(),
        }
    }
}

impl Replay for FromInput {
    /// The load is watched (`Loader::load_watched`): `watch` is asked from
    /// every thread that reads, at least every `Watch::EVERY` bytes, and
    /// a stop ends them all before this returns `Err("cancelled")`.
    fn select(
        &self,
        threads: Option<&[u64]>,
        range: Option<TimeRange>,
        watch: &Watch<'_>,
    ) -> Result<Profile, String> {
        if watch.cancelled() {
            return Err(LoadError::Cancelled.to_string());
        }
        let opts = LoadOptions {
            threads: threads.map(<[u64]>::to_vec),
            range,
            events: match range {
                Some(_) => crate::KeepEvents::Counted,
                None => self.opts.events,
            },
            timeline: range.is_none() && self.opts.timeline,
            // The input loaded once; its first load's warnings were the
            // user's to see. A replay is not stopped by them again.
            strict: false,
            ..self.opts.clone()
        };
        load_one(&self.input, self.loader, &opts, Some(watch)).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    //! A thread choice that is stopped and shown (issue 62), on generated
    //! traces of every encoding, read by the fast engine (on three
    //! parsers, so that its workers run on any machine) and by the
    //! reference loader.

    use crate::{Input, KeepEvents, KeepStacks, LoadOptions, load_inputs, load_paths};
    use profx_fixtures::large::{Format, Shape, Spec, bytes};
    use profx_model::{Profile, Watch};
    use std::collections::BTreeSet;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Mutex, OnceLock};

    /// Large enough that a watch is told more than `Watch::EVERY` apart
    /// unless it is told as the load goes.
    const SIZE: u64 = 5 << 20;

    /// A generated trace of `kind` (DELDBE or DBF), made once for all
    /// the tests.
    fn generated(kind: Format) -> &'static [u8] {
        static MADE: [OnceLock<Vec<u8>>; 2] = [OnceLock::new(), OnceLock::new()];
        let made = &MADE[usize::from(kind == Format::Dbf)];
        made.get_or_init(|| {
            bytes(Spec {
                kind,
                bytes: SIZE,
                names: 300,
                shape: Shape::Current,
            })
        })
    }

    /// A generated DBF trace written in three packets, `T.PRF` (the header
    /// and the first records) and `T.PRF.000001`, `T.PRF.000002` (records
    /// only), in a folder removed when dropped.
    fn packets() -> (tempfile::TempDir, String) {
        let whole = generated(Format::Dbf);
        let header_len = usize::from(u16::from_le_bytes([whole[8], whole[9]]));
        let record_len = usize::from(u16::from_le_bytes([whole[10], whole[11]]));
        let records = (whole.len() - header_len - 1) / record_len;
        let third = header_len + records / 3 * record_len;
        let two_thirds = header_len + records / 3 * 2 * record_len;
        let dir = tempfile::Builder::new()
            .prefix("profx-replay-watched-")
            .tempdir()
            .expect("a folder");
        let parts = [
            ("T.PRF", &whole[..third]),
            ("T.PRF.000001", &whole[third..two_thirds]),
            ("T.PRF.000002", &whole[two_thirds..]),
        ];
        for (name, part) in parts {
            std::fs::write(dir.path().join(name), part).expect("written");
        }
        let path = dir.path().join("T.PRF").to_string_lossy().into_owned();
        (dir, path)
    }

    /// How each case is loaded: its name, the options' engine and whether
    /// it is the packets.
    fn cases() -> Vec<(&'static str, Format, bool, bool)> {
        vec![
            ("deldbe", Format::Deldbe, false, false),
            ("deldbe reference", Format::Deldbe, true, false),
            ("dbf", Format::Dbf, false, false),
            ("dbf reference", Format::Dbf, true, false),
            ("dbf packets", Format::Dbf, false, true),
            ("dbf packets reference", Format::Dbf, true, true),
        ]
    }

    /// The case's profile, loaded whole, the input's size (all its
    /// pieces) and the packets' folder, if any: the replay reads the
    /// files again, so the caller keeps it until it is done (dropped, it
    /// is removed).
    fn loaded(
        kind: Format,
        reference: bool,
        packeted: bool,
    ) -> (Profile, u64, Option<tempfile::TempDir>) {
        let opts = LoadOptions {
            reference,
            workers: Some(3),
            // Less to make that the replay does not need.
            events: KeepEvents::Counted,
            stacks: KeepStacks::Skipped,
            ..Default::default()
        };
        if packeted {
            let (dir, path) = packets();
            let p = load_paths(&[path], &opts).expect("loads");
            let size = std::fs::read_dir(dir.path())
                .expect("listed")
                .map(|e| e.expect("an entry").metadata().expect("its size").len())
                .sum();
            return (p, size, Some(dir));
        }
        let input = Input::owned("T.PRF", generated(kind).to_vec());
        let size = input.len();
        (load_inputs(&[input], &opts).expect("loads"), size, None)
    }

    /// The id of the thread running this, as the kernel numbers it.
    fn tid() -> u64 {
        let link = std::fs::read_link("/proc/thread-self").expect("Linux");
        let tail = link.file_name().expect("task/TID").to_string_lossy();
        tail.parse().expect("a number")
    }

    /// Waits until none of `tids` (but this thread) is a thread of this
    /// process any more: a thread joined is gone at once, but the kernel
    /// may show it an instant longer. Panics after 10 s.
    fn all_ended(tids: &BTreeSet<u64>) {
        let me = tid();
        let alive = || {
            tids.iter()
                .filter(|&&t| t != me)
                .filter(|t| std::path::Path::new(&format!("/proc/self/task/{t}")).exists())
                .count()
        };
        let start = std::time::Instant::now();
        while alive() > 0 {
            assert!(start.elapsed().as_secs() < 10, "threads left running");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }

    /// Two of the trace's threads.
    fn two_threads(p: &Profile) -> Vec<u64> {
        let ids: Vec<u64> = p.threads().iter().map(|t| t.id).collect();
        assert!(ids.len() >= 2, "{ids:?}");
        vec![ids[0], ids[ids.len() - 1]]
    }

    #[test]
    fn a_replay_cancelled_from_the_start_reads_nothing() {
        let input = Input::owned("T.PRF", b"1,0,\"i\",\"A\"\n2,1,\"i\",\"B\"\n".to_vec());
        let p = load_inputs(&[input], &LoadOptions::default()).expect("loads");
        let told = Mutex::new(Vec::new());
        let watch = Watch {
            cancel: &|| true,
            progress: &|done, of| told.lock().expect("not poisoned").push((done, of)),
        };
        let replay = p.replay().expect("a trace replays");
        assert_eq!(
            replay.threads(&[1], &watch).err().as_deref(),
            Some("cancelled")
        );
        assert!(told.lock().expect("not poisoned").is_empty());
    }

    /// Cancel says yes once the replay first tells how far it has read:
    /// the replay returns an error, having told nothing more, and the
    /// threads that asked (workers among them, for the fast engine) have
    /// ended.
    #[test]
    fn a_replay_cancelled_midway_stops_all_its_threads() {
        for (case, kind, reference, packeted) in cases() {
            let (p, size, _packets) = loaded(kind, reference, packeted);
            let (stop, asked_by) = (AtomicBool::new(false), Mutex::new(BTreeSet::new()));
            let told = Mutex::new(Vec::new());
            let cancel = || {
                asked_by.lock().expect("not poisoned").insert(tid());
                stop.load(Ordering::SeqCst)
            };
            let progress = |done, of| {
                told.lock().expect("not poisoned").push((done, of));
                stop.store(true, Ordering::SeqCst);
            };
            let watch = Watch {
                cancel: &cancel,
                progress: &progress,
            };
            let replay = p.replay().expect("a trace replays");
            let got = replay.threads(&two_threads(&p), &watch);
            assert_eq!(got.err().as_deref(), Some("cancelled"), "{case}");
            let told = told.into_inner().expect("not poisoned");
            assert_eq!(told.len(), 1, "{case}: {told:?}");
            assert!(told[0].0 < size && told[0].1 == size, "{case}: {told:?}");
            let asked_by = asked_by.into_inner().expect("not poisoned");
            if !reference {
                assert!(asked_by.len() > 1, "{case}: only the caller asked");
            }
            all_ended(&asked_by);
        }
    }

    /// What a watch hears of a replay that runs to its end: bytes read,
    /// rising, never more than `Watch::EVERY` apart (from the start too),
    /// ending at the input's size; cancel asked between any two; and the
    /// profile the unwatched thread choice makes.
    #[test]
    fn a_replay_tells_its_progress_every_4_mib_and_asks_between() {
        #[derive(Debug, PartialEq)]
        enum Heard {
            Asked,
            Told(u64, u64),
        }
        for (case, kind, reference, packeted) in cases() {
            let (p, size, _packets) = loaded(kind, reference, packeted);
            let heard = Mutex::new(Vec::new());
            let hear = |what| heard.lock().expect("not poisoned").push(what);
            let watch = Watch {
                cancel: &|| {
                    hear(Heard::Asked);
                    false
                },
                progress: &|done, of| hear(Heard::Told(done, of)),
            };
            let replay = p.replay().expect("a trace replays");
            let ids = two_threads(&p);
            let watched = replay.threads(&ids, &watch).expect("not cancelled");
            let plain = replay.threads(&ids, &Watch::NONE).expect("not cancelled");
            assert_eq!(
                format!("{:?}", watched.totals),
                format!("{:?}", plain.totals)
            );
            assert_eq!(watched.functions().len(), plain.functions().len(), "{case}");

            let heard = heard.into_inner().expect("not poisoned");
            let told: Vec<(u64, u64)> = heard
                .iter()
                .filter_map(|h| match *h {
                    Heard::Told(done, of) => Some((done, of)),
                    Heard::Asked => None,
                })
                .collect();
            assert!(told.len() >= 3, "{case}: {told:?}");
            assert!(told.iter().all(|&(_, of)| of == size), "{case}");
            assert_eq!(told.last().map(|&(done, _)| done), Some(size), "{case}");
            let mut before = 0;
            for &(done, _) in &told {
                assert!(done > before, "{case}: {told:?}");
                assert!(done - before <= Watch::EVERY, "{case}: {before} to {done}");
                before = done;
            }
            // Asked first, and again after each figure but the last.
            assert_eq!(heard.first(), Some(&Heard::Asked), "{case}");
            let mut last_told = None;
            for (i, h) in heard.iter().enumerate() {
                if let Heard::Told(..) = h {
                    if let Some(j) = last_told {
                        let between = &heard[j + 1..i];
                        assert!(between.contains(&Heard::Asked), "{case}: at {i}");
                    }
                    last_told = Some(i);
                }
            }
        }
    }
}
