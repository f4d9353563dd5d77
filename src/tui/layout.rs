//! Where everything sits on the screen, as pure functions of the window
//! size and the pane. Rendering draws into these rectangles and the panes
//! hit-test mouse clicks against the very same ones, so a click always
//! lands on what was drawn there.

use super::columns::{Col, start_width};
use super::pane::TABS;
use crate::analysis::view::View;
use ratatui::layout::Rect;

/// The smallest window the app draws in (tui.md).
pub(super) const MIN_WIDTH: u16 = 80;
pub(super) const MIN_HEIGHT: u16 = 24;

/// Gap between table columns.
pub(super) const SPACING: u16 = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Areas {
    /// Title line: the input, its format and totals.
    pub header: Rect,
    /// The tabs, the breadcrumb and the status.
    pub crumbs: Rect,
    /// The pane's bordered table (or text).
    pub table: Rect,
    /// The split under the table (callers/callees, frames).
    pub detail: Option<Rect>,
    pub footer: Rect,
}

pub(super) fn too_small(size: Rect) -> bool {
    size.width < MIN_WIDTH || size.height < MIN_HEIGHT
}

/// Where everything sits in a window of `size`, for a pane with a detail
/// split under a table of `Some(rows)` or without (`None`): the split has
/// a quarter of the window (5 to 12 lines), and every line the table's
/// rows leave empty besides.
pub(super) fn areas(size: Rect, split: Option<usize>) -> Areas {
    let line = |y: u16| Rect::new(size.x, y, size.width, 1);
    let header = line(size.y);
    let crumbs = line(size.y + 1);
    let footer = line(size.bottom().saturating_sub(1));
    let body_top = size.y + 2;
    let body_h = size.height.saturating_sub(3);
    let detail_h = match split {
        None => 0,
        Some(rows) => {
            let least = (size.height / 4 + 1).clamp(5, 12).min(body_h / 2);
            // The rows, a line at least, their headings and the borders.
            let table = u16::try_from(rows.max(1)).map_or(u16::MAX, |r| r.saturating_add(3));
            least.max(body_h.saturating_sub(table))
        }
    };
    let table = Rect::new(size.x, body_top, size.width, body_h - detail_h);
    let detail =
        (detail_h > 0).then(|| Rect::new(size.x, body_top + table.height, size.width, detail_h));
    Areas {
        header,
        crumbs,
        table,
        detail,
        footer,
    }
}

/// How many data rows fit in a bordered table with a header row.
pub(super) fn table_rows(table: Rect) -> usize {
    usize::from(table.height.saturating_sub(3))
}

/// How many rows fit in a bordered list.
pub(super) fn list_rows(area: Rect) -> usize {
    usize::from(area.height.saturating_sub(2))
}

/// The two lists of the Functions detail split.
pub(super) fn detail_halves(detail: Rect) -> (Rect, Rect) {
    let left = detail.width / 2;
    (
        Rect::new(detail.x, detail.y, left, detail.height),
        Rect::new(
            detail.x + left,
            detail.y,
            detail.width - left,
            detail.height,
        ),
    )
}

/// Where a table's columns go: all of the inside of its block, except in
/// Stacks, where a third (at least 30 columns) is kept for the path of
/// frames with the marked function.
pub(super) fn columns_area(stacks: bool, inner: Rect) -> Rect {
    match stacks {
        true => {
            let keep = (inner.width / 3).max(30).min(inner.width / 2);
            Rect::new(inner.x, inner.y, inner.width - keep, inner.height)
        }
        false => inner,
    }
}

/// A column placed on screen: which one, its x and width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    pub col: usize,
    pub x: u16,
    pub width: u16,
}

/// Width of the selection marker before the first column.
pub(super) const MARKER: u16 = 1;

/// Lays the columns out in a table of `inner` width: the first (the name)
/// always, then from `hscroll` on as many as fit; room left over widens the
/// first column.
pub(super) fn place_columns(
    inner: Rect,
    cols: &[Col],
    widths: &[u16],
    hscroll: usize,
) -> Vec<Placed> {
    if cols.is_empty() {
        return Vec::new();
    }
    let avail = inner.width.saturating_sub(MARKER);
    let start = |i: usize| start_width(cols[i], widths[i]);
    // The name starts at up to 24 columns and grows into what the others leave.
    let first_min = start(0).clamp(4, 24).min(avail);
    let mut chosen = vec![(0usize, first_min)];
    let mut used = first_min;
    let from = 1 + hscroll.min(cols.len() - 1);
    for i in from..cols.len() {
        let w = start(i);
        if used + w + SPACING > avail {
            break;
        }
        chosen.push((i, w));
        used += w + SPACING;
    }
    // What is left widens the text columns up to their widest cells, the
    // name first: a name (a trace's `Called`) is cut only where the window
    // has no room for it. The rest goes to the last column if it is text;
    // otherwise it stays at the right, so the numbers stay beside the
    // names on a wide screen.
    let mut spare = avail - used;
    for (i, w) in &mut chosen {
        let grow = spare.min(widths[*i].saturating_sub(*w));
        *w += grow;
        spare -= grow;
    }
    if let Some(last) = chosen
        .last_mut()
        .filter(|(i, _)| *i > 0 && !cols[*i].is_number())
    {
        last.1 += spare;
    }
    let mut x = inner.x + MARKER;
    chosen
        .into_iter()
        .map(|(col, width)| {
            let placed = Placed { col, x, width };
            x += width + SPACING;
            placed
        })
        .collect()
}

