//! The warning budget: a file with a million bad records must not become a
//! million warnings (memory, and a list nobody can read). The first
//! [`KEPT`] warnings are kept whole, with their places; after that each
//! warning only counts towards its kind, and the finished list ends with
//! one summary warning per kind: how many more, where the first and last
//! of them stood, and the first one's message. Nothing is dropped silently.
//!
//! A warning's kind is its message with numbers and quoted text masked, so
//! "line skipped: time 3.5 is before 4.0" and "… 7.1 is before 9.0" count
//! together. Kinds are bounded too ([`KINDS`]); any beyond share one.

use super::warning::{Place, Warning};
use rustc_hash::FxHashMap;

/// Warnings kept whole, with their places.
pub const KEPT: usize = 1000;
/// Distinct kinds counted after that; later kinds count as one.
const KINDS: usize = 64;
const OTHER: &str = "(other kinds)";

/// The warnings of one load: the first [`KEPT`] kept whole, the rest counted by
/// kind.
#[derive(Debug, Default)]
pub struct Budget {
    kept: Vec<Warning>,
    over: FxHashMap<String, Overflow>,
}

/// Warnings of one kind past the budget.
#[derive(Debug)]
struct Overflow {
    count: u64,
    first: Warning,
    last: Place,
    /// Arrival order, so the summaries come out in a stable order.
    order: usize,
}

impl Budget {
    /// Keeps `w` whole while fewer than [`KEPT`] are, else counts it towards
    /// its kind.
    pub fn push(&mut self, w: Warning) {
        if self.kept.len() < KEPT {
            self.kept.push(w);
            return;
        }
        let last = w.place.clone();
        self.push_counted(w, 1, last);
    }

    /// Warnings a parallel worker already counted by kind ([`Skips`]): they
    /// come after every warning pushed before, so they join the overflow.
    pub fn push_counted(&mut self, first: Warning, count: u64, last: Place) {
        let mut kind = kind_of(&first.message);
        if !self.over.contains_key(&kind) && self.over.len() >= KINDS {
            kind = OTHER.to_string();
        }
        let order = self.over.len();
        let entry = self.over.entry(kind).or_insert_with(|| Overflow {
            count: 0,
            first,
            last: last.clone(),
            order,
        });
        entry.count += count;
        entry.last = last;
    }

    /// The kept warnings in input order, then a summary per kind over the
    /// budget.
    pub fn finish(self) -> Vec<Warning> {
        let mut out = self.kept;
        // Loaders find some defects only later (a short stack when the next
        // record arrives); reports list warnings in input order.
        out.sort_by(|a, b| (a.source, &a.place).cmp(&(b.source, &b.place)));
        let mut over: Vec<Overflow> = self.over.into_values().collect();
        over.sort_by_key(|o| o.order);
        out.extend(over.into_iter().map(summary));
        out
    }
}

/// A parsing worker's skipped records for one chunk, in the budget's
/// shape: the first [`KEPT`] whole, the rest counted by kind. A chunk of a
/// file made of bad records then holds a thousand messages, not a message
/// a line, however many chunks are in flight.
#[derive(Debug, Default)]
pub struct Skips {
    /// (place, why) in file order.
    pub whole: Vec<(u64, String)>,
    /// Past `whole`, in order of each kind's first record.
    pub counted: Vec<Counted>,
    index: FxHashMap<String, usize>,
}

/// Skipped records of one kind past a chunk's [`KEPT`] whole ones.
#[derive(Debug)]
pub struct Counted {
    /// The first of them: (place, why).
    pub first: (u64, String),
    /// The place of the last of them.
    pub last: u64,
    /// How many there were, the first included.
    pub count: u64,
}

impl Skips {
    /// A record skipped at `at` for `why`: kept whole while fewer than [`KEPT`]
    /// are, else counted by kind.
    pub fn push(&mut self, at: u64, why: String) {
        if self.whole.len() < KEPT {
            self.whole.push((at, why));
            return;
        }
        let mut kind = kind_of(&why);
        if !self.index.contains_key(&kind) && self.index.len() >= KINDS {
            kind = OTHER.to_string();
        }
        let i = *self.index.entry(kind).or_insert_with(|| {
            self.counted.push(Counted {
                first: (at, why),
                last: at,
                count: 0,
            });
            self.counted.len() - 1
        });
        let c = &mut self.counted[i];
        c.count += 1;
        c.last = at;
    }
}

