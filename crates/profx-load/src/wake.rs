//! What wakes a followed trace's reader (`follow.rs`): the file system's
//! word that one of the trace's files changed (`notify`: inotify on
//! Linux, FSEvents on macOS, ReadDirectoryChangesW on Windows), so an
//! update follows a flush at once; where the platform gives no such word,
//! or the folder cannot be watched, a look at the files every
//! [`POLL`]. Notified, the files are still looked at every [`SAFETY`]:
//! a change the notifications miss (a writer on another machine of a
//! network file system) is read all the same, a little later.

use notify::event::ModifyKind;
use notify::{Event, EventKind, RecommendedWatcher, RecursiveMode, Watcher};
use std::ffi::OsString;
use std::path::Path;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Duration;

/// How often the files are looked at without notifications.
pub const POLL: Duration = Duration::from_millis(200);

/// How often they are looked at with them.
pub const SAFETY: Duration = Duration::from_secs(1);

/// The notifications of one trace's folder, or none.
pub struct Wake {
    rx: Receiver<()>,
    tx: Sender<()>,
    watcher: Option<RecommendedWatcher>,
}

impl std::fmt::Debug for Wake {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Wake")
            .field("notified", &self.notified())
            .finish()
    }
}

/// Wakes a [`Wake`]'s wait from another thread (one stopping the reader).
#[derive(Clone, Debug)]
pub struct Waker(Sender<()>);

impl Waker {
    /// Ends the wait now.
    pub fn wake(&self) {
        let _ = self.0.send(());
    }
}

impl Wake {
    /// Watches the folder of the trace `path` names for changes to its
    /// files: the file itself and its numbered packets (`NAME.000001`…),
    /// which appear beside it. A folder that cannot be watched is looked
    /// at every [`POLL`] instead.
    pub fn new(path: &str) -> Wake {
        let (tx, rx) = channel();
        let p = Path::new(path);
        let dir = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => Path::new(".").to_path_buf(),
        };
        let name = p.file_name().map(OsString::from).unwrap_or_default();
        let send = tx.clone();
        let handler = move |event: notify::Result<Event>| {
            if let Ok(event) = event
                && changes_bytes(&event.kind)
                && event.paths.iter().any(|changed| of_trace(changed, &name))
            {
                let _ = send.send(());
            }
        };
        let watcher = notify::recommended_watcher(handler)
            .and_then(|mut w| w.watch(&dir, RecursiveMode::NonRecursive).map(|()| w))
            .ok();
        Wake { rx, tx, watcher }
    }

    /// Whether the file system says when the files change.
    pub fn notified(&self) -> bool {
        self.watcher.is_some()
    }

    /// Waits until a file of the trace changed, a [`Waker`] woke it, or
    /// the next look is due ([`POLL`], or [`SAFETY`] when notified).
    pub fn wait(&self) {
        let most = if self.notified() { SAFETY } else { POLL };
        if self.rx.recv_timeout(most).is_ok() {
            // A flush is many changes: one look reads them all.
            while self.rx.try_recv().is_ok() {}
        }
    }

    /// A handle that ends a wait from another thread.
    pub fn waker(&self) -> Waker {
        Waker(self.tx.clone())
    }
}

/// Whether an event can change what a file holds: made, written,
/// renamed or removed. Opening, reading and closing a file (the follower's
/// own looks raise those) and its times and rights changing do not: were
/// they to wake it, each look would wake the next.
fn changes_bytes(kind: &EventKind) -> bool {
    match kind {
        EventKind::Create(_) | EventKind::Remove(_) | EventKind::Any => true,
        EventKind::Modify(ModifyKind::Metadata(_)) => false,
        EventKind::Modify(_) => true,
        EventKind::Access(_) | EventKind::Other => false,
    }
}

/// Whether `changed` is the trace's file `name` or one of its packets.
fn of_trace(changed: &Path, name: &OsString) -> bool {
    let Some(file) = changed.file_name() else {
        return false;
    };
    let (file, name) = (file.as_encoded_bytes(), name.as_encoded_bytes());
    file == name || (file.starts_with(name) && file.get(name.len()) == Some(&b'.'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    /// The follower's own looks (an open, a read, a close) never wake it:
    /// each would wake the next.
    #[test]
    fn only_what_changes_bytes_wakes() {
        use notify::event::{AccessKind, AccessMode, CreateKind, DataChange, MetadataKind};
        assert!(changes_bytes(&EventKind::Modify(ModifyKind::Data(
            DataChange::Any
        ))));
        assert!(changes_bytes(&EventKind::Create(CreateKind::File)));
        assert!(!changes_bytes(&EventKind::Access(AccessKind::Open(
            AccessMode::Read
        ))));
        assert!(!changes_bytes(&EventKind::Access(AccessKind::Close(
            AccessMode::Read
        ))));
        assert!(!changes_bytes(&EventKind::Modify(ModifyKind::Metadata(
            MetadataKind::AccessTime
        ))));
    }

    /// Reading the trace, as each look does, does not end a wait.
    #[test]
    fn a_read_does_not_wake() {
        let dir = tempfile::tempdir().expect("a scratch folder");
        let path = dir.path().join("T.PRF");
        std::fs::write(&path, b"1,0.5,\"i\",\"A\",1\n").expect("written");
        let wake = Wake::new(&path.to_string_lossy());
        if !wake.notified() {
            return;
        }
        for _ in 0..5 {
            std::fs::read(&path).expect("read");
        }
        let t = Instant::now();
        wake.wait();
        assert!(t.elapsed() >= SAFETY, "reads woke the wait");
    }

    #[test]
    fn the_trace_and_its_packets_are_its_files() {
        let name = OsString::from("T.PRF");
        assert!(of_trace(Path::new("/x/T.PRF"), &name));
        assert!(of_trace(Path::new("/x/T.PRF.000001"), &name));
        assert!(!of_trace(Path::new("/x/T.PRFX"), &name));
        assert!(!of_trace(Path::new("/x/other.log"), &name));
    }

    /// A write to the trace ends a wait long before its safety look.
    #[test]
    fn a_write_ends_the_wait() {
        let dir = tempfile::tempdir().expect("a scratch folder");
        let path = dir.path().join("T.PRF");
        let wake = Wake::new(&path.to_string_lossy());
        if !wake.notified() {
            // No notifications here: the wait is the poll's.
            let t = Instant::now();
            wake.wait();
            assert!(t.elapsed() >= POLL);
            return;
        }
        let writer = std::thread::spawn(move || std::fs::write(&path, b"1,0.5,\"i\",\"A\",1\n"));
        // Woken by the write, or by the safety look if it came first:
        // either way a wait ends, and the write's own wakes it once more.
        wake.wait();
        writer.join().expect("joined").expect("written");
        let waker = wake.waker();
        waker.wake();
        let t = Instant::now();
        wake.wait();
        assert!(t.elapsed() < SAFETY, "a waker ends the wait at once");
    }
}
