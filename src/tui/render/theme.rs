//! Styles. With `NO_COLOR` set (no-color.org) the app uses no colour at
//! all, only bold, underline and reverse video, so every distinction
//! (selection, matches, the marked function) still shows.

use ratatui::style::{Color, Modifier, Style};

#[derive(Clone, Copy, Debug)]
pub struct Theme {
    pub color: bool,
}

impl Theme {
    fn pick(self, colored: Style, plain: Style) -> Style {
        if self.color { colored } else { plain }
    }

    pub fn base(self) -> Style {
        Style::default()
    }

    pub fn title(self) -> Style {
        self.pick(
            Style::default()
                .fg(Color::Cyan)
                .add_modifier(Modifier::BOLD),
            Style::default().add_modifier(Modifier::BOLD),
        )
    }

    pub fn tab(self, active: bool) -> Style {
        match active {
            true => self.pick(
                Style::default()
                    .fg(Color::Black)
                    .bg(Color::Cyan)
                    .add_modifier(Modifier::BOLD),
                Style::default().add_modifier(Modifier::REVERSED | Modifier::BOLD),
            ),
            false => Style::default(),
        }
    }

    pub fn header_row(self) -> Style {
        self.pick(
            Style::default()
                .fg(Color::Yellow)
                .add_modifier(Modifier::BOLD),
            Style::default().add_modifier(Modifier::BOLD),
        )
    }

    /// The sort column's heading.
    pub fn sorted_header(self) -> Style {
        self.header_row().add_modifier(Modifier::UNDERLINED)
    }

    pub fn selected(self, focused: bool) -> Style {
        match focused {
            true => self.pick(
                Style::default()
                    .bg(Color::Blue)
                    .fg(Color::White)
                    .add_modifier(Modifier::BOLD),
                Style::default().add_modifier(Modifier::REVERSED),
            ),
            false => Style::default().add_modifier(Modifier::BOLD),
        }
    }

    /// Characters a search matched.
    pub fn matched(self) -> Style {
        self.pick(
            Style::default()
                .fg(Color::LightGreen)
                .add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            Style::default().add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
        )
    }

    /// The function a drilled view is about, in each stack or list.
    pub fn marked(self) -> Style {
        self.pick(
            Style::default()
                .fg(Color::Magenta)
                .add_modifier(Modifier::BOLD),
            Style::default().add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
        )
    }

    /// `accent` over `base`; on a selected row only the accent's bold or
    /// underline, as its colour could vanish into the selection's.
    pub fn on(self, base: Style, accent: Style) -> Style {
        let selected = base.bg.is_some() || base.add_modifier.contains(Modifier::REVERSED);
        if selected {
            base.add_modifier(accent.add_modifier)
        } else {
            base.patch(accent)
        }
    }

    pub fn dim(self) -> Style {
        self.pick(Style::default().fg(Color::DarkGray), Style::default())
    }

    pub fn status(self) -> Style {
        self.pick(
            Style::default().fg(Color::Yellow),
            Style::default().add_modifier(Modifier::BOLD),
        )
    }

    pub fn key(self) -> Style {
        self.pick(
            Style::default()
                .fg(Color::Cyan)
                .add_modifier(Modifier::BOLD),
            Style::default().add_modifier(Modifier::BOLD),
        )
    }

    /// A change for the worse in a comparison (more time, samples or
    /// calls); the change's sign says it without colour.
    pub fn slower(self) -> Style {
        self.pick(Style::default().fg(Color::Red), Style::default())
    }

    /// A change for the better in a comparison.
    pub fn faster(self) -> Style {
        self.pick(Style::default().fg(Color::Blue), Style::default())
    }

    pub fn bar(self) -> Style {
        self.pick(Style::default().fg(Color::Green), Style::default())
    }
}
