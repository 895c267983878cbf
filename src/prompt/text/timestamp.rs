//! RFC 3339 timestamps as memory entries carry them (SPEC §6.5, §6.6), and
//! the `YYYY-MM-DD` dates of the env block (SPEC §4.3, §4.5).
//!
//! The grammar is read here, strictly; the calendar is jiff's civil one
//! (never its clock: the domain does not read the time). An instant is kept
//! as its civil date and time in UTC: jiff's own `Timestamp` ends about a
//! day before 9999-12-31T23:59:59Z, which memory entries may carry.
//!
//! Choices the spec leaves open: `t`, `z` and a space separator are
//! accepted, as RFC 3339 allows; a fraction may have any number of digits
//! (those past nanoseconds are dropped); an offset is `Z` or `±HH:MM` up to
//! `±23:59`; leap seconds are not accepted; an instant outside years
//! 0000–9999 in UTC is not a timestamp.

use jiff::SignedDuration;
use jiff::civil::{Date, DateTime, Time};

/// An instant read from an RFC 3339 timestamp, ordered in time whatever
/// offset it was written with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(DateTime);

impl Timestamp {
    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` (`t`, `z` and a
    /// space separator accepted; leap seconds are not). Returns `None` for
    /// anything else, including an instant outside years 0000–9999 in UTC.
    pub fn parse_rfc3339(s: &str) -> Option<Self> {
        let b = s.as_bytes();
        let punct = |at: usize, expected: &[u8]| b.get(at).is_some_and(|c| expected.contains(c));
        let date = date_at_start(b)?;
        if !(punct(10, b"Tt ") && punct(13, b":") && punct(16, b":")) {
            return None;
        }
        let (hour, minute, second) = (two_digits(b, 11)?, two_digits(b, 14)?, two_digits(b, 17)?);
        let mut at = 19;
        let mut nanos = 0i32;
        if punct(at, b".") {
            at += 1;
            let start = at;
            while let Some(digit) = b.get(at).filter(|c| c.is_ascii_digit()) {
                if at - start < 9 {
                    nanos = nanos * 10 + i32::from(digit - b'0');
                }
                at += 1;
            }
            let kept = (at - start).min(9);
            if kept == 0 {
                return None;
            }
            for _ in kept..9 {
                nanos *= 10;
            }
        }
        let offset_seconds: i64 = match b.get(at)? {
            b'Z' | b'z' if at + 1 == b.len() => 0,
            sign @ (b'+' | b'-') if at + 6 == b.len() && punct(at + 3, b":") => {
                let (hours, minutes) = (two_digits(b, at + 1)?, two_digits(b, at + 4)?);
                if hours > 23 || minutes > 59 {
                    return None;
                }
                let magnitude = i64::from(hours) * 3600 + i64::from(minutes) * 60;
                if *sign == b'+' { magnitude } else { -magnitude }
            }
            _ => return None,
        };
        let local = date.to_datetime(Time::new(hour, minute, second, nanos).ok()?);
        let utc = local
            .checked_sub(SignedDuration::from_secs(offset_seconds))
            .ok()?;
        (0..=9999).contains(&utc.year()).then_some(Self(utc))
    }

    /// The instant in UTC, `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, the fraction
    /// without trailing zeros and omitted when zero.
    pub fn to_utc_string(&self) -> String {
        format!("{}Z", self.0)
    }
}

/// The date `s` names when it is exactly `YYYY-MM-DD` and a valid
/// (proleptic Gregorian) calendar date.
pub fn parse_date(s: &str) -> Option<Date> {
    if s.len() != 10 {
        return None;
    }
    date_at_start(s.as_bytes())
}

/// The `YYYY-MM-DD` date the bytes start with, if they do.
fn date_at_start(b: &[u8]) -> Option<Date> {
    if !(b.get(4) == Some(&b'-') && b.get(7) == Some(&b'-')) {
        return None;
    }
    let year = i16::from(two_digits(b, 0)?) * 100 + i16::from(two_digits(b, 2)?);
    Date::new(year, two_digits(b, 5)?, two_digits(b, 8)?).ok()
}

/// The number written by the two ASCII digits at `at`.
fn two_digits(b: &[u8], at: usize) -> Option<i8> {
    match b.get(at..at + 2)? {
        [tens @ b'0'..=b'9', ones @ b'0'..=b'9'] => {
            i8::try_from((tens - b'0') * 10 + (ones - b'0')).ok()
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn rfc3339_parses_orders_and_formats_in_utc() {
        let t = |s: &str| Timestamp::parse_rfc3339(s);
        assert_eq!(
            t("2024-03-01T10:00:00+02:00").unwrap().to_utc_string(),
            "2024-03-01T08:00:00Z"
        );
        assert_eq!(
            t("2024-02-29t23:30:00.120-01:00").unwrap().to_utc_string(),
            "2024-03-01T00:30:00.12Z"
        );
        assert_eq!(
            t("1970-01-01 00:00:00.123456789123Z")
                .unwrap()
                .to_utc_string(),
            "1970-01-01T00:00:00.123456789Z"
        );
        assert_eq!(
            t("1969-12-31T23:59:59Z").unwrap().to_utc_string(),
            "1969-12-31T23:59:59Z"
        );
        assert!(t("2024-01-01T00:00:00Z") < t("2024-01-01T00:00:00.5Z"));
        assert!(t("2024-01-01T01:00:00+02:00") < t("2024-01-01T00:00:00Z"));
        for bad in [
            "",
            "2024-01-01",
            "2024-01-01T00:00:00",
            "2023-02-29T00:00:00Z",
            "2024-13-01T00:00:00Z",
            "2024-01-01T24:00:00Z",
            "2024-01-01T00:60:00Z",
            "2024-01-01T00:00:60Z",
            "2024-01-01T00:00:00.Z",
            "2024-01-01T00:00:00+0100",
            "2024-01-01T00:00:00+24:00",
            "2024-01-01T00:00:00Zjunk",
            "0000-01-01T00:00:00+01:00",
            "２０２４-01-01T00:00:00Z",
        ] {
            assert_eq!(t(bad), None, "{bad}");
        }
        // The whole of years 0000–9999 in UTC, and nothing past it.
        assert_eq!(
            t("9999-12-31T23:59:59Z").unwrap().to_utc_string(),
            "9999-12-31T23:59:59Z"
        );
        assert_eq!(
            t("9999-12-31T23:59:59.999999999-00:00")
                .unwrap()
                .to_utc_string(),
            "9999-12-31T23:59:59.999999999Z"
        );
        assert_eq!(
            t("0000-01-01T00:30:00+00:30").unwrap().to_utc_string(),
            "0000-01-01T00:00:00Z"
        );
        assert_eq!(t("9999-12-31T23:59:59-00:01"), None);
    }

    proptest! {
        #[test]
        fn rfc3339_round_trips_through_utc(
            days in -719_528i64..=2_932_896, secs in 0i64..86_400, nanos in 0i32..1_000_000_000
        ) {
            let epoch = DateTime::new(1970, 1, 1, 0, 0, 0, 0).unwrap();
            let since = SignedDuration::new(days * 86_400 + secs, nanos);
            let stamp = Timestamp(epoch.checked_add(since).unwrap());
            let text = stamp.to_utc_string();
            prop_assert_eq!(Timestamp::parse_rfc3339(&text), Some(stamp));
        }
    }
}
