//! `y`: the selected name, or the selected path in the tree and the flame,
//! as text for the clipboard. The event loop sends it to the terminal as
//! an OSC 52 escape (crossterm's `CopyToClipboard`), which works over SSH
//! and in tmux, and carries it base64-encoded: no byte of a name reaches
//! the terminal raw.

use super::app::App;
use super::view::{Focus, Scope};
use crate::analysis::flame_view::Icicle;
use crate::model::StackId;

/// A path's frames as the Stacks pane joins them.
const JOIN: &str = " > ";

/// Copies what is selected, saying what; or says there is nothing.
pub(super) fn copy_selected(app: &mut App) {
    match selected_text(app) {
        Some(text) => {
            let shown = crate::text::visible(&text).into_owned();
            app.status = Some(format!("copied to the clipboard: {shown}"));
            app.clipboard = Some(text);
        }
        None => app.status = Some("nothing selected to copy".into()),
    }
}

/// The text `y` copies: a row of the detail split or a frame of a stack
/// its function's name; a Call tree row or a flame frame its path, root
/// first; a stack its frames; any other row its function.
pub fn selected_text(app: &App) -> Option<String> {
    let p = &app.profile;
    let v = app.view();
    if v.focus != Focus::Table {
        return app
            .selected_function()
            .map(|f| p.function_name(f).to_string());
    }
    match v.scope {
        Scope::Tree(_) => {
            let t = v.tree.as_ref()?;
            let mut at = Some(t.rows.get(v.selected()? as usize)?.id);
            let mut names = Vec::new();
            while let Some(id) = at {
                names.push(t.label(p, id).name(p).to_string());
                at = t.parent(p, id);
            }
            names.reverse();
            Some(names.join(JOIN))
        }
        Scope::Flame if !app.in_chart() => {
            let (tree, node) = match app.flame_caller() {
                Some(side) => side,
                None => (app.flame_tree(), app.flame_selected()?),
            };
            Some(icicle_path(app, &tree, node))
        }
        Scope::Stacks(_) => {
            let s = StackId::from_index(v.selected()? as usize);
            let names: Vec<&str> = p.frames(s).iter().map(|&f| p.function_name(f)).collect();
            Some(names.join(JOIN))
        }
        _ => app
            .selected_function()
            .map(|f| p.function_name(f).to_string()),
    }
}

/// A flame frame's path, its outermost frame first (in a sandwich's
/// callers, the function first, then who called it).
fn icicle_path(app: &App, t: &Icicle, node: u32) -> String {
    let mut names = Vec::new();
    let mut at = Some(node);
    while let Some(n) = at {
        names.push(t.func(n).name(&app.profile).to_string());
        at = t.parent(n);
    }
    names.reverse();
    names.join(JOIN)
}
