//! `tool-offload gc`: retention from the shell.

use serde_json::json;
use tool_offload::json::stringify;
use tool_offload::{GcOptions, Value};

use crate::args::{From, GcArgs};
use crate::error::CliError;
use crate::input::Input;
use crate::location::Location;
use crate::read;

/// Run `gc` with `args`; the report goes to stdout.
pub fn gc(args: &GcArgs) -> Result<(), CliError> {
    if args.older_than.is_none() && args.max_size.is_none() {
        return Err(CliError::bad_input(
            "say what to remove: --older-than DURATION and/or --max-size SIZE",
        ));
    }
    let location = Location::parse("DIR", &args.dir)?;
    if !location.remote && !args.dir.is_dir() {
        return Err(CliError::bad_input(format!(
            "{}: not a directory",
            args.dir.display()
        )));
    }
    let mut options = GcOptions {
        older_than_ms: args.older_than,
        max_bytes: args.max_size,
        dry_run: args.dry_run,
        ..GcOptions::default()
    };
    for path in &args.keep {
        let input = Input::new(path);
        let conversation = read::read(&input, From::Auto, true, false)?;
        let messages = Value::Array(conversation.messages);
        options
            .keep
            .extend(tool_offload::core::gc::referenced(&messages));
    }
    let report = crate::context::runtime()?
        .block_on(tool_offload::gc_dir_with(
            &location.dir,
            &options,
            &location.io,
        ))
        .map_err(|e| CliError::failure(format!("{}: {e}", args.dir.display())))?;
    if args.json {
        let out = json!({
            "removed": report.removed,
            "bytes": report.bytes,
            "kept": report.kept,
            "keptBytes": report.kept_bytes,
            "dryRun": args.dry_run,
        });
        println!("{}", stringify(&out));
    } else {
        let verb = if args.dry_run {
            "would remove"
        } else {
            "removed"
        };
        for path in &report.removed {
            println!("{verb} {path}");
        }
        println!(
            "{verb} {} ({} bytes); {} stay ({} bytes)",
            plural(report.removed.len(), "file"),
            report.bytes,
            plural(report.kept, "artifact"),
            report.kept_bytes
        );
    }
    Ok(())
}

/// `1 file`, `2 files`.
fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
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
}
