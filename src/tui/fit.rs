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
    /// Keep the class and method: a function's name loses its template
    /// arguments first (`Foo<…>`), then its parameters (`Intersect(…)`),
    /// then its namespaces from the start (`…Sphere.Intersect(…)`), and
    /// only then the method's end: the method is what tells a function
    /// from its namespace's others (`fit_names` tells apart those that
    /// still read the same).
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

/// Names each with its module where another module's function shares it
/// (`name [module]`), each in its width, the names cut together
/// (`fit_names`): the rows of a list on screen. A name keeps its method
/// (`Cut::Name`), a module both ends, and takes no more than half the room
/// (`module_suffix`).
pub(super) fn fit_names_modules(names: &[(&str, Option<&str>, usize)]) -> Vec<String> {
    let parts: Vec<(String, usize)> = names
        .iter()
        .map(|&(name, module, width)| match module {
            Some(m) => module_suffix(name.width(), m, width),
            None => (String::new(), width),
        })
        .collect();
    let rooms: Vec<(&str, usize)> = names
        .iter()
        .zip(&parts)
        .map(|(&(name, _, _), &(_, room))| (name, room))
        .collect();
    fit_names(&rooms)
        .into_iter()
        .zip(parts)
        .map(|(name, (suffix, _))| format!("{}{suffix}", name.text))
        .collect()
}

/// The module written after a name `name_width` wide in `width`
/// (` [module]`: whole where the name leaves it room or it takes half the
/// room at most, else cut keeping its end), and the room left the name.
pub(super) fn module_suffix(name_width: usize, module: &str, width: usize) -> (String, usize) {
    let suffix = format!(" [{module}]");
    let sw = suffix.width();
    let for_suffix = sw.min(width / 2).max(width.saturating_sub(name_width));
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
    (suffix, room)
}

/// A frame's title cut to fit between its corners (`width` the frame's),
/// with `…` where it is cut and a space before the corner.
pub(super) fn frame_title(title: &str, width: u16) -> String {
    let room = usize::from(width).saturating_sub(2);
    if title.width() <= room {
        return title.to_string();
    }
    let cut = fit_cut(title.trim_end(), room.saturating_sub(1), Cut::End).text;
    format!("{cut} ")
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

/// A piece of a cut name: a run of its chars `(first, count)`, or a `…`
/// in place of what is left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Piece {
    Run(usize, usize),
    Dots,
}

fn pieces_width(chars: &[char], pieces: &[Piece]) -> usize {
    pieces
        .iter()
        .map(|p| match *p {
            Piece::Run(from, n) => chars[from..from + n].iter().map(|&c| char_width(c)).sum(),
            Piece::Dots => 1,
        })
        .sum()
}

/// The text the pieces show, and where each kept run of chars is shown.
fn fitted(chars: &[char], pieces: &[Piece]) -> Fitted {
    let mut text = String::new();
    let mut kept = Vec::new();
    let mut at = 0;
    for p in pieces {
        match *p {
            Piece::Run(_, 0) => {}
            Piece::Run(from, n) => {
                kept.push((from, n, at));
                text.extend(&chars[from..from + n]);
                at += n;
            }
            Piece::Dots => {
                text.push('…');
                at += 1;
            }
        }
    }
    Fitted { text, kept }
}

/// The pieces cut to `width` keeping their start, a `…` at the cut.
fn keep_start(chars: &[char], pieces: &[Piece], width: usize) -> Vec<Piece> {
    if pieces_width(chars, pieces) <= width {
        return pieces.to_vec();
    }
    let Some(room) = width.checked_sub(1) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut used = 0;
    for p in pieces {
        match *p {
            Piece::Dots if used < room => {
                out.push(Piece::Dots);
                used += 1;
            }
            Piece::Dots => break,
            Piece::Run(from, n) => {
                let mut k = 0;
                while k < n && used + char_width(chars[from + k]) <= room {
                    used += char_width(chars[from + k]);
                    k += 1;
                }
                if k > 0 {
                    out.push(Piece::Run(from, k));
                }
                if k < n {
                    break;
                }
            }
        }
    }
    if out.last() != Some(&Piece::Dots) {
        out.push(Piece::Dots);
    }
    out
}

