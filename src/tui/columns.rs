//! What each table shows on screen: its columns, their widths, its base
//! rows and the name a search matches. Rows are plain `u32` indices of the
//! table's row type (a `FuncId`'s index in the Functions table, a thread's
//! place in the threads list, and so on), so one table pane serves every
//! table; the typed rows are rebuilt here, from a `Src`.

use super::derived::Prepared;
use crate::analysis::columns::{
    Column, FuncColumn, LineColumn, ModuleColumn, PacketColumn, StackColumn, ThreadColumn, Value,
    ValueKind, compare,
};
use crate::analysis::modules::ModuleRow;
use crate::analysis::query::ThreadRow;
use crate::analysis::resort::TieOrder;
use crate::analysis::sort::{DefaultOrder, sort_by};
use crate::analysis::view::Table;
use crate::model::ids::RowId;
use crate::model::{FuncId, LineId, NameId, PacketId, Profile, StackId};
use crate::report::fmt::cell;
use crate::text::visible;
use unicode_width::UnicodeWidthStr;

/// A column of any table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Col {
    F(FuncColumn),
    L(LineColumn),
    S(StackColumn),
    P(PacketColumn),
    T(ThreadColumn),
    M(ModuleColumn),
}

/// What a table's cells are read from: the profile, and the rows made
/// from it once that are no field of it (the threads list's: a thread's
/// heaviest function is a walk of the calls in time order; the modules':
/// a module's inclusive time is a walk of the call paths).
#[derive(Clone, Copy)]
pub struct Src<'a> {
    pub p: &'a Profile,
    prepared: &'a Prepared,
}

impl<'a> Src<'a> {
    pub fn new(p: &'a Profile, prepared: &'a Prepared) -> Src<'a> {
        Src { p, prepared }
    }

    /// The threads list's rows, made at the first ask.
    pub fn threads(self) -> &'a [ThreadRow] {
        self.prepared.thread_rows(self.p)
    }

    fn thread(self, row: u32) -> Option<ThreadRow> {
        self.threads().get(row as usize).copied()
    }

    /// The Modules table's rows, made at the first ask.
    pub fn modules(self) -> &'a [ModuleRow] {
        self.prepared.module_rows(self.p)
    }

    fn module(self, row: u32) -> Option<ModuleRow> {
        self.modules().get(row as usize).copied()
    }
}

fn fid(r: u32) -> FuncId {
    FuncId::from_index(r as usize)
}
fn lid(r: u32) -> LineId {
    LineId::from_index(r as usize)
}
fn sid(r: u32) -> StackId {
    StackId::from_index(r as usize)
}
fn pid(r: u32) -> PacketId {
    PacketId::from_index(r as usize)
}

impl Col {
    /// The heading named for what the column holds in `p`'s format, a
    /// time column's with the profile's unit (`Incl ms`, `Incl ticks`).
    pub fn header_in(self, p: &Profile) -> std::borrow::Cow<'static, str> {
        match self {
            Col::F(c) => c.header_in(p),
            Col::L(c) => c.header_in(p),
            Col::S(c) => c.header_in(p),
            Col::P(c) => c.header_in(p),
            Col::T(c) => c.header_in(p),
            Col::M(c) => c.header_in(p),
        }
    }

    pub fn value<'a>(self, src: Src<'a>, row: u32) -> Value<'a> {
        let p = src.p;
        match self {
            Col::F(c) => c.value(p, fid(row)),
            Col::L(c) => c.value(p, lid(row)),
            Col::S(c) => c.value(p, sid(row)),
            Col::P(c) => c.value(p, pid(row)),
            Col::T(c) => match src.thread(row) {
                Some(t) => c.value(p, t),
                None => Value::Count(None),
            },
            Col::M(c) => match src.module(row) {
                Some(m) => c.value(p, m),
                None => Value::Count(None),
            },
        }
    }

    pub fn is_number(self) -> bool {
        let kind = match self {
            Col::F(c) => c.value_kind(),
            Col::L(c) => c.value_kind(),
            Col::S(c) => c.value_kind(),
            Col::P(c) => c.value_kind(),
            Col::T(c) => c.value_kind(),
            Col::M(c) => c.value_kind(),
        };
        kind == ValueKind::Number
    }

    pub fn descending_by_default(self) -> bool {
        self.is_number()
    }
}

