//! What a fuzz target, a property test and a regression fixture all do to
//! a byte string: detect, load, report and draw it, and check the promises
//! that hold for any input at all.
//!
//! Kept in the library (hidden from the docs) so that the libFuzzer targets
//! under `fuzz/` and the stable-toolchain tests run exactly the same code;
//! a crash one finds, the other replays.
//!
//! The promises, each a panic here so a fuzzer reports it as a crash:
//! - no panic, however the input is damaged;
//! - a profile's stacks name only its own functions;
//! - every warning's place is inside the input;
//! - nothing a file holds reaches the terminal raw: the `--table` text of
//!   every view and every cell of every drawn screen are free of control
//!   characters (a newline ends a table row, nothing else).

use crate::analysis::view::{Table, View};
use crate::load::{Input, LoadOptions, load_inputs};
use crate::model::{Place, Profile};
use crate::report::{json, table};
use crate::text::is_unsafe;
use crate::tui::App;
use crate::tui::intent::Intent;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;

/// Loads `bytes` by detection and as `format`, the second time in small
/// parallel chunks, and checks every profile that loads; gives how many
/// loaded (a fuzzed input may load neither way).
pub fn exercise(bytes: &[u8], format: &str) -> usize {
    let tries = [
        LoadOptions::default(),
        LoadOptions {
            format: Some(format.to_string()),
            chunk_bytes: Some(97),
            timeline: true,
            ..Default::default()
        },
    ];
    let mut loaded = 0;
    for opts in &tries {
        let input = Input::owned("fuzzed", bytes.to_vec());
        if let Ok(p) = load_inputs(&[input], opts) {
            check_profile(&p, bytes.len());
            check_reports(&p);
            check_exports(&p);
            check_screens(p);
            loaded += 1;
        }
    }
    loaded
}

/// The model's own promises.
pub fn check_profile(p: &Profile, len: usize) {
    let functions = p.functions().len();
    for s in p.stack_ids() {
        for f in p.frames(s) {
            assert!(f.index() < functions, "a stack names an unknown function");
        }
    }
    for w in p.warnings() {
        if let Place::Offset(at) = w.place {
            assert!(
                at <= len as u64,
                "warning at offset {at} past the end ({len})"
            );
        }
        assert!(!w.message.is_empty(), "a warning says nothing");
    }
}

/// Neither `--json` nor the `--table` of any view holds a raw control character.
pub fn check_reports(p: &Profile) {
    let doc = json::render(p);
    if let Some(c) = doc.chars().find(|&c| c != '\n' && is_unsafe(c)) {
        panic!("--json holds a raw {c:?}");
    }
    let raw = |view: &str, text: &str| {
        if let Some(c) = text.chars().find(|&c| c != '\n' && is_unsafe(c)) {
            panic!("--table --view {view} holds a raw {c:?}");
        }
    };
    for t in Table::ALL {
        if let Ok(text) = table::render(p, t, &Default::default()) {
            raw(t.name(), &text);
        }
    }
    raw(View::Info.name(), &table::info(p, p, None));
}

/// Every export either writes or says why not; what it writes holds no raw
/// control character, and the JSON ones parse.
pub fn check_exports(p: &Profile) {
    use crate::export::{Request, Target, write};
    let targets = [
        Target::Folded,
        Target::Speedscope,
        Target::Chrome,
        Target::Csv(Table::Functions),
        Target::Csv(Table::Lines),
        Target::Csv(Table::Stacks),
        Target::Csv(Table::Packets),
    ];
    for target in targets {
        let mut out = Vec::new();
        let req = Request {
            target,
            weight: None,
            query: None,
        };
        if write(p, &req, &mut out).is_err() {
            continue;
        }
        // A finding, as every check here: an export is UTF-8 whatever the input.
        let Ok(text) = String::from_utf8(out) else {
            panic!("export {target:?} is not UTF-8");
        };
        if let Some(c) = text.chars().find(|&c| c != '\n' && is_unsafe(c)) {
            panic!("export {target:?} holds a raw {c:?}");
        }
        if matches!(target, Target::Speedscope | Target::Chrome) {
            let parsed: Result<serde_json::Value, _> = serde_json::from_str(&text);
            assert!(parsed.is_ok(), "export {target:?} is not JSON: {parsed:?}");
        }
    }
}

/// Every tab, a drill-down, a search prompt and the finder, drawn at
/// 80×24: no cell may hold a control character. (The help's text is fixed;
/// a hostile name cannot reach it.)
pub fn check_screens(p: Profile) {
    let mut app = App::new(p, "fuzzed", Rect::new(0, 0, 80, 24), true);
    let tabs = (0..crate::tui::TABS.len()).map(|i| vec![Intent::GoPane(i)]);
    let others = [
        vec![Intent::GoPane(0), Intent::Move(1), Intent::Open],
        // A pasted control or bidi mark in the prompt is shown escaped too.
        vec![
            Intent::Back,
            Intent::Search,
            Intent::Input('\u{1b}'),
            Intent::Input('\u{202e}'),
        ],
        vec![Intent::ClearInput, Intent::Input('e')],
        vec![Intent::Accept, Intent::Find, Intent::Input('a')],
    ];
    for actions in tabs.chain(others) {
        actions.iter().for_each(|a| app.update(a.clone()));
        draw_clean(&app);
    }
}

fn draw_clean(app: &App) {
    let Ok(mut t) = Terminal::new(TestBackend::new(app.size.width, app.size.height));
    if t.draw(|f| crate::tui::draw(f, app)).is_err() {
        return;
    }
    check_buffer(t.backend().buffer());
}

fn check_buffer(buffer: &ratatui::buffer::Buffer) {
    for cell in buffer.content() {
        let sym = cell.symbol();
        // Most cells hold one printable ASCII byte: decide those cheaply.
        if let [b' '..=b'~'] = sym.as_bytes() {
            continue;
        }
        if let Some(c) = sym.chars().find(|&c| is_unsafe(c)) {
            panic!("a screen cell holds a raw {c:?}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_passes_every_check() {
        let input = crate::demo::input();
        // Both ways must load, or the checks ran on nothing: the demo is a
        // Business Rules! profile, and loaded as another format it fails.
        assert_eq!(exercise(input.bytes(), "br"), 2);
        assert_eq!(
            exercise(input.bytes(), "xpp"),
            1,
            "as xpp only by detection"
        );
    }

    #[test]
    #[should_panic(expected = "a screen cell holds a raw")]
    fn an_unsafe_mark_in_a_cell_is_caught() {
        let p = load_inputs(&[crate::demo::input()], &LoadOptions::default()).expect("demo loads");
        let app = App::new(p, "x\u{7}", Rect::new(0, 0, 80, 24), true);
        let Ok(mut t) = Terminal::new(TestBackend::new(80, 24));
        let _ = t.draw(|f| {
            crate::tui::draw(f, &app);
            f.buffer_mut()[(0, 0)].set_symbol("\u{202e}");
        });
        check_buffer(t.backend().buffer());
    }
}
