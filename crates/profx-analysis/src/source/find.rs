//! Where a file the profile names is on this machine: the source folders
//! (the profile's own directory first, then each `--source DIR`), a
//! `--source-map FROM=TO` rewriting a path's prefix first, as pprof's
//! `-trim_path`/`-source_path` and perf's `--prefix` do. A path written on
//! another machine (`C:\proj\src\orders.prg`) is found by its file name
//! under each folder, then told apart from others of that name by ever
//! longer tails of its path; two that stay alike are both named.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// How many directory entries one folder's walk reads at most: a profile
/// kept in a home directory must not make the view read the disk whole.
const WALK_ENTRIES: usize = 200_000;
/// How deep a folder's walk goes.
const WALK_DEPTH: usize = 12;

/// A prefix rewrite, `--source-map FROM=TO`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceMap {
    /// The prefix as the profile writes it (either slash matches either).
    pub from: String,
    /// What it becomes on this machine.
    pub to: PathBuf,
}

impl SourceMap {
    /// `FROM=TO`, split at its last `=` (a Windows path holds none, a
    /// prefix may).
    pub fn parse(text: &str) -> Option<SourceMap> {
        let (from, to) = text.rsplit_once('=')?;
        (!from.is_empty() && !to.is_empty()).then(|| SourceMap {
            from: from.to_string(),
            to: PathBuf::from(to),
        })
    }

    /// `named` with this map's prefix rewritten, if it has it (compared
    /// with `\` and `/` alike, letters in any case, as Windows does).
    fn apply(&self, named: &str) -> Option<PathBuf> {
        let (n, f) = (slashes(named), slashes(&self.from));
        let f = f.trim_end_matches('/');
        let head = n.get(..f.len())?;
        if !head.eq_ignore_ascii_case(f) {
            return None;
        }
        let rest = &n[f.len()..];
        if !(rest.is_empty() || rest.starts_with('/')) {
            return None;
        }
        let rest = rest.trim_start_matches('/');
        Some(if rest.is_empty() {
            self.to.clone()
        } else {
            self.to.join(rest)
        })
    }
}

fn slashes(s: &str) -> String {
    s.replace('\\', "/")
}

/// A path's parts, whichever slash it was written with, without a drive.
fn parts(named: &str) -> Vec<&str> {
    named
        .split(['/', '\\'])
        .filter(|p| !p.is_empty() && *p != "." && !(p.len() == 2 && p.ends_with(':')))
        .collect()
}

/// The source folders and the prefix rewrites, each folder's files
/// indexed by name the first time a file is looked for.
#[derive(Debug, Default)]
pub struct SourceFolders {
    folders: Vec<PathBuf>,
    maps: Vec<SourceMap>,
    index: Vec<OnceLock<FolderIndex>>,
}

/// One folder's files by lower-case name.
#[derive(Debug, Default)]
struct FolderIndex {
    by_name: HashMap<String, Vec<PathBuf>>,
}

/// Where a named file was found, or where it was looked for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Located {
    /// The file read, if one was found.
    pub found: Option<PathBuf>,
    /// Another file that fits as well (`found` was taken): a note names
    /// both.
    pub also: Option<PathBuf>,
    /// The places looked in, in order.
    pub looked_in: Vec<PathBuf>,
}

impl Located {
    /// The note of two files that fit alike, if there were two.
    pub fn note(&self) -> Option<String> {
        let (a, b) = (self.found.as_ref()?, self.also.as_ref()?);
        Some(format!(
            "two files fit: {} (shown) and {}",
            a.display(),
            b.display()
        ))
    }
}

impl SourceFolders {
    /// The places in order: `profile_dir` (the profile's own directory)
    /// first, then `folders` as given; a folder named twice is looked in
    /// once.
    pub fn new(profile_dir: Option<&Path>, folders: &[PathBuf], maps: &[SourceMap]) -> Self {
        let mut all: Vec<PathBuf> = Vec::new();
        let dir = profile_dir.map(|d| {
            if d.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                d.to_path_buf()
            }
        });
        for f in dir.iter().chain(folders) {
            if !all.contains(f) {
                all.push(f.clone());
            }
        }
        let index = all.iter().map(|_| OnceLock::new()).collect();
        SourceFolders {
            folders: all,
            maps: maps.to_vec(),
            index,
        }
    }

    /// The folders looked in, in order.
    pub fn folders(&self) -> &[PathBuf] {
        &self.folders
    }

    /// The `--source` folders that are no directory here (each is said on
    /// stderr, never a load warning: the profile is not at fault).
    pub fn missing(folders: &[PathBuf]) -> Vec<PathBuf> {
        folders.iter().filter(|f| !f.is_dir()).cloned().collect()
    }

    fn index(&self, i: usize) -> &FolderIndex {
        self.index[i].get_or_init(|| FolderIndex::walk(&self.folders[i]))
    }

    /// Every file under the folders with this name (any case), folder by
    /// folder in order: `(folder, files)`.
    pub(crate) fn named(&self, name: &str) -> Vec<(usize, &[PathBuf])> {
        let key = name.to_lowercase();
        (0..self.folders.len())
            .filter_map(|i| {
                let files = self.index(i).by_name.get(&key)?;
                Some((i, files.as_slice()))
            })
            .collect()
    }

    /// Every file under the folders whose extension is `ext` (any case).
    pub(crate) fn with_extension(&self, ext: &str) -> Vec<PathBuf> {
        let ext = format!(".{}", ext.to_lowercase());
        let mut out: Vec<PathBuf> = Vec::new();
        for i in 0..self.folders.len() {
            // The shallowest first, then by name: one tree, one order.
            let mut files: Vec<&PathBuf> = self
                .index(i)
                .by_name
                .iter()
                .filter(|(n, _)| n.ends_with(&ext))
                .flat_map(|(_, f)| f)
                .collect();
            files.sort_by_key(|f| (f.components().count(), *f));
            for f in files {
                if !out.contains(f) {
                    out.push(f.clone());
                }
            }
        }
        out
    }

    /// Finds the file `named`: a `--source-map` rewrite that exists, then
    /// under each folder in order by its file name, the candidates told
    /// apart by the longest tail of `named` their path ends with; last,
    /// `named` itself where it is a file here.
    pub fn locate(&self, named: &str) -> Located {
        let mut looked_in = Vec::new();
        for m in &self.maps {
            if let Some(p) = m.apply(named) {
                if p.is_file() {
                    return Located {
                        found: Some(p),
                        also: None,
                        looked_in,
                    };
                }
                looked_in.push(p);
            }
        }
        let want = parts(named);
        looked_in.extend(self.folders.iter().cloned());
        if let Some(name) = want.last() {
            for (i, files) in self.named(name) {
                let (best, also) = best_tail(&self.folders[i], files, &want);
                if let Some(found) = best {
                    return Located {
                        found: Some(found),
                        also,
                        looked_in,
                    };
                }
            }
        }
        let as_is = Path::new(named);
        if as_is.is_absolute() && as_is.is_file() {
            return Located {
                found: Some(as_is.to_path_buf()),
                also: None,
                looked_in,
            };
        }
        Located {
            found: None,
            also: None,
            looked_in,
        }
    }
}

