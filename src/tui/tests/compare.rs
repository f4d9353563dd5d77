//! The app on a comparison of two runs (`profx diff BASE NEW` on a
//! terminal; tui.md § Comparisons), on the pairs of `tests/fixtures/diff/`:
//! the Functions pane lists the comparison's rows with its very cells (the
//! numbers `profx diff --json` writes), a run compared with itself shows
//! no change, `%` shows shares, and the screens at 80×24 and 120×35.

use super::Press::{self, *};
use super::run as act;
use super::screens::{render, text};
use crate::analysis::diff::{self, Comparison, Which};
use crate::analysis::query::{Query, Step, Target};
use crate::model::{Profile, Watch};
use crate::tui::app::App;
use crate::tui::compare::Compared;
use crate::tui::pane::tree::Shown as TreeRow;
use crate::tui::pane::{Pane, compare::Col, compare::Focus, compare::Shown};
use ratatui::layout::Rect;
use std::sync::Arc;

fn load(rel: &str) -> Arc<Profile> {
    Arc::new(super::fixture(&format!("diff/{rel}")))
}

/// The comparison of two fixtures under `q`, as `profx diff` makes it.
pub(crate) fn comparison(base: &str, new: &str, q: &Query) -> Comparison {
    let sides = diff::answer_sides(&load(base), &load(new), q, &Watch::NONE).expect("answers");
    Comparison::new(sides).expect("comparable")
}

pub(crate) fn app_on(base: &str, new: &str, w: u16, h: u16) -> App {
    app_with(base, new, &Query::default(), w, h)
}

fn app_with(base: &str, new: &str, q: &Query, w: u16, h: u16) -> App {
    let name = |rel: &str| rel.rsplit('/').next().unwrap_or(rel).to_string();
    let c = Compared::new(comparison(base, new, q), [name(base), name(new)], q.clone());
    App::comparing(c, Rect::new(0, 0, w, h), true)
}

/// The pairs of runs of one format each, and one across formats.
const PAIRS: [(&str, &str); 4] = [
    ("plist/base.txt", "plist/new.txt"),
    ("xpp/base.prf", "xpp/new.prf"),
    ("vs-csv/base.csv", "vs-csv/new.csv"),
    ("plist/base.txt", "plist/new-listing.txt"),
];

fn compare_pane(app: &App) -> &crate::tui::pane::ComparePane {
    match app.pane() {
        Pane::Compare(p) => p,
        other => panic!("not the comparison's pane: {other:?}"),
    }
}

/// The pane's cells of row `i` of the comparison, by column.
fn cells(app: &App, i: usize) -> Vec<(Col, String)> {
    let p = compare_pane(app);
    let r = &p.comparison().rows()[i];
    p.cols().iter().map(|&c| (c, p.cell(r, c))).collect()
}

#[test]
fn the_functions_pane_lists_the_comparisons_rows_in_the_tables_order() {
    for (base, new) in PAIRS {
        let app = app_on(base, new, 120, 35);
        let p = compare_pane(&app);
        let c = comparison(base, new, &Query::default());
        let table = diff::ordered(&c, &diff::TableOptions::default());
        assert_eq!(p.order, table, "{base} → {new}: the table's order");
        assert_eq!(p.comparison().rows(), c.rows());
    }
}

/// Every value the pane shows is `profx diff --json`'s: each side's
/// value, the change and the ratio, as the comparison holds them.
#[test]
fn the_panes_values_are_the_comparisons() {
    for (base, new) in PAIRS {
        let app = app_on(base, new, 120, 35);
        let p = compare_pane(&app);
        let c = comparison(base, new, &Query::default());
        let Some(m) = c.measure() else { continue };
        for (i, r) in c.rows().iter().enumerate() {
            for (col, shown) in cells(&app, i) {
                let want = match col {
                    crate::tui::pane::compare::Col::Side(w, k) => {
                        let metric = p.metric(k).expect("a metric");
                        diff::value_cell(&c, w, r, metric)
                    }
                    crate::tui::pane::compare::Col::Change(k) => {
                        diff::change_cell(&c, r, p.metric(k).expect("a metric"))
                    }
                    _ => continue,
                };
                assert_eq!(shown, want, "{base} → {new} row {i} {col:?}");
            }
            // The numbers themselves: the inclusive change is new − base.
            let (b, n) = (
                c.value(Which::Base, r, m.incl()),
                c.value(Which::New, r, m.incl()),
            );
            if let (Some(b), Some(n)) = (b, n) {
                let d = c.delta(r, m.incl()).expect("a change").get();
                assert!((d - (n.get() - b.get())).abs() < 1e-6, "{base} row {i}");
                let shown = cells(&app, i)
                    .into_iter()
                    .find(|(col, _)| *col == Col::Change(crate::tui::pane::compare::Kind::Incl))
                    .expect("the change's column")
                    .1;
                assert_eq!(shown, diff::signed(c.delta(r, m.incl()).expect("a change")));
            }
        }
    }
}

