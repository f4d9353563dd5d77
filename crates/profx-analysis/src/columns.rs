//! The columns of each pane, and the value of a row in each.
//!
//! One enum per row type, as in bottom's sortable tables: the table output,
//! `--sort` and the app's headers and sorting all go through these, so a
//! column means the same number everywhere. Values come straight from the
//! model (percents included), never recomputed here.

use crate::modules::{ModuleRow, NO_MODULE};
use crate::query::ThreadRow;
use profx_model::{FuncId, HitsWord, LineFile, LineId, PacketId, PctOf, Profile, StackId, metrics};
use std::borrow::Cow;

/// A cell's value, typed so views can align and format it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value<'p> {
    /// Text: a name, a module, a file.
    Text(&'p str),
    /// A count (calls, samples, events); `None` where absent.
    Count(Option<u64>),
    /// A number that names a place (a line number): written as it is,
    /// never grouped (`2011`, not `2,011`).
    Ordinal(Option<u64>),
    /// A time, in the profile's unit (`Profile::time_unit`); `None` where
    /// absent.
    Ms(Option<f64>),
    /// A percent; `None` where absent.
    Pct(Option<f64>),
}

impl Value<'_> {
    /// Whether the cell's number is absent (text never is).
    pub fn is_absent(&self) -> bool {
        matches!(
            self,
            Value::Count(None) | Value::Ordinal(None) | Value::Ms(None) | Value::Pct(None)
        )
    }

    /// Absent, or an empty text (an Xbase++ function's module): what a
    /// column holds nothing of when every row has it, and is hidden.
    pub fn is_blank(&self) -> bool {
        self.is_absent() || matches!(self, Value::Text(""))
    }

    pub(crate) fn number(&self) -> Option<f64> {
        match *self {
            Value::Count(n) | Value::Ordinal(n) => n.map(|n| n as f64),
            Value::Ms(x) | Value::Pct(x) => x,
            Value::Text(_) => None,
        }
    }
}

/// The columns of one row type.
pub trait Column: Copy + Eq + std::fmt::Debug + Send + Sync + 'static {
    /// A row id; rows are keyed on every core for a sort.
    type Row: Copy + Send + Sync;
    /// Every column, in display order.
    const ALL: &'static [Self];
    /// Name used by `--sort` (the `--json` key where there is one).
    fn key(self) -> &'static str;
    /// Short heading for tables, without a time column's unit (`Incl`):
    /// `header_in` adds the profile's.
    fn header(self) -> &'static str;
    /// Whether the column holds times, in the profile's unit.
    fn is_time(self) -> bool;
    /// The row's value in this column.
    fn value(self, p: &Profile, row: Self::Row) -> Value<'_>;
    /// Text that breaks ties, so every order is total and stable.
    fn tie(p: &Profile, row: Self::Row) -> (&str, &str);

    /// The row's text in this column and its `tie` as name ranks
    /// (`Profile::name_rank`; a tie's first part high), where they are
    /// interned names: a sort then compares integers, not strings.
    fn ranks(self, p: &Profile, row: Self::Row) -> (Option<u32>, Option<u64>);

    /// The heading for this profile: a column named for what it holds in
    /// the profile's format (`header_for`), a time column with the
    /// profile's unit (`Incl ms`, `Incl ticks`).
    fn header_in(self, p: &Profile) -> Cow<'static, str> {
        match (header_for(p, self.key()), self.is_time()) {
            (Some(h), _) => Cow::Borrowed(h),
            (None, true) => Cow::Owned(format!("{} {}", self.header(), p.time_unit_name())),
            (None, false) => Cow::Borrowed(self.header()),
        }
    }

    /// The column's name in a CSV export's header: its `key`, a time
    /// column's ending in the profile's unit (`elapsed_inclusive_ms`,
    /// `elapsed_inclusive_ticks`): a spreadsheet has no other place to say
    /// it. `--json` and `--sort` keep the keys as they are.
    fn key_in(self, p: &Profile) -> Cow<'static, str> {
        let key = self.key();
        match key.strip_suffix("_ms").filter(|_| self.is_time()) {
            Some(stem) => Cow::Owned(time_key(stem, p)),
            None => Cow::Borrowed(key),
        }
    }

    /// The column whose `key` is `key`; `None` for none.
    fn from_key(key: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|c| c.key() == key)
    }

    /// False when no row can have a value in this column (a percent of a
    /// session total the profile lacks), so no row need be read to hide it.
    fn possible(self, p: &Profile) -> bool;

    /// Numbers sort largest first by default, text A to Z.
    fn descending_by_default(self) -> bool;
    /// Whether the column holds text or numbers.
    fn value_kind(self) -> ValueKind;
}

