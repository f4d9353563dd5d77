//! Terminal events → actions. One meaning per key in each mode: while the
//! search prompt or the finder is open every printable key is text; only
//! keys that are not (arrows, Enter, Esc, Backspace, Ctrl-…) act there.

use super::action::Action;
use super::app::Mode;
use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

/// Rows a wheel notch scrolls.
const WHEEL_ROWS: isize = 3;

pub fn action(mode: &Mode, event: &Event) -> Option<Action> {
    match event {
        Event::Key(k) if k.kind != KeyEventKind::Release => key(mode, k),
        Event::Mouse(m) => mouse(m),
        Event::Resize(width, height) => {
            let (width, height) = super::term::bounded(*width, *height);
            Some(Action::Resize { width, height })
        }
        Event::Paste(text) if matches!(mode, Mode::Search | Mode::Finder(_)) => {
            Some(Action::Paste(super::action::Pasted::new(text)))
        }
        _ => None,
    }
}

fn key(mode: &Mode, k: &KeyEvent) -> Option<Action> {
    let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
    if ctrl && k.code == KeyCode::Char('c') {
        return Some(Action::Quit);
    }
    match mode {
        Mode::Normal => normal(k, ctrl),
        Mode::Search | Mode::Finder(_) => prompt(k, ctrl),
        Mode::Help(_) => match k.code {
            KeyCode::Char('q') => Some(Action::Quit),
            KeyCode::Up | KeyCode::Char('k') => Some(Action::Move(-1)),
            KeyCode::Down | KeyCode::Char('j') => Some(Action::Move(1)),
            KeyCode::PageUp => Some(Action::PageUp),
            KeyCode::PageDown | KeyCode::Char(' ') => Some(Action::PageDown),
            KeyCode::Home => Some(Action::Home),
            KeyCode::End => Some(Action::End),
            KeyCode::Esc | KeyCode::Char('?') | KeyCode::Backspace | KeyCode::Enter => {
                Some(Action::Cancel)
            }
            _ => None,
        },
    }
}

fn normal(k: &KeyEvent, ctrl: bool) -> Option<Action> {
    use Action::*;
    if ctrl {
        return match k.code {
            KeyCode::Char('p') => Some(FinderOpen),
            KeyCode::Char('f') => Some(PageDown),
            KeyCode::Char('b') => Some(PageUp),
            _ => None,
        };
    }
    Some(match k.code {
        KeyCode::Char('q') => Quit,
        KeyCode::Up | KeyCode::Char('k') => Move(-1),
        KeyCode::Down | KeyCode::Char('j') => Move(1),
        KeyCode::PageUp => PageUp,
        KeyCode::PageDown | KeyCode::Char(' ') => PageDown,
        KeyCode::Home => Home,
        KeyCode::End => End,
        KeyCode::Left | KeyCode::Char('h') => ScrollColumns(-1),
        KeyCode::Right => ScrollColumns(1),
        KeyCode::Char('*') => ExpandAll,
        KeyCode::Char('p') => HotPath,
        KeyCode::Char('i') => Invert,
        KeyCode::Char('t') => ShowInTree,
        KeyCode::Char('T') => TreeOfSelected,
        KeyCode::Char('x') => Hide,
        KeyCode::Char('X') => Unhide,
        KeyCode::Char('f') => Focus,
        KeyCode::Tab => NextTab,
        KeyCode::BackTab => PrevTab,
        KeyCode::Char(c @ '1'..='7') => Tab(super::view::Tab::ALL[usize::from(c as u8 - b'1')]),
        KeyCode::Char('s') => SortNext,
        KeyCode::Char('S') => SortPrev,
        KeyCode::Char('r') => Reverse,
        KeyCode::Enter => Enter,
        KeyCode::Backspace | KeyCode::Char('[') => Back,
        KeyCode::Char(']') => Forward,
        KeyCode::Esc => Cancel,
        KeyCode::Char('c') => Callers,
        KeyCode::Char('l') => Lines,
        KeyCode::Char('/') => SearchOpen,
        KeyCode::Char('n') => NextMatch,
        KeyCode::Char('N') => PrevMatch,
        KeyCode::Char('g') => FinderOpen,
        KeyCode::Char('?') => Help,
        KeyCode::Char('e') => Export,
        KeyCode::Char('y') => Copy,
        _ => return None,
    })
}