/// A run compared with itself: no row new or gone, every change `0`.
#[test]
fn a_run_compared_with_itself_shows_no_change() {
    for rel in ["plist/base.txt", "xpp/new.prf", "vs-csv/base.csv"] {
        let mut app = app_on(rel, rel, 120, 35);
        for shares in [false, true] {
            if shares {
                app.press(Char('%'));
            }
            let p = compare_pane(&app);
            for i in 0..p.comparison().rows().len() {
                assert_eq!(p.comparison().rows()[i].status(), "both");
                for (col, cell) in cells(&app, i) {
                    match col {
                        Col::Change(_) => assert!(
                            cell == "0" || cell == "0.000" || cell == "0.00",
                            "{rel} row {i} {col:?}: {cell}"
                        ),
                        Col::ChangePct(_) => {
                            assert!(cell == "0.00%" || cell == "—", "{rel} row {i}: {cell}")
                        }
                        _ => {}
                    }
                }
            }
            let screen = text(&render(&app));
            let rows = screen.lines().skip(3).filter(|l| l.starts_with('│'));
            assert!(
                rows.clone().all(|l| !l.contains('+')),
                "{rel}: no change is signed:\n{screen}"
            );
        }
    }
}

#[test]
fn percent_shows_each_runs_shares_and_back() {
    let mut app = app_on("plist/base.txt", "plist/new.txt", 120, 35);
    assert_eq!(compare_pane(&app).shown, Shown::Values);
    app.press(Char('%'));
    assert_eq!(compare_pane(&app).shown, Shown::Shares);
    let screen = text(&render(&app));
    assert!(screen.contains("shares of each run's total"), "{screen}");
    assert!(screen.contains("Base incl %"), "{screen}");
    app.press(Char('%'));
    assert_eq!(compare_pane(&app).shown, Shown::Values);
}

#[test]
fn sorting_by_another_column_and_back() {
    let mut app = app_on("plist/base.txt", "plist/new.txt", 120, 35);
    let first = compare_pane(&app).order.clone();
    app.press(Char('r'));
    let mut reversed = first.clone();
    reversed.reverse();
    assert_eq!(compare_pane(&app).order, reversed);
    app.press(Char('s'));
    app.press(Char('S'));
    assert_eq!(
        compare_pane(&app).order,
        first,
        "the same column, not reversed"
    );
}

#[test]
fn the_panes_not_compared_show_news_run_and_say_so() {
    let mut app = app_on("xpp/base.prf", "xpp/new.prf", 120, 35);
    let new = load("xpp/new.prf");
    assert_eq!(app.profile().functions().len(), new.functions().len());
    for (tab, says) in [('6', "NEW's events only"), ('7', "NEW's run only")] {
        app.press(Char(tab));
        let screen = text(&render(&app));
        assert!(screen.contains(says), "tab {tab}:\n{screen}");
    }
    app.press(Char('1'));
    assert!(matches!(app.pane(), Pane::Compare(_)));
}

#[test]
fn the_header_names_both_sides_and_the_query_once() {
    let q = Query {
        steps: vec![Step::Drop(Target("main".into()))],
        ..Query::default()
    };
    let app = app_with("plist/base.txt", "plist/new.txt", &q, 120, 35);
    let screen = text(&render(&app));
    let header = screen.lines().next().unwrap_or_default();
    assert!(
        header.contains("base.txt (plist) → new.txt (plist)"),
        "{header}"
    );
    assert!(header.contains("comparison"), "{header}");
    assert_eq!(header.matches("drop main").count(), 1, "{header}");
}

fn snap(name: &str, base: &str, new: &str, actions: &[Press]) {
    for (w, h) in [(80, 24), (120, 35)] {
        let mut app = app_on(base, new, w, h);
        act(&mut app, actions);
        insta::assert_snapshot!(format!("{name}-{w}x{h}"), text(&render(&app)));
    }
}

#[test]
fn screens() {
    snap("compare-plist", "plist/base.txt", "plist/new.txt", &[]);
    snap("compare-xpp", "xpp/base.prf", "xpp/new.prf", &[]);
    snap(
        "compare-shares",
        "plist/base.txt",
        "plist/new.txt",
        &[Char('%')],
    );
    snap(
        "compare-across",
        "plist/base.txt",
        "plist/new-listing.txt",
        &[Down],
    );
    snap("compare-trace", "xpp/base.prf", "xpp/new.prf", &[Char('6')]);
}

/// Puts the cursor on the row of the function named `name`.
fn select(app: &mut App, name: &str) {
    let p = compare_pane(app);
    let c = p.comparison();
    let at = p
        .order
        .iter()
        .position(|&i| c.rows()[i].name(c).starts_with(name))
        .expect("a row of that name");
    let up = -(p.cursor as isize);
    act(app, &[Rows(up), Rows(at as isize)]);
}

