//! Values of flags that clap cannot parse alone: counts with our message, tool limits.

/// `NAME=never`, `NAME=always` or `NAME=N` (characters), for `--tool`.
pub fn parse_tool_limit(arg: &str) -> Result<(String, tool_offload::ToolLimits), String> {
    use tool_offload::{MaterializeWhen, ToolLimits};
    let (name, limit) = arg
        .rsplit_once('=')
        .ok_or_else(|| format!("expected NAME=never|always|N, got {arg:?}"))?;
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
        n => ToolLimits {
            max_inline_chars: Some(n.parse().map_err(|_| {
                format!("expected never, always or a number of characters after '=', got {limit:?}")
            })?),
            ..ToolLimits::default()
        },
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
