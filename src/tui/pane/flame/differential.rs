//! The flame graph of a comparison, drawn as differential flame graphs
//! are: NEW's widths, each frame coloured by its change against BASE's
//! frame at the same path of names (red: more, blue: less, the deeper the
//! larger the change against the frame's own weight; a grey frame did
//! not change), and the selected frame's change written signed on the
//! status line, so `NO_COLOR` loses nothing.

use crate::analysis::calltree::Unit;
use crate::analysis::diff::{self, TreeBase};
use crate::analysis::flame_view::Icicle;
use crate::model::Profile;
use crate::tui::pane::{Ctx, FlamePane};
use ratatui::style::{Color, Style};

/// Reds and blues, lightest first (256-colour indexes).
const REDS: [u8; 5] = [224, 217, 210, 203, 196];
const BLUES: [u8; 5] = [189, 153, 111, 75, 33];
/// A frame whose change is under this share of its weight is unchanged.
const SAME: f64 = 0.005;

/// What the frames of a comparison's flame graph are coloured by.
pub(super) struct Change<'a> {
    /// The other run's tree: BASE's, or NEW's where BASE's frames are
    /// drawn.
    other: &'a TreeBase,
    t: &'a Icicle,
    p: &'a Profile,
    base_drawn: bool,
}

/// The change colouring of `f`'s frames, in a comparison's whole flame
/// graph (a sandwich's frames are NEW's alone).
pub(super) fn of<'a>(f: &'a FlamePane, cx: &Ctx<'a>) -> Option<Change<'a>> {
    let other = f.against.as_deref()?;
    if f.sandwich.is_some() || f.in_chart() {
        return None;
    }
    Some(Change {
        other,
        t: &f.tree,
        p: cx.profile.as_ref(),
        base_drawn: f.base_drawn,
    })
}

impl Change<'_> {
    /// BASE's and NEW's weights at frame `n`'s path of names (`None` for
    /// the run without such a path).
    fn weights(&self, n: u32) -> (Option<f64>, Option<f64>) {
        let (t, p) = (self.t, self.p);
        let mut names = vec![t.func(n).name(p)];
        let mut at = n;
        while let Some(up) = t.parent(at) {
            names.push(t.func(up).name(p));
            at = up;
        }
        names.reverse();
        let (other, this) = (self.other.total_at(&names), Some(t.weight(n)));
        match self.base_drawn {
            true => (this, other),
            false => (other, this),
        }
    }

    /// Frame `n`'s colours: black on red where NEW spends more, on blue
    /// where it spends less, on grey where the same.
    pub(super) fn style(&self, n: u32) -> Style {
        let (base, new) = self.weights(n);
        let (base, new) = (base.unwrap_or(0.0), new.unwrap_or(0.0));
        let size = (new - base) / new.max(base).max(f64::MIN_POSITIVE);
        let step = ((size.abs() * REDS.len() as f64).ceil() as usize).clamp(1, REDS.len()) - 1;
        let bg = match size {
            s if s.abs() < SAME => Color::Indexed(252),
            s if s > 0.0 => Color::Indexed(REDS[step]),
            _ => Color::Indexed(BLUES[step]),
        };
        Style::default().bg(bg).fg(Color::Black)
    }

    /// Frame `n`'s change in words, signed: `Δ +10.000 ms NEW vs BASE`,
    /// or `not in BASE`.
    pub(super) fn said(&self, n: u32, unit: Unit) -> String {
        let (base, new) = self.weights(n);
        let d = diff::tree_delta(base, new.unwrap_or(0.0), unit == Unit::Count);
        let unit = match unit {
            Unit::Ms => format!(" {}", self.p.time_unit_name()),
            Unit::Count => String::new(),
        };
        match (base, new) {
            (Some(_), Some(_)) => format!("Δ {}{unit} NEW vs BASE", diff::signed(d)),
            (None, _) => "not in BASE".into(),
            (_, None) => "not in NEW".into(),
        }
    }
}