/// The pane's rows and cells are those of a comparison made afresh
/// under the app's query.
fn same_as_fresh(app: &App, base: &str, new: &str) {
    let q = app.compared().expect("a comparison").query().clone();
    let fresh = comparison(base, new, &q);
    let p = compare_pane(app);
    assert_eq!(p.comparison().rows(), fresh.rows(), "{q:?}");
    let order = diff::ordered(&fresh, &diff::TableOptions::default());
    assert_eq!(p.order, order, "{q:?}");
    for (i, r) in fresh.rows().iter().enumerate() {
        let m = fresh.measure().expect("a measure").incl();
        let shown = cells(app, i);
        let want = diff::change_cell(&fresh, r, m);
        assert!(shown.iter().any(|(_, s)| *s == want), "{q:?} row {i}");
    }
}

#[test]
fn a_step_u_and_capital_u_act_on_both_runs() {
    let (base, new) = ("plist/base.txt", "plist/new.txt");
    let mut app = app_on(base, new, 120, 35);
    let whole = compare_pane(&app).order.clone();
    select(&mut app, "LookupTariff");
    app.press(Char('d'));
    let q = app.compared().expect("a comparison").query().clone();
    assert_eq!(q.steps.len(), 1, "{:?}", app.status);
    assert!(q.steps[0].label().contains("LookupTariff"), "{q:?}");
    same_as_fresh(&app, base, new);
    let screen = text(&render(&app));
    let header = screen.lines().next().unwrap_or_default();
    assert_eq!(header.matches("drop LookupTariff").count(), 1, "{header}");
    assert!(!compare_pane(&app).order.is_empty());
    app.press(Char('u'));
    assert!(app.compared().expect("a comparison").query().is_whole());
    assert_eq!(compare_pane(&app).order, whole);
    select(&mut app, "main");
    app.press(Char('m'));
    assert_eq!(app.compared().expect("a comparison").query().steps.len(), 1);
    same_as_fresh(&app, base, new);
    app.press(Char('U'));
    assert!(app.compared().expect("a comparison").query().is_whole());
    same_as_fresh(&app, base, new);
}

/// A step on a function of NEW's run only is left out of BASE, which
/// says so; the comparison goes on.
#[test]
fn a_step_one_side_lacks_is_left_out_of_it_with_a_note() {
    let (base, new) = ("plist/base.txt", "plist/new.txt");
    let mut app = app_on(base, new, 120, 35);
    select(&mut app, "ValidateOrder");
    app.press(Char('d'));
    let status = app.status.clone().unwrap_or_default();
    assert!(status.contains("left out of base"), "{status}");
    same_as_fresh(&app, base, new);
    let c = app.compared().expect("a comparison");
    assert!(c.comparison().side(Which::Base).left_out_steps().count() == 1);
    assert!(c.comparison().side(Which::New).left_out_steps().count() == 0);
}

#[test]
fn the_shares_and_the_sort_stay_across_a_step() {
    let mut app = app_on("plist/base.txt", "plist/new.txt", 120, 35);
    act(&mut app, &[Char('%'), Char('s')]);
    let look = compare_pane(&app).look();
    select(&mut app, "main");
    app.press(Char('m'));
    assert_eq!(compare_pane(&app).look(), look);
}

#[test]
fn step_screens() {
    snap(
        "compare-step",
        "plist/base.txt",
        "plist/new.txt",
        &[Rows(3), Char('d')],
    );
}

/// The Call tree's rows on screen: (name, its cells), read from the
/// screen's table under the headings.
fn tree_rows(app: &App) -> (Vec<String>, Vec<Vec<String>>) {
    let screen = text(&render(app));
    let lines: Vec<&str> = screen.lines().collect();
    let head: Vec<String> = lines[3].split_whitespace().map(String::from).collect();
    let rows = lines[4..]
        .iter()
        .take_while(|l| l.starts_with('│') && !l.trim_matches(['│', ' ']).is_empty())
        .map(|l| l.split_whitespace().map(String::from).collect())
        .collect();
    (head, rows)
}

#[test]
fn the_call_tree_shows_bases_total_and_the_change_per_node() {
    let mut app = app_on("xpp/base.prf", "xpp/new.prf", 120, 35);
    app.press(Char('4'));
    let t = app.tree();
    assert!(t.against.is_some(), "the Call tree is compared");
    let base = crate::tui::tests::fixture("diff/xpp/base.prf");
    let base_ix = crate::analysis::calltree::TreeIndex::build(&base);
    let cx = app.cx();
    let p = cx.profile.as_ref();
    let against = t.against.as_ref().expect("BASE's tree");
    for r in t.tree.rows.iter().take(20) {
        let mut names = vec![t.tree.label(p, r.id).name(p).to_string()];
        let mut at = r.id;
        while let Some(up) = t.tree.parent(p, at) {
            names.push(t.tree.label(p, up).name(p).to_string());
            at = up;
        }
        names.reverse();
        // BASE's node at that path, found the plain way.
        let mut node = None;
        for n in &names {
            node = base_ix
                .children()
                .of(node)
                .iter()
                .copied()
                .find(|&k| base_ix.label(&base, k).name(&base) == n);
            if node.is_none() {
                break;
            }
        }
        let want = node.map(|n| base_ix.weight(n));
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        assert_eq!(against.total_at(&refs), want, "{names:?}");
    }
    let screen = text(&render(&app));
    assert!(
        screen.contains("Base ms") && screen.contains("Δ ms"),
        "{screen}"
    );
    assert!(!screen.contains("NEW's run only"), "{screen}");
}

