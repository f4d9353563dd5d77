//! The names of what a profile is shown as: its tables of rows (`Table`)
//! and every view of it (`View`). One pair of types for the app's panes,
//! `profx report --view`, `profx export --view` and the CSV export, so
//! that a table is called the same everywhere; clap reads them from the
//! command line as they are.

use clap::builder::PossibleValue;

/// A table of the model's rows: every pane, report and export that lists
/// rows names its rows by this.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Table {
    /// Every function with its calls, hits and times.
    Functions,
    /// Every source line with its hits and time (a trace's lines are call sites).
    Lines,
    /// Every call path with its hits, self time and child time.
    Stacks,
    /// The pieces of the input that hold events.
    Packets,
    /// A trace's threads: each one's span, busy time, events, calls and
    /// heaviest function (`query::thread_rows`).
    Threads,
    /// Every module with its functions' exclusive time, its inclusive time
    /// and calls (`modules::module_rows`).
    Modules,
}

impl Table {
    /// Every table, in the order the panes and `--view`'s values list them.
    pub const ALL: [Table; 6] = [
        Table::Functions,
        Table::Lines,
        Table::Stacks,
        Table::Packets,
        Table::Threads,
        Table::Modules,
    ];

    /// The table's name as `--view` takes it and a count of its rows says
    /// it ("12 functions").
    pub fn name(self) -> &'static str {
        match self {
            Table::Functions => "functions",
            Table::Lines => "lines",
            Table::Stacks => "stacks",
            Table::Packets => "packets",
            Table::Threads => "threads",
            Table::Modules => "modules",
        }
    }

    /// The table's place in `ALL`.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// What a pane, `profx report --view` or an export shows of a profile: a
/// table, or a view drawn from the call tree and graph, or the profile's
/// facts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum View {
    /// A table of rows.
    Table(Table),
    /// The call tree, top-down or bottom-up.
    Tree,
    /// The flame graph; no report prints it.
    Flame,
    /// A trace's threads across the run, a lane each (`Profile::lanes`);
    /// no report prints it.
    Timeline,
    /// One function's callers.
    Callers,
    /// One function's callees.
    Callees,
    /// The format, sources, meta, totals and warnings.
    Info,
    /// The source files the lines name, each line with its cost
    /// (`source::files`).
    Source,
}

impl View {
    /// The table of rows this view lists; `None` for the views drawn from
    /// the call tree and graph, and for Info.
    pub fn table(self) -> Option<Table> {
        match self {
            View::Table(t) => Some(t),
            View::Tree
            | View::Flame
            | View::Timeline
            | View::Callers
            | View::Callees
            | View::Info
            | View::Source => None,
        }
    }

    /// The view's name, as `--view` takes it.
    pub fn name(self) -> &'static str {
        match self {
            View::Table(t) => t.name(),
            View::Tree => "tree",
            View::Flame => "flame",
            View::Timeline => "timeline",
            View::Callers => "callers",
            View::Callees => "callees",
            View::Info => "info",
            View::Source => "source",
        }
    }
}

/// The views `profx report --view` prints, in the order its help lists
/// them.
const REPORTED: [View; 11] = [
    View::Table(Table::Functions),
    View::Table(Table::Lines),
    View::Table(Table::Stacks),
    View::Table(Table::Packets),
    View::Table(Table::Threads),
    View::Table(Table::Modules),
    View::Info,
    View::Tree,
    View::Callers,
    View::Callees,
    View::Source,
];

/// `profx report --view`'s values: every view but the flame graph, which
/// no report prints (`profx export --to folded` is its export), and the
/// Timeline (`--view threads` prints each thread's busy time).
impl clap::ValueEnum for View {
    fn value_variants<'a>() -> &'a [Self] {
        &REPORTED
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        match self {
            View::Flame | View::Timeline => None,
            view => Some(PossibleValue::new(view.name())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    #[test]
    fn a_tables_index_is_its_place_in_all() {
        for (i, t) in Table::ALL.into_iter().enumerate() {
            assert_eq!(t.index(), i, "{t:?}");
        }
    }

    /// clap takes each table and view by the name it gives itself, and
    /// `--view` offers no flame graph.
    #[test]
    fn clap_takes_the_names() {
        for t in Table::ALL {
            assert_eq!(Table::from_str(t.name(), false), Ok(t));
            assert_eq!(View::from_str(t.name(), false), Ok(View::Table(t)));
            assert_eq!(View::Table(t).table(), Some(t));
        }
        let names: Vec<&str> = View::value_variants().iter().map(|v| v.name()).collect();
        assert_eq!(
            names,
            [
                "functions",
                "lines",
                "stacks",
                "packets",
                "threads",
                "modules",
                "info",
                "tree",
                "callers",
                "callees",
                "source"
            ]
        );
        for v in View::value_variants() {
            assert_eq!(View::from_str(v.name(), false), Ok(*v));
        }
        assert!(View::from_str("flame", false).is_err());
        assert!(View::from_str("timeline", false).is_err());
    }
}
