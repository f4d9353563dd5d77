//! Load progress on stderr before the app takes the screen: a spinner with
//! the input's size and the time so far, for inputs big enough to keep a
//! person waiting. The terminal is still in its normal mode while loading,
//! so Ctrl-C cancels the load the ordinary way and leaves nothing to undo.

use indicatif::{HumanBytes, ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// Inputs smaller than this load before a spinner would be seen.
const SHOW_FROM_BYTES: u64 = 32 << 20;

pub fn while_loading<T>(files: &[String], load: impl FnOnce() -> T) -> T {
    let bytes: u64 = files
        .iter()
        .filter_map(|f| std::fs::metadata(f).ok())
        .map(|m| m.len())
        .sum();
    if bytes < SHOW_FROM_BYTES || !std::io::stderr().is_terminal() {
        return load();
    }
    let bar = ProgressBar::new_spinner();
    let style = ProgressStyle::with_template("{spinner} {msg} {elapsed}  (Ctrl-C cancels)")
        .unwrap_or_else(|_| ProgressStyle::default_spinner());
    bar.set_style(style);
    bar.set_message(format!(
        "loading {} ({})",
        files.join(" "),
        HumanBytes(bytes)
    ));
    bar.enable_steady_tick(Duration::from_millis(100));
    let out = load();
    bar.finish_and_clear();
    out
}
