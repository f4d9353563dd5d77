//! What a profile says of its source beyond a line's (file, line): the text
//! a printed listing carries for each line, and where a function begins
//! (a VS report's `Source File` and `Function Line Number`). A source view
//! reads them; no number is made from them.

use super::ids::{FuncId, NameId};
use rustc_hash::FxHashMap;

/// The profile's own source facts; empty for most files.
#[derive(Clone, Debug, Default)]
pub struct SourceFacts {
    /// A listing's text of each (file, line) it prints, counted or not.
    pub(crate) texts: FxHashMap<(NameId, u32), Box<str>>,
    /// A function's file and first line, as the file states them.
    pub(crate) starts: FxHashMap<FuncId, (NameId, u32)>,
}

impl super::ProfileBuilder {
    /// Keeps the text a listing prints for line `line` of `file` (the
    /// first text stated for it stays).
    pub fn line_text(&mut self, file: NameId, line: u32, text: &str) {
        self.source
            .texts
            .entry((file, line))
            .or_insert_with(|| text.into());
    }

    /// Keeps where function `f` begins: its file and first line (the first
    /// statement stays).
    pub fn function_start(&mut self, f: FuncId, file: NameId, line: u32) {
        self.source.starts.entry(f).or_insert((file, line));
    }

    /// Keeps what `from` says of its source, its functions renumbered by
    /// `new` (`None`: the function left): a query's rebuilt profile states
    /// what the loaded one did. The names are `from`'s, shared.
    pub fn carry_source(&mut self, from: &super::Profile, new: impl Fn(FuncId) -> Option<FuncId>) {
        for (&key, text) in &from.source.texts {
            self.source.texts.entry(key).or_insert_with(|| text.clone());
        }
        for (&f, &start) in &from.source.starts {
            if let Some(g) = new(f) {
                self.source.starts.entry(g).or_insert(start);
            }
        }
    }
}

impl super::Profile {
    /// The text the profile itself carries for `line` of `file` (a printed
    /// listing's), as the file wrote it.
    pub fn line_text(&self, file: &str, line: u32) -> Option<&str> {
        let file = self.names.find(file.as_bytes())?;
        self.source.texts.get(&(file, line)).map(|t| &**t)
    }

    /// Whether the profile carries any line's text.
    pub fn has_line_texts(&self) -> bool {
        !self.source.texts.is_empty()
    }

    /// Where function `f` begins, as the file states it: its source file
    /// and first line.
    pub fn function_start(&self, f: FuncId) -> Option<(&str, u32)> {
        let &(file, line) = self.source.starts.get(&f)?;
        Some((self.name(file), line))
    }

    /// Whether the profile says where some function begins.
    pub fn has_function_starts(&self) -> bool {
        !self.source.starts.is_empty()
    }
}

impl super::Profile {
    /// Every line of `file` whose text the profile carries, by number.
    pub fn line_texts(&self, file: &str) -> Vec<(u32, &str)> {
        let Some(id) = self.names.find(file.as_bytes()) else {
            return Vec::new();
        };
        let mut out: Vec<(u32, &str)> = self
            .source
            .texts
            .iter()
            .filter(|((f, _), _)| *f == id)
            .map(|((_, n), t)| (*n, &**t))
            .collect();
        out.sort_unstable_by_key(|x| x.0);
        out
    }
}
