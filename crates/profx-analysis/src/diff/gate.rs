//! Conditions that gate a build (`profx diff BASE NEW --fail-if EXPR`,
//! model.md § Comparisons): read with nom, the project's parser crate.
//!
//! ```text
//! condition := what OP bound
//! what      := incl(NAME) | self(NAME) | calls(NAME) | share(NAME) | total
//! OP        := > | >= | < | <=
//! bound     := ±N%            the change, in percent of the base value
//!            | ±N [UNIT]      the change, new − base (UNIT: ms, ticks, hits, calls, pt)
//!            | N [UNIT]       the new run's value itself
//! ```
//!
//! NAME runs to the last `)` before the operator, so a name holding
//! parentheses or an operator needs no quoting (`incl(operator()(int)) >
//! +5%`), and names a function as a query's step does (model.md § Names).
//! `share` is the function's percent of its run's total (the session's
//! time, or its samples), so runs of different length compare; the others
//! compare the values themselves. A function in one run only compares
//! against 0 in the other.

use super::{Comparison, Measure, Metric, Num, Row, Which, delta};
use nom::Parser;
use nom::branch::alt;
use nom::bytes::complete::tag;
use nom::character::complete::{char, digit1, multispace0, one_of};
use nom::combinator::{eof, opt, recognize, value};
use nom::sequence::{pair, preceded, terminated};
use serde::Serialize;

/// A condition as given, parsed.
#[derive(Clone, Debug, PartialEq)]
pub struct Condition {
    text: String,
    what: What,
    op: Op,
    bound: Bound,
}

/// What a condition measures.
#[derive(Clone, Debug, PartialEq)]
enum What {
    /// The run's total (the session's time, its samples).
    Total,
    /// A function's value: its kind and the name as given.
    Of(Kind, String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Incl,
    Excl,
    Calls,
    Share,
}

impl Kind {
    fn word(self) -> &'static str {
        match self {
            Kind::Incl => "incl",
            Kind::Excl => "self",
            Kind::Calls => "calls",
            Kind::Share => "share",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Gt,
    Ge,
    Lt,
    Le,
}

impl Op {
    fn holds(self, x: f64, bound: f64) -> bool {
        match self {
            Op::Gt => x > bound,
            Op::Ge => x >= bound,
            Op::Lt => x < bound,
            Op::Le => x <= bound,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Bound {
    /// `±N%`: the change in percent of the base value.
    Relative(f64),
    /// `±N [UNIT]`: the change, new − base.
    Change(f64, Option<Unit>),
    /// `N [UNIT]`: the new run's value.
    Value(f64, Option<Unit>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unit {
    Ms,
    Ticks,
    Hits,
    Calls,
    Points,
}

impl Unit {
    fn word(self) -> &'static str {
        match self {
            Unit::Ms => "ms",
            Unit::Ticks => "ticks",
            Unit::Hits => "hits",
            Unit::Calls => "calls",
            Unit::Points => "pt",
        }
    }
}

/// Why a condition cannot be asked: a usage error (exit 2).
#[derive(Debug, thiserror::Error, PartialEq)]
#[error("--fail-if {text:?}: {why}")]
pub struct GateError {
    /// The condition as given.
    pub text: String,
    /// What is wrong with it.
    pub why: String,
}

type Res<'a, T> = nom::IResult<&'a str, T>;

fn op(i: &str) -> Res<'_, Op> {
    alt((
        value(Op::Ge, tag(">=")),
        value(Op::Le, tag("<=")),
        value(Op::Gt, tag(">")),
        value(Op::Lt, tag("<")),
    ))
    .parse(i)
}

fn number(i: &str) -> Res<'_, f64> {
    let (rest, text) = recognize(pair(digit1, opt(pair(char('.'), digit1)))).parse(i)?;
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok((rest, x)),
        _ => Err(nom::Err::Error(nom::error::Error::new(
            i,
            nom::error::ErrorKind::Float,
        ))),
    }
}

fn unit(i: &str) -> Res<'_, Unit> {
    alt((
        value(Unit::Ms, tag("ms")),
        value(Unit::Ticks, tag("ticks")),
        value(Unit::Hits, alt((tag("hits"), tag("samples")))),
        value(Unit::Calls, tag("calls")),
        value(Unit::Points, alt((tag("pt"), tag("points")))),
    ))
    .parse(i)
}

fn bound(i: &str) -> Res<'_, Bound> {
    let (i, sign) = opt(one_of("+-")).parse(i)?;
    let (i, n) = number(i)?;
    let signed = match sign {
        Some('-') => -n,
        _ => n,
    };
    let (i, pct) = opt(preceded(multispace0, char('%'))).parse(i)?;
    if pct.is_some() {
        return Ok((i, Bound::Relative(signed)));
    }
    let (i, u) = opt(preceded(multispace0, unit)).parse(i)?;
    Ok((
        i,
        match sign {
            Some(_) => Bound::Change(signed, u),
            None => Bound::Value(n, u),
        },
    ))
}

/// `OP bound` and the end: what follows a condition's name.
fn tail(i: &str) -> Res<'_, (Op, Bound)> {
    let (i, o) = preceded(multispace0, op).parse(i)?;
    let (i, b) = terminated(preceded(multispace0, bound), (multispace0, eof)).parse(i)?;
    Ok((i, (o, b)))
}