/// A time's name where a name says its unit: `stem` and the profile's
/// unit (`time_ms`, `time_ticks`).
pub fn time_key(stem: &str, p: &Profile) -> String {
    format!("{stem}_{}", p.time_unit_name())
}

/// Whether a column holds text or numbers (for alignment and sort direction).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// Text: sorts A to Z.
    Text,
    /// Numbers: sort largest first.
    Number,
}

/// The columns holding a value in some row, in display order: columns
/// absent for the whole profile are hidden. The rows are read once, each
/// for the columns not yet seen, and the pass stops when every column is:
/// a column at a time would read every row once a column. A
/// column no row can fill (`Column::possible`) is not looked for.
pub fn present_columns<C: Column>(p: &Profile, rows: impl IntoIterator<Item = C::Row>) -> Vec<C> {
    let (mut unseen, impossible): (Vec<C>, Vec<C>) = C::ALL.iter().partition(|c| c.possible(p));
    for r in rows {
        unseen.retain(|c| c.value(p, r).is_blank());
        if unseen.is_empty() {
            break;
        }
    }
    C::ALL
        .iter()
        .copied()
        .filter(|c| !unseen.contains(c) && !impossible.contains(c))
        .collect()
}

/// Compares two rows by `col`; absent values last in either direction.
pub fn compare<C: Column>(
    p: &Profile,
    col: C,
    a: C::Row,
    b: C::Row,
    descending: bool,
) -> std::cmp::Ordering {
    use std::cmp::Ordering::*;
    let (va, vb) = (col.value(p, a), col.value(p, b));
    let ord = match (va, vb) {
        (Value::Text(x), Value::Text(y)) => x.cmp(y),
        _ => match (va.number(), vb.number()) {
            (Some(x), Some(y)) => x.total_cmp(&y),
            (Some(_), None) => return Less,
            (None, Some(_)) => return Greater,
            (None, None) => Equal,
        },
    };
    let ord = if descending { ord.reverse() } else { ord };
    ord.then_with(|| C::tie(p, a).cmp(&C::tie(p, b)))
}

/// What a column holds, as the tables below declare it: a time is a
/// number whose heading ends in the profile's unit.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Text,
    Number,
    Time,
}

impl Kind {
    fn value_kind(self) -> ValueKind {
        match self {
            Kind::Text => ValueKind::Text,
            Kind::Number | Kind::Time => ValueKind::Number,
        }
    }
}

macro_rules! columns {
    ($(#[$doc:meta])* $name:ident for $row:ty, |$p:ident, $r:ident| { $($(#[$vdoc:meta])* $var:ident $key:literal $head:literal $kind:ident => $get:expr),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name { $($(#[$vdoc])* $var),+ }

        impl $name {
            fn get(self, $p: &Profile, $r: $row) -> Value<'_> {
                match self { $($name::$var => $get),+ }
            }
            fn kind(self) -> ValueKind {
                match self { $($name::$var => Kind::$kind.value_kind()),+ }
            }
            fn timed(self) -> bool {
                match self { $($name::$var => Kind::$kind == Kind::Time),+ }
            }
            fn key_of(self) -> &'static str {
                match self { $($name::$var => $key),+ }
            }
            fn header_of(self) -> &'static str {
                match self { $($name::$var => $head),+ }
            }
            const LIST: &'static [$name] = &[$($name::$var),+];
        }
    };
}

