//! The `?` overlay's measures: its box, its lines (the keymap's rows,
//! `keymap::help_rows`), wrapped to the box, and where a pane's keys are
//! among them (the help opens there).

use super::keymap::{Place, help_rows};
use ratatui::layout::Rect;

/// Lines the help shows: a heading and a blank line a section, a line a key
/// (more for a key whose text is wrapped, as it is on a narrow screen).
pub(super) fn line_count() -> usize {
    help_rows()
        .iter()
        .map(|(_, keys)| keys.len() + 2)
        .sum::<usize>()
        - 1
}

/// The widest the help's box is.
pub(super) const BOX_WIDTH: u16 = 76;

/// The help box's width on a screen `screen` columns wide (it keeps two
/// columns free each side).
pub(super) fn box_width(screen: u16) -> u16 {
    BOX_WIDTH.min(screen.saturating_sub(4))
}

/// Room for a key's text in a box `box_width` wide: the borders, a
/// margin and the key column are taken.
pub(super) fn text_width(box_width: u16) -> usize {
    usize::from(box_width.saturating_sub(2 + 1 + 24)).max(12)
}

/// `text` cut at spaces into lines of at most `width` characters (a word
/// longer than that, a path, is cut where the line ends).
pub(super) fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    let chars: Vec<char> = text.chars().collect();
    let mut words: Vec<String> = Vec::new();
    for word in chars.split(|&c| c == ' ') {
        for piece in word.chunks(width) {
            words.push(piece.iter().collect());
        }
        if word.is_empty() {
            words.push(String::new());
        }
    }
    for word in &words {
        let len = line.chars().count();
        if !line.is_empty() && len + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines
}

/// How many lines the help takes in a box `box_width` wide.
pub(super) fn wrapped_line_count(box_width: u16) -> usize {
    let w = text_width(box_width);
    line_count()
        + help_rows()
            .iter()
            .flat_map(|(_, keys)| keys.iter())
            .map(|(_, what)| wrap(what, w).len() - 1)
            .sum::<usize>()
}

/// The line of the help, in a box `box_width` wide, that `place`'s
/// section begins on (its heading); `None` for a place it does not list.
pub(super) fn section_line(place: Place, box_width: u16) -> Option<usize> {
    let title = super::keymap::section(place).filter(|s| s.listed)?.title;
    let w = text_width(box_width);
    let mut at = 0;
    for (section, keys) in help_rows() {
        if section == title {
            return Some(at);
        }
        // Its heading, its keys' lines, the blank line after it.
        at += 2 + keys
            .iter()
            .map(|(_, what)| wrap(what, w).len())
            .sum::<usize>();
    }
    None
}

/// The furthest the help scrolls in a window of `size`: its last line at
/// the bottom of its box (as `overlay::help` places the box).
pub(super) fn max_scroll(size: Rect) -> usize {
    let lines = wrapped_line_count(box_width(size.width));
    let height = (lines as u16)
        .saturating_add(2)
        .min(size.height.saturating_sub(2));
    lines.saturating_sub(usize::from(height.saturating_sub(2)))
}

#[cfg(test)]
mod tests {
    #[test]
    fn wrapping_cuts_at_spaces_within_the_width() {
        let lines = super::wrap(
            "click a tab, a heading (sorts), a row; the wheel scrolls",
            20,
        );
        assert!(lines.iter().all(|l| l.chars().count() <= 20), "{lines:?}");
        assert_eq!(
            lines.join(" "),
            "click a tab, a heading (sorts), a row; the wheel scrolls"
        );
        assert_eq!(super::wrap("short", 20), ["short"]);
        let path = super::wrap(&format!("to /{}", "a".repeat(30)), 10);
        assert!(path.iter().all(|l| l.chars().count() <= 10), "{path:?}");
        assert_eq!(
            path.concat().replace(' ', ""),
            format!("to/{}", "a".repeat(30))
        );
    }
}
