//! `created_at`: a time as `Date.prototype.toISOString` writes it.

/// Milliseconds since the Unix epoch as JavaScript's `new Date(ms).toISOString()`
/// writes them (`YYYY-MM-DDTHH:mm:ss.sssZ`), for years 0 to 9999; fractions of a
/// millisecond are dropped and times outside those years are clamped to them.
///
/// ```
/// use tool_offload_core::workspace::iso8601;
/// assert_eq!(iso8601(0.0), "1970-01-01T00:00:00.000Z");
/// assert_eq!(iso8601(1_795_000_000_123.0), "2026-11-18T11:06:40.123Z");
/// assert_eq!(iso8601(-1.0), "1969-12-31T23:59:59.999Z");
/// ```
pub fn iso8601(ms: f64) -> String {
    // 0000-01-01 and 9999-12-31T23:59:59.999 in ms since the epoch.
    const MIN: i64 = -62_167_219_200_000;
    const MAX: i64 = 253_402_300_799_999;
    let ms = if ms.is_nan() {
        0
    } else {
        (ms.floor() as i64).clamp(MIN, MAX)
    };
    let (days, in_day) = (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000));
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        in_day / 3_600_000,
        in_day / 60_000 % 60,
        in_day / 1000 % 60,
        in_day % 1000
    )
}

/// Howard Hinnant's `civil_from_days`: the proleptic Gregorian date `days` after
/// 1970-01-01.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::iso8601;

    #[test]
    fn matches_to_iso_string_across_leap_years_and_ends() {
        // Values from Node: new Date(ms).toISOString().
        assert_eq!(iso8601(951_782_400_000.0), "2000-02-29T00:00:00.000Z");
        assert_eq!(iso8601(4_107_542_399_999.0), "2100-02-28T23:59:59.999Z");
        assert_eq!(iso8601(1_709_164_800_000.5), "2024-02-29T00:00:00.000Z");
        assert_eq!(iso8601(-62_167_219_200_000.0), "0000-01-01T00:00:00.000Z");
        assert_eq!(iso8601(253_402_300_799_999.0), "9999-12-31T23:59:59.999Z");
        assert_eq!(iso8601(f64::INFINITY), "9999-12-31T23:59:59.999Z");
        assert_eq!(iso8601(f64::NAN), "1970-01-01T00:00:00.000Z");
    }
}
