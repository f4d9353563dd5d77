//! What must be undone however the process ends: a half-written export's
//! temporary file, the terminal the app took over, a progress line on
//! stderr. Quitting, errors and panics undo them through ordinary code
//! (`Drop`, the panic hook); this module covers the ends ordinary code never
//! sees:
//!
//! - SIGTERM, SIGHUP, SIGINT and SIGQUIT: undo, then die of the same signal
//!   (the usual status, so a shell or a supervisor sees what happened).
//! - SIGBUS: an input is memory-mapped, and another process truncating it
//!   while profx reads makes the next read of a lost page fault. For a
//!   fault inside one of the inputs' maps the handler names that file, says
//!   it changed while being read, undoes, and exits 1 (the status of a load
//!   that failed). Any other bus error is profx's own: it undoes, says so
//!   without blaming an input, and dies of SIGBUS.
//!
//! Everything a handler does is async-signal-safe: it reads state kept
//! ready beforehand (C strings, a saved `termios`), takes locks only with
//! `try_lock` (a lock held by other code is skipped, never waited for: a
//! temporary file then stays behind, and a fault is not called an input's),
//! and calls `write`, `unlink`, `tcgetattr`, `tcsetattr`, `signal`, `raise`
//! and `_exit`. The ending signals go through signal-hook (its registry
//! hands the handler the `siginfo`, whose `si_code` tells a key from a
//! `kill`; `emulate_default_handler` then dies of the signal). A signal the
//! process was started with ignored (`nohup`, a background job of a script)
//! stays ignored. SIGBUS has a handler of its own on `libc`: it must tell a
//! fault in an input's map from any other, and end the process or re-raise
//! the signal itself, which a registry's chained handlers do not promise.

use std::ffi::CString;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// The export temporary file to remove.
static TEMP: Mutex<Option<CString>> = Mutex::new(None);

/// The terminal the app took over: the fd its settings were read from and
/// those settings, to put back.
static TERMINAL: Mutex<Option<(i32, libc::termios)>> = Mutex::new(None);

/// Whether a progress line may stand on stderr.
static PROGRESS: AtomicBool = AtomicBool::new(false);

/// A mapped input: start address, length, and the line saying it changed.
type Map = (usize, usize, Box<[u8]>);

/// Mapped inputs.
static MAPS: Mutex<Vec<Map>> = Mutex::new(Vec::new());

/// Leaves the alternate screen, turns mouse reporting and bracketed paste
/// off and shows the cursor: what `tui::term` turns on, in reverse.
const TERMINAL_RESET: &[u8] =
    b"\x1b[?2004l\x1b[?1006l\x1b[?1015l\x1b[?1003l\x1b[?1002l\x1b[?1000l\x1b[?1049l\x1b[?25h";

/// The signals that end the process, undone first.
const ENDING: [i32; 4] = [libc::SIGTERM, libc::SIGHUP, libc::SIGINT, libc::SIGQUIT];

/// Installs the handlers; the command line calls it once, first thing.
pub fn install() {
    for sig in ENDING.into_iter().filter(|&sig| !ignored(sig)) {
        // SAFETY: `on_end` only does async-signal-safe things (the module
        // doc), and it ends the process, so no later handler is skipped.
        // An error (none of these is forbidden) leaves the default, which
        // ends the process too, without the undoing.
        let _ =
            unsafe { signal_hook_registry::register_sigaction(sig, move |info| on_end(sig, info)) };
    }
    set_bus();
}

/// Whether `sig` was ignored when the process started.
fn ignored(sig: i32) -> bool {
    // SAFETY: sigaction with no new action only reads the current one into
    // a zeroed struct owned here.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(sig, std::ptr::null(), &mut old) == 0 && old.sa_sigaction == libc::SIG_IGN
    }
}

fn set_bus() {
    // SAFETY: a zeroed sigaction is valid; the handler has the SA_SIGINFO
    // signature and only does async-signal-safe things.
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_bus as *const () as usize;
        sa.sa_flags = libc::SA_SIGINFO;
        libc::sigemptyset(&mut sa.sa_mask);
        libc::sigaction(libc::SIGBUS, &sa, std::ptr::null_mut());
    }
}

/// Removes `path` if the process is ended while it is being written.
pub fn temp_file(path: Option<&std::path::Path>) {
    use std::os::unix::ffi::OsStrExt;
    let c = path.and_then(|p| CString::new(p.as_os_str().as_bytes()).ok());
    // The handlers only try the lock: a signal arriving on this thread
    // while it holds it would find it taken and leave the file. Held, the
    // signals wait the few instructions until it is released.
    let held = hold_signals();
    *TEMP.lock().unwrap_or_else(|e| e.into_inner()) = c;
    release_signals(held);
}

/// Blocks the signals this module handles on the calling thread; the mask
/// before, for `release_signals`.
fn hold_signals() -> libc::sigset_t {
    // SAFETY: plain signal-set calls on sets owned here.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for sig in ENDING {
            libc::sigaddset(&mut set, sig);
        }
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, &mut old);
        old
    }
}

fn release_signals(old: libc::sigset_t) {
    // SAFETY: restores a mask read by `hold_signals`.
    unsafe {
        libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
    }
}

/// The app took the terminal over: `fd`'s settings before it did.
pub(crate) fn terminal_taken(fd: i32, saved: libc::termios) {
    *TERMINAL.lock().unwrap_or_else(|e| e.into_inner()) = Some((fd, saved));
}