/// What a bracketed group in a name is: a template's arguments (`<…>`
/// after a word), a parameter list (`(…)` after a segment's start), or
/// neither (`(anonymous namespace)`), which stays whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Template,
    Params,
    Other,
}

/// A bracketed group: its opening and closing chars' places.
struct Group {
    open: usize,
    close: usize,
    kind: Kind,
}

impl Group {
    fn content(&self) -> std::ops::Range<usize> {
        self.open + 1..self.close
    }
}

/// A part of a name between separators (`.`, `::`, `\`, `/`) outside any
/// group: a namespace, a class, the method. `sep..start` is the separator
/// before it.
struct Seg {
    sep: usize,
    start: usize,
    end: usize,
    groups: std::ops::Range<usize>,
}

/// A name read as its segments and their groups.
struct Parsed {
    segs: Vec<Seg>,
    groups: Vec<Group>,
}

fn is_sep(c: char) -> bool {
    matches!(c, '.' | ':' | '\\' | '/')
}

/// Each bracket's partner, found in one pass (a name from a file may be
/// long and unbalanced): `(` with `)`, and `<` after a word with `>`
/// (not the `>` of `->`).
fn partners(chars: &[char]) -> Vec<Option<usize>> {
    let mut partner = vec![None; chars.len()];
    let (mut parens, mut angles) = (Vec::new(), Vec::new());
    for (i, &c) in chars.iter().enumerate() {
        let after_word = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        match c {
            '(' => parens.push(i),
            ')' => {
                if let Some(open) = parens.pop() {
                    partner[open] = Some(i);
                }
            }
            '<' if after_word => angles.push(i),
            '>' if i == 0 || chars[i - 1] != '-' => {
                if let Some(open) = angles.pop() {
                    partner[open] = Some(i);
                }
            }
            _ => {}
        }
    }
    partner
}

fn parse(chars: &[char]) -> Parsed {
    let partner = partners(chars);
    let n = chars.len();
    let (mut segs, mut groups) = (Vec::new(), Vec::new());
    let (mut sep, mut start, mut first_group) = (0, 0, 0);
    let mut i = 0;
    while i < n {
        let c = chars[i];
        let kind = match c {
            '(' if i > start => Kind::Params,
            '(' => Kind::Other,
            _ => Kind::Template,
        };
        if let Some(close) = partner[i].filter(|_| c != '<' || i > start) {
            groups.push(Group {
                open: i,
                close,
                kind,
            });
            i = close + 1;
            continue;
        }
        if is_sep(c) {
            let run = chars[i..].iter().take_while(|&&c| is_sep(c)).count();
            // A separator at the start or the end belongs to its segment.
            if i > start && i + run < n {
                segs.push(Seg {
                    sep,
                    start,
                    end: i,
                    groups: first_group..groups.len(),
                });
                first_group = groups.len();
                (sep, start) = (i, i + run);
            }
            i += run;
            continue;
        }
        i += 1;
    }
    segs.push(Seg {
        sep,
        start,
        end: n,
        groups: first_group..groups.len(),
    });
    Parsed { segs, groups }
}

/// How a group is shown: whole, as `…`, its first chars then `…`, or
/// `…` then its chars from one on (where it differs from another's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Look {
    Whole,
    Elided,
    Head(usize),
    From(usize),
}

/// A cut of a name: which segments show (a run left out is one `…`), and
/// how each group does.
#[derive(Clone)]
struct Plan {
    shown: Vec<bool>,
    looks: Vec<Look>,
}

/// What must show where names would otherwise read the same: segments
/// and groups, by their places in `Parsed`, each group with the first of
/// its chars that differs from the other's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Keep {
    segs: Vec<usize>,
    groups: Vec<(usize, usize)>,
}

impl Keep {
    fn group(&self, g: usize) -> Option<usize> {
        self.groups.iter().find(|k| k.0 == g).map(|k| k.1)
    }
}