#[test]
fn a_call_tree_compared_with_itself_shows_no_change() {
    let mut app = app_on("xpp/new.prf", "xpp/new.prf", 120, 35);
    act(&mut app, &[Char('4'), Char('E')]);
    let (head, rows) = tree_rows(&app);
    assert!(head.contains(&"Base".to_string()), "{head:?}");
    assert!(!rows.is_empty());
    for r in &rows {
        // Total, BASE's total and the change follow the name.
        let at = r
            .iter()
            .position(|c| c.contains('.') && c.chars().any(|d| d.is_ascii_digit()))
            .expect("a total");
        assert_eq!(r[at], r[at + 1], "{r:?}");
        assert_eq!(r[at + 2], "0.000", "{r:?}");
    }
    let t = app.tree();
    assert!((0..t.rows_shown()).all(|i| matches!(t.shown(i), Some(TreeRow::New(_)))));
}

/// A path only BASE has is a row under the node where it would be:
/// NEW's total none, BASE's its own, the change negative; `Enter` says it
/// is BASE's only, `y` copies its path, a step names BASE's function and
/// is left out of NEW.
#[test]
fn the_compared_call_tree_shows_bases_only_paths() {
    let mut app = app_on("xpp/base.prf", "xpp/new.prf", 120, 35);
    act(&mut app, &[Char('4'), Char('E')]);
    let t = app.tree();
    let gone: Vec<usize> = (0..t.rows_shown())
        .filter(|&i| matches!(t.shown(i), Some(TreeRow::Gone { .. })))
        .collect();
    assert_eq!(gone.len(), 1, "PARSE, under WORKER > FETCH");
    let at = gone[0];
    let (_, rows) = tree_rows(&app);
    let row = &rows[at];
    assert_eq!(&row[1..6], ["PARSE", "·", "gone", "—", "19.000"], "{row:?}");
    assert_eq!(row[6], "-19.000", "{row:?}");
    let up = -(app.tree().cursor as isize);
    act(&mut app, &[Rows(up), Rows(at as isize)]);
    act(&mut app, &[Enter]);
    let said = app.status.clone().unwrap_or_default();
    assert!(said.contains("PARSE is gone from NEW"), "{said}");
    act(&mut app, &[Char('y')]);
    assert_eq!(app.clipboard.as_deref(), Some("WORKER > FETCH > PARSE"));
    act(&mut app, &[Char('d')]);
    let c = app.compared().expect("a comparison");
    assert_eq!(c.query().steps.len(), 1, "{:?}", app.status);
    assert!(c.query().steps[0].label().contains("PARSE"));
    assert_eq!(c.comparison().side(Which::New).left_out_steps().count(), 1);
}

/// A node step (`M`, `>`) on a gone row says why it cannot take it: the
/// path is BASE's alone and a step runs on both runs; the general hint
/// (select a node in the Call tree) would send the user where they are.
#[test]
fn a_node_step_on_a_gone_row_says_the_path_is_bases_only() {
    use crate::tui::intent::{Intent, Op};
    use crate::tui::keymap::{Place, key_for};
    let mut app = app_on("xpp/base.prf", "xpp/new.prf", 120, 35);
    act(&mut app, &[Char('4'), Char('E')]);
    let t = app.tree();
    let at = (0..t.rows_shown())
        .find(|&i| matches!(t.shown(i), Some(TreeRow::Gone { .. })))
        .expect("PARSE, gone under WORKER > FETCH");
    let up = -(app.tree().cursor as isize);
    act(&mut app, &[Rows(up), Rows(at as isize)]);
    let general = String::from(crate::tui::intent::Why::NodeSteps);
    for op in [Op::MergeNode, Op::FocusNode] {
        let key = key_for(&Intent::Transform(op), Place::Query);
        let press = Press::Char(key.chars().next().expect("a key"));
        act(&mut app, &[press]);
        let said = app.status.clone().unwrap_or_default();
        assert_ne!(said, general);
        assert!(
            said.starts_with("PARSE · gone: only BASE has this path")
                && said.contains(&format!(" {key} "))
                && said.contains("both runs"),
            "{key}: {said}"
        );
        let c = app.compared().expect("a comparison");
        assert!(c.query().steps.is_empty(), "no step: {said}");
    }
}

/// Swapped, the paths only NEW has are the gone rows, and the rows only
/// the new run has are none.
#[test]
fn a_call_tree_swapped_lists_the_other_sides_paths() {
    let mut app = app_on("xpp/new.prf", "xpp/base.prf", 120, 35);
    act(&mut app, &[Char('4'), Char('E')]);
    let (_, rows) = tree_rows(&app);
    let gone: Vec<&Vec<String>> = rows
        .iter()
        .filter(|r| r.contains(&"gone".to_string()))
        .collect();
    assert_eq!(gone.len(), 1, "{rows:?}");
    assert_eq!(gone[0][1], "DECODE");
}

