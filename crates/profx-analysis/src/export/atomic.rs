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
    refuse_non_file(path)?;
    if !force && path.exists() {
        return Err(ExportError::Exists { path: shown });
    }
    let err = |error| ExportError::Write {
        path: shown.clone(),
        error,
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    // A signal ending the process removes it (`signals`, told its name in
    // `temp_in`); an error drops it.
    let _forget = TempGuard;
    let tmp = temp_in(&dir).map_err(err)?;
    let mut out = BufWriter::new(tmp);
    let value = fill(&mut out)?;
    let tmp = out.into_inner().map_err(|e| err(e.into_error()))?;
    tmp.as_file().sync_all().map_err(err)?;
    // Checked again: a FIFO or device may have appeared there meanwhile.
    refuse_non_file(path)?;
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

/// Forgets the temporary file the signal handlers would remove, once it
/// is renamed into place or dropped.
struct TempGuard;

impl Drop for TempGuard {
    fn drop(&mut self) {
        profx_sys::signals::temp_file(None);
    }
}

/// Refuses an output that exists and is not a regular file: with `--force`
/// a rename would put a regular file in place of a device or a FIFO (it
/// replaced `/dev/null`). A symbolic link is judged by what it points to.
fn refuse_non_file(path: &Path) -> Result<(), ExportError> {
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => Err(ExportError::NotAFile {
            path: path.display().to_string(),
            what: profx_sys::fs::kind_of(&meta.file_type()),
        }),
        _ => Ok(()),
    }
}

/// Refuses an output that is, by device and inode, one of `inputs` (a
/// hard link, a bind mount or another spelling of the path), whatever
/// `--force` says: replacing it would destroy the data being exported.
pub fn refuse_input(out: &Path, inputs: &[String]) -> Result<(), ExportError> {
    use std::os::unix::fs::MetadataExt;
    let Ok(o) = std::fs::metadata(out) else {
        return Ok(());
    };
    for input in inputs {
        if let Ok(i) = std::fs::metadata(input)
            && (i.dev(), i.ino()) == (o.dev(), o.ino())
        {
            return Err(ExportError::IsInput {
                path: out.display().to_string(),
                input: input.clone(),
            });
        }
    }
    Ok(())
}

/// A temporary file in `dir`, readable as a normal new file would be once
/// renamed (the umask's permissions, not the 0600 temporaries default to).
fn temp_in(dir: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    let mut b = tempfile::Builder::new();
    b.prefix(".profx-export-").suffix(".tmp");
    // The name is given to the signal handlers before the file exists: a
    // signal between the file's creation and its registration left it
    // behind. (A handler unlinking a name not yet created does no harm.)
    b.make_in(dir, |path| {
        profx_sys::signals::temp_file(Some(path));
        let mut o = std::fs::OpenOptions::new();
        o.read(true).write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            o.mode(0o666);
        }
        o.open(path)
    })
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
    fn a_device_or_fifo_is_never_replaced_even_when_forced() {
        let d = dir();
        let fifo = d.path().join("fifo");
        profx_sys::fs::make_fifo(&fifo).expect("a FIFO in a new folder");
        let r = write_file(&fifo, true, ok("x"));
        assert!(matches!(r, Err(ExportError::NotAFile { .. })), "{r:?}");
        let null = write_file(Path::new("/dev/null"), true, ok("x"));
        assert!(matches!(null, Err(ExportError::NotAFile { .. })));
        use std::os::unix::fs::FileTypeExt;
        let t = std::fs::metadata("/dev/null").unwrap().file_type();
        assert!(t.is_char_device(), "/dev/null is still a device");
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    }

    #[test]
    fn the_input_under_another_name_is_refused() {
        let d = dir();
        let input = d.path().join("t.prf");
        std::fs::write(&input, "data").unwrap();
        let link = d.path().join("other-name");
        std::fs::hard_link(&input, &link).unwrap();
        let inputs = [input.display().to_string()];
        let r = refuse_input(&link, &inputs);
        assert!(matches!(r, Err(ExportError::IsInput { .. })), "{r:?}");
        assert!(refuse_input(&d.path().join("new.csv"), &inputs).is_ok());
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