columns!(
    /// The Functions table's columns, in display order.
    FuncColumn for FuncId, |p, f| {
    /// The function's name.
    Name "name" "Name" Text => Value::Text(p.function_name(f)),
    /// The module it is in.
    Module "module" "Module" Text => Value::Text(p.function_module(f)),
    /// Entries into the function.
    Calls "calls" "Calls" Number => Value::Count(p.functions().calls(f.index())),
    /// Samples with it on top of the stack.
    HitsSelf "hits_self" "Self hits" Number => Value::Count(p.functions().hits_self(f.index())),
    /// Self hits, in % of the samples.
    HitsSelfPct "hits_self_pct" "Self %" Number => Value::Pct(p.percent(f, PctOf::HitsSelf)),
    /// Samples with it anywhere on the stack.
    HitsTotal "hits_total" "Total hits" Number => Value::Count(p.functions().hits_total(f.index())),
    /// Total hits, in % of the samples.
    HitsTotalPct "hits_total_pct" "Total %" Number => Value::Pct(p.percent(f, PctOf::HitsTotal)),
    /// Elapsed inclusive time, in the profile's time unit.
    ElapsedIncl "elapsed_inclusive_ms" "Incl" Time => Value::Ms(p.functions().elapsed_inclusive(f.index())),
    /// Elapsed inclusive time, in % of the session's.
    ElapsedInclPct "elapsed_inclusive_pct" "Incl %" Number => Value::Pct(p.percent(f, PctOf::ElapsedInclusive)),
    /// Elapsed exclusive time, in the profile's time unit.
    ElapsedExcl "elapsed_exclusive_ms" "Excl" Time => Value::Ms(p.functions().elapsed_exclusive(f.index())),
    /// Elapsed exclusive time, in % of the session's elapsed time.
    ElapsedExclPct "elapsed_exclusive_pct" "Excl %" Number => Value::Pct(p.percent(f, PctOf::ElapsedExclusive)),
    /// Application inclusive time, in the profile's time unit.
    AppIncl "application_inclusive_ms" "App incl" Time => Value::Ms(p.functions().application_inclusive(f.index())),
    /// Application inclusive time, in % of the session's.
    AppInclPct "application_inclusive_pct" "App incl %" Number => Value::Pct(p.percent(f, PctOf::ApplicationInclusive)),
    /// Application exclusive time, in the profile's time unit.
    AppExcl "application_exclusive_ms" "App excl" Time => Value::Ms(p.functions().application_exclusive(f.index())),
    /// Application exclusive time, in % of the session's application time.
    AppExclPct "application_exclusive_pct" "App excl %" Number => Value::Pct(p.percent(f, PctOf::ApplicationExclusive)),
    /// Mean inclusive time per call, in the profile's time unit.
    AvgPerCall "avg_ms" "Avg" Time => Value::Ms(metrics::avg_per_call(&p.function(f))),
    /// The shortest call's inclusive time, in the profile's time unit.
    MinIncl "min_elapsed_inclusive_ms" "Min incl" Time => Value::Ms(p.per_call(f).min_inclusive),
    /// The longest call's inclusive time, in the profile's time unit.
    MaxIncl "max_elapsed_inclusive_ms" "Max incl" Time => Value::Ms(p.per_call(f).max_inclusive),
    /// The least exclusive time of one call, in the profile's time unit.
    MinExcl "min_elapsed_exclusive_ms" "Min excl" Time => Value::Ms(p.per_call(f).min_exclusive),
    /// The most exclusive time of one call, in the profile's time unit.
    MaxExcl "max_elapsed_exclusive_ms" "Max excl" Time => Value::Ms(p.per_call(f).max_exclusive),
});

columns!(
    /// The Lines table's columns, in display order.
    LineColumn for LineId, |p, l| {
    /// The source file, or a trace's calling function (headed `Caller`).
    File "file" "File" Text => Value::Text(p.name(p.line(l).file)),
    /// The line number.
    Line "line" "Line" Number => Value::Ordinal(Some(u64::from(p.line(l).line))),
    /// What a trace's line called: the callee's name, or the callees' names.
    Called "called" "Called" Text => Value::Text(p.line(l).called.map_or("", |n| p.name(n))),
    /// The function the line is in; `(top level)` for a trace's calls outside any.
    Function "function" "Function" Text => Value::Text(p.line_function_name(l).unwrap_or("")),
    /// Samples at the line, or calls counted there.
    Hits "hits" "Hits" Number => Value::Count(p.line(l).hits),
    /// Time of those samples or calls, in the profile's time unit.
    Time "time_ms" "Time" Time => Value::Ms(p.line(l).time_ms),
    /// The line's share of its function's time, else of the session's
    /// (`metrics::line_pct`).
    Pct "pct" "%" Number => Value::Pct(line_pct(p, l)),
});

