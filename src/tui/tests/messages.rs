//! Every key a message names is the keymap's: the words are built with
//! `keymap::key_for` (a key moved in the keymap moves in every message),
//! the key `key_for` names asks that intent where it is named, and no
//! message of the app writes a key by hand.

use crate::tui::intent::{Intent, Why};
use crate::tui::keymap::{Key, SECTIONS, key_for, lookup};
use ratatui::crossterm::event::KeyCode;

/// The key a message's name for it stands for (`key_for`'s words read
/// back).
fn parse(name: &str) -> Key {
    let key = |code| Key {
        code,
        ctrl: false,
        shift: false,
    };
    if let Some(c) = name.strip_prefix("Ctrl-") {
        let c = c.chars().next().expect("a letter after Ctrl-");
        return Key {
            code: KeyCode::Char(c.to_ascii_lowercase()),
            ctrl: true,
            shift: false,
        };
    }
    if let Some(rest) = name.strip_prefix("Shift-")
        && rest != "Tab"
    {
        return Key {
            shift: true,
            ..parse(rest)
        };
    }
    match name {
        "Space" => key(KeyCode::Char(' ')),
        "Enter" => key(KeyCode::Enter),
        "Esc" => key(KeyCode::Esc),
        "Backspace" => key(KeyCode::Backspace),
        "Tab" => key(KeyCode::Tab),
        "Shift-Tab" => key(KeyCode::BackTab),
        "↑" => key(KeyCode::Up),
        "↓" => key(KeyCode::Down),
        "←" => key(KeyCode::Left),
        "→" => key(KeyCode::Right),
        "Home" => key(KeyCode::Home),
        "End" => key(KeyCode::End),
        "PgUp" => key(KeyCode::PageUp),
        "PgDn" => key(KeyCode::PageDown),
        one if one.chars().count() == 1 => key(KeyCode::Char(one.chars().next().unwrap_or('?'))),
        other => panic!("{other:?} names no key"),
    }
}