fn prompt(k: &KeyEvent, ctrl: bool) -> Option<Action> {
    use Action::*;
    if ctrl {
        return match k.code {
            KeyCode::Char('u') => Some(ClearInput),
            KeyCode::Char('n') | KeyCode::Char('j') => Some(Move(1)),
            KeyCode::Char('p') | KeyCode::Char('k') => Some(Move(-1)),
            _ => None,
        };
    }
    Some(match k.code {
        KeyCode::Char(c) => Input(c),
        KeyCode::Backspace => Erase,
        KeyCode::Enter => Accept,
        KeyCode::Esc => Cancel,
        KeyCode::Up => Move(-1),
        KeyCode::Down => Move(1),
        KeyCode::PageUp => PageUp,
        KeyCode::PageDown => PageDown,
        KeyCode::Home => Home,
        KeyCode::End => End,
        _ => return None,
    })
}

fn mouse(m: &MouseEvent) -> Option<Action> {
    let (x, y) = (m.column, m.row);
    match m.kind {
        MouseEventKind::Down(MouseButton::Left) => Some(Action::Click { x, y }),
        MouseEventKind::ScrollUp => Some(Action::Wheel {
            x,
            y,
            rows: -WHEEL_ROWS,
        }),
        MouseEventKind::ScrollDown => Some(Action::Wheel {
            x,
            y,
            rows: WHEEL_ROWS,
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::view::Tab;

    fn press(mode: &Mode, code: KeyCode, mods: KeyModifiers) -> Option<Action> {
        action(mode, &Event::Key(KeyEvent::new(code, mods)))
    }

    #[test]
    fn printable_keys_are_text_in_the_prompt_and_commands_outside() {
        let none = KeyModifiers::NONE;
        assert_eq!(
            press(&Mode::Normal, KeyCode::Char('q'), none),
            Some(Action::Quit)
        );
        assert_eq!(
            press(&Mode::Search, KeyCode::Char('q'), none),
            Some(Action::Input('q'))
        );
        assert_eq!(
            press(&Mode::Normal, KeyCode::Char('s'), none),
            Some(Action::SortNext)
        );
        assert_eq!(
            press(&Mode::Search, KeyCode::Char('s'), none),
            Some(Action::Input('s'))
        );
        assert_eq!(
            press(&Mode::Normal, KeyCode::Char('3'), none),
            Some(Action::Tab(Tab::Stacks))
        );
        assert_eq!(
            press(&Mode::Search, KeyCode::Esc, none),
            Some(Action::Cancel)
        );
    }

    #[test]
    fn ctrl_c_quits_everywhere() {
        for mode in [Mode::Normal, Mode::Search, Mode::Help(0)] {
            assert_eq!(
                press(&mode, KeyCode::Char('c'), KeyModifiers::CONTROL),
                Some(Action::Quit)
            );
        }
    }

    #[test]
    fn mouse_clicks_and_wheel() {
        let m = |kind| MouseEvent {
            kind,
            column: 4,
            row: 7,
            modifiers: KeyModifiers::NONE,
        };
        assert_eq!(
            action(
                &Mode::Normal,
                &Event::Mouse(m(MouseEventKind::Down(MouseButton::Left)))
            ),
            Some(Action::Click { x: 4, y: 7 })
        );
        assert_eq!(
            action(&Mode::Normal, &Event::Mouse(m(MouseEventKind::ScrollDown))),
            Some(Action::Wheel {
                x: 4,
                y: 7,
                rows: 3
            })
        );
    }
}
