//! What kind of file a path is, for the messages refusing one.

use std::os::unix::fs::FileTypeExt;

/// What a path that is not a regular file is, for the message refusing it
/// (as an input when loading, as an export's output).
pub fn kind_of(t: &std::fs::FileType) -> &'static str {
    if t.is_dir() {
        "is a directory"
    } else if t.is_fifo() {
        "is a FIFO (named pipe)"
    } else if t.is_socket() {
        "is a socket"
    } else if t.is_char_device() || t.is_block_device() {
        "is a device"
    } else {
        "is not a regular file"
    }
}

/// Makes a FIFO (named pipe) at `path`, readable and writable by its owner:
/// the tests offer one where profx must refuse anything but a regular file.
pub fn make_fifo(path: &std::path::Path) -> std::io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes())?;
    // SAFETY: mkfifo reads a NUL-terminated path that lives across the call.
    match unsafe { libc::mkfifo(c.as_ptr(), 0o600) } {
        0 => Ok(()),
        _ => Err(std::io::Error::last_os_error()),
    }
}
