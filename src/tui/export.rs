//! `e`: the rows the current pane shows, filtered and sorted as on screen,
//! written to a CSV file next to the input (`orders.prf.functions.csv`,
//! then `orders.prf.functions-2.csv`, …: the app never replaces a file).
//! The one action that writes; its answer is the status line.

use super::app::App;
use super::view::Scope;
use crate::export::atomic::write_new;
use crate::export::csv::{self, View};
use crate::text::visible;
use std::path::Path;

impl App {
    pub(super) fn export_pane(&mut self) {
        let v = self.view();
        // Collected once: a retry under another name writes the same rows.
        let ids: Vec<u32> = (0..v.rows.len()).filter_map(|i| v.rows.get(i)).collect();
        let p = &self.profile;
        let (pane, view) = match v.scope {
            Scope::Functions => ("functions", Some(View::Functions)),
            Scope::Lines(_) => ("lines", Some(View::Lines)),
            Scope::Stacks(_) => ("stacks", Some(View::Stacks)),
            Scope::Packets => ("packets", Some(View::Packets)),
            Scope::Events(_) => ("events", None),
            Scope::Info => {
                self.status = Some("Info is no table: profx report --view info prints it".into());
                return;
            }
            Scope::Tree(_) | Scope::Flame => {
                self.status = Some(
                    "the tree's paths export as folded stacks: profx export --to folded".into(),
                );
                return;
            }
        };
        let (dir, stem) = place(&self.export_base, pane);
        let written = write_new(&dir, &stem, "csv", |out| {
            Ok(match (view, v.scope) {
                (Some(view), _) => csv::write_rows(p, view, &mut ids.iter().copied(), out)?,
                (None, Scope::Events(k)) => {
                    csv::write_events(p, k, &mut ids.iter().map(|&i| i as usize), out)?
                }
                (None, _) => String::new(),
            })
        });
        self.notice = true;
        self.status = Some(match written {
            Ok((path, what)) => format!(
                "exported {what} to {}",
                visible(&path.display().to_string())
            ),
            Err(e) => format!("export failed: {}", visible(&e.to_string())),
        });
    }
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
