//! Text fitted to its room, for every pane and the chrome alike: cut
//! where a reader loses least (a function's method, a file's both ends),
//! highlighted where a search matched, and written clipped to a line.
//! Every name passes through `text::visible` before it reaches a cell.

use crate::model::{FuncId, Profile};
use crate::text::visible;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Writes a line clipped to `area`'s first row.
pub(super) fn put(buf: &mut Buffer, area: Rect, line: &Line<'_>) {
    buf.set_line(area.x, area.y, line, area.width);
}

/// A function's name as a cell shows it.
pub(super) fn fname(p: &Profile, f: FuncId) -> String {
    visible(p.function_name(f)).into_owned()
}

/// `text` cut to `width` display columns (with `…` when cut), and the
/// chars it kept. Wide characters never straddle the edge.
pub(super) fn fit(text: &str, width: usize) -> (String, usize) {
    let f = fit_cut(text, width, Cut::End);
    let kept = f.kept.first().map_or(0, |r| r.1);
    (f.text, kept)
}

/// Where a text too wide for its room loses its characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Cut {
    /// Keep the start (`Raytracer.Pri…`): text in general.
    End,
    /// Keep the method: a function's name loses its namespace first
    /// (`…Sphere.Intersect(Ray)`), then, when the method and its
    /// parameters are still too wide, its parameters (`…Intersect(Ra…`):
    /// the method is what tells a function from its namespace's others.
    Name,
    /// Keep both ends (`TRACE.PR…000012`): a file or path, whose end (the
    /// file, its number) tells it apart and whose start says where.
    Middle,
}

/// A text cut to fit: what is shown, and which of the text's chars it
/// kept, as runs `(first char, chars, where shown)`.
pub(super) struct Fitted {
    pub text: String,
    kept: Vec<(usize, usize, usize)>,
}

impl Fitted {
    /// Where the text's char `i` is shown, if it is.
    pub(super) fn position(&self, i: usize) -> Option<usize> {
        self.kept
            .iter()
            .find(|&&(from, n, _)| i >= from && i < from + n)
            .map(|&(from, _, at)| at + i - from)
    }
}

/// A function's name in `width` columns, cut as the tables cut one
/// (`Cut::Name`).
pub(super) fn fit_name(text: &str, width: usize) -> String {
    fit_cut(text, width, Cut::Name).text
}

/// A query step's label in `room` columns: whole when it fits; a call
/// node's path loses its middle frames first (`merge node main>…>PriceOrder`,
/// the root and the last frame kept), and only then is cut at its end.
pub(super) fn fit_step(step: &crate::analysis::query::Step, room: usize) -> String {
    use crate::analysis::query::Step;
    let label = visible(&step.label()).into_owned();
    if label.width() <= room {
        return label;
    }
    if let Step::MergePath(path) | Step::FocusPath(path) = step
        && path.len() > 2
    {
        let op = match step {
            Step::MergePath(_) => "merge node",
            _ => "focus subtree",
        };
        let frames: Vec<String> = path.iter().map(|t| visible(&t.0).into_owned()).collect();
        let n = frames.len();
        // The root, `…`, and as many of the last frames as fit (one at
        // least).
        for keep in (1..n - 1).rev() {
            let tail = frames[n - keep..].join(">");
            let shown = format!("{op} {}>…>{tail}", frames[0]);
            if shown.width() <= room {
                return shown;
            }
        }
        // Too narrow for the root too: the last frame, cut as a name is
        // (its method kept).
        let lead = format!("{op} …>");
        let left = room.saturating_sub(lead.width());
        return fit_cut(
            &format!("{lead}{}", fit_name(&frames[n - 1], left)),
            room,
            Cut::End,
        )
        .text;
    }
    fit_cut(&label, room, Cut::End).text
}

/// `text` cut to `width` display columns where `cut` says, `…` in place
/// of what is left out. Wide characters never straddle the edge.
pub(super) fn fit_cut(text: &str, width: usize, cut: Cut) -> Fitted {
    let chars: Vec<char> = text.chars().collect();
    match cut {
        Cut::End => ends(&chars, width, 1.0),
        Cut::Middle => ends(&chars, width, 0.5),
        Cut::Name => name(&chars, width),
    }
}

/// A function's module, where another module's function has its name (two
/// programs' `(main)`): what tells them apart wherever names are listed.
pub(super) fn shared_module(p: &Profile, f: FuncId) -> Option<std::borrow::Cow<'_, str>> {
    p.name_is_shared(f).then(|| visible(p.function_module(f)))
}

