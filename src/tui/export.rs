//! `e`: the rows the current pane shows, filtered and sorted as on screen,
//! written to a CSV file next to the input (`orders.prf.functions.csv`,
//! then `orders.prf.functions-2.csv`, …: the app never replaces a file).
//! The one action that writes; its answer is the status line.

use super::app::App;
use super::intent::Intent;
use super::keymap::{Place, key_for};
use super::pane::Exported;
use crate::analysis::view::Table;
use crate::export::ExportError;
use crate::export::atomic::write_new;
use crate::export::csv;
use crate::model::{PacketId, Profile};
use crate::text::visible;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;

/// Exports of more rows than this write on their own thread, with their
/// progress in the footer and `Esc` to cancel; smaller ones are done
/// before a person could press a key.
const BACKGROUND_FROM: usize = 200_000;

/// An export writing on its own thread.
#[derive(Debug)]
pub(super) struct ExportJob {
    /// Rows written so far (updated every few thousand).
    pub done: Arc<AtomicU64>,
    pub total: u64,
    /// What the rows are ("events", "functions").
    pub noun: &'static str,
    cancel: Arc<AtomicBool>,
    handle: Option<JoinHandle<Result<(PathBuf, String), ExportError>>>,
}

/// What one export writes.
#[derive(Clone, Copy)]
enum Rows {
    Table(Table),
    Events(PacketId),
}

/// Writes `ids` as `rows` into a new file `<stem>.csv` in `dir`, counting
/// them into `done` and stopping (no file left) once `cancel` is set.
fn write(
    p: &Profile,
    rows: Rows,
    ids: &[u32],
    (dir, stem): (&Path, &str),
    done: &AtomicU64,
    cancel: &AtomicBool,
) -> Result<(PathBuf, String), ExportError> {
    write_new(dir, stem, "csv", |out| {
        let mut each = ids
            .iter()
            .copied()
            .enumerate()
            .take_while(|&(i, _)| i % 4096 != 0 || !cancel.load(Ordering::Relaxed))
            .map(|(i, r)| {
                if i % 4096 == 0 {
                    done.store(i as u64, Ordering::Relaxed);
                }
                r
            });
        let what = match rows {
            Rows::Table(view) => csv::write_rows(p, view, &mut each, out)?,
            Rows::Events(k) => csv::write_events(p, k, &mut each.map(|i| i as usize), out)?,
        };
        if cancel.load(Ordering::Relaxed) {
            return Err(ExportError::Io(std::io::Error::other("cancelled")));
        }
        Ok(what)
    })
}

impl App {
    pub(super) fn export_pane(&mut self) {
        // Collected once: a retry under another name writes the same rows.
        let (pane, rows, ids) = match self.pane().exported() {
            Some(Exported::Rows {
                packet: Some(k),
                ids,
                ..
            }) => ("events", Rows::Events(k), ids),
            Some(Exported::Rows { table, ids, .. }) => (table.name(), Rows::Table(table), ids),
            Some(Exported::Paths {
                noun,
                drawn,
                search,
            }) => return self.export_paths(noun, drawn, search),
            None => return,
        };
        // The profile the pane reads (the answer's events' for the Trace
        // pane): its row ids are that profile's.
        let p = Arc::clone(self.cx().profile);
        let (dir, stem) = place(&self.export_base, pane);
        let (done, cancel) = (
            Arc::new(AtomicU64::new(0)),
            Arc::new(AtomicBool::new(false)),
        );
        if ids.len() < BACKGROUND_FROM {
            let written = write(&p, rows, &ids, (&dir, &stem), &done, &cancel);
            return self.export_done(written);
        }
        let job = ExportJob {
            done: Arc::clone(&done),
            total: ids.len() as u64,
            noun: pane,
            cancel: Arc::clone(&cancel),
            handle: None,
        };
        let profile = p;
        let spawned = std::thread::Builder::new()
            .name("profx-export".into())
            .spawn(move || write(&profile, rows, &ids, (&dir, &stem), &done, &cancel));
        match spawned {
            Ok(handle) => {
                self.export_job = Some(ExportJob {
                    handle: Some(handle),
                    ..job
                })
            }
            Err(e) => self.export_done(Err(ExportError::Io(e))),
        }
    }

