//! The real terminal: raw mode, the alternate screen and mouse reporting
//! on the way in, all undone on the way out, whether by quitting, by an
//! error or by a panic (the panic hook restores the terminal before the
//! message is printed, so the message is readable and the shell usable).

use super::app::App;
use super::{keys, render};
use crate::model::Profile;
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{self, DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::layout::Rect;
use std::io::{self, Stdout};
use std::path::Path;

/// Runs the app on the terminal until the user quits; `input` is where the
/// profile came from (`e` exports beside it).
pub fn run(profile: Profile, title: &str, input: &Path) -> io::Result<()> {
    let color = std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    install_panic_hook();
    let _guard = Guard::enter()?;
    let mut terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
    let size = terminal.size()?;
    let mut app = App::new(
        profile,
        title,
        Rect::new(0, 0, size.width, size.height),
        color,
    );
    app.export_base = input.to_path_buf();
    event_loop(&mut terminal, &mut app)
}

/// Draws, then blocks until the next event; draws again only when an event
/// became an action (no timer, no busy loop).
fn event_loop(terminal: &mut Terminal<CrosstermBackend<Stdout>>, app: &mut App) -> io::Result<()> {
    terminal.draw(|f| render::draw(f, app))?;
    app.prepare_other_panes();
    loop {
        let ev = event::read()?;
        let Some(action) = keys::action(&app.mode, &ev) else {
            continue;
        };
        app.update(action);
        if app.quit {
            return Ok(());
        }
        if let super::action::Action::Resize { .. } = action {
            terminal.autoresize()?;
        }
        terminal.draw(|f| render::draw(f, app))?;
    }
}

/// Puts the terminal back as it was found when dropped.
struct Guard;

impl Guard {
    fn enter() -> io::Result<Guard> {
        enable_raw_mode()?;
        let guard = Guard;
        execute!(io::stdout(), EnterAlternateScreen, EnableMouseCapture)?;
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
        DisableMouseCapture,
        LeaveAlternateScreen,
        ratatui::crossterm::cursor::Show
    );
    let _ = disable_raw_mode();
}

fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
}