fn summary(o: Overflow) -> Warning {
    let message = format!(
        "{} more warnings of this kind, from {} to {}, not listed one by one (only the first {KEPT} warnings are); the first: {}",
        o.count, o.first.place, o.last, o.first.message
    );
    Warning {
        source: o.first.source,
        place: o.first.place,
        message,
    }
}

/// The message with digit runs as `N` and quoted text as `"…"`.
fn kind_of(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut chars = message.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '0'..='9' => {
                while chars.next_if(|d| d.is_ascii_digit() || *d == '.').is_some() {}
                out.push('N');
            }
            '"' => {
                while chars.next_if(|&d| d != '"').is_some() {}
                chars.next();
                out.push_str("\"…\"");
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warning(line: u64, message: &str) -> Warning {
        Warning {
            source: 0,
            place: Place::Line(line),
            message: message.to_string(),
        }
    }

    #[test]
    fn numbers_and_quotes_do_not_make_a_new_kind() {
        assert_eq!(
            kind_of(r#"time 3.5 is before 4.0 in "FN12""#),
            kind_of(r#"time 7 is before 19.25 in "x""#)
        );
        assert_ne!(kind_of("unknown op"), kind_of("bad time"));
    }

    #[test]
    fn past_the_budget_warnings_are_counted_per_kind_with_places() {
        let mut b = Budget::default();
        let n = KEPT as u64 + 2500;
        for line in 1..=n {
            let msg = if line % 2 == 0 {
                "bad time 1"
            } else {
                "unknown op \"x\""
            };
            b.push(warning(line, msg));
        }
        let out = b.finish();
        assert_eq!(out.len(), KEPT + 2);
        assert_eq!(out[KEPT - 1].place, Place::Line(KEPT as u64));
        let first_over = KEPT as u64 + 1;
        assert_eq!(out[KEPT].place, Place::Line(first_over));
        assert!(
            out[KEPT].message.starts_with(&format!(
                "1250 more warnings of this kind, from line {first_over} to line {}",
                n - 1
            )),
            "{}",
            out[KEPT].message
        );
        assert!(out[KEPT].message.ends_with("the first: unknown op \"x\""));
        assert!(out[KEPT + 1].message.starts_with("1250 more"));
        assert!(out[KEPT + 1].message.ends_with(&format!("to line {n}, not listed one by one (only the first {KEPT} warnings are); the first: bad time 1")));
    }

    #[test]
    fn counted_skips_give_the_same_list_as_warnings_one_by_one() {
        let why = |i: u64| format!("bad {} in \"{}\"", i, i % 3);
        let mut one_by_one = Budget::default();
        let mut skips = Skips::default();
        for i in 0..3000 {
            one_by_one.push(warning(i, &why(i)));
            skips.push(i, why(i));
        }
        let mut counted = Budget::default();
        for (at, w) in skips.whole {
            counted.push(warning(at, &w));
        }
        for c in skips.counted {
            counted.push_counted(warning(c.first.0, &c.first.1), c.count, Place::Line(c.last));
        }
        assert_eq!(counted.finish(), one_by_one.finish());
    }

    #[test]
    fn kinds_are_bounded_too() {
        let mut b = Budget::default();
        for i in 0..KEPT + 500 {
            let letter = char::from(b'a' + (i % 26) as u8);
            let word: String = std::iter::repeat_n(letter, 1 + i % 7).collect();
            b.push(warning(i as u64, &format!("kind {word}")));
        }
        let out = b.finish();
        assert!(out.len() <= KEPT + KINDS + 1);
        let counted: u64 = out[KEPT..]
            .iter()
            .map(|w| {
                w.message
                    .split(' ')
                    .next()
                    .and_then(|n| n.parse::<u64>().ok())
                    .unwrap_or(0)
            })
            .sum();
        assert_eq!(counted, 500);
    }
}
