//! Byte-level readers the loaders' fast paths share.
//!
//! A fast path reads the common shape of a record straight from its bytes
//! and gives up on anything else, leaving it to the general parser that
//! defines the format. What these readers accept they read to the value
//! `str::parse` gives for the same text, bit for bit: whole numbers of a
//! bounded number of digits, decimals of at most 15 digits, and names of
//! printable ASCII (which are their own text under any decoding).

/// 1 to `max` ASCII digits as a number (`max` at most 19, so it fits) and
/// what follows them.
#[inline]
pub(crate) fn digits(s: &[u8], max: usize) -> Option<(u64, &[u8])> {
    let mut value = 0u64;
    let mut n = 0;
    while let Some(d) = s.get(n).map(|b| b.wrapping_sub(b'0')).filter(|&d| d < 10) {
        if n == max {
            return None;
        }
        value = value * 10 + u64::from(d);
        n += 1;
    }
    (n > 0).then(|| (value, &s[n..]))
}

/// `123` or `123.456`, and what follows. The value is the integer of all
/// the digits divided by a power of ten; both are exact in an f64 while
/// the digits are at most 15 and the decimals at most 22, so the one
/// rounding of the division gives the correctly rounded value
/// `str::parse` gives.
#[inline(always)]
pub(crate) fn decimal(s: &[u8]) -> Option<(f64, &[u8])> {
    match decimal_words(s) {
        Some(read) => Some(read),
        None => decimal_bytes(s),
    }
}

/// `decimal` of the common short shape, whole part and decimals under
/// eight digits each, eight bytes at a time: a trace's times are most of
/// the digits its workers read. `None` for anything else (a caller then
/// reads byte by byte), and when eight bytes from the number's start or
/// from its decimals' are not all in `s`.
#[inline(always)]
fn decimal_words(s: &[u8]) -> Option<(f64, &[u8])> {
    let head = word(s.get(..8)?);
    let run = digit_run(head);
    if run == 0 || run == 8 {
        return None;
    }
    let whole = run_value(head, run);
    if s[run] != b'.' {
        return Some((whole as f64, &s[run..]));
    }
    let at = run + 1;
    let frac = word(s.get(at..at + 8)?);
    let k = digit_run(frac);
    if k == 0 || k == 8 {
        return None;
    }
    let mantissa = whole * POW10_INT[k] + run_value(frac, k);
    Some((mantissa as f64 / POW10[k], &s[at + k..]))
}

/// How many bytes at the start of `w` (first byte lowest) are ASCII
/// digits. A byte is one when its high nibble is 3 and adding 6 leaves it
/// so; a carry out of a lane only reaches lanes after the first non-digit.
#[inline(always)]
fn digit_run(w: u64) -> usize {
    const HIGH: u64 = 0xF0F0_F0F0_F0F0_F0F0;
    const THREES: u64 = 0x3030_3030_3030_3030;
    let high = (w & HIGH) ^ THREES;
    let over = (w.wrapping_add(0x0606_0606_0606_0606) & HIGH) ^ THREES;
    ((high | over).trailing_zeros() / 8) as usize
}

/// The number the first `run` bytes of `w` (1 to 7 digits) write: moved
/// to the top of the word behind zero lanes (leading zeros), then lanes
/// are paired into 2, 4 and 8 digit values by three multiplications.
#[inline(always)]
fn run_value(w: u64, run: usize) -> u64 {
    let v = (w << (8 * (8 - run))) & 0x0F0F_0F0F_0F0F_0F0F;
    let v = v.wrapping_mul(10 * 256 + 1) >> 8;
    let v = (v & 0x00FF_00FF_00FF_00FF).wrapping_mul(100 * 65536 + 1) >> 16;
    (v & 0x0000_FFFF_0000_FFFF).wrapping_mul(10000 * (1 << 32) + 1) >> 32
}

