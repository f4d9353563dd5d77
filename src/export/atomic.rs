//! Writing a file so that it is never seen half-written: the data goes to
//! a temporary file beside the target, which is then renamed over it (or,
//! without `force`, linked to the target's name, which fails if a file
//! appeared there meanwhile). An error or a crash leaves the old file as it
//! was and no temporary behind (the temporary is removed on drop).

use super::ExportError;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Writes `path` through `fill`; an existing `path` is replaced only with
/// `force`.
pub fn write_file<T>(
    path: &Path,
    force: bool,
    fill: impl FnOnce(&mut dyn Write) -> Result<T, ExportError>,
) -> Result<T, ExportError> {
    let shown = path.display().to_string();
    // Refuse before the work, not after it.
    if !force && path.exists() {
        return Err(ExportError::Exists { path: shown });
    }
    let err = |source| ExportError::Write {
        path: shown.clone(),
        source,
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let tmp = temp_in(&dir).map_err(err)?;
    let mut out = BufWriter::new(tmp);
    let value = fill(&mut out)?;
    let tmp = out.into_inner().map_err(|e| err(e.into_error()))?;
    tmp.as_file().sync_all().map_err(err)?;
    let persisted = if force {
        tmp.persist(path)
    } else {
        tmp.persist_noclobber(path)
    };
    match persisted {
        Ok(_) => Ok(value),
        Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => {
            Err(ExportError::Exists { path: shown })
        }
        Err(e) => Err(err(e.error)),
    }
}

/// A temporary file in `dir`, readable as a normal new file would be once
/// renamed (the umask's permissions, not the 0600 temporaries default to).
fn temp_in(dir: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    let mut b = tempfile::Builder::new();
    b.prefix(".profx-export-").suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        b.permissions(std::fs::Permissions::from_mode(0o666));
    }
    b.tempfile_in(dir)
}

/// Writes a new file `dir/stem.ext`, or `stem-2.ext`, `stem-3.ext`, … when
/// that name is taken (the app's exports never replace a file); returns the
/// path written.
pub fn write_new(
    dir: &Path,
    stem: &str,
    ext: &str,
    mut fill: impl FnMut(&mut dyn Write) -> Result<String, ExportError>,
) -> Result<(PathBuf, String), ExportError> {
    for n in 1..=999 {
        let name = if n == 1 {
            format!("{stem}.{ext}")
        } else {
            format!("{stem}-{n}.{ext}")
        };
        let path = dir.join(name);
        match write_file(&path, false, &mut fill) {
            Err(ExportError::Exists { .. }) => continue,
            other => return other.map(|what| (path, what)),
        }
    }
    Err(ExportError::Exists {
        path: dir.join(format!("{stem}-999.{ext}")).display().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir() -> tempfile::TempDir {
        tempfile::tempdir().unwrap()
    }

    fn ok(text: &'static str) -> impl FnMut(&mut dyn Write) -> Result<String, ExportError> {
        move |w| {
            w.write_all(text.as_bytes())?;
            Ok(String::new())
        }
    }

    #[test]
    fn an_existing_file_is_kept_unless_forced() {
        let d = dir();
        let path = d.path().join("out.txt");
        write_file(&path, false, ok("one")).unwrap();
        let again = write_file(&path, false, ok("two"));
        assert!(matches!(again, Err(ExportError::Exists { .. })));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "one");
        write_file(&path, true, ok("three")).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "three");
        // No temporary is left beside it.
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let d = dir();
        let path = d.path().join("out.txt");
        write_file(&path, false, ok("old")).unwrap();
        let failed = write_file(&path, true, |w| -> Result<(), ExportError> {
            w.write_all(b"half")?;
            Err(std::io::Error::other("disk on fire").into())
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn the_file_gets_ordinary_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let d = dir();
        let path = d.path().join("out.txt");
        write_file(&path, false, ok("x")).unwrap();
        let reference = d.path().join("plain.txt");
        std::fs::File::create(&reference).unwrap();
        // As any new file (0666 less the umask), not a 0600 temporary.
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode();
        assert_eq!(mode(&path), mode(&reference));
    }

    #[test]
    fn new_names_count_up_instead_of_replacing() {
        let d = dir();
        let (a, _) = write_new(d.path(), "x.functions", "csv", ok("1")).unwrap();
        let (b, _) = write_new(d.path(), "x.functions", "csv", ok("2")).unwrap();
        assert_eq!(a.file_name().unwrap(), "x.functions.csv");
        assert_eq!(b.file_name().unwrap(), "x.functions-2.csv");
        assert_eq!(std::fs::read_to_string(a).unwrap(), "1");
    }
}