columns!(
    /// The Stacks table's columns, in display order.
    StackColumn for StackId, |p, s| {
    /// The function the path ends in.
    Leaf "leaf" "Leaf" Text => Value::Text(p.function_name(p.stack_leaf(s))),
    /// Frames on the path.
    Depth "depth" "Depth" Number => Value::Count(Some(p.stack_depth(s) as u64)),
    /// Calls into exactly this path, or samples of exactly this stack.
    Hits "hits" "Hits" Number => Value::Count(p.stack(s).hits),
    /// Time with exactly this path on the stack, in the profile's time unit.
    SelfMs "self_ms" "Self" Time => Value::Ms(p.stack(s).self_ms),
    /// Time in the path's callees, in the profile's time unit.
    ChildMs "child_ms" "Child" Time => Value::Ms(p.stack(s).child_ms),
});

columns!(
    /// The Packets table's columns, in display order.
    PacketColumn for PacketId, |p, k| {
    /// The packet's place in the input, from 0.
    Index "index" "#" Number => Value::Count(Some(k.index() as u64)),
    /// The input file it came from.
    Source "source" "Source" Text => Value::Text(&p.packet(k).source),
    /// The events it holds.
    Events "events" "Events" Number => Value::Count(Some(p.packet(k).events.len() as u64)),
    /// Where its events begin, in the profile's time unit.
    FirstMs "first_ms" "First" Time => Value::Ms(p.packet(k).first_ms),
    /// Where they end, in the profile's time unit.
    LastMs "last_ms" "Last" Time => Value::Ms(p.packet(k).last_ms),
    /// Warnings about its input file.
    Warnings "warnings" "Warnings" Number => Value::Count(Some(p.packet_warnings(k) as u64)),
});

columns!(
    /// The Threads table's columns (a trace's threads), in display order.
    /// A row is the thread's `ThreadRow` itself: its heaviest function is
    /// a walk of the calls in time order (`query::thread_rows`), made once
    /// for the table, not a field of the profile.
    ThreadColumn for ThreadRow, |p, t| {
    /// The id the trace records (`--thread` takes it).
    Id "id" "Thread" Number => Value::Ordinal(Some(t.info.id)),
    /// Its first event's time, ms.
    FirstMs "first_ms" "First ms" Number => Value::Ms(t.info.first_ms),
    /// Its last event's time, ms.
    LastMs "last_ms" "Last ms" Number => Value::Ms(t.info.last_ms),
    /// Time with a call open on it, ms.
    BusyMs "busy_ms" "Busy ms" Number => Value::Ms(t.info.busy_ms),
    /// Its events.
    Events "events" "Events" Number => Value::Count(Some(t.info.events)),
    /// Its calls.
    Calls "calls" "Calls" Number => Value::Count(Some(t.info.calls)),
    /// The heaviest function's own time on the thread, ms.
    HeaviestMs "heaviest_ms" "Heaviest ms" Number => Value::Ms(t.heaviest.map(|h| h.1)),
    /// The function with the most own time on the thread.
    Heaviest "heaviest" "Heaviest function" Text => Value::Text(t.heaviest.map_or("", |h| p.function_name(h.0))),
});