/// `decimal`, a byte at a time.
#[inline]
fn decimal_bytes(s: &[u8]) -> Option<(f64, &[u8])> {
    let (whole, rest) = digits(s, 15)?;
    let Some(frac) = rest.strip_prefix(b".") else {
        return Some((whole as f64, rest));
    };
    let int_digits = s.len() - rest.len();
    let (decimals, tail) = digits(frac, 15 - int_digits.min(15))?;
    let k = frac.len() - tail.len();
    let mantissa = whole * POW10_INT[k] + decimals;
    Some((mantissa as f64 / POW10[k], tail))
}

/// Powers of ten as integers, to scale the whole part.
const POW10_INT: [u64; 16] = {
    let mut p = [1u64; 16];
    let mut i = 1;
    while i < 16 {
        p[i] = p[i - 1] * 10;
        i += 1;
    }
    p
};

/// Powers of ten, each exact in an f64.
pub(crate) const POW10: [f64; 16] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

/// Whether every byte of `s` is printable ASCII (0x20 to 0x7E), eight at a
/// time ([`others`]).
#[inline]
pub(crate) fn printable(s: &[u8]) -> bool {
    let mut words = s.chunks_exact(8);
    let words_ok = words.by_ref().all(|w| others(word(w)) == 0);
    words_ok && words.remainder().iter().all(|b| (b' '..0x7F).contains(b))
}