#[test]
fn tree_screens() {
    snap(
        "compare-tree",
        "xpp/base.prf",
        "xpp/new.prf",
        &[Char('4'), Char('E')],
    );
}

/// The background of the first cell showing `name` on screen.
fn bg_of(buf: &ratatui::buffer::Buffer, name: &str) -> Option<ratatui::style::Color> {
    let screen = text(buf);
    for (y, line) in screen.lines().enumerate() {
        if let Some(at) = line.find(name) {
            let x = line[..at].chars().count() as u16;
            return buf[(x, y as u16)].bg.into();
        }
    }
    None
}

#[test]
fn the_flame_graph_colours_each_frame_by_its_change_and_says_it() {
    use ratatui::style::Color;
    let mut app = app_on("xpp/base.prf", "xpp/new.prf", 120, 35);
    app.press(Char('5'));
    let buf = render(&app);
    let screen = text(&buf);
    // DECODE is NEW's only: the deepest red; READITEM did not change.
    assert_eq!(bg_of(&buf, "DECODE"), Some(Color::Indexed(196)), "{screen}");
    assert_eq!(
        bg_of(&buf, "READITEM"),
        Some(Color::Indexed(252)),
        "{screen}"
    );
    let saveorder = bg_of(&buf, "SAVEORDER");
    assert!(
        matches!(saveorder, Some(Color::Indexed(210 | 203 | 217 | 224))),
        "{saveorder:?}"
    );
    assert!(screen.contains("red more than BASE"), "{screen}");
    // The selected frame (MAIN, 91 → 101 ms) says its change signed.
    assert!(screen.contains("Δ +10.000 ms NEW vs BASE"), "{screen}");
    assert!(!screen.contains("NEW's run only"), "{screen}");
}

#[test]
fn a_flame_graph_compared_with_itself_is_grey() {
    use ratatui::style::Color;
    let mut app = app_on("xpp/new.prf", "xpp/new.prf", 120, 35);
    app.press(Char('5'));
    let buf = render(&app);
    let coloured = buf.content().iter().any(|c| match c.bg {
        Color::Indexed(i) => [224, 217, 210, 203, 196, 189, 153, 111, 75, 33].contains(&i),
        _ => false,
    });
    assert!(!coloured, "{}", text(&buf));
    assert!(
        text(&buf).contains("Δ 0.000 ms NEW vs BASE"),
        "{}",
        text(&buf)
    );
}

#[test]
fn flame_screens() {
    snap("compare-flame", "xpp/base.prf", "xpp/new.prf", &[Char('5')]);
}

#[test]
fn a_search_keeps_the_rows_that_match_and_enter_walks_the_callers() {
    let mut app = app_on("plist/base.txt", "plist/new.txt", 120, 35);
    act(
        &mut app,
        &[
            Char('/'),
            Char('O'),
            Char('r'),
            Char('d'),
            Char('e'),
            Char('r'),
        ],
    );
    let p = compare_pane(&app);
    let c = p.comparison();
    let names: Vec<&str> = p.order.iter().map(|&i| c.rows()[i].name(c)).collect();
    assert!(
        !names.is_empty() && names.iter().all(|n| n.contains("Order")),
        "{names:?}"
    );
    assert!(names.len() < c.rows().len());
    act(&mut app, &[Enter]);
    select(&mut app, "PriceOrder");
    // Enter: into its callers compared; Enter on one: its row.
    act(&mut app, &[Enter]);
    let p = compare_pane(&app);
    assert_eq!(p.focus, Focus::Callers(0));
    assert!(app.pane().in_lists());
    let caller = p.focused_link().expect("a caller").row;
    let name = |app: &App, row: usize| {
        let c = compare_pane(app).comparison();
        c.rows()[row].name(c).to_string()
    };
    assert_eq!(name(&app, caller), "ProcessOrders(struct Batch *)");
    act(&mut app, &[Enter]);
    let p = compare_pane(&app);
    assert_eq!(p.selected(), Some(caller), "the table on the caller");
    assert!(p.order.contains(&caller));
    // Backspace walks back, then leaves the list.
    act(&mut app, &[Backspace]);
    let p = compare_pane(&app);
    assert_eq!(
        name(&app, p.selected().unwrap()),
        "PriceOrder(struct Order *)"
    );
    assert_eq!(p.focus, Focus::Callers(0));
    act(&mut app, &[Backspace]);
    assert_eq!(compare_pane(&app).focus, Focus::Table);
    assert!(matches!(app.pane(), Pane::Compare(_)));
}

