//! A trace record decoded from either encoding, and the trace columns.

use std::borrow::Cow;

/// The trace fields of formats.md § xpp, in their DELDBE order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Col {
    Thread,
    Time,
    Op,
    Call,
    Line,
    Params,
}

impl Col {
    /// Recognises a field name (case-insensitive) by the spec's aliases.
    pub(super) fn from_name(name: &str) -> Option<Col> {
        let n = name.trim().to_ascii_uppercase();
        Some(match n.as_str() {
            "THREAD" | "THREADID" | "THREAD_ID" | "TID" => Col::Thread,
            "TIME" | "TIMELINE" | "MSEC" | "MS" => Col::Time,
            "OP" | "OPERATION" => Col::Op,
            "CALL" | "FUNC" | "FUNCTION" | "NAME" | "SYMBOL" | "PROC" => Col::Call,
            "LINE" | "LINENO" => Col::Line,
            "PARAM" | "PARAMS" | "PARAMETERS" | "ARGS" => Col::Params,
            _ => return None,
        })
    }

    /// Parses `--columns thread,time,op,call,line,params` (any order).
    pub(super) fn parse_list(list: &str) -> Result<Vec<Col>, String> {
        let cols: Vec<Col> = list
            .split(',')
            .map(|n| {
                Col::from_name(n)
                    .ok_or_else(|| format!("unknown column {:?} in --columns", n.trim()))
            })
            .collect::<Result<_, _>>()?;
        for need in [Col::Op, Col::Call] {
            if !cols.contains(&need) {
                return Err(format!("--columns needs an {need:?} column").to_lowercase());
            }
        }
        Ok(cols)
    }
}

/// One trace event as read from the file.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Row<'a> {
    pub thread: Option<u64>,
    pub time: Option<f64>,
    pub op: Cow<'a, str>,
    pub call: Cow<'a, str>,
    pub line: Option<u32>,
    pub params: Option<Cow<'a, str>>,
}

/// A number field: blank is none, anything else must parse.
pub(super) fn number(s: &str) -> Result<Option<f64>, ()> {
    let s = s.trim();
    if s.is_empty() {
        return Ok(None);
    }
    s.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
        .map(Some)
        .ok_or(())
}

/// A whole non-negative number that fits `T`, from text or a float field.
pub(super) fn whole<T: TryFrom<u64>>(x: Option<f64>) -> Option<T> {
    let x = x?;
    (x >= 0.0 && x.fract() == 0.0 && x <= u64::MAX as f64).then(|| T::try_from(x as u64).ok())?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_and_column_lists() {
        assert_eq!(Col::from_name(" threadid "), Some(Col::Thread));
        assert_eq!(Col::from_name("Symbol"), Some(Col::Call));
        assert_eq!(Col::from_name("colour"), None);
        assert_eq!(Col::parse_list("op,call"), Ok(vec![Col::Op, Col::Call]));
        assert!(Col::parse_list("thread,time,call").is_err());
        assert!(Col::parse_list("thread,when,op,call").is_err());
    }

    #[test]
    fn numbers() {
        assert_eq!(number(" 12.5 "), Ok(Some(12.5)));
        assert_eq!(number("   "), Ok(None));
        assert_eq!(number("x"), Err(()));
        assert_eq!(whole::<u32>(Some(12.0)), Some(12));
        assert_eq!(whole::<u32>(Some(1.5)), None);
        assert_eq!(whole::<u32>(Some(-1.0)), None);
    }
}
