//! The real terminal: raw mode, the alternate screen and mouse reporting
//! on the way in, all undone on the way out, whether by quitting, by an
//! error or by a panic (the panic hook restores the terminal before the
//! message is printed, so the message is readable and the shell usable).

use super::app::App;
use super::compare::Compared;
use super::{keymap, render};
use crate::model::Profile;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{
    self, DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::layout::Rect;
use ratatui::{Terminal, TerminalOptions, Viewport};
use std::io::{self, Stdout};
use std::path::Path;
use std::time::Duration;

/// The largest screen drawn: a window of 10000×10000 cells would need
/// gigabytes of screen buffers for rows no one can read. A larger window
/// shows the app in its top left corner.
pub(super) const MAX_WIDTH: u16 = 1000;
pub(super) const MAX_HEIGHT: u16 = 500;

/// A terminal size bounded to what is drawn.
pub(super) fn bounded(width: u16, height: u16) -> (u16, u16) {
    (width.min(MAX_WIDTH), height.min(MAX_HEIGHT))
}

/// Runs the app on the terminal until the user quits; `input` is where the
/// profile came from (`e` exports beside it).
pub fn run(profile: Profile, title: &str, input: &Path) -> io::Result<()> {
    let input = input.to_path_buf();
    in_terminal(move |area, color| {
        let mut app = App::new(profile, title, area, color);
        app.export_base = input;
        app
    })
}

/// Runs the app on a trace followed as it is written (`profx --follow`):
/// `profile` is what `follower` has read so far (empty while it waits).
pub fn run_following(
    profile: Profile,
    title: &str,
    input: &Path,
    follower: crate::load::follow::Follower,
) -> io::Result<()> {
    let input = input.to_path_buf();
    in_terminal(move |area, color| {
        let mut app = App::new(profile, title, area, color);
        app.export_base = input;
        app.follow_with(follower);
        app
    })
}

/// Runs the app on a comparison of two runs (`profx diff BASE NEW`);
/// `new` is NEW's input (`e` exports beside it).
pub fn run_comparison(compared: Compared, new: &Path) -> io::Result<()> {
    let new = new.to_path_buf();
    in_terminal(move |area, color| {
        let mut app = App::comparing(compared, area, color);
        app.export_base = new;
        app
    })
}

/// The terminal taken over, the app `make` makes for its size run on it
/// until the user quits, and the terminal given back.
fn in_terminal(make: impl FnOnce(Rect, bool) -> App) -> io::Result<()> {
    let color = std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    install_panic_hook();
    let _guard = Guard::enter()?;
    let (width, height) = ratatui::crossterm::terminal::size()?;
    let (width, height) = bounded(width, height);
    let area = Rect::new(0, 0, width, height);
    let options = TerminalOptions {
        viewport: Viewport::Fixed(area),
    };
    let mut terminal = Terminal::with_options(CrosstermBackend::new(io::stdout()), options)?;
    let mut app = make(area, color);
    event_loop(&mut terminal, &mut app)
}

/// Draws, then blocks until the next event; draws again only when an event
/// became an intent (no timer, no busy loop). Every event already waiting
/// is handled before the next draw, so a burst of keys (5,000 `j`, a paste
/// without bracketed paste) costs one frame, not one each; keys are read
/// from `/dev/tty` with a level-triggered poll (crossterm's `use-dev-tty`),
/// so no byte of a burst is left unread until another key arrives.
fn event_loop(terminal: &mut Terminal<CrosstermBackend<Stdout>>, app: &mut App) -> io::Result<()> {
    terminal.draw(|f| render::draw(f, app))?;
    app.prepare_other_panes();
    loop {
        // No timer, but while an export writes on its thread (its progress
        // is drawn ten times a second until it ends), while the first view
        // is ordered on one (its whole order is drawn once made), while a
        // query step runs on one (its end is taken within 50 ms of it,
        // and after a quarter of a second the footer says it runs), or
        // while a trace is followed.
        let wait = match app.querying() {
            true => Duration::from_millis(50),
            false => Duration::from_millis(100),
        };
        // A trace followed: its thread's answers are looked for as often,
        // and drawn only when one came (`App::follow_tick`).
        let busy = app.exporting() || app.opening() || app.querying();
        if (busy || app.following()) && !event::poll(wait)? {
            if busy {
                app.update(super::intent::Intent::Tick);
            }
            if app.follow_tick() || busy {
                terminal.draw(|f| render::draw(f, app))?;
            }
            continue;
        }
        let mut changed = handle(terminal, app, &event::read()?)?;
        while !app.quit && event::poll(Duration::ZERO)? {
            changed |= handle(terminal, app, &event::read()?)?;
        }
        if app.quit {
            return Ok(());
        }
        if changed {
            terminal.draw(|f| render::draw(f, app))?;
        }
    }
}

/// One event into the app; whether it became an intent.
fn handle(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    app: &mut App,
    ev: &event::Event,
) -> io::Result<bool> {
    let Some(intent) = keymap::intent(&app.mode, &app.places(), ev) else {
        return Ok(false);
    };
    if let super::intent::Intent::Resize { width, height } = intent {
        terminal.resize(Rect::new(0, 0, width, height))?;
    }
    app.update(intent);
    if let Some(text) = app.clipboard.take() {
        // OSC 52: the terminal (or tmux, or the one at the other end of
        // SSH) sets its clipboard; the text travels base64-encoded.
        execute!(
            io::stdout(),
            crossterm::clipboard::CopyToClipboard::to_clipboard_from(text)
        )?;
    }
    Ok(true)
}

/// Puts the terminal back as it was found when dropped.
struct Guard;

impl Guard {
    fn enter() -> io::Result<Guard> {
        profx_sys::terminal::save_settings();
        if let Err(e) = enable_raw_mode() {
            // Nothing was taken over: a signal must not "put back" settings.
            profx_sys::terminal::given_back();
            return Err(e);
        }
        let guard = Guard;
        execute!(
            io::stdout(),
            EnterAlternateScreen,
            EnableMouseCapture,
            EnableBracketedPaste
        )?;
        Ok(guard)
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

fn restore() {
    let _ = execute!(
        io::stdout(),
        DisableBracketedPaste,
        DisableMouseCapture,
        LeaveAlternateScreen,
        ratatui::crossterm::cursor::Show
    );
    let _ = disable_raw_mode();
    profx_sys::terminal::given_back();
}

fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
}
