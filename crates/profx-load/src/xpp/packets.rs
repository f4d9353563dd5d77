//! Packeted traces: `NAME.PRF` (the header packet) and `NAME.PRF.000001`,
//! `NAME.PRF.000002`, … written while the program runs (seed 004).

use std::path::Path;

/// `NAME.PRF.000123` → (`NAME.PRF`, 123).
pub(crate) fn split_numbered(path: &str) -> Option<(&str, u64)> {
    let (base, number) = path.rsplit_once('.')?;
    let ok = !number.is_empty() && number.len() <= 9 && number.bytes().all(|b| b.is_ascii_digit());
    let base_has_ext = Path::new(base).extension().is_some();
    (ok && base_has_ext).then(|| (base, number.parse().ok()).1.map(|n| (base, n)))?
}

/// A run of missing packet numbers: the names of its first and last, and
/// how many it holds.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Missing {
    pub first: String,
    pub last: String,
    pub count: u64,
}

/// The numbered packets beside `path`, in numeric order, and the runs of
/// numbers missing between 1 and the largest. Runs, not names: one stray
/// `NAME.PRF.999999999` must not make a billion names.
pub(super) fn siblings(path: &str) -> (Vec<String>, Vec<Missing>) {
    let found = numbered_beside(path);
    let names: Vec<String> = found.iter().map(|f| f.1.clone()).collect();
    (names, missing(path, &found))
}

/// The numbered packets of `path` in its folder, as (number, path), in
/// numeric order, one a number (a followed trace looks for new ones).
pub(crate) fn numbered_beside(path: &str) -> Vec<(u64, String)> {
    let p = Path::new(path);
    let (Some(name), dir) = (p.file_name().and_then(|n| n.to_str()), p.parent()) else {
        return Vec::new();
    };
    let dir = dir
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<(u64, String)> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| {
            let (base, number) = split_numbered(&n)?;
            (base == name).then(|| (number, p.with_file_name(&n).to_string_lossy().into_owned()))
        })
        .collect();
    found.sort();
    found.dedup_by_key(|f| f.0);
    found
}

/// The runs of numbers missing between 1 and the largest of `found` (the
/// numbered packets of `path`, in numeric order), named as the first
/// found is (its width of digits; six where none is).
pub(super) fn missing(path: &str, found: &[(u64, String)]) -> Vec<Missing> {
    let p = Path::new(path);
    let Some(name) = p.file_name().and_then(|n| n.to_str()) else {
        return Vec::new();
    };
    let width = found
        .first()
        .and_then(|f| split_numbered(&f.1).map(|(base, _)| f.1.len() - base.len() - 1))
        .unwrap_or(6);
    let named = |n: u64| {
        p.with_file_name(format!("{name}.{n:0width$}"))
            .to_string_lossy()
            .into_owned()
    };
    let mut out = Vec::new();
    let mut expected = 1;
    for &(n, _) in found {
        if n > expected {
            out.push(Missing {
                first: named(expected),
                last: named(n - 1),
                count: n - expected,
            });
        }
        expected = expected.max(n + 1);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_names() {
        assert_eq!(
            split_numbered("dir/TEST.PRF.000012"),
            Some(("dir/TEST.PRF", 12))
        );
        assert_eq!(split_numbered("TEST.PRF"), None);
        assert_eq!(
            split_numbered("TEST.000001"),
            None,
            "a numbered packet keeps its .PRF"
        );
        assert_eq!(split_numbered("TEST.PRF.0a"), None);
    }

    #[test]
    fn finds_siblings_in_order_and_names_the_missing_ones() {
        let folder = tempfile::Builder::new()
            .prefix("profx-siblings-")
            .tempdir()
            .unwrap();
        let dir = folder.path();
        for n in [
            "T.PRF",
            "T.PRF.000003",
            "T.PRF.000001",
            "T.PRF.000004",
            "U.PRF.000002",
        ] {
            std::fs::write(dir.join(n), b"x").unwrap();
        }
        let path = dir.join("T.PRF").to_string_lossy().into_owned();
        let (found, missing) = siblings(&path);
        let names: Vec<_> = found
            .iter()
            .map(|f| f.rsplit('/').next().unwrap().to_string())
            .collect();
        assert_eq!(names, ["T.PRF.000001", "T.PRF.000003", "T.PRF.000004"]);
        assert_eq!(missing.len(), 1);
        assert!(missing[0].first.ends_with("T.PRF.000002"));
        assert_eq!(missing[0].count, 1);
    }

    /// One stray sibling numbered 999999999 is one run of missing packets,
    /// not a billion names.
    #[test]
    fn a_far_sibling_is_one_missing_run() {
        let folder = tempfile::Builder::new()
            .prefix("profx-far-")
            .tempdir()
            .unwrap();
        let dir = folder.path();
        for n in ["F.PRF", "F.PRF.000001", "F.PRF.999999999"] {
            std::fs::write(dir.join(n), b"x").unwrap();
        }
        let (found, missing) = siblings(&dir.join("F.PRF").to_string_lossy());
        assert_eq!(found.len(), 2);
        assert_eq!(missing.len(), 1);
        assert!(missing[0].first.ends_with("F.PRF.000002"));
        assert!(missing[0].last.ends_with("F.PRF.999999998"));
        assert_eq!(missing[0].count, 999_999_997);
    }
}