/// The split's cells are the comparison's butterfly's (`Neighbours`),
/// each link's change new − base of `--json`'s edges' values.
#[test]
fn the_butterfly_compared_is_the_comparisons() {
    for (base, new) in PAIRS {
        let app = app_on(base, new, 160, 40);
        let p = compare_pane(&app);
        let c = comparison(base, new, &Query::default());
        let n = diff::Neighbours::of(&c);
        let Some(m) = c.measure() else { continue };
        for row in 0..c.rows().len() {
            let b = n.butterfly(&c, row, false);
            for l in b.callers.iter().chain(&b.callees) {
                let v = |w: Which| {
                    l.edges[w as usize].map_or(Some(0.0), |e| match m {
                        diff::Measure::Time => e.elapsed_inclusive_ms,
                        diff::Measure::Hits => e.hits.map(|h| h as f64),
                        diff::Measure::Calls => e.calls.map(|h| h as f64),
                    })
                };
                if let (Some(x), Some(y), Some(d)) = (v(Which::Base), v(Which::New), b.delta(&c, l))
                {
                    assert!((d.get() - (y - x)).abs() < 1e-6, "{base} row {row}");
                }
            }
        }
        // The screen shows the selected row's, the largest change first.
        let b = p.butterfly().expect("the functions' butterfly");
        let screen = text(&render(&app));
        for l in b.callers.iter().chain(&b.callees).take(3) {
            assert!(screen.contains(&b.change_cell(&c, l)), "{base}:\n{screen}");
        }
    }
}

/// A function gone from NEW shows BASE's callers against nothing; `%`
/// turns the butterfly's values into shares too.
#[test]
fn a_gone_functions_butterfly_is_bases_and_percent_shows_shares() {
    let mut app = app_on("plist/base.txt", "plist/new.txt", 120, 35);
    select(&mut app, "WriteInvoice");
    let screen = text(&render(&app));
    assert!(screen.contains("Callers of WriteInvoice"), "{screen}");
    assert!(screen.contains("gone"), "{screen}");
    assert!(screen.contains("-1,373.400"), "{screen}");
    act(&mut app, &[Char('%')]);
    let screen = text(&render(&app));
    assert!(
        screen.contains("Base %") && screen.contains("Δ pts"),
        "{screen}"
    );
}

#[test]
fn butterfly_screens() {
    snap(
        "compare-butterfly",
        "plist/base.txt",
        "plist/new.txt",
        &[Rows(2), Enter],
    );
    snap(
        "compare-butterfly-shares",
        "xpp/base.prf",
        "xpp/new.prf",
        &[Char('%'), Char('c'), Char('c')],
    );
}

#[test]
fn b_draws_bases_widths_and_back() {
    use ratatui::style::Color;
    let mut app = app_on("xpp/base.prf", "xpp/new.prf", 120, 35);
    act(&mut app, &[Char('5'), Char('b')]);
    let buf = render(&app);
    let screen = text(&buf);
    assert!(screen.contains("BASE's widths"), "{screen}");
    assert!(
        screen.contains("PARSE") && !screen.contains("DECODE"),
        "{screen}"
    );
    // PARSE is BASE's only: gone from NEW, the deepest blue.
    assert_eq!(bg_of(&buf, "PARSE"), Some(Color::Indexed(33)), "{screen}");
    assert!(screen.contains("Δ +10.000 ms NEW vs BASE"), "{screen}");
    // A key acting on NEW's functions says how to get back to them.
    act(&mut app, &[Char('d')]);
    let said = app.status.clone().unwrap_or_default();
    assert!(said.contains("BASE's frames are drawn"), "{said}");
    assert!(app.compared().expect("a comparison").query().is_whole());
    act(&mut app, &[Char('b')]);
    assert!(text(&render(&app)).contains("DECODE"));
    // Another tab and back: NEW's widths again.
    act(&mut app, &[Char('b'), Char('1'), Char('5')]);
    let screen = text(&render(&app));
    assert!(
        screen.contains("NEW's widths") && screen.contains("DECODE"),
        "{screen}"
    );
}

#[test]
fn capital_y_copies_the_diff_command_of_the_comparison() {
    let mut app = app_on("plist/base.txt", "plist/new.txt", 120, 35);
    select(&mut app, "main");
    act(&mut app, &[Char('m'), Char('Y')]);
    assert_eq!(
        app.clipboard.as_deref(),
        Some(
            "profx diff tests/fixtures/diff/plist/base.txt tests/fixtures/diff/plist/new.txt --table --merge main"
        )
    );
}

/// A step on a function gone from NEW is BASE's, and is left out of NEW.
#[test]
fn a_step_on_a_function_gone_from_new_applies_to_base() {
    let (base, new) = ("plist/base.txt", "plist/new.txt");
    let mut app = app_on(base, new, 120, 35);
    select(&mut app, "WriteInvoice");
    act(&mut app, &[Char('d')]);
    let c = app.compared().expect("a comparison");
    assert_eq!(c.query().steps.len(), 1, "{:?}", app.status);
    assert_eq!(c.comparison().side(Which::New).left_out_steps().count(), 1);
    assert_eq!(c.comparison().side(Which::Base).left_out_steps().count(), 0);
    same_as_fresh(&app, base, new);
    let said = app.status.clone().unwrap_or_default();
    assert!(said.contains("left out of new"), "{said}");
}

