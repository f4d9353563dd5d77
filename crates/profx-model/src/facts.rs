//! What a loader states about its format's rows where a general word
//! would mislead (model.md § Format facts). Analysis and the views read
//! these facts; none of them tests a format's name, so a new format states
//! its facts in its loader and touches nothing above it.

/// What a line row's `file` names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LineFile {
    /// The source file the line is in.
    #[default]
    Source,
    /// The calling function: a trace files a call's line under its caller
    /// (formats.md § xpp), so its lines are call sites.
    Caller,
}

/// How a line's number finds its text in a source file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LineNumbers {
    /// The number is the line's place in the file, counted from 1.
    #[default]
    Position,
    /// The number is written at the start of the line's text (a Business
    /// Rules! program's `00120 LET X=1`): the line is found by it.
    Stated,
}

/// What a format's own viewer calls a function's and a line's hits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HitsWord {
    /// Hits: samples, or entries the format counts as hits (PLIST).
    #[default]
    Hits,
    /// Calls: a trace's entries, a VS call tree's `Number of Calls`.
    Calls,
}

/// The unit a profile's times are in (model.md § Time unit). Every time
/// of the model (functions', lines', stacks', edges', the totals, the
/// `--json` keys ending `_ms`) is in it: nothing converts one to another
/// after the load, so a number is the file's, and its unit is said with it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TimeUnit {
    /// Milliseconds: every format profx reads, but the one below.
    #[default]
    Ms,
    /// Processor clock ticks (cycles): VSPerfReport's command-line CSV
    /// reports write their times so (formats.md § vs-csv); `--clock-mhz`
    /// turns them into milliseconds at load.
    Ticks,
}

impl TimeUnit {
    /// The unit's name, the one spelling every heading, total and
    /// document writes after or for a time (`ms`, `ticks`).
    pub fn name(self) -> &'static str {
        match self {
            TimeUnit::Ms => "ms",
            TimeUnit::Ticks => "ticks",
        }
    }

    /// The name of a thousand of the unit, where a view writes times in
    /// thousands to fit (the app's Call tree at 80 columns): `s`, `kticks`.
    pub fn thousand_name(self) -> &'static str {
        match self {
            TimeUnit::Ms => "s",
            TimeUnit::Ticks => "kticks",
        }
    }
}

/// The facts a loader states; the defaults are the general words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    /// What a line's `file` names.
    pub line_file: LineFile,
    /// What the hits columns are called.
    pub hits_word: HitsWord,
    /// The unit of the profile's times (where it has any:
    /// `Profile::time_unit`).
    pub time_unit: TimeUnit,
    /// How a line's number finds its text in a source file.
    pub line_numbers: LineNumbers,
}
