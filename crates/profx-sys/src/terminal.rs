//! The terminal's settings from before the app took it over, kept where
//! the signal handlers can put them back.

/// Keeps the terminal's settings from before raw mode where a signal
/// handler can put them back (`signals`): SIGTERM, SIGHUP, SIGQUIT or a
/// SIGBUS must never leave the shell raw, in the alternate screen, with
/// mouse reporting on.
pub fn save_settings() {
    use std::os::fd::IntoRawFd;
    // SAFETY: isatty and tcgetattr on an fd this process owns, into a
    // zeroed termios.
    unsafe {
        let fd = if libc::isatty(0) == 1 {
            0
        } else {
            match std::fs::File::open("/dev/tty") {
                // Kept open for the handler: one fd for the process's life.
                Ok(tty) => tty.into_raw_fd(),
                Err(_) => return,
            }
        };
        let mut saved: libc::termios = std::mem::zeroed();
        if libc::tcgetattr(fd, &mut saved) == 0 {
            crate::signals::terminal_taken(fd, saved);
        }
    }
}

/// The app gave the terminal back: a signal leaves it as it is.
pub fn given_back() {
    crate::signals::terminal_given_back();
}