/// The Stacks (`3`) and Lines (`2`) tabs of a comparison, issue 66.
const PAIR_TABS: [(char, diff::Of); 2] = [('3', diff::Of::Stacks), ('2', diff::Of::Lines)];

/// Every cell of the pairs pane is the comparison's `Pairs`' own, rows in
/// its order (the largest change first).
#[test]
fn the_stacks_and_lines_panes_values_are_the_comparisons() {
    for (base, new) in PAIRS {
        for (tab, of) in PAIR_TABS {
            let mut app = app_on(base, new, 120, 35);
            app.press(Char(tab));
            let p = compare_pane(&app);
            let c = comparison(base, new, &Query::default());
            let pairs = c.pairs(of);
            assert_eq!(p.pairs().map(diff::Pairs::of), Some(of));
            assert_eq!(p.order, pairs.ordered(&c, false), "{base} {of:?}");
            for i in 0..pairs.len() {
                for &col in p.cols() {
                    let want = match col {
                        Col::Name => pairs.name(&c, i),
                        Col::Status => pairs.status(i).to_string(),
                        Col::Side(w, _) => pairs.value_cell(&c, w, i, false),
                        Col::Change(_) => pairs.change_cell(&c, i, false),
                        Col::ChangePct(_) => pairs.change_pct_cell(&c, i, false),
                    };
                    assert_eq!(p.cell_at(i, col), want, "{base} {of:?} {i} {col:?}");
                }
                if let (Some(b), Some(n), Some(d)) = (
                    pairs.value(&c, Which::Base, i, false),
                    pairs.value(&c, Which::New, i, false),
                    pairs.delta(&c, i, false),
                ) {
                    assert!((d.get() - (n.get() - b.get())).abs() < 1e-6);
                }
            }
        }
    }
}

