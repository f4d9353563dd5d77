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

/// What a format's own viewer calls a function's and a line's hits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HitsWord {
    /// Hits: samples, or entries the format counts as hits (PLIST).
    #[default]
    Hits,
    /// Calls: a trace's entries, a VS call tree's `Number of Calls`.
    Calls,
}

/// The facts a loader states; the defaults are the general words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    /// What a line's `file` names.
    pub line_file: LineFile,
    /// What the hits columns are called.
    pub hits_word: HitsWord,
}