columns!(
    /// The Modules table's columns (`modules::module_rows`), in display
    /// order, named as the Functions table's are: a module's number means
    /// for its functions together what the function's means for one. The
    /// times come first, inclusive beside exclusive, then the samples: at
    /// 80 columns the numbers the view is for are on screen.
    ModuleColumn for ModuleRow, |p, m| {
    /// The module's name.
    Module "module" "Module" Text => Value::Text(module_name(p, m)),
    /// Entries into its functions.
    Calls "calls" "Calls" Number => Value::Count(m.calls),
    /// Time with one of its functions anywhere on the stack, once, ms.
    ElapsedIncl "elapsed_inclusive_ms" "Incl ms" Number => Value::Ms(m.inclusive_ms),
    /// Inclusive time, in % of the session's.
    ElapsedInclPct "elapsed_inclusive_pct" "Incl %" Number => Value::Pct(metrics::pct(m.inclusive_ms, p.totals.elapsed_inclusive_ms)),
    /// Time with one of its functions on top of the stack, ms.
    ElapsedExcl "elapsed_exclusive_ms" "Excl ms" Number => Value::Ms(m.exclusive_ms),
    /// Exclusive time, in % of the session's.
    ElapsedExclPct "elapsed_exclusive_pct" "Excl %" Number => Value::Pct(metrics::pct(m.exclusive_ms, p.totals.elapsed_inclusive_ms)),
    /// Samples with one of its functions anywhere on the stack, once.
    HitsTotal "hits_total" "Total hits" Number => Value::Count(m.hits_total),
    /// Total hits, in % of the samples.
    HitsTotalPct "hits_total_pct" "Total %" Number => Value::Pct(metrics::pct(m.hits_total.map(|h| h as f64), samples(p))),
    /// Samples with one of its functions on top of the stack.
    HitsSelf "hits_self" "Self hits" Number => Value::Count(m.hits_self),
    /// Self hits, in % of the samples.
    HitsSelfPct "hits_self_pct" "Self %" Number => Value::Pct(metrics::pct(m.hits_self.map(|h| h as f64), samples(p))),
    /// Its functions.
    Functions "functions" "Functions" Number => Value::Count(Some(m.functions)),
});

/// A module's name as its row shows it: the functions a format files
/// under no module are `(no module)`.
fn module_name(p: &Profile, m: ModuleRow) -> &str {
    match p.name(m.module) {
        "" => NO_MODULE,
        name => name,
    }
}

/// The session's samples, what hit percents are of.
fn samples(p: &Profile) -> Option<f64> {
    p.totals.samples.map(|n| n as f64)
}

macro_rules! impl_column {
    ($name:ident, $row:ty, $tie:ident, $ranks:ident, $possible:ident) => {
        impl Column for $name {
            type Row = $row;
            const ALL: &'static [Self] = $name::LIST;
            fn key(self) -> &'static str {
                self.key_of()
            }
            fn header(self) -> &'static str {
                self.header_of()
            }
            fn is_time(self) -> bool {
                self.timed()
            }
            fn value(self, p: &Profile, row: $row) -> Value<'_> {
                self.get(p, row)
            }
            fn tie(p: &Profile, row: $row) -> (&str, &str) {
                $tie(p, row)
            }
            fn ranks(self, p: &Profile, row: $row) -> (Option<u32>, Option<u64>) {
                $ranks(self, p, row)
            }
            fn possible(self, p: &Profile) -> bool {
                $possible(self, p)
            }
            fn descending_by_default(self) -> bool {
                self.kind() == ValueKind::Number
            }
            fn value_kind(self) -> ValueKind {
                self.kind()
            }
        }
    };
}

fn func_tie(p: &Profile, f: FuncId) -> (&str, &str) {
    (p.function_name(f), p.function_module(f))
}

fn line_tie(p: &Profile, l: LineId) -> (&str, &str) {
    (p.name(p.line(l).file), "")
}

fn stack_tie(p: &Profile, s: StackId) -> (&str, &str) {
    (p.function_name(p.stack_leaf(s)), "")
}

impl_column!(FuncColumn, FuncId, func_tie, func_ranks, func_possible);
impl_column!(LineColumn, LineId, line_tie, line_ranks, any_row);
impl_column!(StackColumn, StackId, stack_tie, stack_ranks, any_row);
impl_column!(PacketColumn, PacketId, packet_tie, packet_ranks, any_row);
impl_column!(ThreadColumn, ThreadRow, thread_tie, thread_ranks, any_row);
impl_column!(ModuleColumn, ModuleRow, module_tie, module_ranks, any_row);

/// Modules tie by name (a handful; their text is compared).
fn module_tie(p: &Profile, m: ModuleRow) -> (&str, &str) {
    (module_name(p, m), "")
}

/// A few hundred modules at most sort by their values and text.
fn module_ranks(_: ModuleColumn, _: &Profile, _: ModuleRow) -> (Option<u32>, Option<u64>) {
    (None, None)
}

/// Threads tie in id order (`query::by_id`), which a stable sort keeps.
fn thread_tie(_: &Profile, _: ThreadRow) -> (&'static str, &'static str) {
    ("", "")
}

