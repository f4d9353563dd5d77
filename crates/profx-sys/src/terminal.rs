//! The terminal's settings from before the app took it over, kept where
//! the signal handlers can put them back.

/// Keeps the terminal's settings from before raw mode where a signal
/// handler can put them back (`signals`): SIGTERM, SIGHUP, SIGQUIT or a
/// SIGBUS must never leave the shell raw, in the alternate screen, with
/// mouse reporting on.
pub fn save_settings() {
    use std::os::fd::IntoRawFd;
    // SAFETY: isatty reads an fd number.
    let fd = if unsafe { libc::isatty(0) } == 1 {
        0
    } else {
        match std::fs::File::open("/dev/tty") {
            // Kept open for the handler: one fd for the process's life.
            Ok(tty) => tty.into_raw_fd(),
            Err(_) => return,
        }
    };
    // SAFETY: tcgetattr on an fd this process holds, into a zeroed termios
    // owned here.
    let saved = unsafe {
        let mut saved: libc::termios = std::mem::zeroed();
        (libc::tcgetattr(fd, &mut saved) == 0).then_some(saved)
    };
    if let Some(saved) = saved {
        crate::signals::terminal_taken(fd, saved);
    }
}

/// The app gave the terminal back: a signal leaves it as it is.
pub fn given_back() {
    crate::signals::terminal_given_back();
}