/// Where a column's text is cut when too wide: a function's name keeps
/// its end (the method), a file or module both ends, other text its start.
pub(super) fn cut(col: Col) -> crate::tui::fit::Cut {
    use crate::tui::fit::Cut;
    match col {
        Col::F(FuncColumn::Name)
        | Col::L(LineColumn::Function)
        | Col::S(StackColumn::Leaf)
        | Col::T(ThreadColumn::Heaviest) => Cut::Name,
        Col::F(FuncColumn::Module)
        | Col::L(LineColumn::File)
        | Col::P(PacketColumn::Source)
        | Col::M(ModuleColumn::Module) => Cut::Middle,
        _ => Cut::End,
    }
}

/// The module to show beside a stack's leaf whose name another module's
/// function shares (the other tables show modules in a column of their
/// own).
pub(super) fn shared_module(col: Col, p: &Profile, row: u32) -> Option<std::borrow::Cow<'_, str>> {
    let Col::S(StackColumn::Leaf) = col else {
        return None;
    };
    crate::tui::fit::shared_module(p, p.stack_leaf(sid(row)))
}

/// The columns of a kind that hold a value somewhere in the profile, in
/// display order: columns absent for the whole profile are hidden.
pub(super) fn present_columns(src: Src, kind: Table) -> Vec<Col> {
    let p = src.p;
    fn keep<C: Column>(p: &Profile, rows: Vec<C::Row>, wrap: fn(C) -> Col) -> Vec<Col> {
        crate::analysis::columns::present_columns::<C>(p, rows)
            .into_iter()
            .map(wrap)
            .collect()
    }
    match kind {
        Table::Functions => keep(p, p.function_ids().collect(), Col::F),
        Table::Lines => {
            let mut cols = keep(p, p.line_ids().collect(), Col::L);
            // Lines that say what they called are a trace's call sites,
            // whose file is their caller (formats.md): the function
            // column would repeat it, so the pane shows it once.
            if cols.contains(&Col::L(LineColumn::Called)) {
                cols.retain(|&c| c != Col::L(LineColumn::Function));
            }
            cols
        }
        Table::Stacks => keep(p, p.stack_ids().collect(), Col::S),
        Table::Packets => keep(p, p.packet_ids().collect(), Col::P),
        Table::Threads => keep(p, src.threads().to_vec(), Col::T),
        Table::Modules => keep(p, src.modules().to_vec(), Col::M),
    }
}

/// How many rows of a kind the profile has.
pub(super) fn row_count(src: Src, kind: Table) -> usize {
    let p = src.p;
    match kind {
        Table::Functions => p.functions().len(),
        Table::Lines => p.lines().len(),
        Table::Stacks => p.stacks().len(),
        Table::Packets => p.packets().len(),
        Table::Threads => p.threads().len(),
        Table::Modules => src.modules().len(),
    }
}

/// Every row of a kind in its canonical order (report-json.md); the
/// modules' made once (`Src::modules`), in the order of their names.
pub(super) fn canonical_rows(src: Src, table: Table) -> Vec<u32> {
    match table {
        Table::Modules => (0..src.modules().len() as u32).collect(),
        _ => crate::analysis::sort::canonical_rows(src.p, table),
    }
}