fn kind(i: &str) -> Res<'_, Kind> {
    preceded(
        multispace0,
        terminated(
            alt((
                value(Kind::Incl, tag("incl")),
                value(Kind::Excl, tag("self")),
                value(Kind::Calls, tag("calls")),
                value(Kind::Share, tag("share")),
            )),
            (multispace0, char('(')),
        ),
    )
    .parse(i)
}

const GRAMMAR: &str = "write incl|self|calls|share(NAME) or total, then >, >=, < or <=, then ±N% (a change in percent), ±N [ms|ticks|hits|calls|pt] (a change) or N (the new run's value)";

/// Reads one `--fail-if` condition.
pub fn parse_condition(text: &str) -> Result<Condition, GateError> {
    let refuse = |why: String| GateError {
        text: text.to_string(),
        why,
    };
    let total = preceded(
        multispace0,
        tag::<&str, &str, nom::error::Error<&str>>("total"),
    )
    .parse(text);
    let (what, (op, bound)) = if let Ok((rest, _)) = total
        && let Ok((_, t)) = tail(rest)
    {
        (What::Total, t)
    } else if let Ok((rest, k)) = kind(text) {
        // The name runs to the last `)` that a whole `OP bound` follows.
        let found = rest
            .match_indices(')')
            .rev()
            .find_map(|(at, _)| Some((&rest[..at], tail(&rest[at + 1..]).ok()?.1)));
        let Some((name, t)) = found else {
            return Err(refuse(format!(
                "no `) OP bound` ends it after {}(: {GRAMMAR}",
                k.word()
            )));
        };
        if name.is_empty() {
            return Err(refuse(format!("{}() names no function", k.word())));
        }
        (What::Of(k, name.to_string()), t)
    } else {
        return Err(refuse(GRAMMAR.to_string()));
    };
    Ok(Condition {
        text: text.trim().to_string(),
        what,
        op,
        bound,
    })
}

/// What a condition gave: whether it held, and the values it compared
/// (one entry for `total`, one for each function its name names).
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    /// The condition as given.
    pub condition: String,
    /// Whether it held (for some function its name names).
    pub held: bool,
    /// The values compared.
    pub values: Vec<Compared>,
}

/// One comparison a condition made.
#[derive(Clone, Debug, Serialize)]
pub struct Compared {
    /// The function's name (`null` for `total`).
    pub function: Option<String>,
    /// Its module (the new run's, else the base's).
    pub module: Option<String>,
    /// The metric compared (its `--json` key; `total_ms`, `total_samples`
    /// for the run's total).
    pub metric: String,
    /// The base run's value (0 where the function is not in it).
    pub base: f64,
    /// The new run's value (0 where the function is not in it).
    pub new: f64,
    /// new − base.
    pub delta: f64,
    /// The change in percent of base; `null` where base is 0.
    pub change_pct: Option<f64>,
    /// Whether the condition held here.
    pub held: bool,
}

