//! Numbers as Visual Studio writes them in CSV reports: `"2,893,824"`,
//! `"18,160.51"`, `91.25`, and with a comma as the decimal mark in some
//! locales (`"0,04"`).

/// formats.md: in a number holding both `,` and `.`, the later one is the
/// decimal mark; a number holding only `,` is grouped thousands when each
/// group after the first has three digits, else `,` is its decimal mark.
/// Blank is `Ok(None)`; anything else that is no number is an error.
pub(super) fn parse(s: &str) -> Result<Option<f64>, ()> {
    let s = s.trim();
    if s.is_empty() {
        return Ok(None);
    }
    let (comma, dot) = (s.rfind(','), s.rfind('.'));
    let plain: String = match (comma, dot) {
        (Some(c), Some(d)) if c > d => s.replace('.', "").replace(',', "."),
        (Some(_), Some(_)) => s.replace(',', ""),
        (Some(_), None) => {
            let mut groups = s.split(',');
            let head = groups.next().unwrap_or("");
            let rest: Vec<&str> = groups.collect();
            if !head.is_empty() && rest.iter().all(|g| g.len() == 3) {
                s.replace(',', "")
            } else if rest.len() == 1 {
                s.replace(',', ".")
            } else {
                return Err(());
            }
        }
        (None, _) => s.to_string(),
    };
    let ok = plain
        .bytes()
        .all(|b| b.is_ascii_digit() || b == b'.' || b == b'-');
    match plain.parse::<f64>() {
        Ok(x) if ok && x.is_finite() => Ok(Some(x)),
        _ => Err(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_conventions_and_thousands() {
        assert_eq!(parse("2,893,824"), Ok(Some(2_893_824.0)));
        assert_eq!(parse("18,160.51"), Ok(Some(18_160.51)));
        assert_eq!(parse("18.160,51"), Ok(Some(18_160.51)));
        assert_eq!(parse("0,04"), Ok(Some(0.04)));
        assert_eq!(parse("1,5"), Ok(Some(1.5)));
        assert_eq!(parse("91.25"), Ok(Some(91.25)));
        assert_eq!(parse(" 0 "), Ok(Some(0.0)));
        assert_eq!(parse(""), Ok(None));
        assert_eq!(parse("x"), Err(()));
        assert_eq!(parse("1,2,3"), Err(()));
        assert_eq!(parse("nan"), Err(()));
    }
}
