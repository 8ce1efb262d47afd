//! `tool-offload gc`: retention from the shell.

use tool_offload::core::materialize::count;
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
    let report = crate::runtime::runtime()?
        .block_on(tool_offload::gc_dir_with(
            &location.dir,
            &options,
            &location.io,
        ))
        .map_err(|e| CliError::failure(format!("{}: {e}", args.dir.display())))?;
    if args.json {
        let mut out = report.to_value();
        out["dryRun"] = args.dry_run.into();
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
            "{verb} {} ({}); {} {} ({})",
            count(report.removed.len(), "file"),
            bytes(report.bytes),
            count(report.kept, "artifact"),
            if report.kept == 1 { "stays" } else { "stay" },
            bytes(report.kept_bytes)
        );
    }
    Ok(())
}

/// `1 byte`, `2,048 bytes`.
fn bytes(n: u64) -> String {
    count(usize::try_from(n).unwrap_or(usize::MAX), "byte")
}