fn render(parsed: &Parsed, plan: &Plan) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut hidden_from = None;
    for (i, seg) in parsed.segs.iter().enumerate() {
        if !plan.shown[i] {
            hidden_from.get_or_insert(i);
            continue;
        }
        match hidden_from.take() {
            None => out.push(Piece::Run(seg.sep, seg.start - seg.sep)),
            Some(0) => out.push(Piece::Dots),
            // `Sphere.…Intersect`: the separator after what shows, then `…`.
            Some(a) => {
                let left = &parsed.segs[a];
                out.extend([Piece::Run(left.sep, left.start - left.sep), Piece::Dots]);
            }
        }
        let mut at = seg.start;
        for g in seg.groups.clone() {
            let group = &parsed.groups[g];
            let shown = match plan.looks[g] {
                Look::Whole => continue,
                Look::Elided => 0,
                Look::Head(k) => k,
                Look::From(k) => {
                    out.extend([Piece::Run(at, group.open + 1 - at), Piece::Dots]);
                    at = group.open + 1 + k;
                    continue;
                }
            };
            out.extend([Piece::Run(at, group.open + 1 + shown - at), Piece::Dots]);
            at = group.close;
        }
        out.push(Piece::Run(at, seg.end - at));
    }
    out
}

/// Every group of `kind` with something in it shown as `…`, but those
/// `keep` keeps.
fn elide(plan: &mut Plan, parsed: &Parsed, kind: Kind, keep: &Keep) {
    for (g, group) in parsed.groups.iter().enumerate() {
        // `(x)` is no wider than `(…)`: it stays.
        if group.kind == kind && group.content().len() > 1 && keep.group(g).is_none() {
            plan.looks[g] = Look::Elided;
        }
    }
}

/// A name cut to `width` (`Cut::Name`): what goes first is its template
/// arguments (`Foo<…>`), then its parameters (`Intersect(…)`, the
/// method's shown as far as they fit), then its namespaces from the start
/// (`…Sphere.Intersect(…)`); only then is the method cut at its end. What
/// `keep` names goes last: every other segment and group before it.
fn cut_name(chars: &[char], parsed: &Parsed, width: usize, keep: &Keep) -> Vec<Piece> {
    let n = parsed.segs.len();
    let mut plan = Plan {
        shown: vec![true; n],
        looks: vec![Look::Whole; parsed.groups.len()],
    };
    let fits = |plan: &Plan| {
        let pieces = render(parsed, plan);
        (pieces_width(chars, &pieces) <= width).then_some(pieces)
    };
    if let Some(p) = fits(&plan) {
        return p;
    }
    elide(&mut plan, parsed, Kind::Template, keep);
    if let Some(p) = fits(&plan) {
        return p;
    }
    elide(&mut plan, parsed, Kind::Params, keep);
    if let Some(p) = fits(&plan) {
        return params_refilled(chars, parsed, plan, width - pieces_width(chars, &p));
    }
    // The namespaces from the start, those kept last: the fewest left out
    // that fit (fewer shown never reads wider).
    let from = |s: usize| -> Plan {
        let shown = (0..n).map(|i| i >= s || keep.segs.contains(&i)).collect();
        Plan {
            shown,
            looks: plan.looks.clone(),
        }
    };
    if n > 1 && fits(&from(n - 1)).is_some() {
        let (mut lo, mut hi) = (1, n - 1);
        while lo < hi {
            let mid = (lo + hi) / 2;
            match fits(&from(mid)) {
                Some(_) => hi = mid,
                None => lo = mid + 1,
            }
        }
        return render(parsed, &from(lo));
    }
    // The method and what `keep` keeps alone, a group kept from where it
    // differs, cut at its end.
    let mut last = from(n - 1);
    for &(g, differs) in &keep.groups {
        last.looks[g] = match differs {
            0 => Look::Whole,
            k => Look::From(k),
        };
    }
    match fits(&last) {
        Some(p) => p,
        None => keep_start(chars, &render(parsed, &last), width),
    }
}

