//! The warning budget: a file with a million bad records must not become a
//! million warnings (memory, and a list nobody can read). The first
//! [`KEPT`] warnings are kept whole, with their places; after that each
//! warning only counts towards its kind, and the finished list ends with
//! one summary warning per kind: how many more, where the first and last
//! of them stood, and the first one's message. Nothing is dropped silently.
//!
//! A warning's kind is its [`WarningKind`], so "time 3.5 is before 4.0"
//! and "… 7.1 is before 9.0" count together, and there are only as many
//! summaries as there are kinds.

use super::warning::{Place, Warning, WarningKind};
use rustc_hash::FxHashMap;

/// Warnings kept whole, with their places.
pub const KEPT: usize = 1000;

/// The warnings of one load: the first [`KEPT`] kept whole, the rest counted by
/// kind.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    kept: Vec<Warning>,
    over: FxHashMap<WarningKind, Overflow>,
}

/// Warnings of one kind past the budget.
#[derive(Clone, Debug)]
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
        let order = self.over.len();
        let entry = self.over.entry(first.kind).or_insert_with(|| Overflow {
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
    /// In file order.
    pub whole: Vec<Skip>,
    /// Past `whole`, in order of each kind's first record.
    pub counted: Vec<Counted>,
    index: FxHashMap<WarningKind, usize>,
}

/// One skipped record.
#[derive(Debug)]
pub struct Skip {
    /// Where, as the worker knows it (a line's index in its chunk, or an
    /// offset).
    pub at: u64,
    /// What is wrong with it.
    pub kind: WarningKind,
    /// The same in words, for the warning's message.
    pub why: String,
}

/// Skipped records of one kind past the first [`KEPT`].
#[derive(Debug)]
pub struct Counted {
    /// The first of them, whole.
    pub first: Skip,
    /// Where the last of them is.
    pub last: u64,
    /// How many there are, the first included.
    pub count: u64,
}

impl Skips {
    /// A record skipped at `at` (in file order), of `kind`, for `why`.
    pub fn push(&mut self, at: u64, kind: WarningKind, why: String) {
        let skip = Skip { at, kind, why };
        if self.whole.len() < KEPT {
            self.whole.push(skip);
            return;
        }
        let i = *self.index.entry(kind).or_insert_with(|| {
            self.counted.push(Counted {
                first: skip,
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
        kind: o.first.kind,
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warning(line: u64, kind: WarningKind, message: &str) -> Warning {
        Warning {
            source: 0,
            place: Place::Line(line),
            kind,
            message: message.to_string(),
        }
    }

    /// Past the budget, warnings of one kind are one summary whatever
    /// their words, and two kinds are two summaries even in the same words.
    #[test]
    fn a_warnings_kind_is_its_kind_not_its_words() {
        let mut b = Budget::default();
        for line in 0..KEPT as u64 {
            b.push(warning(line, WarningKind::LineTooLong, "kept"));
        }
        let over = [
            (
                WarningKind::TimeBackwards,
                r#"time 3.5 is before 4.0 in "FN12""#,
            ),
            (WarningKind::TimeBackwards, "a time before the clock"),
            (WarningKind::NotANumber, "a time before the clock"),
        ];
        for (i, (kind, message)) in over.into_iter().enumerate() {
            b.push(warning(KEPT as u64 + i as u64, kind, message));
        }
        let out = b.finish();
        let summaries: Vec<_> = out[KEPT..].iter().map(|w| w.kind).collect();
        assert_eq!(
            summaries,
            [WarningKind::TimeBackwards, WarningKind::NotANumber]
        );
        assert!(
            out[KEPT]
                .message
                .starts_with("2 more warnings of this kind")
        );
    }

    #[test]
    fn past_the_budget_warnings_are_counted_per_kind_with_places() {
        let mut b = Budget::default();
        let n = KEPT as u64 + 2500;
        for line in 1..=n {
            let (kind, msg) = if line % 2 == 0 {
                (WarningKind::NotANumber, "bad time 1")
            } else {
                (WarningKind::UnknownOp, "unknown op \"x\"")
            };
            b.push(warning(line, kind, msg));
        }
        let out = b.finish();
        assert_eq!(out.len(), KEPT + 2);
        assert_eq!(out[KEPT - 1].place, Place::Line(KEPT as u64));
        let first_over = KEPT as u64 + 1;
        assert_eq!(out[KEPT].place, Place::Line(first_over));
        assert_eq!(out[KEPT].kind, WarningKind::UnknownOp);
        assert!(
            out[KEPT].message.starts_with(&format!(
                "1250 more warnings of this kind, from line {first_over} to line {}",
                n - 1
            )),
            "{}",
            out[KEPT].message
        );
        assert!(out[KEPT].message.ends_with("the first: unknown op \"x\""));
        assert_eq!(out[KEPT + 1].kind, WarningKind::NotANumber);
        assert!(out[KEPT + 1].message.starts_with("1250 more"));
        assert!(out[KEPT + 1].message.ends_with(&format!("to line {n}, not listed one by one (only the first {KEPT} warnings are); the first: bad time 1")));
    }

    #[test]
    fn counted_skips_give_the_same_list_as_warnings_one_by_one() {
        let kind = |i: u64| WarningKind::ALL[(i % 3) as usize];
        let why = |i: u64| format!("bad {} in \"{}\"", i, i % 3);
        let mut one_by_one = Budget::default();
        let mut skips = Skips::default();
        for i in 0..3000 {
            one_by_one.push(warning(i, kind(i), &why(i)));
            skips.push(i, kind(i), why(i));
        }
        let mut counted = Budget::default();
        for s in skips.whole {
            counted.push(warning(s.at, s.kind, &s.why));
        }
        for c in skips.counted {
            let first = warning(c.first.at, c.first.kind, &c.first.why);
            counted.push_counted(first, c.count, Place::Line(c.last));
        }
        assert_eq!(counted.finish(), one_by_one.finish());
    }

    #[test]
    fn kinds_are_bounded_too() {
        let mut b = Budget::default();
        for i in 0..KEPT + 500 {
            let letter = char::from(b'a' + (i % 26) as u8);
            let word: String = std::iter::repeat_n(letter, 1 + i % 7).collect();
            let kind = WarningKind::ALL[i % WarningKind::ALL.len()];
            b.push(warning(i as u64, kind, &format!("kind {word}")));
        }
        let out = b.finish();
        assert!(out.len() <= KEPT + WarningKind::ALL.len());
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