impl Condition {
    /// The condition as given.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Asks the condition of `c`: a usage error where it names no function
    /// of either run, or what this comparison has no value of.
    pub fn ask(&self, c: &Comparison) -> Result<Outcome, GateError> {
        let refuse = |why: String| GateError {
            text: self.text.clone(),
            why,
        };
        let measure = c.measure().ok_or_else(|| {
            refuse("the two runs record no measure in common (times, samples or calls)".into())
        })?;
        let values = match &self.what {
            What::Total => {
                let (b, n) = match (c.total(Which::Base), c.total(Which::New)) {
                    (Some(b), Some(n)) => (b, n),
                    _ => {
                        return Err(refuse(
                            "total: these runs state no total (neither a session's time nor samples)"
                                .into(),
                        ));
                    }
                };
                let key = match measure {
                    Measure::Time => "total_ms",
                    _ => "total_samples",
                };
                self.check_unit(c, measure, Kind::Incl).map_err(refuse)?;
                vec![self.compare(None, key, b, n)]
            }
            What::Of(kind, name) => {
                let metric = metric_of(*kind, measure).ok_or_else(|| {
                    refuse(format!(
                        "{}: these runs' values are calls, which have no {}",
                        kind.word(),
                        match kind {
                            Kind::Share => "share of a total",
                            _ => "exclusive part",
                        }
                    ))
                })?;
                self.check_unit(c, measure, *kind).map_err(refuse)?;
                let rows = c.rows_named(name);
                if rows.is_empty() {
                    let names = c.rows().iter().map(|r| r.name(c));
                    let closest = crate::query::closest_names(names, name);
                    return Err(refuse(format!(
                        "no function of either run is named {:?}{}",
                        profx_model::text::visible(name),
                        crate::query::closest_words(&closest)
                    )));
                }
                let mut out = Vec::new();
                for k in rows {
                    let r = &c.rows()[k];
                    let (b, n) = side_values(c, r, metric).map_err(refuse)?;
                    let module = Some(r.module(c).to_string());
                    let who = Some((r.name(c).to_string(), module));
                    out.push(self.compare(who, metric.key(), b, n));
                }
                out
            }
        };
        Ok(Outcome {
            condition: self.text.clone(),
            held: values.iter().any(|v| v.held),
            values,
        })
    }

    /// A unit given must be the one the compared values are in.
    fn check_unit(&self, c: &Comparison, measure: Measure, kind: Kind) -> Result<(), String> {
        let given = match self.bound {
            Bound::Change(_, Some(u)) | Bound::Value(_, Some(u)) => u,
            _ => return Ok(()),
        };
        let want = match (kind, measure) {
            (Kind::Share, _) => Unit::Points,
            (Kind::Calls, _) | (_, Measure::Calls) => Unit::Calls,
            (_, Measure::Hits) => Unit::Hits,
            (_, Measure::Time) => match c.time_unit() {
                Some(profx_model::TimeUnit::Ticks) => Unit::Ticks,
                _ => Unit::Ms,
            },
        };
        match given == want {
            true => Ok(()),
            false => Err(format!(
                "these values are in {} (a share in points of its run's total), not {}",
                want.word(),
                given.word()
            )),
        }
    }

    fn compare(
        &self,
        who: Option<(String, Option<String>)>,
        key: &str,
        b: Num,
        n: Num,
    ) -> Compared {
        let d = delta(b, n).get();
        let change_pct = match b.get() {
            0.0 => None,
            base => Some(d / base * 100.0),
        };
        let x = match self.bound {
            // Against 0 a function new to the run grew without bound.
            Bound::Relative(_) => change_pct.unwrap_or(match n.get() > 0.0 {
                true => f64::INFINITY,
                false => 0.0,
            }),
            Bound::Change(..) => d,
            Bound::Value(..) => n.get(),
        };
        let bound = match self.bound {
            Bound::Relative(x) | Bound::Change(x, _) | Bound::Value(x, _) => x,
        };
        let (function, module) = match who {
            Some((f, m)) => (Some(f), m),
            None => (None, None),
        };
        Compared {
            function,
            module,
            metric: key.to_string(),
            base: b.get(),
            new: n.get(),
            delta: d,
            change_pct,
            held: self.op.holds(x, bound),
        }
    }
}