/// The key `key_for` names for an intent at a place, pressed there, asks
/// that intent: for every intent every place binds (each pane's number
/// too).
#[test]
fn the_key_a_message_names_asks_its_intent_there() {
    let mut checked = 0;
    for s in SECTIONS {
        for b in s.bindings.iter().filter(|b| !b.keys.is_empty()) {
            let intents: Vec<Intent> = match b.intent {
                Intent::GoPane(_) => (0..b.keys.len()).map(Intent::GoPane).collect(),
                ref i => vec![i.clone()],
            };
            for intent in intents {
                let named = key_for(&intent, s.place);
                let asks = lookup(&[s.place], parse(&named));
                assert_eq!(asks, Some(intent.clone()), "{}: {named}", s.title);
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "{checked}");
}

/// Every why a key gives names only keys the keymap binds (`key_for`
/// panics, in a test, on one it does not).
#[test]
fn every_why_names_bound_keys() {
    let all = [
        Why::NoSort,
        Why::CallersInFunctions,
        Why::LinesFromFunctions,
        Why::ModulesFromFunctions,
        Why::TreeKeys,
        Why::NodeSteps,
        Why::NodeStepsInChart,
        Why::ChartExport,
        Why::ChartLook,
        Why::EventsOrder,
        Why::InfoSearch,
        Why::InfoExport,
        Why::SlowestFromFunctions,
        Why::PartnerInEvents,
    ];
    for why in all {
        let words = why.to_string();
        assert!(!words.contains('?'), "{why:?}: {words}");
    }
    assert_eq!(
        Why::TreeKeys.to_string(),
        "E, -, *, p and i open, close and turn over the Call tree (4)"
    );
    assert_eq!(
        Why::ModulesFromFunctions.to_string(),
        "D shows the modules from Functions (1)"
    );
    assert_eq!(
        Why::NodeSteps.to_string(),
        "M and > take a call node: select one in the Call tree (4) or the Flame graph (5)"
    );
}

/// The files whose messages are not built with `key_for` yet: the query's
/// plumbing, rewritten at the time of writing (issue 62); its messages
/// take their keys from `key_for` in that rewrite, and this list empties.
const NOT_YET: &[&str] = &[];

/// Words a key is named with in a message.
fn is_key(w: &str) -> bool {
    let one = w.chars().count() == 1
        && w.chars()
            .all(|c| c.is_ascii_alphabetic() || "*/.>[]⏎⌫".contains(c));
    let ctrl = w
        .strip_prefix("Ctrl-")
        .is_some_and(|c| c.chars().count() == 1);
    one || ctrl || ["Enter", "Esc", "Space", "Backspace", "Tab"].contains(&w)
}

/// What a message says a key does after naming it (`u undoes`).
const VERBS: &[&str] = &[
    "undoes", "shows", "opens", "leaves", "works", "turns", "takes", "chooses", "clears", "closes",
    "cancels", "zooms", "applies", "starts", "keep", "clear", "goes", "again", "to",
];

/// The ways a message writes a key by hand in `text`: `u undoes`, `t:`,
/// `(f: leave)`, `(4)`, `press q`, `M and >`.
fn by_hand(text: &str) -> Vec<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut found = Vec::new();
    for (i, &w) in words.iter().enumerate() {
        let bare = w.trim_start_matches(['(', '·']);
        let next = words.get(i + 1).copied().unwrap_or("");
        let verb = next.trim_end_matches(|c: char| !c.is_alphabetic());
        if is_key(bare) && VERBS.contains(&verb) {
            found.push(format!("{w} {next}"));
        }
        if bare.strip_suffix(':').is_some_and(is_key) {
            found.push(w.to_string());
        }
        let inside = w
            .strip_prefix('(')
            .map(|r| r.trim_end_matches([')', ':', ',']));
        let closed = w.ends_with(')') || w.ends_with(':');
        if let Some(inside) = inside.filter(|k| closed && (is_key(k) || k.parse::<u8>().is_ok())) {
            found.push(format!("({inside})"));
        }
        if w.eq_ignore_ascii_case("press") && is_key(next.trim_end_matches(['.', ','])) {
            found.push(format!("{w} {next}"));
        }
        let after = words.get(i + 2).copied().unwrap_or("");
        if next == "and" && is_key(bare.trim_end_matches(',')) && is_key(after) {
            found.push(format!("{w} and {after}"));
        }
    }
    found
}

/// The string literals of Rust source, comments and char literals left
/// out; a line continued with `\` joins the next.
fn literals(src: &str) -> Vec<String> {
    let chars: Vec<char> = src.chars().collect();
    let (mut out, mut i) = (Vec::new(), 0);
    while i < chars.len() {
        match chars[i] {
            '/' if chars.get(i + 1) == Some(&'/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            // A char literal ('"', '\'') or a lifetime: skip the quote and
            // what a char literal holds.
            '\'' => {
                let close = chars[i + 1..].iter().take(4).position(|&c| c == '\'');
                i += close.map_or(1, |n| n + 2);
            }
            '"' => {
                let mut text = String::new();
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\' {
                        i += 1;
                        if chars.get(i) == Some(&'\n') {
                            while chars.get(i + 1).is_some_and(|c| c.is_whitespace()) {
                                i += 1;
                            }
                        }
                    } else {
                        text.push(chars[i]);
                    }
                    i += 1;
                }
                out.push(text);
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// No message, title or hint of the app writes a key or a pane number by
/// hand: each comes from the keymap (the keymap's own rows, which are the
/// keys, and the tests are not messages).
#[test]
fn no_message_writes_a_key_by_hand() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tui");
    let mut files = vec![root.clone()];
    let mut found = Vec::new();
    let mut read = 0;
    while let Some(path) = files.pop() {
        if path.is_dir() {
            if path.ends_with("tests") {
                continue;
            }
            let entries = std::fs::read_dir(&path).expect("src/tui reads");
            files.extend(entries.map(|e| e.expect("an entry").path()));
            continue;
        }
        let rel = path.strip_prefix(&root).expect("under src/tui");
        let rel = rel.to_string_lossy().replace('\\', "/");
        if !rel.ends_with(".rs") || rel == "keymap.rs" || NOT_YET.contains(&rel.as_str()) {
            continue;
        }
        let src = std::fs::read_to_string(&path).expect("a source file");
        let src = src.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
        read += 1;
        for text in literals(src) {
            found.extend(
                by_hand(&text)
                    .into_iter()
                    .map(|k| format!("{rel}: {k:?} in {text:?}")),
            );
        }
    }
    assert!(read > 20, "{read} files");
    assert!(
        found.is_empty(),
        "keys written by hand:\n{}",
        found.join("\n")
    );
}

/// The scan finds each way a key is written by hand, and not the words a
/// message is made of.
#[test]
fn the_scan_finds_keys_by_hand() {
    for hand in [
        "u undoes it",
        "press q to quit",
        "M and > take a call node",
        "the Call tree (4)",
        "· t: time order",
        "(f: leave)",
        "Esc closes",
        "Enter: its sandwich",
    ] {
        assert!(!by_hand(hand).is_empty(), "{hand}");
    }
    for words in [
        "a box a call, a band a thread",
        "{} undoes it",
        "select one in Functions",
        "no search: {} to start one",
    ] {
        assert!(by_hand(words).is_empty(), "{words}: {:?}", by_hand(words));
    }
    assert_eq!(literals("f(\"a \\\n    b\", '\"', x) // \"c\""), ["a b"]);
}