/// How many bytes at the start of `s` are printable ASCII, eight at a time
/// ([`others`]: the lowest flag is the first byte that is not).
#[inline]
pub(crate) fn printable_prefix(s: &[u8]) -> usize {
    let mut at = 0;
    for chunk in s.chunks_exact(8) {
        let flags = others(word(chunk));
        if flags != 0 {
            return at + (flags.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    let tail = &s[at..];
    // Fewer than eight left.
    at + tail
        .iter()
        .position(|b| !(b' '..0x7F).contains(b))
        .unwrap_or(tail.len())
}

/// Where the first byte of `s` that is `a` or `b` or not printable ASCII
/// is, eight bytes at a time; `None` if there is none. A quoted name ends
/// at such a byte, and a worker finds one a record.
#[inline]
pub(crate) fn printable_until(s: &[u8], a: u8, b: u8) -> Option<usize> {
    let (a_lanes, b_lanes) = (u64::from(a) * LANES, u64::from(b) * LANES);
    let mut words = s.chunks_exact(8);
    for (k, chunk) in words.by_ref().enumerate() {
        let w = word(chunk);
        let flags = others(w) | zero_lanes(w ^ a_lanes) | zero_lanes(w ^ b_lanes);
        if flags != 0 {
            return Some(k * 8 + (flags.trailing_zeros() / 8) as usize);
        }
    }
    let at = s.len() - words.remainder().len();
    let stop = |c: &u8| *c == a || *c == b || !(b' '..0x7F).contains(c);
    words.remainder().iter().position(stop).map(|k| at + k)
}

const LANES: u64 = 0x0101_0101_0101_0101;

/// The top bit of each zero byte of `v`, and maybe of bytes after the first
/// zero one (a borrow runs up from it): the first flag is exact.
#[inline]
fn zero_lanes(v: u64) -> u64 {
    v.wrapping_sub(LANES) & !v & (LANES << 7)
}

/// The top bit of each byte of `w` that is not printable ASCII: a byte is
/// below 0x20 or above 0x7E exactly when adding 0x60 or 0x01 to its low
/// seven bits (in its own lane, no carry out of it) sets its top bit, or
/// it has it set already, so each lane's flag is exact.
#[inline]
fn others(w: u64) -> u64 {
    const LOW: u64 = u64::from_le_bytes([0x7F; 8]);
    const TOP: u64 = u64::from_le_bytes([0x80; 8]);
    let low = w & LOW;
    let below = !(low + u64::from_le_bytes([0x60; 8]));
    let above = low + u64::from_le_bytes([0x01; 8]);
    (w | below | above) & TOP
}

/// Eight bytes as a little-endian word (the caller gives eight).
#[inline]
pub(crate) fn word(bytes: &[u8]) -> u64 {
    u64::from_le_bytes(bytes.try_into().unwrap_or([0; 8]))
}

/// Inputs for the fast paths' tests.
#[cfg(test)]
pub(crate) mod testing {
    /// Calls `check` with strings of `fill` bytes, shorter and longer than
    /// a word, with each byte value in each place: word-at-a-time checks
    /// must agree with a byte loop on all of them.
    pub(crate) fn each_byte_in_each_place(fill: u8, mut check: impl FnMut(&[u8])) {
        for len in [1, 7, 8, 9, 16, 20] {
            for at in 0..len {
                for b in 0..=255u8 {
                    let mut s = vec![fill; len];
                    s[at] = b;
                    check(&s);
                }
            }
        }
    }

    /// 20,000 decimals of 1 to 15 digits, the point anywhere or nowhere.
    pub(crate) fn random_decimals() -> impl Iterator<Item = String> {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        (0..20_000).map(move |_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let digits = (x % 15 + 1) as usize;
            let value = (x >> 8) % 10u64.pow(digits as u32);
            let text = format!("{value:0digits$}");
            match (x >> 60) as usize % digits {
                0 => text,
                p => format!("{}.{}", &text[..p], &text[p..]),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printable_prefix_agrees_with_a_byte_check() {
        testing::each_byte_in_each_place(b'a', |s| {
            let bytewise = s.iter().position(|c| !(b' '..0x7F).contains(c));
            assert_eq!(printable_prefix(s), bytewise.unwrap_or(s.len()), "{s:?}");
            assert_eq!(printable(s), bytewise.is_none(), "{s:?}");
        });
        assert_eq!(printable_prefix(b""), 0);
        assert_eq!(printable_prefix(b"abc\tdefghijklm\x80"), 3);
    }

    #[test]
    fn printable_until_agrees_with_a_byte_check() {
        for fill in [b'a', b'"', b','] {
            testing::each_byte_in_each_place(fill, |s| {
                let stop = |c: &u8| *c == b'"' || *c == b',' || !(b' '..0x7F).contains(c);
                assert_eq!(
                    printable_until(s, b'"', b','),
                    s.iter().position(stop),
                    "{s:?}"
                );
            });
        }
        assert_eq!(printable_until(b"FN000169\",540", b'"', b','), Some(8));
        assert_eq!(printable_until(b"", b'"', b','), None);
    }

    /// Decimals read eight bytes at a time as byte by byte, bit for bit,
    /// whatever follows them and wherever an odd byte is.
    #[test]
    fn decimals_read_by_words_as_by_bytes() {
        let same = |s: &[u8]| {
            let bits = |r: Option<(f64, &[u8])>| r.map(|(x, rest)| (x.to_bits(), rest.len()));
            assert_eq!(bits(decimal(s)), bits(decimal_bytes(s)), "{s:?}");
        };
        for text in testing::random_decimals() {
            for tail in ["", ",\"i\",\"FN000169\",540\n", "x", ".5,1234567890123456"] {
                same(format!("{text}{tail}").as_bytes());
            }
        }
        for fill in [b'5', b'.'] {
            testing::each_byte_in_each_place(fill, |s| {
                let mut long = s.to_vec();
                long.extend_from_slice(b",\"o\",\"FN\",1234567");
                same(s);
                same(&long);
            });
        }
    }

    #[test]
    fn numbers_read_as_str_parse_reads_them() {
        assert_eq!(digits(b"0042x", 19), Some((42, &b"x"[..])));
        assert_eq!(digits(b"x", 19), None);
        assert_eq!(digits(b"123", 2), None);
        let max = b"9999999999999999999";
        assert_eq!(
            digits(max, 19).map(|d| d.0),
            Some(9_999_999_999_999_999_999)
        );
        for text in [
            "0.038",
            "3",
            "123456.789",
            "999999999999.999",
            "0.00000000000001",
        ] {
            let (x, rest) = decimal(text.as_bytes()).expect(text);
            assert!(rest.is_empty());
            assert_eq!(
                x.to_bits(),
                text.parse::<f64>().map(f64::to_bits).ok().unwrap_or(0)
            );
        }
        for other in ["12.", ".5", "-1", "1234567890123456", "0.30000000000000004"] {
            assert!(
                decimal(other.as_bytes()).is_none_or(|(_, r)| !r.is_empty()),
                "{other}"
            );
        }
    }
}
