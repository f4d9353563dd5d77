//! The key list: the `?` overlay shows it whole, the README repeats it (a
//! test keeps the two in step), and the footer picks what works here.

/// Lines the help shows: a heading and a blank line a section, a line a key
/// (more for a key whose text is wrapped, as it is on a narrow screen).
pub fn line_count() -> usize {
    SECTIONS
        .iter()
        .map(|(_, keys)| keys.len() + 2)
        .sum::<usize>()
        - 1
}

/// The widest the help's box is.
pub const BOX_WIDTH: u16 = 76;

/// The help box's width on a screen `screen` columns wide (it keeps two
/// columns free each side).
pub fn box_width(screen: u16) -> u16 {
    BOX_WIDTH.min(screen.saturating_sub(4))
}

/// Room for a key's text in a box `box_width` wide: the borders, a
/// margin and the key column are taken.
pub fn text_width(box_width: u16) -> usize {
    usize::from(box_width.saturating_sub(2 + 1 + 24)).max(12)
}

/// `text` cut at spaces into lines of at most `width` characters (a word
/// longer than that, a path, is cut where the line ends).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
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
pub fn wrapped_line_count(box_width: u16) -> usize {
    let w = text_width(box_width);
    line_count()
        + SECTIONS
            .iter()
            .flat_map(|(_, keys)| keys.iter())
            .map(|(_, what)| wrap(what, w).len() - 1)
            .sum::<usize>()
}

pub const SECTIONS: &[(&str, &[(&str, &str)])] = &[
    (
        "Everywhere",
        &[
            ("q  Ctrl-C", "quit"),
            ("?", "this help (Esc closes it)"),
            ("Tab  Shift-Tab  1-7", "switch pane"),
            ("↑ ↓  j k", "move"),
            ("PgUp PgDn  Space", "page"),
            ("Home End", "first / last row"),
            (
                "y",
                "copy the selected name (tree, flame: its path) to the clipboard",
            ),
            ("← →", "scroll the columns after the name"),
            (
                "mouse",
                "click a tab, a heading (sorts), a row; the wheel scrolls",
            ),
        ],
    ),
    (
        "Tables",
        &[
            ("s  S", "sort by the next / previous column"),
            ("r", "reverse the sort"),
            ("/", "search: filter as you type"),
            ("n  N", "next / previous match"),
            ("Ctrl-P  g", "jump to a function"),
            ("Enter", "drill down"),
            ("Backspace  Esc", "back (a filter at the start: clear it)"),
            ("[  ]", "back / forward again to the step gone back from"),
            ("e", "export the rows shown to CSV next to the input"),
        ],
    ),
    (
        "Functions",
        &[
            ("Enter", "stacks containing the function"),
            ("c", "into callers, then callees, then back"),
            ("l", "the function's lines"),
            (
                "t",
                "the function in the call tree, at every place it is called",
            ),
        ],
    ),
    (
        "Call tree",
        &[
            (
                "→ ←  l h",
                "open / close the row (again: into it / to its parent)",
            ),
            ("*", "open everything under the row"),
            (
                "p",
                "open the hot path: the heaviest callees, down to 5 % of the total",
            ),
            (
                "i",
                "turn over: bottom-up (functions by self time, callers below)",
            ),
            (
                "s  S  r",
                "order each row's children by another column / reverse",
            ),
            (
                "/  n  N",
                "mark matching functions and open the paths to them; step",
            ),
            ("Enter", "the row's function"),
        ],
    ),
    (
        "Stacks",
        &[("Enter", "into the frames; Enter on a frame: its function")],
    ),
    (
        "Flame",
        &[
            ("↑ ↓", "the caller / the heaviest callee"),
            ("← →  h l", "the frame to the left / right"),
            ("Enter", "zoom: the frame becomes the full width"),
            ("Backspace  Esc", "zoom back out"),
            (
                "/  n  N",
                "highlight matching frames, with their share; step",
            ),
            (
                "x",
                "hide the frame's function: its time goes to its callers",
            ),
            ("X", "show every hidden function again"),
            (
                "f",
                "sandwich: its callers above, its callees below (again: leave)",
            ),
            (
                "↑ ↓ in a sandwich",
                "past the function into its callers and back; Enter: a caller's sandwich",
            ),
            ("Home", "the top frame"),
            (
                "t",
                "time order: a box a call, x is time (again: the graph)",
            ),
            ("T", "the frame's function in the call tree"),
        ],
    ),
    (
        "Flame, time order",
        &[
            (
                "↑ ↓",
                "the caller / the longest callee (past the edge: the next thread)",
            ),
            ("← →  h l", "the call before / after on the row"),
            ("Enter", "zoom: the call's time becomes the full width"),
            ("Backspace  Esc", "zoom back out"),
            ("n  N", "the next / previous matching call in the run"),
        ],
    ),
    ("Lines, events", &[("Enter", "the row's function")]),
    (
        "Trace",
        &[
            ("Enter", "a packet's events"),
            (
                "i I O o",
                "the ops: about to enter, entered, about to return, returned",
            ),
        ],
    ),
    (
        "Search and finder",
        &[
            ("text", "fuzzy; 'exact ^start end$ !not; space = and"),
            ("Enter", "keep the filter / go to the function"),
            ("Esc", "clear the filter / close"),
            ("↑ ↓  Ctrl-N Ctrl-P", "move"),
            ("Ctrl-U", "clear the query"),
        ],
    ),
];

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

    #[test]
    fn the_readme_lists_every_key_of_the_help() {
        let readme = include_str!("../../README.md");
        for (section, keys) in super::SECTIONS {
            for (k, what) in *keys {
                let row = format!("| {section} | `{k}` | {what} |");
                assert!(readme.contains(&row), "README lacks: {row}");
            }
        }
    }
}