/// A name as a line shows it whole: with its module where it is shared.
pub(super) fn full_name(p: &Profile, label: crate::analysis::cct::Label) -> String {
    let mut name = visible(label.name(p)).into_owned();
    if let Some(module) = label.func().and_then(|f| shared_module(p, f)) {
        name.push_str(&format!(" [{module}]"));
    }
    name
}

/// A function's name and, after it, its module (`name [module]`), cut to
/// `width`: the name keeps its method (`Cut::Name`), the module both ends,
/// and the module never takes more than half the room.
pub(super) fn fit_name_module(name: &str, module: Option<&str>, width: usize) -> String {
    let Some(module) = module else {
        return fit_cut(name, width, Cut::Name).text;
    };
    let suffix = format!(" [{module}]");
    let (nw, sw) = (name.width(), suffix.width());
    if nw + sw <= width {
        return format!("{name}{suffix}");
    }
    let for_suffix = sw.min(width / 2).max(width.saturating_sub(nw));
    let suffix = match sw <= for_suffix {
        true => suffix,
        // A module's end tells two apart (`liba.dll`, `libb.dll`).
        false => {
            let chars: Vec<char> = module.chars().collect();
            format!(
                " [{}]",
                ends(&chars, for_suffix.saturating_sub(3), 0.0).text
            )
        }
    };
    let room = width.saturating_sub(suffix.width());
    format!("{}{suffix}", fit_cut(name, room, Cut::Name).text)
}

fn char_width(c: char) -> usize {
    c.width().unwrap_or(0)
}

/// The chars cut to `width`, the front given `front` of the room (1: the
/// start kept, 0: the end, 0.5: both), `…` between.
fn ends(chars: &[char], width: usize, front: f64) -> Fitted {
    let w = |c: &char| char_width(*c);
    let n = chars.len();
    if chars.iter().map(w).sum::<usize>() <= width {
        return Fitted {
            text: chars.iter().collect(),
            kept: vec![(0, n, 0)],
        };
    }
    let Some(room) = width.checked_sub(1) else {
        return Fitted {
            text: String::new(),
            kept: Vec::new(),
        };
    };
    let front_room = (room as f64 * front).ceil() as usize;
    let mut head = 0;
    let mut used = 0;
    while head < n && used + w(&chars[head]) <= front_room {
        used += w(&chars[head]);
        head += 1;
    }
    // What the front could not use (a wide char at its edge) goes to the
    // back, except where only the start is kept.
    let back_room = if front >= 1.0 { 0 } else { room - used };
    let mut tail = n;
    let mut used_back = 0;
    while tail > head && used_back + w(&chars[tail - 1]) <= back_room {
        used_back += w(&chars[tail - 1]);
        tail -= 1;
    }
    let mut text: String = chars[..head].iter().collect();
    text.push('…');
    text.extend(&chars[tail..]);
    Fitted {
        text,
        kept: vec![(0, head, 0), (tail, n - tail, head + 1)],
    }
}

/// A function's name cut to keep its class and method (`Cut::Name`): its
/// parameters go first (`Raytracer.Sphere.Intersect(cl…`), then, when the
/// name before them is still too wide, its namespace from the start
/// (`…s.Sphere.Intersect…`).
fn name(chars: &[char], width: usize) -> Fitted {
    let w = |cs: &[char]| cs.iter().map(|&c| char_width(c)).sum::<usize>();
    if w(chars) <= width {
        return ends(chars, width, 1.0);
    }
    // Parameters, not an empty `()`, go first.
    let params = chars
        .iter()
        .position(|&c| c == '(')
        .filter(|&p| chars.len() - p > 2);
    if let Some(params) = params {
        // The name and `(` fit with a `…`: the parameters are cut.
        if w(&chars[..=params]) < width {
            return ends(chars, width, 1.0);
        }
        // The name alone, its namespace cut, then `…` for the rest (one
        // `…` where the name's own cut ends in one).
        let Some(room) = width.checked_sub(1) else {
            return ends(chars, width, 1.0);
        };
        let f = name(&chars[..params], room);
        let text = match f.text.ends_with('…') {
            true => f.text,
            false => format!("{}…", f.text),
        };
        return Fitted { text, kept: f.kept };
    }
    let method = chars
        .iter()
        .rposition(|&c| matches!(c, '.' | ':' | '\\' | '/'))
        .map_or(0, |i| i + 1);
    if method == 0 {
        return ends(chars, width, 1.0);
    }
    if w(&chars[method..]) < width {
        // The method fits after a `…`: as much of the end as fits.
        return ends(chars, width, 0.0);
    }
    // The method alone is too wide: `…`, then the method cut at its end.
    let Some(room) = width.checked_sub(1) else {
        return ends(chars, width, 0.0);
    };
    let rest = ends(&chars[method..], room, 1.0);
    Fitted {
        text: format!("…{}", rest.text),
        kept: rest
            .kept
            .into_iter()
            .map(|(from, n, at)| (from + method, n, at + 1))
            .collect(),
    }
}

