//! RFC 3339 timestamps, as memory entries carry them (SPEC §6.5).

/// An instant read from an RFC 3339 timestamp, ordered in time whatever
/// offset it was written with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp {
    /// Seconds since 1970-01-01T00:00:00Z.
    seconds: i64,
    /// Nanoseconds within the second.
    nanos: u32,
}

impl Timestamp {
    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` (`t`, `z` and a
    /// space separator accepted; leap seconds are not). Returns `None` for
    /// anything else, including an instant outside years 0000–9999 in UTC.
    pub fn parse_rfc3339(s: &str) -> Option<Self> {
        let b = s.as_bytes();
        let digits = |at: usize, len: usize| -> Option<i64> {
            let field = b.get(at..at + len)?;
            field.iter().try_fold(0i64, |acc, &d| {
                d.is_ascii_digit().then(|| acc * 10 + i64::from(d - b'0'))
            })
        };
        let punct = |at: usize, expected: &[u8]| b.get(at).is_some_and(|c| expected.contains(c));
        if !(punct(4, b"-")
            && punct(7, b"-")
            && punct(10, b"Tt ")
            && punct(13, b":")
            && punct(16, b":"))
        {
            return None;
        }
        let (year, month, day) = (digits(0, 4)?, digits(5, 2)?, digits(8, 2)?);
        let (hour, minute, second) = (digits(11, 2)?, digits(14, 2)?, digits(17, 2)?);
        if !(1..=12).contains(&month)
            || day < 1
            || day > days_in_month(year, month)
            || hour > 23
            || minute > 59
            || second > 59
        {
            return None;
        }
        let mut at = 19;
        let mut nanos = 0u32;
        if punct(at, b".") {
            at += 1;
            let start = at;
            while b.get(at).is_some_and(u8::is_ascii_digit) {
                if at - start < 9 {
                    nanos = nanos * 10 + u32::from(b[at] - b'0');
                }
                at += 1;
            }
            let kept = (at - start).min(9);
            if kept == 0 {
                return None;
            }
            nanos *= 10u32.pow(9 - kept as u32);
        }
        let offset_seconds = match b.get(at)? {
            b'Z' | b'z' if at + 1 == b.len() => 0,
            sign @ (b'+' | b'-') if at + 6 == b.len() && punct(at + 3, b":") => {
                let (oh, om) = (digits(at + 1, 2)?, digits(at + 4, 2)?);
                if oh > 23 || om > 59 {
                    return None;
                }
                let magnitude = oh * 3600 + om * 60;
                if *sign == b'+' { magnitude } else { -magnitude }
            }
            _ => return None,
        };
        let seconds =
            days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second
                - offset_seconds;
        let (utc_year, _, _) = civil_from_days(seconds.div_euclid(86_400));
        (0..=9999)
            .contains(&utc_year)
            .then_some(Self { seconds, nanos })
    }

    /// The instant in UTC, `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, the fraction
    /// without trailing zeros and omitted when zero.
    pub fn to_utc_string(&self) -> String {
        let (year, month, day) = civil_from_days(self.seconds.div_euclid(86_400));
        let in_day = self.seconds.rem_euclid(86_400);
        let mut out = format!(
            "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}",
            in_day / 3600,
            in_day % 3600 / 60,
            in_day % 60
        );
        if self.nanos > 0 {
            let fraction = format!("{:09}", self.nanos);
            out.push('.');
            out.push_str(fraction.trim_end_matches('0'));
        }
        out.push('Z');
        out
    }
}

fn is_leap_year(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap_year(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's
/// algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let shifted_month = (month + 9) % 12;
    let day_of_year = (153 * shifted_month + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The date of a day count since 1970-01-01: the inverse of
/// [`days_from_civil`].
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
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
        assert_eq!(
            t("9999-12-31T23:59:59Z").unwrap().to_utc_string(),
            "9999-12-31T23:59:59Z"
        );
    }

    proptest! {
        #[test]
        fn rfc3339_round_trips_through_utc(
            days in -719_528i64..=2_932_896, secs in 0i64..86_400, nanos in 0u32..1_000_000_000
        ) {
            let stamp = Timestamp { seconds: days * 86_400 + secs, nanos };
            let text = stamp.to_utc_string();
            prop_assert_eq!(Timestamp::parse_rfc3339(&text), Some(stamp));
        }
    }
}
