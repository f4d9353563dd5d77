//! Where everything sits on the screen, as pure functions of the window
//! size and the pane. Rendering draws into these rectangles and the panes
//! hit-test mouse clicks against the very same ones, so a click always
//! lands on what was drawn there.

use super::columns::Col;
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
/// split under its table or without.
pub(super) fn areas(size: Rect, detail: bool) -> Areas {
    let line = |y: u16| Rect::new(size.x, y, size.width, 1);
    let header = line(size.y);
    let crumbs = line(size.y + 1);
    let footer = line(size.bottom().saturating_sub(1));
    let body_top = size.y + 2;
    let body_h = size.height.saturating_sub(3);
    let detail_h = if detail {
        (size.height / 4 + 1).clamp(5, 12).min(body_h / 2)
    } else {
        0
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
    // The name starts at up to 24 columns and grows into what the others leave.
    let first_min = widths[0].clamp(4, 24).min(avail);
    let mut chosen = vec![(0usize, first_min)];
    let mut used = first_min;
    let from = 1 + hscroll.min(cols.len() - 1);
    for (i, &w) in widths.iter().enumerate().skip(from) {
        if used + w + SPACING > avail {
            break;
        }
        chosen.push((i, w));
        used += w + SPACING;
    }
    // Give the name what it needs of what is left, then the rest to the
    // last column if it is text; otherwise it stays at the right, so the
    // numbers stay beside the names on a wide screen.
    let spare = avail - used;
    let grow = spare.min(widths[0].saturating_sub(first_min));
    chosen[0].1 += grow;
    let spare = spare - grow;
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
        let a = areas(Rect::new(0, 0, 80, 24), true);
        let d = a.detail.expect("functions have a split");
        assert_eq!(a.table.y, 2);
        assert_eq!(d.bottom(), a.footer.y);
        assert_eq!(a.footer.y, 23);
        assert!(table_rows(a.table) >= 8);
    }
}