/// The app gave the terminal back.
pub(crate) fn terminal_given_back() {
    *TERMINAL.lock().unwrap_or_else(|e| e.into_inner()) = None;
}

/// A progress line is (or is no longer) on stderr.
pub fn progress_shown(shown: bool) {
    PROGRESS.store(shown, Ordering::Relaxed);
}

/// An input mapped at `start` for `len` bytes, named `name` (as the user
/// may see it: escaped by the caller).
pub(crate) fn mapped(start: usize, len: usize, name: &str) {
    let line = format!(
        "profx: error: {name}: the file changed while being read (it was cut short); stopped\n"
    );
    let mut maps = MAPS.lock().unwrap_or_else(|e| e.into_inner());
    maps.push((start, len, line.into_bytes().into_boxed_slice()));
}

/// The mapping at `start` is gone.
pub(crate) fn unmapped(start: usize) {
    let mut maps = MAPS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(i) = maps.iter().position(|m| m.0 == start) {
        maps.swap_remove(i);
    }
}

fn write_all(fd: i32, bytes: &[u8]) {
    let mut rest = bytes;
    while !rest.is_empty() {
        // SAFETY: writing from a valid slice.
        let n = unsafe { libc::write(fd, rest.as_ptr().cast(), rest.len()) };
        if n <= 0 {
            return;
        }
        rest = &rest[n as usize..];
    }
}

/// Undoes what is to be undone, in a handler; `from_keyboard` when the
/// terminal sent the signal (Ctrl-C, Ctrl-\\).
fn undo(from_keyboard: bool) {
    if let Ok(temp) = TEMP.try_lock()
        && let Some(path) = temp.as_ref()
    {
        // SAFETY: a NUL-terminated path.
        unsafe { libc::unlink(path.as_ptr()) };
    }
    if let Ok(term) = TERMINAL.try_lock()
        && let Some((fd, saved)) = term.as_ref()
    {
        write_all(1, TERMINAL_RESET);
        // SAFETY: restoring settings read from this fd.
        unsafe { libc::tcsetattr(*fd, libc::TCSANOW, saved) };
    }
    if PROGRESS.load(Ordering::Relaxed) {
        // The bar fills its line; a key's echo (`^C`) then wrapped onto the
        // next one, so the bar is the line above.
        let echoed = from_keyboard && {
            // SAFETY: reading the settings of stderr's terminal.
            let mut t: libc::termios = unsafe { std::mem::zeroed() };
            // SAFETY: tcgetattr writes into the termios owned here.
            unsafe { libc::tcgetattr(2, &mut t) == 0 && t.c_lflag & libc::ECHOCTL != 0 }
        };
        let clear: &[u8] = if echoed {
            b"\r\x1b[2K\x1b[1A\r\x1b[2K"
        } else {
            b"\r\x1b[2K"
        };
        write_all(2, clear);
    }
}

fn on_end(sig: i32, info: &libc::siginfo_t) {
    undo(info.si_code == libc::SI_KERNEL);
    // Back to the default action, then the signal again, unblocked: the
    // process ends of it, as if profx had no handler.
    let _ = signal_hook::low_level::emulate_default_handler(sig);
}

extern "C" fn on_bus(_: i32, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
    // SAFETY: the kernel passes a valid siginfo to an SA_SIGINFO handler.
    let addr = unsafe { (*info).si_addr() } as usize;
    undo(false);
    // A fault inside an input's map is that input changing under the
    // reader; any other is profx's own bug, and no input is blamed for it.
    // Another thread may hold the maps' lock a moment (opening or closing
    // an input): it is tried for a bounded while, never waited on, as the
    // interrupted thread may be the one holding it. Not had, the fault is
    // not known to be an input's, so it is not called one.
    let mut ours = false;
    let held = (0..1_000_000).find_map(|_| {
        std::hint::spin_loop();
        MAPS.try_lock().ok()
    });
    if let Some(maps) = held
        && let Some(m) = maps
            .iter()
            .find(|m| (m.0..m.0.saturating_add(m.1)).contains(&addr))
    {
        write_all(2, &m.2);
        ours = true;
    }
    if ours {
        // SAFETY: ends the process at once, as a failed load does.
        unsafe { libc::_exit(1) };
    }
    write_all(2, b"profx: internal error: bus error outside any input\n");
    // SAFETY: back to the default action, then the signal again: it is
    // blocked until the handler returns, then ends the process with SIGBUS
    // as if profx had no handler (a core, for whoever debugs it), whether
    // the signal was a fault (whose instruction would fault again anyway)
    // or sent by another process.
    unsafe {
        libc::signal(libc::SIGBUS, libc::SIG_DFL);
        libc::raise(libc::SIGBUS);
    }
}

/// Sends signal `sig` to process `pid` (tests signal the profx they
/// started, to see it undo and die of the signal).
pub fn send(pid: u32, sig: i32) -> std::io::Result<()> {
    let pid =
        i32::try_from(pid).map_err(|_| std::io::Error::from(std::io::ErrorKind::InvalidInput))?;
    // SAFETY: kill takes plain integers and touches no memory of ours.
    match unsafe { libc::kill(pid, sig) } {
        0 => Ok(()),
        _ => Err(std::io::Error::last_os_error()),
    }
}