/// The order a pane opens in (`analysis::sort::default_sort`, which
/// `profx report`'s table follows too); packets keep their input order.
pub(super) fn default_sort(kind: Table, cols: &[Col]) -> Option<(Col, bool)> {
    fn of<C: DefaultOrder>(
        cols: &[Col],
        typed: fn(Col) -> Option<C>,
        wrap: fn(C) -> Col,
    ) -> Option<(Col, bool)> {
        let present: Vec<C> = cols.iter().copied().filter_map(typed).collect();
        crate::analysis::sort::default_sort(&present).map(|(c, desc)| (wrap(c), desc))
    }
    match kind {
        Table::Functions => of(
            cols,
            |c| if let Col::F(c) = c { Some(c) } else { None },
            Col::F,
        ),
        Table::Lines => of(
            cols,
            |c| if let Col::L(c) = c { Some(c) } else { None },
            Col::L,
        ),
        Table::Stacks => of(
            cols,
            |c| if let Col::S(c) = c { Some(c) } else { None },
            Col::S,
        ),
        Table::Threads => of(
            cols,
            |c| if let Col::T(c) = c { Some(c) } else { None },
            Col::T,
        ),
        Table::Modules => of(
            cols,
            |c| if let Col::M(c) = c { Some(c) } else { None },
            Col::M,
        ),
        Table::Packets => Some((Col::P(PacketColumn::Index), false)),
    }
}

/// The tie order of a kind's rows, from its canonical order (`None` for
/// packets, whose ties are text, and threads and modules, a handful).
pub(super) fn tie_order(p: &Profile, kind: Table, canonical: &[u32]) -> Option<TieOrder> {
    match kind {
        Table::Functions => TieOrder::new::<FuncColumn>(p, canonical, p.functions().len()),
        Table::Lines => TieOrder::new::<LineColumn>(p, canonical, p.lines().len()),
        Table::Stacks => TieOrder::new::<StackColumn>(p, canonical, p.stacks().len()),
        Table::Packets | Table::Threads | Table::Modules => None,
    }
}

/// Sorts rows by a column (stable; ties by name). With the tie order of
/// the rows' base (rows are a part of it, in its order), only the column's
/// values are read: the same order, several times faster.
pub(super) fn sort(
    src: Src,
    rows: &mut Vec<u32>,
    col: Col,
    descending: bool,
    ties: Option<&TieOrder>,
) {
    let p = src.p;
    let fast = ties.and_then(|t| match col {
        Col::F(c) => t.sort(p, rows, c, descending),
        Col::L(c) => t.sort(p, rows, c, descending),
        Col::S(c) => t.sort(p, rows, c, descending),
        Col::P(_) | Col::T(_) | Col::M(_) => None,
    });
    if let Some(sorted) = fast {
        *rows = sorted;
        return;
    }
    match col {
        Col::F(c) => sort_ids(p, rows, c, descending),
        Col::L(c) => sort_ids(p, rows, c, descending),
        Col::S(c) => sort_ids(p, rows, c, descending),
        Col::P(c) => sort_ids(p, rows, c, descending),
        Col::T(c) => {
            let all = src.threads();
            let row = |r: &u32| all.get(*r as usize).copied();
            rows.sort_by(|a, b| match (row(a), row(b)) {
                (Some(x), Some(y)) => compare(p, c, x, y, descending),
                (x, y) => x.is_none().cmp(&y.is_none()),
            });
        }
        Col::M(c) => {
            let all = src.modules();
            let row = |r: &u32| all.get(*r as usize).copied();
            rows.sort_by(|a, b| match (row(a), row(b)) {
                (Some(x), Some(y)) => compare(p, c, x, y, descending),
                (x, y) => x.is_none().cmp(&y.is_none()),
            });
        }
    }
}

/// Sorts row positions as the typed ids `analysis::sort` works on.
fn sort_ids<C: Column>(p: &Profile, rows: &mut Vec<u32>, c: C, descending: bool)
where
    C::Row: RowId,
{
    let mut ids: Vec<C::Row> = rows
        .iter()
        .map(|&r| RowId::from_index(r as usize))
        .collect();
    sort_by(p, &mut ids, c, descending);
    *rows = ids.into_iter().map(|i| RowId::index(i) as u32).collect();
}

/// The column a search matches in, and the row's text there: a function's
/// name, a line's function (its file when it has none), a stack's leaf, a
/// packet's source, a thread's heaviest function, a module's name.
pub(super) fn search_column(kind: Table, p: &Profile, row: u32) -> Col {
    match kind {
        Table::Functions => Col::F(FuncColumn::Name),
        Table::Lines if p.line(lid(row)).function.is_some() => Col::L(LineColumn::Function),
        Table::Lines => Col::L(LineColumn::File),
        Table::Stacks => Col::S(StackColumn::Leaf),
        Table::Packets => Col::P(PacketColumn::Source),
        Table::Threads => Col::T(ThreadColumn::Heaviest),
        Table::Modules => Col::M(ModuleColumn::Module),
    }
}

