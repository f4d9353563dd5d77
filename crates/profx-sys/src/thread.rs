//! The calling thread's priority.

/// Lowers the calling thread's priority (nice 10): what is made ahead of
/// need must not slow the keys a person presses now, and on two cores a
/// keystroke's threads took turns with this one. When a key needs what
/// this thread makes, the key's thread waits and so leaves it the cores.
/// Not the idle class: under a busy machine an idle thread may not run
/// at all, and a key waiting for it would wait as long. Linux only:
/// elsewhere the call would lower the whole process.
pub fn yield_to_keys() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority takes plain integers; on Linux, `who` 0 with
    // PRIO_PROCESS names the calling thread alone. A refusal leaves the
    // priority as it was, which is harmless.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 10);
    }
}