/// A handful of threads sort by their values.
fn thread_ranks(_: ThreadColumn, _: &Profile, _: ThreadRow) -> (Option<u32>, Option<u64>) {
    (None, None)
}

/// A function's number needs some function to have it, and a percent a
/// session total to be out of (or percents the file stated).
fn func_possible(col: FuncColumn, p: &Profile) -> bool {
    let m = p.measured();
    let of = match col {
        FuncColumn::Name | FuncColumn::Module => return true,
        FuncColumn::Calls => return m.calls,
        FuncColumn::HitsSelf => return m.hits_self,
        FuncColumn::HitsTotal => return m.hits_total,
        FuncColumn::ElapsedIncl => return m.elapsed_inclusive,
        FuncColumn::ElapsedExcl => return m.elapsed_exclusive,
        FuncColumn::AppIncl => return m.application_inclusive,
        FuncColumn::AppExcl => return m.application_exclusive,
        FuncColumn::AvgPerCall => return m.calls && m.elapsed_inclusive,
        FuncColumn::MinIncl | FuncColumn::MaxIncl | FuncColumn::MinExcl | FuncColumn::MaxExcl => {
            return p.has_per_call();
        }
        FuncColumn::HitsSelfPct => PctOf::HitsSelf,
        FuncColumn::HitsTotalPct => PctOf::HitsTotal,
        FuncColumn::ElapsedInclPct => PctOf::ElapsedInclusive,
        FuncColumn::ElapsedExclPct => PctOf::ElapsedExclusive,
        FuncColumn::AppInclPct => PctOf::ApplicationInclusive,
        FuncColumn::AppExclPct => PctOf::ApplicationExclusive,
    };
    p.percent_possible(of)
}

fn any_row<C>(_: C, _: &Profile) -> bool {
    true
}

/// A heading that says what a column holds in this profile, where the
/// general one would mislead: the loader states it (`Profile::facts`). An
/// Xbase++ trace files a call's line under its calling function (so
/// `File` is the caller), and a trace's or a Visual Studio call tree's
/// hits are calls, not samples.
fn header_for(p: &Profile, key: &str) -> Option<&'static str> {
    let facts = p.facts();
    match key {
        "file" if facts.line_file == LineFile::Caller => Some("Caller"),
        "hits" if facts.hits_word == HitsWord::Calls => Some("Calls"),
        _ => None,
    }
}

/// A packet's source is no interned name: packets (a handful) sort by text.
fn packet_ranks(_: PacketColumn, _: &Profile, _: PacketId) -> (Option<u32>, Option<u64>) {
    (None, None)
}

/// (text rank of a column, tie rank) for function rows.
fn func_ranks(col: FuncColumn, p: &Profile, f: FuncId) -> (Option<u32>, Option<u64>) {
    let func = p.function(f);
    let (name, module) = (p.name_rank(func.name), p.name_rank(func.module));
    let text = match col {
        FuncColumn::Name => Some(name),
        FuncColumn::Module => Some(module),
        _ => None,
    };
    (text, Some(u64::from(name) << 32 | u64::from(module)))
}

/// A line's `%`, by the model's rule, of the line's own function.
fn line_pct(p: &Profile, l: LineId) -> Option<f64> {
    let line = p.line(l);
    metrics::line_pct(
        line,
        line.function.map(|f| p.function(f)).as_ref(),
        &p.totals,
    )
}

fn line_ranks(col: LineColumn, p: &Profile, l: LineId) -> (Option<u32>, Option<u64>) {
    let line = p.line(l);
    let file = p.name_rank(line.file);
    let text = match (col, line.function, line.top_level) {
        (LineColumn::File, ..) => Some(file),
        (LineColumn::Function, Some(f), _) => Some(p.name_rank(p.functions().name(f.index()))),
        (LineColumn::Called, ..) => Some(line.called.map_or(0, |n| p.name_rank(n))),
        (LineColumn::Function, None, false) => Some(0),
        // A trace's calls outside any function: the trace feed files them
        // under the name `(top level)`, the text this column shows, so
        // they rank as that name and a sort by function never falls back
        // to comparing text.
        (LineColumn::Function, None, true) if p.name(line.file) == profx_model::TOP_LEVEL => {
            Some(file)
        }
        _ => None,
    };
    (text, Some(u64::from(file) << 32))
}