/// The candidate whose path under `folder` ends with the longest tail of
/// `want`'s parts (compared in any case), and a second one as long, if any.
fn best_tail(
    folder: &Path,
    files: &[PathBuf],
    want: &[&str],
) -> (Option<PathBuf>, Option<PathBuf>) {
    let score = |f: &PathBuf| {
        let rel = f.strip_prefix(folder).unwrap_or(f);
        let have: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().to_lowercase())
            .collect();
        have.iter()
            .rev()
            .zip(want.iter().rev())
            .take_while(|(h, w)| **h == w.to_lowercase())
            .count()
    };
    let mut ranked: Vec<(usize, &PathBuf)> = files.iter().map(|f| (score(f), f)).collect();
    // The longest tail first; of equal ones the shallowest, then by name,
    // so one tree always gives one answer.
    ranked.sort_by(|a, b| {
        b.0.cmp(&a.0)
            .then(a.1.components().count().cmp(&b.1.components().count()))
            .then(a.1.cmp(b.1))
    });
    let best = ranked.first().map(|r| r.1.clone());
    let also = match ranked.as_slice() {
        [a, b, ..] if a.0 == b.0 => Some(b.1.clone()),
        _ => None,
    };
    (best, also)
}

impl FolderIndex {
    /// Every regular file under `root`, breadth first, hidden directories
    /// and symbolic links to directories left out (a loop never ends).
    fn walk(root: &Path) -> FolderIndex {
        let mut by_name: HashMap<String, Vec<PathBuf>> = HashMap::new();
        let mut level = vec![root.to_path_buf()];
        let mut seen = 0usize;
        for _ in 0..=WALK_DEPTH {
            let mut next = Vec::new();
            for dir in level {
                let Ok(entries) = std::fs::read_dir(&dir) else {
                    continue;
                };
                let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
                entries.sort_by_key(std::fs::DirEntry::file_name);
                for e in entries {
                    seen += 1;
                    if seen > WALK_ENTRIES {
                        return FolderIndex { by_name };
                    }
                    let Ok(kind) = e.file_type() else { continue };
                    let name = e.file_name().to_string_lossy().into_owned();
                    if kind.is_dir() {
                        if !name.starts_with('.') && name != "target" {
                            next.push(e.path());
                        }
                    } else if kind.is_file() || e.path().is_file() {
                        by_name
                            .entry(name.to_lowercase())
                            .or_default()
                            .push(e.path());
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            level = next;
        }
        FolderIndex { by_name }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_map_rewrites_a_prefix_with_either_slash() {
        let m = SourceMap::parse(r"C:\proj=/home/me/proj").unwrap();
        assert_eq!(
            m.apply(r"c:\PROJ\src\orders.prg"),
            Some(PathBuf::from("/home/me/proj/src/orders.prg"))
        );
        assert_eq!(m.apply(r"C:\project\x.prg"), None);
        assert_eq!(SourceMap::parse("novalue"), None);
    }

    #[test]
    fn parts_leave_out_the_drive() {
        assert_eq!(parts(r"C:\a\b/c.c"), ["a", "b", "c.c"]);
    }

    #[test]
    fn the_longest_tail_wins_and_a_tie_is_said() {
        let dir = tempfile::tempdir().unwrap();
        for p in ["x/src/a.c", "y/lib/a.c", "z/a.c"] {
            let f = dir.path().join(p);
            std::fs::create_dir_all(f.parent().unwrap()).unwrap();
            std::fs::write(&f, "int a;\n").unwrap();
        }
        let folders = SourceFolders::new(None, &[dir.path().to_path_buf()], &[]);
        let got = folders.locate(r"C:\proj\lib\a.c");
        assert_eq!(got.found, Some(dir.path().join("y/lib/a.c")));
        assert_eq!(got.also, None);
        let got = folders.locate(r"C:\proj\other\a.c");
        assert_eq!(got.found, Some(dir.path().join("z/a.c")));
        assert!(got.also.is_some(), "{got:?}");
        assert!(got.note().unwrap().contains("two files fit"));
        let got = folders.locate("nothing.c");
        assert_eq!(got.found, None);
        assert_eq!(got.looked_in, [dir.path().to_path_buf()]);
    }
}