/// A run compared with itself: every stack and line in both, no change.
#[test]
fn stacks_and_lines_of_a_run_compared_with_itself_show_no_change() {
    for rel in ["plist/base.txt", "xpp/new.prf", "vs-csv/base.csv"] {
        for (tab, of) in PAIR_TABS {
            let mut app = app_on(rel, rel, 120, 35);
            app.press(Char(tab));
            for shares in [false, true] {
                if shares {
                    app.press(Char('%'));
                }
                let p = compare_pane(&app);
                let n = p.pairs().map_or(0, diff::Pairs::len);
                for i in 0..n {
                    assert_eq!(p.cell_at(i, Col::Status), "both", "{rel} {of:?} {i}");
                    for &col in p.cols() {
                        let cell = p.cell_at(i, col);
                        match col {
                            Col::Change(_) => assert!(
                                ["0", "0.000", "0.00"].contains(&cell.as_str()),
                                "{rel} {of:?} {i}: {cell}"
                            ),
                            Col::ChangePct(_) => {
                                assert!(cell == "0.00%" || cell == "—", "{rel} {of:?} {i}: {cell}")
                            }
                            _ => {}
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn percent_in_the_stacks_comparison_shows_shares() {
    let mut app = app_on("plist/base.txt", "plist/new.txt", 120, 35);
    app.press(Char('3'));
    app.press(Char('%'));
    assert_eq!(compare_pane(&app).shown, Shown::Shares);
    let screen = text(&render(&app));
    assert!(screen.contains("Stacks compared"), "{screen}");
    assert!(screen.contains("shares of each run's total"), "{screen}");
    app.press(Char('1'));
    assert_eq!(compare_pane(&app).pairs().map(diff::Pairs::of), None);
}

#[test]
fn stacks_and_lines_screens() {
    snap(
        "compare-stacks",
        "plist/base.txt",
        "plist/new.txt",
        &[Char('3')],
    );
    snap(
        "compare-stacks-shares",
        "xpp/base.prf",
        "xpp/new.prf",
        &[Char('3'), Char('%')],
    );
    snap(
        "compare-lines",
        "plist/base.txt",
        "plist/new.txt",
        &[Char('2')],
    );
    snap(
        "compare-lines-xpp",
        "xpp/base.prf",
        "xpp/new.prf",
        &[Char('2')],
    );
}

#[test]
fn enter_on_a_compared_stack_opens_its_leaf_in_news_functions() {
    let mut app = app_on("xpp/base.prf", "xpp/new.prf", 120, 35);
    app.press(Char('3'));
    let p = compare_pane(&app);
    let i = p.selected().expect("a row");
    let pairs = p.pairs().expect("the stacks");
    let both = pairs.row(i, Which::New).is_some();
    let leaf = p.cell_at(i, Col::Name);
    let leaf = leaf.rsplit(" → ").next().unwrap_or_default().to_string();
    app.press(Enter);
    let screen = text(&render(&app));
    match both {
        true => assert!(!matches!(app.pane(), Pane::Compare(_)), "{screen}"),
        false => assert!(screen.contains("has no function in NEW's run"), "{screen}"),
    }
    assert!(screen.contains(&leaf), "{leaf}:\n{screen}");
}

/// A step in a comparison runs on a thread, as a single run's does: the
/// footer says so and any key cancels it, the comparison left as it was.
#[test]
fn a_key_cancels_a_comparisons_step() {
    use crate::tui::intent::Intent;
    let q = Query {
        steps: vec![Step::Drop(Target("main".into()))],
        ..Query::default()
    };
    let mut app = app_with("plist/base.txt", "plist/new.txt", &q, 120, 35);
    app.update(Intent::PopStep);
    assert!(app.querying(), "both sides are answered on a thread");
    app.update(Intent::First);
    assert!(!app.querying());
    let status = app.status.clone().unwrap_or_default();
    assert!(status.contains("cancelled"), "{status}");
    let shown = app.compared().map(|c| c.query().steps.len());
    assert_eq!(shown, Some(1), "the comparison as it was");
    // Asked again and waited for, it is taken.
    app.update(Intent::PopStep);
    app.settle_query();
    assert_eq!(app.compared().map(|c| c.query().steps.len()), Some(0));
}

/// A gone row with children of BASE's opens on them (all gone) and
/// closes again; `←` on a child goes to its gone parent.
#[test]
fn a_gone_row_opens_on_bases_children() {
    // BASE: main > OLD > {A, B}; NEW: main > KEEP.
    let run = |paths: &[&[&str]]| {
        let mut b = crate::model::ProfileBuilder::new("test");
        let m = b.intern("");
        let mut funcs: Vec<(String, crate::model::FuncId)> = Vec::new();
        for path in paths {
            let ids: Vec<_> = path
                .iter()
                .map(|&f| match funcs.iter().find(|(n, _)| n == f) {
                    Some(&(_, id)) => id,
                    None => {
                        let n = b.intern(f);
                        let id = b.function(n, m);
                        funcs.push((f.to_string(), id));
                        id
                    }
                })
                .collect();
            let s = b.stack(&ids);
            b.stack_summary(s, Some(1), Some(10.0), None);
        }
        Arc::new(b.finish())
    };
    let base = run(&[&["main", "OLD", "A"], &["main", "OLD", "B"]]);
    let new = run(&[&["main", "KEEP"]]);
    let q = Query::default();
    let sides = diff::answer_sides(&base, &new, &q, &Watch::NONE).expect("answers");
    let c = Comparison::new(sides).expect("comparable");
    let c = Compared::new(c, ["base".into(), "new".into()], q);
    let mut app = App::comparing(c, Rect::new(0, 0, 120, 35), true);
    act(&mut app, &[Char('4'), Char('E')]);
    let t = app.tree();
    let b = t.against.clone().expect("compared");
    let Some(at) = (0..t.rows_shown())
        .find(|&i| matches!(t.shown(i), Some(TreeRow::Gone { node, .. }) if b.has_children(node)))
    else {
        panic!("no gone row with children:\n{}", text(&render(&app)));
    };
    let before = t.rows_shown();
    let up = -(t.cursor as isize);
    act(&mut app, &[Rows(up), Rows(at as isize), Right]);
    let t = app.tree();
    assert!(t.rows_shown() > before, "opened");
    assert!(matches!(t.shown(at + 1), Some(TreeRow::Gone { .. })));
    insta::assert_snapshot!("compare-tree-gone-open", text(&render(&app)));
    act(&mut app, &[Right, Left]);
    assert_eq!(app.tree().cursor, at, "← from its child: the gone row");
    act(&mut app, &[Left]);
    assert_eq!(app.tree().rows_shown(), before, "closed");
    // → on a leaf of BASE's does nothing.
    act(&mut app, &[Right, Right]);
    let leaf = app.tree().cursor;
    act(&mut app, &[Right]);
    assert_eq!(app.tree().cursor, leaf);
    // - closes every row, the gone ones too.
    act(&mut app, &[Char('-'), Char('E')]);
    assert_eq!(app.tree().rows_shown(), before);
}

/// A click on a callee of the compared butterfly puts the keyboard on
/// it; one on a row of the table, back on the table at that row; the
/// wheel over the split moves in its list.
#[test]
fn clicks_pick_a_neighbour_of_the_butterfly_or_a_row() {
    use crate::tui::intent::Intent;
    let mut app = app_on("plist/base.txt", "plist/new.txt", 120, 35);
    select(&mut app, "PriceOrder");
    let d = app.areas().detail.expect("the butterfly's split");
    let (x, y) = (d.x + d.width * 3 / 4, d.y + 3);
    act(&mut app, &[Do(Intent::Click { x, y })]);
    assert_eq!(compare_pane(&app).focus, Focus::Callees(1));
    act(&mut app, &[Do(Intent::Wheel { x, y, rows: -1 })]);
    assert_eq!(compare_pane(&app).focus, Focus::Callees(0));
    let t = app.areas().table;
    act(
        &mut app,
        &[Do(Intent::Click {
            x: t.x + 3,
            y: t.y + 2,
        })],
    );
    let p = compare_pane(&app);
    assert_eq!((p.focus, p.cursor), (Focus::Table, 0));
}
