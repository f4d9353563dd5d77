//! The Flame pane: the icicle `analysis::flame_view` lays out, a row a
//! depth, each frame labelled where its name fits, coloured by a stable
//! hash of its name (the same function, the same colour, in every run).
//! Under `NO_COLOR` each frame starts with `▏`, so the boundaries show
//! without colour. The last line says what the selected frame holds.

use super::theme::Theme;
use super::{fit, put};
use crate::analysis::calltree::Unit;
use crate::analysis::columns::Value;
use crate::analysis::flame_view;
use crate::report::fmt::cell;
use crate::text::visible;
use crate::tui::app::App;
use crate::tui::view::View;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;

/// Warm colours, as flame graphs draw (256-colour indexes: reds, oranges,
/// yellows); a function's is picked by the hash of its name.
const PALETTE: [u8; 8] = [167, 173, 179, 209, 215, 221, 203, 208];

fn colour(name: &str) -> Color {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    name.hash(&mut h);
    Color::Indexed(PALETTE[(h.finish() % PALETTE.len() as u64) as usize])
}

pub fn frames(buf: &mut Buffer, inner: Rect, app: &App, theme: Theme) {
    let p = &app.profile;
    if p.nodes().is_empty() {
        let why = format!(
            " No flame graph: this {} profile has no call paths (it states totals per function).",
            p.format
        );
        put(buf, inner, &Line::from(why));
        return;
    }
    let area = app.flame_area();
    let layout = app.flame_layout();
    let st = app.flame_state();
    let selected = app.flame_selected();
    let query = app.view().query.as_ref();
    for (i, row) in layout.rows.iter().skip(st.top).enumerate() {
        let y = area.y + i as u16;
        if y >= area.bottom() {
            break;
        }
        for b in row {
            let x = area.x + b.x;
            let w = usize::from(b.width);
            let (label, mut style) = match b.node {
                None if b.outside => (crate::analysis::flame::OUTSIDE.to_string(), theme.dim()),
                None => ("…".to_string(), theme.dim()),
                Some(n) => {
                    let name = visible(p.function_name(p.node(n).func)).into_owned();
                    let style = match theme.color {
                        true => Style::default().bg(colour(&name)).fg(Color::Black),
                        false => Style::default(),
                    };
                    let matched = query.is_some_and(|q| q.is_match(&name));
                    let style = match matched {
                        true => style.patch(theme.matched()),
                        false => style,
                    };
                    (name, style)
                }
            };
            if b.node.is_some() && b.node == selected {
                style = style.add_modifier(Modifier::REVERSED | Modifier::BOLD);
            }
            let text = match (theme.color, b.node) {
                (false, Some(_)) => format!("▏{}", fit(&label, w.saturating_sub(1)).0),
                _ => fit(&label, w).0,
            };
            buf.set_style(Rect::new(x, y, b.width, 1), style);
            buf.set_stringn(x, y, text, w, style);
        }
    }
    status(
        buf,
        Rect::new(inner.x, inner.bottom().saturating_sub(1), inner.width, 1),
        app,
        theme,
    );
}

/// The selected frame: name, weight, share of the whole and of its caller.
fn status(buf: &mut Buffer, line: Rect, app: &App, theme: Theme) {
    let p = &app.profile;
    let Some(n) = app.flame_selected() else {
        return;
    };
    let ix = app.tree_index();
    let w = flame_view::weight(&ix, n);
    let whole = flame_view::span(&ix, None);
    let pct = |part: f64, of: f64| cell(Value::Pct((of > 0.0).then(|| 100.0 * part / of)));
    let amount = match ix.unit {
        Unit::Ms => format!("{} ms", cell(Value::Ms(Some(w)))),
        Unit::Count => cell(Value::Count(Some(w as u64))),
    };
    let mut text = format!(
        " {} · {amount} · {}% of the total",
        visible(p.function_name(p.node(n).func)),
        pct(w, whole)
    );
    if let Some(q) = p.node(n).parent() {
        text.push_str(&format!(
            " · {}% of its caller",
            pct(w, flame_view::weight(&ix, q))
        ));
    }
    buf.set_stringn(
        line.x,
        line.y,
        fit(&text, usize::from(line.width)).0,
        usize::from(line.width),
        theme.key(),
    );
}

/// "Flame · zoomed on X · search: y", and what the width stands for.
pub fn titles(app: &App, v: &View) -> (String, String) {
    let p = &app.profile;
    let st = app.flame_state();
    let mut t = " Flame ".to_string();
    if let Some(&z) = st.zoom.last() {
        t.push_str(&format!(
            "· zoomed on {} (Esc: out) ",
            visible(p.function_name(p.node(z).func))
        ));
    }
    if !v.filter.is_empty() {
        t.push_str(&format!("· search: {} ", visible(&v.filter)));
    }
    let ix = app.tree_index();
    let total = flame_view::span(&ix, st.zoom.last().copied());
    let of = match ix.unit {
        Unit::Ms => crate::report::fmt::grouped_ms(total),
        Unit::Count => crate::report::fmt::grouped(total as u64),
    };
    (t, format!(" the full width: {of} "))
}
