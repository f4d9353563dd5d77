//! Load progress on stderr before the app takes the screen: a bar of bytes
//! read, with rate and time so far, for inputs big enough to keep a person
//! waiting. The terminal is still in its normal mode while loading, so
//! Ctrl-C cancels the load the ordinary way and leaves nothing to undo.
//!
//! The loader runs on this thread; a scoped watcher thread reads the bytes
//! the loader marks on its `Input` (a relaxed atomic) ten times a second, so
//! the loader never waits on the bar.

use indicatif::{ProgressBar, ProgressStyle};
use profx::load::Input;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Inputs smaller than this load before a bar would be seen.
const SHOW_FROM_BYTES: u64 = 32 << 20;

const TEMPLATE: &str = "{spinner} loading {msg} {bar:30} {bytes}/{total_bytes} ({bytes_per_sec}, {elapsed})  Ctrl-C cancels";

pub fn while_loading<T>(inputs: &[Input], load: impl FnOnce() -> T) -> T {
    let total: u64 = inputs.iter().map(Input::len).sum();
    if total < SHOW_FROM_BYTES || !std::io::stderr().is_terminal() {
        return load();
    }
    let bar = ProgressBar::new(total);
    let style = ProgressStyle::with_template(TEMPLATE)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
    bar.set_style(style);
    // Names reach the terminal: only their visible form.
    let names: Vec<String> = inputs
        .iter()
        .map(|i| profx::text::visible(i.name()).into_owned())
        .collect();
    bar.set_message(names.join(" "));
    let done = AtomicBool::new(false);
    // Ctrl-C (SIGINT) ends the load the ordinary way; the handler clears
    // the bar's line first (`signals`).
    profx::signals::progress_shown(true);
    let out = std::thread::scope(|scope| {
        scope.spawn(|| watch(&bar, inputs, &done));
        let out = load();
        done.store(true, Ordering::Relaxed);
        out
    });
    bar.finish_and_clear();
    profx::signals::progress_shown(false);
    out
}

fn watch(bar: &ProgressBar, inputs: &[Input], done: &AtomicBool) {
    while !done.load(Ordering::Relaxed) {
        bar.set_position(inputs.iter().map(Input::bytes_read).sum());
        std::thread::sleep(Duration::from_millis(100));
    }
}