fn metric_of(kind: Kind, measure: Measure) -> Option<Metric> {
    match kind {
        Kind::Incl => Some(measure.incl()),
        Kind::Excl => measure.excl(),
        Kind::Calls => Some(Metric::Calls),
        Kind::Share => measure.share(),
    }
}

/// A row's values of `m` on both sides, 0 where the function is not in a
/// run; an error naming the side that records no such value.
fn side_values(c: &Comparison, r: &Row, m: Metric) -> Result<(Num, Num), String> {
    let one = |w: Which| {
        c.value(w, r, m).ok_or_else(|| {
            format!(
                "the {w} run ({}) has no {} for {:?}",
                c.profile(w).format,
                m.key(),
                profx_model::text::visible(r.name(c))
            )
        })
    };
    Ok((one(Which::Base)?, one(Which::New)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> (What, Op, Bound) {
        let c = parse_condition(text).unwrap_or_else(|e| panic!("{e}"));
        (c.what, c.op, c.bound)
    }

    #[test]
    fn the_grammar_reads_each_form() {
        assert_eq!(
            parsed("incl(F) > +10%"),
            (
                What::Of(Kind::Incl, "F".into()),
                Op::Gt,
                Bound::Relative(10.0)
            )
        );
        assert_eq!(
            parsed("self(F)>=-2.5 ms"),
            (
                What::Of(Kind::Excl, "F".into()),
                Op::Ge,
                Bound::Change(-2.5, Some(Unit::Ms))
            )
        );
        assert_eq!(
            parsed("calls(F) < 1000"),
            (
                What::Of(Kind::Calls, "F".into()),
                Op::Lt,
                Bound::Value(1000.0, None)
            )
        );
        assert_eq!(
            parsed("  share(m.obj!F) <= +1.5"),
            (
                What::Of(Kind::Share, "m.obj!F".into()),
                Op::Le,
                Bound::Change(1.5, None)
            )
        );
        assert_eq!(
            parsed("total > +5%"),
            (What::Total, Op::Gt, Bound::Relative(5.0))
        );
    }

    /// The name runs to the last `)` before the operator: parentheses and
    /// operators inside it are its own.
    #[test]
    fn a_name_keeps_its_parentheses_and_operators() {
        assert_eq!(
            parsed("incl(operator()(int)) > +5%").0,
            What::Of(Kind::Incl, "operator()(int)".into())
        );
        assert_eq!(
            parsed("incl(operator>(a) > b) > +5%").0,
            What::Of(Kind::Incl, "operator>(a) > b".into())
        );
        assert_eq!(
            parsed("incl(PriceOrder(struct Order *)) < -1 ms").0,
            What::Of(Kind::Incl, "PriceOrder(struct Order *)".into())
        );
        // A name may itself be `total`.
        assert_eq!(
            parsed("calls(total) > 3").0,
            What::Of(Kind::Calls, "total".into())
        );
    }

    #[test]
    fn a_bad_condition_says_the_grammar() {
        for bad in [
            "",
            "incl F > 10%",
            "incl(F) >",
            "incl(F) > 10%%",
            "incl(F) = 10",
            "mean(F) > 1",
            "incl() > 1",
            "incl(F) > +1e5",
            "incl(F) > inf",
            "incl(F) > 10 furlongs",
            "total > ",
        ] {
            let e = parse_condition(bad).expect_err(bad);
            assert_eq!(e.text, bad);
            assert!(!e.why.is_empty(), "{bad}");
        }
    }
}