/// The method's parameters, elided, shown from their start in what the
/// cut leaves (`spare`): `Intersect(class Ray…)`.
fn params_refilled(chars: &[char], parsed: &Parsed, mut plan: Plan, spare: usize) -> Vec<Piece> {
    let method = parsed.segs.last().map_or(0..0, |s| s.groups.clone());
    let elided = method
        .rev()
        .find(|&g| parsed.groups[g].kind == Kind::Params && plan.looks[g] == Look::Elided);
    if let Some(g) = elided {
        let content = &chars[parsed.groups[g].content()];
        let all: usize = content.iter().map(|&c| char_width(c)).sum();
        let mut used = 0;
        let k = content
            .iter()
            .take_while(|&&c| {
                used += char_width(c);
                used <= spare
            })
            .count();
        // A char or two of them would tell little.
        plan.looks[g] = match (all <= spare + 1, k) {
            (true, _) => Look::Whole,
            (false, 0..3) => Look::Elided,
            (false, k) => Look::Head(k),
        };
    }
    render(parsed, &plan)
}

/// A name cut to `width` keeping its class and method (`Cut::Name`).
fn name(chars: &[char], width: usize) -> Fitted {
    let parsed = parse(chars);
    fitted(chars, &cut_name(chars, &parsed, width, &Keep::default()))
}

/// A segment's text without its groups' contents (`bar()` for
/// `bar(int)`).
fn bare(chars: &[char], parsed: &Parsed, seg: &Seg) -> Vec<char> {
    let mut out = Vec::new();
    let mut at = seg.start;
    for g in &parsed.groups[seg.groups.clone()] {
        if g.kind != Kind::Other {
            out.extend(&chars[at..=g.open]);
            at = g.close;
        }
    }
    out.extend(&chars[at..seg.end]);
    out
}

/// What of name `a` tells it from name `b` (their texts differ), added to
/// `keep`: from the method back, the first of `a`'s segments that is not
/// `b`'s (`Sphere` in `…Sphere.IPrimitive.Intersect`), or the group in
/// it that differs (`bar(int)` beside `bar(double)`); `a`'s start where
/// `a` is the end of `b`.
fn apart(a: (&[char], &Parsed), b: (&[char], &Parsed), keep: &mut Keep) {
    let (na, nb) = (a.1.segs.len(), b.1.segs.len());
    let text = |(chars, _): (&[char], &Parsed), s: &Seg| chars[s.start..s.end].to_vec();
    let mut add = |seg: usize, group: Option<(usize, usize)>| {
        if !keep.segs.contains(&seg) {
            keep.segs.push(seg);
        }
        if let Some((g, differs)) = group {
            match keep.groups.iter_mut().find(|k| k.0 == g) {
                Some(k) => k.1 = k.1.min(differs),
                None => keep.groups.push((g, differs)),
            }
        }
    };
    for k in 1..=na.max(nb) {
        // `a` is the end of `b`: its start tells it apart.
        let Some(i) = na.checked_sub(k) else {
            return add(0, None);
        };
        // `b` is the end of `a`: the segment of `a` before that end.
        let Some(j) = nb.checked_sub(k) else {
            return add(i, None);
        };
        let (sa, sb) = (&a.1.segs[i], &b.1.segs[j]);
        if text(a, sa) == text(b, sb) {
            continue;
        }
        if bare(a.0, a.1, sa) != bare(b.0, b.1, sb) {
            return add(i, None);
        }
        let differs = sa
            .groups
            .clone()
            .zip(sb.groups.clone())
            .find_map(|(ga, gb)| {
                let (ca, cb) = (
                    &a.0[a.1.groups[ga].content()],
                    &b.0[b.1.groups[gb].content()],
                );
                (ca != cb).then(|| (ga, word_start(ca, first_difference(ca, cb))))
            });
        return add(i, differs);
    }
    // The same segments, other separators: the start.
    add(0, None);
}

