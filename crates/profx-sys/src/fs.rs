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
