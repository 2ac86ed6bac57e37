//! The time formats of the `[%emt]` and `[%clk]` comment commands.
//!
//! `[%emt 0.532]`: a team's thinking time for one decision, in seconds with milliseconds.
//! `[%clk 0:09:58]`: the game clock left in the quarter, as hours:minutes:seconds, with
//! `.mmm` only when the milliseconds are not zero, so that whole seconds read as in PGN and
//! no millisecond is lost. The reader takes either form for either command.

/// Seconds with three decimals: `0.532`.
pub(crate) fn format_emt(ms: u64) -> String {
    format!("{}.{:03}", ms / 1000, ms % 1000)
}

/// `H:MM:SS`, then `.mmm` when the milliseconds are not zero.
pub(crate) fn format_clk(ms: u64) -> String {
    let s = ms / 1000;
    let (h, m, sec, frac) = (s / 3600, s / 60 % 60, s % 60, ms % 1000);
    if frac == 0 {
        format!("{h}:{m:02}:{sec:02}")
    } else {
        format!("{h}:{m:02}:{sec:02}.{frac:03}")
    }
}

/// Parses `S`, `S.fff`, `M:SS(.fff)` or `H:MM:SS(.fff)` into milliseconds. Digits beyond
/// the third decimal are dropped (some tools write more); anything else, including a
/// value too large for a `u64` of milliseconds, is `None`.
pub(crate) fn parse_time(text: &str) -> Option<u64> {
    let (whole, frac) = match text.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (text, None),
    };
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let mut ms: u64 = 0;
    if let Some(f) = frac {
        if !all_digits(f) {
            return None;
        }
        for (i, b) in f.bytes().chain(std::iter::repeat(b'0')).take(3).enumerate() {
            ms += u64::from(b - b'0') * [100, 10, 1][i];
        }
    }
    let parts: Vec<&str> = whole.split(':').collect();
    if parts.len() > 3 {
        return None;
    }
    let mut seconds: u64 = 0;
    for (i, part) in parts.iter().enumerate() {
        if !all_digits(part) {
            return None;
        }
        let value: u64 = part.parse().ok()?;
        // Minutes and seconds after a colon stay below 60.
        if i > 0 && value >= 60 {
            return None;
        }
        seconds = seconds.checked_mul(60)?.checked_add(value)?;
    }
    seconds.checked_mul(1000)?.checked_add(ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(format_emt(532), "0.532");
        assert_eq!(format_emt(61_000), "61.000");
        assert_eq!(format_clk(598_000), "0:09:58");
        assert_eq!(format_clk(3_723_004), "1:02:03.004");
        assert_eq!(format_clk(0), "0:00:00");
    }

    #[test]
    fn parse_inverts_format() {
        for ms in [0, 1, 532, 999, 1000, 59_999, 598_000, 3_723_004, 86_400_000] {
            assert_eq!(parse_time(&format_emt(ms)), Some(ms));
            assert_eq!(parse_time(&format_clk(ms)), Some(ms));
        }
    }

    #[test]
    fn parse_is_lenient_on_form_and_strict_on_junk() {
        assert_eq!(parse_time("5"), Some(5000));
        assert_eq!(parse_time("0:00:07.1"), Some(7100));
        assert_eq!(parse_time("1.23456"), Some(1234));
        assert_eq!(parse_time("2:05"), Some(125_000));
        for bad in [
            "",
            ".",
            "1.",
            ".5",
            "a",
            "1:60",
            "1:2:3:4",
            "-1",
            "1.2.3",
            "0:0x",
            "1 2",
            "99999999999999999999",
        ] {
            assert_eq!(parse_time(bad), None, "{bad:?}");
        }
        assert_eq!(parse_time("18446744073709551615"), None);
    }
}

/// The UTC calendar date (year, month, day) of a Unix time in seconds.
pub fn civil_date(unix_secs: u64) -> (i64, u32, u32) {
    let days = (unix_secs / 86_400) as i64;
    // Civil-from-days (proleptic Gregorian), after Howard Hinnant's public-domain algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m as u32, d as u32)
}

#[cfg(test)]
mod civil_date_tests {
    #[test]
    fn known_dates() {
        assert_eq!(super::civil_date(0), (1970, 1, 1));
        // 2026-11-22 04:16:28 UTC.
        assert_eq!(super::civil_date(1_795_320_988), (2026, 11, 22));
        // A leap day.
        assert_eq!(super::civil_date(951_782_400), (2000, 2, 29));
    }
}