    /// `e` in the Call tree or the Flame pane: the paths it shows, as
    /// folded stacks (`<input>.tree.folded`, `<input>.flame.folded`): the
    /// flame's hidden functions, sandwich and zoom as drawn, the tree's
    /// paths top-down; a search keeps the paths through a matching frame
    /// (pprof's `-focus`).
    fn export_paths(
        &mut self,
        noun: &'static str,
        drawn: Option<(Arc<crate::analysis::flame_view::Icicle>, Option<u32>)>,
        search: Option<String>,
    ) {
        use crate::analysis::flame_view::Icicle;
        let cx = self.cx();
        let (icicle, zoom) = match drawn {
            Some(drawn) => drawn,
            None => (Arc::new(Icicle::tree(cx.profile, &cx.tree_index())), None),
        };
        let hits = search.map(|text| cx.function_hits(&text));
        let keep = |path: &[crate::analysis::cct::Label]| match &hits {
            Some(hits) => path.iter().any(|l| {
                l.func()
                    .is_some_and(|f| hits.get(f.index()).copied().unwrap_or(false))
            }),
            None => true,
        };
        let ms = cx.tree_index().unit() == crate::analysis::calltree::Unit::Ms;
        let (dir, stem) = place(&self.export_base, noun);
        let written = write_new(&dir, &stem, "folded", |out| {
            crate::export::folded::write_icicle(cx.profile, &icicle, (zoom, ms), &keep, out)
                .map(|what| format!("{what} as folded stacks"))
                .map_err(ExportError::Io)
        });
        self.export_done(written);
    }

    /// The result of an export, as a message a key will not erase unseen.
    fn export_done(&mut self, written: Result<(PathBuf, String), ExportError>) {
        self.notice = true;
        self.status = Some(said(written));
    }

    /// A key or a tick while an export runs: `Esc` cancels it, `q` cancels
    /// it and quits once it stopped, a tick takes its end; true when the
    /// intent was the export's.
    pub(super) fn export_intent(&mut self, intent: &Intent) -> bool {
        let Some(job) = &mut self.export_job else {
            return false;
        };
        let finished = job.handle.as_ref().is_none_or(JoinHandle::is_finished);
        match intent {
            Intent::Cancel | Intent::Quit => job.cancel.store(true, Ordering::Relaxed),
            Intent::Tick if !finished => return true,
            _ if !finished => return false,
            _ => {}
        }
        if *intent == Intent::Cancel || *intent == Intent::Quit || finished {
            let written = match job.handle.take().map(JoinHandle::join) {
                Some(Ok(w)) => w,
                Some(Err(_)) | None => Err(ExportError::Io(std::io::Error::other(
                    "the export's thread stopped",
                ))),
            };
            self.export_job = None;
            self.export_done(written);
            if *intent == Intent::Quit {
                self.quit = true;
            }
            return true;
        }
        false
    }

    /// Whether an export is writing on its own thread: the loop then wakes
    /// ten times a second to draw its progress.
    pub fn exporting(&self) -> bool {
        self.export_job.is_some()
    }

    /// "exporting 1,234,567 of 9,111,070 events · Esc cancels", while one
    /// runs.
    pub fn export_progress(&self) -> Option<String> {
        let job = self.export_job.as_ref()?;
        let done = job.done.load(Ordering::Relaxed).min(job.total);
        Some(format!(
            "exporting {} of {} · {} cancels",
            crate::report::fmt::grouped(done),
            crate::report::fmt::counted(job.total, job.noun),
            key_for(&Intent::Cancel, Place::Exporting)
        ))
    }
}

/// An export's result in words.
fn said(written: Result<(PathBuf, String), ExportError>) -> String {
    match written {
        Ok((path, what)) => format!(
            "exported {what} to {}",
            visible(&path.display().to_string())
        ),
        Err(ExportError::Io(e)) if e.to_string() == "cancelled" => {
            "export cancelled: no file written".into()
        }
        Err(e) => format!("export failed: {}", visible(&e.to_string())),
    }
}

/// `e` in the threads list: its rows, filtered and sorted as shown, to
/// `<input>.threads.csv` (a handful: written before the next key).
pub(super) fn threads(list: &super::threads::ThreadsList) -> String {
    let ids = list.shown();
    let (dir, stem) = place(&list.export_base, Table::Threads.name());
    let (done, cancel) = (AtomicU64::new(0), AtomicBool::new(false));
    let rows = Rows::Table(Table::Threads);
    said(write(
        list.loaded.loaded(),
        rows,
        &ids,
        (&dir, &stem),
        &done,
        &cancel,
    ))
}

/// The folder of the input and `<file name>.<pane>`.
fn place(base: &Path, pane: &str) -> (std::path::PathBuf, String) {
    let dir = match base.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => ".".into(),
    };
    let name = base
        .file_name()
        .map_or("profx".into(), |n| n.to_string_lossy().into_owned());
    (dir, format!("{name}.{pane}"))
}