fn stack_ranks(col: StackColumn, p: &Profile, s: StackId) -> (Option<u32>, Option<u64>) {
    let leaf = p.name_rank(p.functions().name(p.stack_leaf(s).index()));
    let text = (col == StackColumn::Leaf).then_some(leaf);
    (text, Some(u64::from(leaf) << 32))
}

fn packet_tie(p: &Profile, k: PacketId) -> (&str, &str) {
    (&p.packet(k).source, "")
}

#[cfg(test)]
mod tests {
    use super::*;
    use profx_load::{LoadOptions, load_paths};

    /// The columns some row fills, found by asking every row.
    fn by_every_row<C: Column>(p: &Profile, rows: &[C::Row]) -> Vec<C> {
        let any = |c: &C| rows.iter().any(|&r| !c.value(p, r).is_blank());
        C::ALL.iter().copied().filter(any).collect()
    }

    /// A column every row of which holds an empty text (an Xbase++
    /// trace's modules) is hidden as an absent one is; a PLIST's modules
    /// are shown.
    #[test]
    fn a_column_of_empty_names_is_hidden() {
        for (file, shown) in [
            ("xpp/orders-run.prf", false),
            ("plist/demo-orders.txt", true),
        ] {
            let p = load_paths(
                &[format!(
                    "{}/../../tests/fixtures/{file}",
                    env!("CARGO_MANIFEST_DIR")
                )],
                &LoadOptions::default(),
            )
            .expect(file);
            let found = present_columns::<FuncColumn>(&p, p.function_ids());
            assert_eq!(found.contains(&FuncColumn::Module), shown, "{file}");
            assert!(found.contains(&FuncColumn::Name), "{file}");
        }
    }

    /// A trace's lines called at top level rank as `(top level)` in the
    /// Function column, so sorting by it orders the shown text without
    /// falling back to comparing it.
    #[test]
    fn top_level_lines_rank_as_their_text() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/xpp/orders-run.prf"
        )
        .to_string();
        let p = load_paths(&[path], &LoadOptions::default()).expect("loads");
        let ids: Vec<LineId> = p.line_ids().collect();
        assert!(ids.iter().any(|&l| p.line(l).top_level));
        for &l in &ids {
            assert!(line_ranks(LineColumn::Function, &p, l).0.is_some(), "{l:?}");
        }
        let mut by_rank = ids.clone();
        by_rank.sort_by_key(|&l| line_ranks(LineColumn::Function, &p, l).0);
        let text: Vec<_> = by_rank.iter().map(|&l| p.line_function_name(l)).collect();
        let mut sorted = text.clone();
        sorted.sort();
        assert_eq!(text, sorted);
    }

    /// The one-pass search and the skipped impossible percents find the
    /// columns asking every row finds: timed, counting (no session total),
    /// sampled, and percents-only (stated, no total) profiles.
    #[test]
    fn present_columns_are_those_some_row_fills() {
        let files = [
            "plist/function-timing.txt",
            "plist/function-coverage.txt",
            "plist/no-session-total.txt",
            "vs-csv/percents-only.csv",
            "vs-csv/sampling.csv",
            "vs-csv/call-tree.csv",
            "xpp/open-calls.prf",
        ];
        let mut seen_impossible = false;
        for file in files {
            let path = format!("{}/../../tests/fixtures/{file}", env!("CARGO_MANIFEST_DIR"));
            let p = load_paths(&[path], &LoadOptions::default()).expect(file);
            let funcs: Vec<_> = p.function_ids().collect();
            let found = present_columns::<FuncColumn>(&p, funcs.iter().copied());
            assert_eq!(found, by_every_row(&p, &funcs), "{file}");
            seen_impossible |= FuncColumn::ALL.iter().any(|c| !c.possible(&p));
            let lines: Vec<_> = p.line_ids().collect();
            let found = present_columns::<LineColumn>(&p, lines.iter().copied());
            assert_eq!(found, by_every_row(&p, &lines), "{file}");
        }
        assert!(seen_impossible, "some file lacks a session total");
    }
}