/// The name whose text is the row's search text, where it is one: every
/// kind's but a packet's (its source is its own string), a thread's and a
/// module's (a handful, matched one by one). A search matches names once
/// each, then picks the rows by these.
pub(super) fn search_name(kind: Table, p: &Profile, row: u32) -> Option<NameId> {
    match kind {
        Table::Functions => Some(p.function(fid(row)).name),
        Table::Lines => {
            let line = p.line(lid(row));
            Some(line.function.map_or(line.file, |f| p.function(f).name))
        }
        Table::Stacks => Some(p.function(p.stack_leaf(sid(row))).name),
        Table::Packets | Table::Threads | Table::Modules => None,
    }
}

/// Every row's `search_name`, by row id; `None` for a kind whose rows
/// have none.
pub(super) fn search_names(p: &Profile, kind: Table) -> Option<Vec<NameId>> {
    let n = match kind {
        Table::Packets | Table::Threads | Table::Modules => return None,
        Table::Functions => p.functions().len(),
        Table::Lines => p.lines().len(),
        Table::Stacks => p.stacks().len(),
    };
    (0..n as u32).map(|r| search_name(kind, p, r)).collect()
}

/// The text a search matches: what the cell shows, escapes included, so
/// highlighted positions fall on the characters on screen.
pub(super) fn search_text(kind: Table, src: Src<'_>, row: u32) -> std::borrow::Cow<'_, str> {
    match search_column(kind, src.p, row).value(src, row) {
        Value::Text(t) => visible(t),
        other => cell(other).into(),
    }
}

/// Widest cell of each column over all rows of the kind, whole: a text
/// column starts narrower (`start_width`) and takes the room the others
/// leave up to this (`layout::place_columns`). Rows are read in the
/// model's order, which is the order they lie in memory.
pub(super) fn column_widths(src: Src, kind: Table, cols: &[Col]) -> Vec<u16> {
    column_widths_of(src, cols, 0..row_count(src, kind) as u32)
}

/// `column_widths` over some rows only (the first frame's).
pub(super) fn column_widths_of(
    src: Src,
    cols: &[Col],
    rows: impl Iterator<Item = u32> + Clone,
) -> Vec<u16> {
    let p = src.p;
    cols.iter()
        .map(|&c| {
            let head = c.header_in(p).width();
            let widest = if c.is_number() {
                widest_number(src, c, rows.clone())
            } else {
                rows.clone()
                    .map(|r| {
                        let module = shared_module(c, p, r).map_or(0, |m| m.width() + 3);
                        text_width(c.value(src, r)) + module
                    })
                    .max()
                    .unwrap_or(0)
            };
            u16::try_from(head.max(widest)).unwrap_or(u16::MAX)
        })
        .collect()
}

/// The largest value formats widest; the absent mark is one column.
fn widest_number(src: Src, c: Col, rows: impl Iterator<Item = u32>) -> usize {
    let mut widest = Value::Count(None);
    let mut max = f64::MIN;
    for r in rows {
        let v = c.value(src, r);
        let x = match v {
            Value::Count(Some(n)) | Value::Ordinal(Some(n)) => n as f64,
            Value::Ms(Some(x)) | Value::Pct(Some(x)) => x.abs(),
            _ => continue,
        };
        if x > max {
            max = x;
            widest = v;
        }
    }
    cell(widest).width().max(1)
}

fn text_width(v: Value<'_>) -> usize {
    match v {
        // Printable ASCII, most names, is one column a byte and has
        // nothing to escape: a pass over the bytes, not over chars.
        Value::Text(t) if crate::text::is_printable_ascii(t) => t.len(),
        Value::Text(t) => visible(t).width(),
        _ => 1,
    }
}

/// The width a column starts at, its widest cell `widest` wide: a number
/// its widest (a number never loses a digit), a text at most its cap
/// (and its heading), so one long name cannot push every number off the
/// screen; the room left then widens it again.
pub(super) fn start_width(c: Col, widest: u16) -> u16 {
    if c.is_number() {
        return widest;
    }
    let cap = match c {
        Col::F(FuncColumn::Name) | Col::M(ModuleColumn::Module) => 48,
        Col::S(StackColumn::Leaf) => 40,
        _ => 28,
    };
    widest.min(cap)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A search matches a row by its search name where it has one: that
    /// name's text is the row's search text, in every kind, escapes and
    /// rows without a function (a line then searches its file) included.
    #[test]
    fn a_rows_search_name_holds_its_search_text() {
        let plist = crate::tui::tests::hostile();
        let trace = crate::tui::tests::fixture("xpp/orders-run.prf");
        let lines = crate::tui::tests::fixture("plist/line-counting.txt");
        let mut named = 0;
        for p in [&plist, &trace, &lines] {
            // What is derived is one profile's.
            let prepared = Prepared::default();
            let src = Src::new(p, &prepared);
            for kind in Table::ALL {
                for r in 0..row_count(src, kind) as u32 {
                    let Some(n) = search_name(kind, p, r) else {
                        assert!(
                            matches!(kind, Table::Packets | Table::Threads | Table::Modules),
                            "only a packet, a thread and a module have no search name"
                        );
                        continue;
                    };
                    assert_eq!(
                        visible(p.name(n)),
                        search_text(kind, src, r),
                        "{kind:?} {r}"
                    );
                    named += 1;
                }
                let by_row = search_names(p, kind);
                let named = !matches!(kind, Table::Packets | Table::Threads | Table::Modules);
                assert_eq!(by_row.is_some(), named);
            }
        }
        assert!(named > 20, "the profiles have rows of every named kind");
    }

    /// A top-level line has no function name to rank, so the tie order
    /// cannot key the Function column; the pane then sorts as `sort_by`
    /// does, and every other column by the tie order, in the same order.
    #[test]
    fn a_column_without_ranks_sorts_the_same_with_the_tie_order() {
        let mut b = crate::model::ProfileBuilder::new("test");
        // Top-level lines filed under another name than `(top level)`
        // (which ranks as that name): their Function column has no rank.
        let (file, top) = (b.intern("a.prg"), b.intern("startup.prg"));
        let module = b.intern("");
        for (i, name) in ["b", "a", "c"].into_iter().enumerate() {
            let name = b.intern(name);
            let f = b.function(name, module);
            let l = b.line(file, 10 - i as u32, Some(f));
            b.line_summary(l, Some(i as u64 % 2), None);
        }
        for n in [3, 1] {
            let l = b.line(top, n, None);
            b.line_at_top_level(l);
            b.line_summary(l, Some(1), None);
        }
        let p = b.finish();
        let prepared = Prepared::default();
        let src = Src::new(&p, &prepared);
        let base = canonical_rows(src, Table::Lines);
        let ties = tie_order(&p, Table::Lines, &base).expect("files are interned");
        let function = LineColumn::Function;
        assert!(ties.sort(&p, &base, function, false).is_none(), "no rank");
        for col in present_columns(src, Table::Lines) {
            for descending in [false, true] {
                let (mut with, mut without) = (base.clone(), base.clone());
                sort(src, &mut with, col, descending, Some(&ties));
                sort(src, &mut without, col, descending, None);
                assert_eq!(with, without, "{col:?} descending {descending}");
            }
        }
    }

    /// The byte pass gives what escaping and measuring give, and leaves
    /// every other text to them.
    #[test]
    fn text_width_is_the_visible_width() {
        for t in [
            "",
            "Function_0000001(int, const char *)",
            "~ !",
            "a\x1b[2Jb",
            "tab\there",
            "del\x7f",
            "日本語",
            "e\u{301}",
            "rtl\u{202e}x",
        ] {
            assert_eq!(text_width(Value::Text(t)), visible(t).width(), "{t:?}");
        }
    }
}