/// Where two texts first differ (the shorter's length where one starts
/// the other).
fn first_difference(a: &[char], b: &[char]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// The start of the word `at` is in: after a space, a comma or a bracket.
fn word_start(chars: &[char], at: usize) -> usize {
    chars[..at.min(chars.len())]
        .iter()
        .rposition(|c| matches!(c, ' ' | ',' | '<' | '(' | '['))
        .map_or(0, |i| i + 1)
}

/// Names cut each to its width (`Cut::Name`), together: where two would
/// read the same but the names differ, each is cut again keeping what
/// tells it from the others (`…Sphere.…IPrimitive.Intersect(…)` and
/// `…Box.…IPrimitive.Intersect(…)`, `…bar(int)` and `…bar(double)`).
/// Made for the rows on screen, so the cost is theirs.
pub(super) fn fit_names(names: &[(&str, usize)]) -> Vec<Fitted> {
    let chars: Vec<Vec<char>> = names.iter().map(|(n, _)| n.chars().collect()).collect();
    let parsed: Vec<Parsed> = chars.iter().map(|c| parse(c)).collect();
    let cut = |i: usize, keep: &Keep| {
        fitted(
            &chars[i],
            &cut_name(&chars[i], &parsed[i], names[i].1, keep),
        )
    };
    let mut out: Vec<Fitted> = (0..names.len()).map(|i| cut(i, &Keep::default())).collect();
    let mut alike: std::collections::HashMap<&str, Vec<usize>> = Default::default();
    for (i, f) in out.iter().enumerate() {
        alike.entry(f.text.as_str()).or_default().push(i);
    }
    let mut again = Vec::new();
    for rows in alike.values().filter(|rows| rows.len() > 1) {
        for &i in rows {
            let mut keep = Keep::default();
            for &j in rows.iter().filter(|&&j| chars[j] != chars[i]) {
                apart((&chars[i], &parsed[i]), (&chars[j], &parsed[j]), &mut keep);
            }
            if keep != Keep::default() {
                again.push((i, keep));
            }
        }
    }
    for (i, keep) in again {
        out[i] = cut(i, &keep);
    }
    out
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
        let fit_name_module =
            |n: &str, m: Option<&str>, w: usize| fit_names_modules(&[(n, m, w)]).remove(0);
        let name = "Raytracer.Primitives.Sphere.Intersect(Ray)";
        assert_eq!(fit_cut(name, 20, Cut::End).text, "Raytracer.Primitive…");
        assert_eq!(fit_cut(name, 20, Cut::Name).text, "…Sphere.Intersect(…)");
        assert_eq!(
            fit_cut(name, 40, Cut::Name).text,
            "Raytracer.Primitives.Sphere.Intersect(…)"
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
            "…Hit [x.dll]"
        );
        // Wide characters never straddle the edge, and the width holds.
        for cut in [Cut::End, Cut::Name, Cut::Middle] {
            for width in 0..12 {
                let f = fit_cut("表示関数_wide_名前", width, cut);
                assert!(f.text.width() <= width, "{cut:?} {width}: {:?}", f.text);
            }
        }
    }

    /// A name loses its template arguments first, then its parameters
    /// (the method's shown as far as they fit), then its namespaces from
    /// the start, whole; the method is cut last.
    #[test]
    fn a_name_loses_templates_then_parameters_then_namespaces() {
        let n = "Raytracer.Primitives.Sphere.Intersect(class Raytracer.Ray&,bool&)";
        let cuts = [
            (80, n),
            (
                60,
                "Raytracer.Primitives.Sphere.Intersect(class Raytracer.Ray&…)",
            ),
            (40, "Raytracer.Primitives.Sphere.Intersect(…)"),
            (39, "…Primitives.Sphere.Intersect(…)"),
            (20, "…Sphere.Intersect(…)"),
            (13, "…Intersect(…)"),
            (12, "…Intersect(…"),
            (4, "…In…"),
        ];
        for (width, cut) in cuts {
            assert_eq!(fit_name(n, width), cut, "{width}");
        }
        assert_eq!(
            fit_name("ns::Foo<int>::bar(int)", 21),
            "ns::Foo<…>::bar(int)"
        );
        assert_eq!(
            fit_name("ns::Foo<int>::bar(double)", 20),
            "ns::Foo<…>::bar(…)"
        );
        assert_eq!(fit_name("ns::Foo<int>::bar(double)", 12), "…bar(…)");
        // Brackets inside parameters or template arguments part nothing.
        assert_eq!(
            fit_name("a::B<std::map<int, int>>::f(std::pair<A, B>)", 24),
            "a::B<…>::f(std::pair<A…)"
        );
        // A compiler's `<TraceImage>` is no template's arguments, a
        // namespace in brackets no parameter list.
        assert_eq!(
            fit_name("Raytracer.Tracer.<TraceImage>b__5_0(int32)", 30),
            "…Tracer.<TraceImage>b__5_0(…)"
        );
        assert_eq!(
            fit_name("(anonymous namespace)::helper(int, int)", 30),
            "…helper(…)"
        );
        // Unbalanced brackets and separators at the ends cut as text.
        for odd in [
            "f(a.b",
            "f)a.b(",
            "a<b.c",
            "::f",
            "a.",
            ".",
            "..a..",
            "operator<(x)",
        ] {
            for width in 0..8 {
                assert!(fit_name(odd, width).width() <= width, "{odd:?} {width}");
            }
        }
    }

    /// Names that would read the same are cut again keeping what tells
    /// them apart: the namespace segment, the start, the parameters.
    #[test]
    fn names_that_would_read_the_same_are_told_apart() {
        let intersect = "IPrimitive.Intersect(class Raytracer.Ray&,bool&)";
        let sphere = format!("Raytracer.Primitives.Sphere.Raytracer.Primitives.{intersect}");
        let cube = format!("Raytracer.Primitives.Box.Raytracer.Primitives.{intersect}");
        let plain = format!("Raytracer.Primitives.{intersect}");
        let alone: Vec<String> = [&sphere, &cube, &plain]
            .iter()
            .map(|n| fit_name(n, 40))
            .collect();
        assert!(
            alone
                .iter()
                .all(|c| c == "…Primitives.IPrimitive.Intersect(…)")
        );
        let cut = |names: &[&str], width: usize| -> Vec<String> {
            let names: Vec<(&str, usize)> = names.iter().map(|&n| (n, width)).collect();
            fit_names(&names).into_iter().map(|f| f.text).collect()
        };
        assert_eq!(
            cut(&[&sphere, &cube, &plain, "Other.Fn"], 40),
            [
                "…Sphere.…IPrimitive.Intersect(…)",
                "…Box.…Primitives.IPrimitive.Intersect(…)",
                "Raytracer.…IPrimitive.Intersect(…)",
                "Other.Fn",
            ]
        );
        assert_eq!(
            cut(&["ns::Foo<int>::bar(int)", "ns::Foo<int>::bar(double)"], 12),
            ["…bar(int)", "…bar(double)"]
        );
        assert_eq!(
            cut(&["ns::Foo<int>::bar(int)", "ns::Foo<long>::bar(int)"], 16),
            ["…Foo<int>::bar(…", "…Foo<long>::bar…"]
        );
        // Parameters too wide to show whole show from where they differ.
        let mesh = "geometry::shapes::Mesh<std::vector<float>>::intersect";
        let (float, double) = (
            format!("{mesh}(const Ray<float>&, Hit&)"),
            format!("{mesh}(const Ray<double>&, Hit&)"),
        );
        assert_eq!(
            cut(&[&float, &double], 20),
            ["…intersect(…float>&…", "…intersect(…double>…"]
        );
        assert_eq!(
            cut(&[&float, &double], 30),
            ["…intersect(…float>&, Hit&)", "…intersect(…double>&, Hit&)"]
        );
        // However narrow, every cut keeps to its width.
        let all = [
            &sphere,
            &cube,
            &plain,
            &float,
            &double,
            "ns::Foo<int>::bar(int)",
            "x",
        ];
        for width in 0..60 {
            let names: Vec<(&str, usize)> = all.iter().map(|n| (*n, width)).collect();
            for f in fit_names(&names) {
                assert!(f.text.width() <= width, "{width}: {:?}", f.text);
            }
        }
        // The same name twice (two modules' functions) is left as it is;
        // rows each have their own width.
        let f = fit_names(&[(&sphere, 30), (&sphere, 30), (&plain, 50)]);
        assert_eq!(f[0].text, f[1].text);
        assert_eq!(f[2].text, fit_name(&plain, 50));
        assert!(f.iter().all(|f| f.text.width() <= 50));
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
            (f.text.as_str(), f.position(3), f.position(5), f.position(0)),
            ("…m(x)", Some(1), Some(3), None)
        );
        let f = fit_cut("ns::F<int>::g(long x)", 16, Cut::Name);
        assert_eq!(f.text, "ns::F<…>::g(…)");
        let shown: Vec<Option<usize>> = [4, 6, 12, 14, 20].map(|i| f.position(i)).to_vec();
        assert_eq!(shown, [Some(4), None, Some(10), None, Some(13)]);
    }
}
