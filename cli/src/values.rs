//! Values of flags that clap cannot parse alone: counts with our message, tool limits,
//! durations and sizes.

/// `NAME=never`, `NAME=always`, `NAME=N` (characters) or `NAME=Nt` (tokens), for `--tool`.
pub fn parse_tool_limit(arg: &str) -> Result<(String, tool_offload::ToolLimits), String> {
    use tool_offload::{MaterializeWhen, ToolLimits};
    let (name, limit) = arg
        .rsplit_once('=')
        .ok_or_else(|| format!("expected NAME=never|always|N|Nt, got {arg:?}"))?;
    if name.is_empty() {
        return Err(format!("expected a tool name before '=', got {arg:?}"));
    }
    let limits = match limit {
        "never" => ToolLimits {
            materialize: Some(MaterializeWhen::Never),
            ..ToolLimits::default()
        },
        "always" => ToolLimits {
            materialize: Some(MaterializeWhen::Always),
            ..ToolLimits::default()
        },
        n => {
            let number = |digits: &str| {
                digits.parse::<usize>().map_err(|_| {
                    format!("expected never, always, a number of characters or of tokens (2000t) after '=', got {limit:?}")
                })
            };
            match n.strip_suffix('t') {
                Some(tokens) => ToolLimits {
                    max_inline_tokens: Some(number(tokens)?),
                    ..ToolLimits::default()
                },
                None => ToolLimits {
                    max_inline_chars: Some(number(n)?),
                    ..ToolLimits::default()
                },
            }
        }
    };
    Ok((name.to_owned(), limits))
}

/// A count flag (`--threshold`, `--offset`, `-n`…): a non-negative integer, with our
/// message for anything else (`-5` reaches here as a value, not as an unknown flag).
pub fn count(arg: &str) -> Result<usize, String> {
    match arg.parse::<usize>() {
        Ok(n) => Ok(n),
        Err(_) if arg.trim().parse::<i128>().is_ok_and(|n| n < 0) => {
            Err(format!("must be a non-negative integer, got {arg}"))
        }
        Err(_) => Err(format!(
            "must be a non-negative integer (a count), got {arg:?}"
        )),
    }
}

/// A price multiplier (`--cache-read`, `--cache-write`): a finite non-negative number.
pub fn price(arg: &str) -> Result<f64, String> {
    match arg.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(format!("must be a non-negative number, got {arg:?}")),
    }
}

/// `7d`, `12h`, `30m`, `45s`, `2w` in milliseconds.
pub fn duration_ms(text: &str) -> Result<u64, String> {
    let (number, unit) = split(text);
    let unit_ms: u64 = match unit {
        "s" => 1_000,
        "m" => 60_000,
        "h" => 3_600_000,
        "d" => 86_400_000,
        "w" => 604_800_000,
        _ => return Err(format!("{text:?}: a number with s, m, h, d or w (e.g. 7d)")),
    };
    number
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(unit_ms))
        .ok_or_else(|| format!("{text:?}: a whole number with s, m, h, d or w (e.g. 7d)"))
}

/// `1024`, `500K`, `1G` (powers of 1024) in bytes.
pub fn size_bytes(text: &str) -> Result<u64, String> {
    let (number, unit) = split(text);
    let shift = match unit
        .to_ascii_uppercase()
        .trim_end_matches("IB")
        .trim_end_matches('B')
    {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => {
            return Err(format!(
                "{text:?}: bytes, or a number with K, M, G or T (e.g. 1G)"
            ))
        }
    };
    number
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(1 << shift))
        .ok_or_else(|| format!("{text:?}: a whole number of bytes, or with K, M, G or T"))
}

/// The leading digits and the rest.
fn split(text: &str) -> (&str, &str) {
    let at = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    text.split_at(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_sizes() {
        assert_eq!(duration_ms("7d"), Ok(604_800_000));
        assert_eq!(duration_ms("90s"), Ok(90_000));
        assert_eq!(duration_ms("2w"), Ok(1_209_600_000));
        assert!(duration_ms("7").is_err());
        assert!(duration_ms("d").is_err());
        assert!(duration_ms("1.5h").is_err());
        assert_eq!(size_bytes("1024"), Ok(1024));
        assert_eq!(size_bytes("1G"), Ok(1 << 30));
        assert_eq!(size_bytes("500K"), Ok(500 << 10));
        assert_eq!(size_bytes("2MiB"), Ok(2 << 20));
        assert_eq!(size_bytes("3mb"), Ok(3 << 20));
        assert!(size_bytes("1X").is_err());
        assert!(size_bytes("99999999999999T").is_err());
    }

    #[test]
    fn tool_limits_in_characters_or_tokens() {
        let (name, limits) = parse_tool_limit("grep=1000t").unwrap();
        assert_eq!(
            (name.as_str(), limits.max_inline_tokens),
            ("grep", Some(1000))
        );
        assert_eq!(limits.max_inline_chars, None);
        let (_, limits) = parse_tool_limit("*=2000").unwrap();
        assert_eq!(
            (limits.max_inline_chars, limits.max_inline_tokens),
            (Some(2000), None)
        );
        assert!(parse_tool_limit("grep=t").is_err());
        assert!(parse_tool_limit("grep=10x").is_err());
    }
}