/// A frame's text with the selected row's whole name before it, the name
/// cut (keeping its method) to what the rest leaves, or left out when
/// that is too little: the rest's numbers are never cut for it.
pub(super) fn with_name(name: &str, rest: String, width: usize) -> String {
    let room = width.saturating_sub(rest.width() + 5);
    if name.is_empty() || room < 12 {
        return rest;
    }
    format!(" ▶ {} ─{rest}", fit_cut(name, room, Cut::Name).text)
}

/// A cell's text as spans, the chars at `positions` in `hl`.
pub(super) fn highlighted<'a>(
    text: &str,
    positions: &[usize],
    base: Style,
    hl: Style,
) -> Vec<Span<'a>> {
    if positions.is_empty() {
        return vec![Span::styled(text.to_string(), base)];
    }
    let mut spans: Vec<Span<'a>> = Vec::new();
    let mut run = String::new();
    let mut run_hl = false;
    for (i, c) in text.chars().enumerate() {
        let is_hl = positions.binary_search(&i).is_ok();
        if is_hl != run_hl && !run.is_empty() {
            let style = if run_hl { base.patch(hl) } else { base };
            spans.push(Span::styled(std::mem::take(&mut run), style));
        }
        run_hl = is_hl;
        run.push(c);
    }
    if !run.is_empty() {
        spans.push(Span::styled(
            run,
            if run_hl { base.patch(hl) } else { base },
        ));
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;
    use unicode_width::UnicodeWidthStr;

    #[test]
    fn a_cut_keeps_the_end_the_start_or_both() {
        let name = "Raytracer.Primitives.Sphere.Intersect(Ray)";
        assert_eq!(fit_cut(name, 20, Cut::End).text, "Raytracer.Primitive…");
        assert_eq!(fit_cut(name, 20, Cut::Name).text, "…s.Sphere.Intersect…");
        assert_eq!(
            fit_cut(name, 40, Cut::Name).text,
            "Raytracer.Primitives.Sphere.Intersect(R…"
        );
        assert_eq!(
            fit_cut("TRACE.PRF.000012", 11, Cut::Middle).text,
            "TRACE…00012"
        );
        assert_eq!(fit_cut("short", 20, Cut::Name).text, "short");
        assert_eq!(fit_cut(name, 1, Cut::Middle).text, "…");
        assert_eq!(fit_cut(name, 0, Cut::Name).text, "");
        assert_eq!(
            fit_name_module("__onexit", Some("MSVCR100D.dll"), 12),
            "__one… […ll]"
        );
        assert_eq!(
            fit_name_module("__onexit", Some("a.dll"), 20),
            "__onexit [a.dll]"
        );
        assert_eq!(
            fit_name_module("ns.Sphere.Hit", Some("x.dll"), 16),
            "…ere.Hit [x.dll]"
        );
        // Wide characters never straddle the edge, and the width holds.
        for cut in [Cut::End, Cut::Name, Cut::Middle] {
            for width in 0..12 {
                let f = fit_cut("表示関数_wide_名前", width, cut);
                assert!(f.text.width() <= width, "{cut:?} {width}: {:?}", f.text);
            }
        }
    }

    /// A char's place on screen after the cut: highlights stay on the
    /// chars they mark.
    #[test]
    fn positions_follow_the_cut() {
        let f = fit_cut("abcdefghij", 6, Cut::Middle);
        assert_eq!(f.text, "abc…ij");
        let shown: Vec<Option<usize>> = (0..10).map(|i| f.position(i)).collect();
        assert_eq!(
            shown,
            [
                Some(0),
                Some(1),
                Some(2),
                None,
                None,
                None,
                None,
                None,
                Some(4),
                Some(5)
            ]
        );
        let f = fit_cut("a.bcdefghij", 4, Cut::Name);
        assert_eq!(f.text, "…bc…");
        assert_eq!(
            (f.position(2), f.position(3), f.position(0)),
            (Some(1), Some(2), None)
        );
        let f = fit_cut("ns.m(x)", 6, Cut::Name);
        assert_eq!(
            (f.text.as_str(), f.position(3), f.position(0)),
            ("ns.m(…", Some(3), Some(0))
        );
    }
}