/// Where each tab's title sits on the tab line: `(tab, x, width)`.
pub(super) fn tab_positions(line: Rect) -> Vec<(View, u16, u16)> {
    let mut x = line.x + 1;
    TABS.iter()
        .map(|&t| {
            let w = super::pane::tab_title(t).len() as u16 + 2;
            let pos = (t, x, w);
            x += w;
            pos
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::columns::FuncColumn;

    #[test]
    fn the_name_stays_and_columns_scroll() {
        let cols = [
            Col::F(FuncColumn::Name),
            Col::F(FuncColumn::Calls),
            Col::F(FuncColumn::HitsSelf),
            Col::F(FuncColumn::HitsTotal),
        ];
        let widths = [30, 20, 20, 20];
        let inner = Rect::new(1, 0, 78, 10);
        let placed = place_columns(inner, &cols, &widths, 0);
        let shown: Vec<usize> = placed.iter().map(|p| p.col).collect();
        assert_eq!(shown, [0, 1, 2], "the fourth does not fit");
        assert_eq!(placed[0].x, 2);
        assert!(placed.last().is_some_and(|p| p.x + p.width <= 79));
        let scrolled: Vec<usize> = place_columns(inner, &cols, &widths, 2)
            .iter()
            .map(|p| p.col)
            .collect();
        assert_eq!(scrolled, [0, 3]);
    }

    #[test]
    fn areas_fill_the_window() {
        let a = areas(Rect::new(0, 0, 80, 24), Some(100));
        let d = a.detail.expect("functions have a split");
        assert_eq!(a.table.y, 2);
        assert_eq!(d.bottom(), a.footer.y);
        assert_eq!(a.footer.y, 23);
        assert!(table_rows(a.table) >= 8);
    }

    /// The split takes the lines a short table leaves empty, never less
    /// than its quarter of the window.
    #[test]
    fn the_split_takes_the_rows_the_table_does_not_need() {
        let size = Rect::new(0, 0, 120, 35);
        let long = areas(size, Some(1000));
        let short = areas(size, Some(10));
        let none = areas(size, Some(0));
        let height = |a: Areas| a.detail.map_or(0, |d| d.height);
        assert_eq!(height(long), 9);
        assert_eq!(table_rows(short.table), 10);
        assert_eq!(height(short), 32 - 13);
        assert_eq!(table_rows(none.table), 1);
        assert_eq!(areas(size, None).detail, None);
        for a in [long, short, none] {
            assert_eq!(a.table.height + height(a), 32);
        }
    }

    /// Room left over widens a text column up to its widest cell, the name
    /// first; numbers stay beside the names.
    #[test]
    fn text_columns_take_the_room_before_they_are_cut() {
        use crate::analysis::columns::LineColumn;
        let cols = [
            Col::F(FuncColumn::Name),
            Col::F(FuncColumn::Calls),
            Col::F(FuncColumn::HitsSelf),
        ];
        let inner = Rect::new(1, 0, 198, 10);
        let placed = place_columns(inner, &cols, &[120, 8, 8], 0);
        assert_eq!(placed[0].width, 120, "whole, past its cap of 48");
        let placed = place_columns(inner, &cols, &[30, 8, 8], 0);
        assert_eq!((placed[0].width, placed[1].x), (30, 2 + 31));
        // A trace's lines: the caller first, then what it called.
        let cols = [
            Col::L(LineColumn::File),
            Col::L(LineColumn::Line),
            Col::L(LineColumn::Called),
            Col::L(LineColumn::Hits),
        ];
        let placed = place_columns(inner, &cols, &[12, 5, 90, 6], 0);
        let widths: Vec<u16> = placed.iter().map(|p| p.width).collect();
        assert_eq!(widths, [12, 5, 90, 6]);
        let narrow = place_columns(Rect::new(1, 0, 78, 10), &cols, &[12, 5, 90, 6], 0);
        assert_eq!(narrow[2].width, 77 - 12 - 5 - 6 - 3, "cut to the room");
    }
}
