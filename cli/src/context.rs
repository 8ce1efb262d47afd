//! The Materializer from the shell: `materialize`, `read`, `tail`, `grep`, `export`,
//! `import`. Pages are exactly what the model's read-back tools return.

use std::path::Path;

use serde_json::json;
use tool_offload::core::materialize::{clean_ref, continuation, count, ref_conversation, Within};
use tool_offload::core::transcript::Format;
use tool_offload::json::stringify;
use tool_offload::{GrepOptions, Materializer, MaterializerOptions, OffloadError, Value};

use crate::args::{
    ExportArgs, From, GrepArgs, ImportArgs, MaterializeArgs, OffloadedFiles, ReadArgs, Store,
    TailArgs,
};
use crate::error::CliError;
use crate::input::Input;
use crate::inputs::{described, expand, note, outputs_for};
use crate::location::{Location, LocationIo};
use crate::output::Output;
use crate::read;
use crate::skipped::Skips;

pub(crate) use crate::runtime::runtime;

/// A library error: `WRITE_FAILED` and `READ_FAILED` are failures (exit 1), the rest bad
/// input (exit 2), prefixed with `what`.
fn failed(what: &str) -> impl Fn(OffloadError) -> CliError + '_ {
    move |err| match err.code() {
        tool_offload::ErrorCode::WriteFailed | tool_offload::ErrorCode::ReadFailed => {
            CliError::failure(format!("{what}: {err}"))
        }
        _ => CliError::bad_input(format!("{what}: {err}")),
    }
}

/// The materializer of `conversation` under `store` (a directory or an object store).
fn materializer(
    store: &Store,
    conversation: &str,
    configure: impl FnOnce(&mut MaterializerOptions),
) -> Result<Materializer<LocationIo>, CliError> {
    let location = Location::parse("--user-data", &store.user_data)?;
    let mut options = MaterializerOptions::at(&*location.dir, conversation);
    configure(&mut options);
    Materializer::with_io(options, location.io).map_err(failed("--conversation"))
}

/// Write `value` as `JSON.stringify` does, then a newline, to `output` (stdout when
/// `None`); a file appears only once complete.
fn write_json(value: &Value, output: Option<&Path>) -> Result<(), CliError> {
    let mut out = Output::create(output)?;
    out.write(stringify(value).as_bytes())?;
    out.write(b"\n")?;
    out.commit()
}

/// `materialize`: each input's tool results over the limits become summaries.
pub fn materialize(args: &MaterializeArgs) -> Result<(), CliError> {
    let inputs = expand(&args.inputs)?;
    if inputs.len() > 1 && args.conversation.is_some() {
        return Err(CliError::bad_input(
            "--conversation names one conversation: give one input, or let each input's file name name its own",
        ));
    }
    let outputs = outputs_for(&inputs, args.output.as_deref(), "json")?;
    let runtime = runtime()?;
    let mut skips = Skips::new(&args.inputs, &inputs);
    for (path, output) in inputs.iter().zip(outputs) {
        let input = Input::new(path);
        let conversation = match (&args.conversation, path.file_stem()) {
            (Some(id), _) => id.clone(),
            (None, Some(stem)) if path.as_os_str() != "-" => stem.to_string_lossy().into_owned(),
            (None, _) => {
                return Err(CliError::bad_input(
                    "<stdin>: pass --conversation ID to name the conversation",
                ))
            }
        };
        let read = read::read(&input, args.from, args.include_sidechains, args.lossy);
        let Some(read) = skips.read(input.name(), read)? else {
            continue;
        };
        if args.from == From::Auto && read.format != Format::Messages {
            note(&format!(
                "{}: read as {}",
                input.name(),
                described(read.format)
            ));
        }
        if !read.lone.is_empty() {
            let lone = Err(CliError::bad_input(format!(
                "{}: holds escaped lone surrogates; materialize reads well-formed text only",
                input.name()
            )));
            skips.read::<()>(input.name(), lone)?;
            continue;
        }
        let redaction = args.redact_patterns.redaction(args.redact)?;
        let m = materializer(&args.store, &conversation, |o| {
            args.limits.apply(o);
            o.redact = redaction.clone();
        })?;
        let done = runtime
            .block_on(m.materialize_messages(&read.messages))
            .map_err(failed(input.name()));
        let Some(done) = skips.process(input.name(), done)? else {
            continue;
        };
        let messages: Vec<Value> = done.messages.into_iter().map(|m| m.into_owned()).collect();
        write_json(&Value::Array(messages), output.as_deref())?;
        let refs: Vec<&str> = done.refs.iter().map(|r| r.id.as_str()).collect();
        let summary = if args.json {
            stringify(&json!({
                "input": input.name(),
                "conversation": conversation,
                "messages": read.messages.len(),
                "materialized": refs.len(),
                "refs": refs,
                "paths": done.paths,
            })) + "\n"
        } else {
            // Where the artifacts are, and why there when --user-data was not given.
            let root = &args.store.user_data;
            let place = if args.store.remote() {
                format!("{}/context/{conversation}/artifacts", root.display())
            } else {
                Path::new(root)
                    .join("context")
                    .join(&conversation)
                    .join("artifacts")
                    .display()
                    .to_string()
            };
            let default = if root == Path::new(".") {
                " (--user-data defaults to the current directory)"
            } else {
                ""
            };
            format!(
                "{}: {}, materialized {} into {place}{default}\n",
                input.name(),
                count(read.messages.len(), "message"),
                refs.len(),
            )
        };
        eprint!("{summary}");
    }
    skips.finish()
}

/// The materializer that can read `reference` (its conversation comes from the ref).
fn reader(
    store: &Store,
    offloaded: &OffloadedFiles,
    reference: &str,
) -> Result<Materializer<LocationIo>, CliError> {
    if let Some(dir) = &offloaded.offload_dir {
        if !clean_ref(reference).starts_with("ctx://") {
            // A placeholder's file: read through a materializer over that directory,
            // which reads nothing else there.
            let location = Location::parse("--offload-dir", dir)?;
            let mut options = MaterializerOptions::at(&*location.dir, "offloaded");
            options.offload_dir = Some(location.dir.clone());
            return Materializer::with_io(options, location.io).map_err(failed("--offload-dir"));
        }
    }
    let conversation = ref_conversation(reference).map_err(failed(reference))?;
    materializer(store, &conversation, |_| {})
}

/// Print a page, or `{"ref", "page"}` with `--json`. A ref with no artifact says where
/// it was looked for (a wrong `--user-data` is the usual cause).
fn print_page(
    m: &Materializer<LocationIo>,
    reference: &str,
    page: Result<String, OffloadError>,
    json: bool,
) -> Result<(), CliError> {
    let page = page.map_err(|err| match (&err, m.core().resolve_readable(reference)) {
        (OffloadError::RefNotFound(_), Ok(path)) => {
            CliError::bad_input(format!("{reference}: {err} (looked for {path})"))
        }
        _ => failed(reference)(err),
    })?;
    if json {
        return write_json(&json!({"ref": reference, "page": page}), None);
    }
    write_page(&page)
}

/// `page` and a newline on stdout.
fn write_page(page: &str) -> Result<(), CliError> {
    let mut out = Output::create(None)?;
    out.write(page.as_bytes())?;
    out.write(b"\n")?;
    out.commit()
}

/// `read`: numbered lines of an artifact; the header's `More:` names the command that
/// prints the next page.
pub fn read(args: &ReadArgs) -> Result<(), CliError> {
    let m = reader(&args.store, &args.offloaded, &args.reference)?;
    let (offset, limit) = (args.offset, args.limit);
    let within = args.at_char.map_or(Within::Part(args.part), Within::Char);
    let page = runtime()?.block_on(async {
        match &args.path {
            Some(path) => {
                m.read_json(&args.reference, path, offset, within, limit)
                    .await
            }
            None => m.read_from(&args.reference, offset, within, limit).await,
        }
    });
    // `--json` prints the page exactly as the model's tool returns it.
    let page = page.map(|page| {
        if args.json {
            page
        } else {
            with_command(page, args)
        }
    });
    print_page(&m, &args.reference, page, args.json)
}

/// `page` with its `More: context_read(…)` replaced by the `tool-offload read` command
/// that prints the next page, with the flags this one was given.
fn with_command(mut page: String, args: &ReadArgs) -> String {
    let Some(next) = continuation(&page) else {
        return page;
    };
    let mut command = format!(
        "tool-offload read {} --offset {}",
        quoted(&args.reference),
        next.offset
    );
    if let Some(part) = next.part {
        command.push_str(&format!(" --part {part}"));
    }
    if let Some(path) = &args.path {
        command.push_str(&format!(" --path {}", quoted(path)));
    }
    if args.limit != tool_offload::core::materialize::DEFAULT_LINES {
        command.push_str(&format!(" --limit {}", args.limit));
    }
    if args.store.user_data != Path::new(".") {
        let dir = args.store.user_data.to_string_lossy();
        command.push_str(&format!(" --user-data {}", quoted(&dir)));
    }
    if let Some(dir) = &args.offloaded.offload_dir {
        command.push_str(&format!(
            " --offload-dir {}",
            quoted(&dir.to_string_lossy())
        ));
    }
    page.replace_range(next.call, &command);
    page
}

/// `arg` as a shell word: as it is when it needs no quoting, else in single quotes.
fn quoted(arg: &str) -> String {
    let plain = !arg.is_empty()
        && arg
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./:@%+=,".contains(&b));
    if plain {
        arg.to_owned()
    } else {
        format!("'{}'", arg.replace('\'', r"'\''"))
    }
}

/// `tail`: the last lines of an artifact.
pub fn tail(args: &TailArgs) -> Result<(), CliError> {
    let m = reader(&args.store, &args.offloaded, &args.reference)?;
    let page = runtime()?.block_on(m.tail(&args.reference, args.lines));
    print_page(&m, &args.reference, page, args.json)
}

/// `grep`: matching lines of an artifact, with context.
pub fn grep(args: &GrepArgs) -> Result<(), CliError> {
    let options = GrepOptions {
        context: args.context,
        max_matches: args.max_matches,
        ignore_case: args.ignore_case,
    };
    match (&args.conversation, args.args.as_slice()) {
        (None, [reference, pattern]) => {
            let m = reader(&args.store, &args.offloaded, reference)?;
            let page = runtime()?.block_on(m.grep(reference, pattern, options));
            print_page(&m, reference, page, args.json)
        }
        (Some(conversation), [pattern]) => {
            let m = materializer(&args.store, conversation, |_| {})?;
            let page = runtime()?.block_on(m.grep_all(pattern, options));
            let page = page.map_err(failed(conversation))?;
            if args.json {
                return write_json(&json!({"conversation": conversation, "page": page}), None);
            }
            write_page(&page)
        }
        (None, _) => Err(CliError::bad_input(
            "grep takes REF PATTERN, or PATTERN alone with --conversation ID",
        )),
        (Some(_), _) => Err(CliError::bad_input(
            "grep --conversation searches every artifact: give the PATTERN alone, no REF",
        )),
    }
}

/// `export`: the conversation and its artifacts as one bundle.
pub fn export(args: &ExportArgs) -> Result<(), CliError> {
    let input = Input::new(&args.input);
    let read = read::read(&input, From::Messages, false, false)?;
    let m = materializer(&args.store, &args.conversation, |_| {})?;
    let bundle = runtime()?
        .block_on(m.export_conversation(&read.messages))
        .map_err(failed(input.name()))?;
    write_json(&bundle, args.output.as_deref())
}

/// `import`: a bundle restored under the user-data directory; prints its messages.
pub fn import(args: &ImportArgs) -> Result<(), CliError> {
    let input = Input::new(&args.bundle);
    let bytes = input.read_all()?;
    let text = std::str::from_utf8(&bytes)
        .map_err(|e| CliError::bad_input(format!("{}: {e}", input.name())))?;
    let bundle = tool_offload::json::parse(text)
        .map_err(|e| CliError::bad_input(format!("{}: {e}", input.name())))?;
    let location = Location::parse("--user-data", &args.store.user_data)?;
    let done = runtime()?
        .block_on(tool_offload::import_conversation_with(
            &bundle,
            &location.dir,
            &location.io,
        ))
        .map_err(failed(input.name()))?;
    write_json(&done.messages, args.output.as_deref())?;
    eprintln!(
        "{}: conversation {} restored, {}",
        input.name(),
        done.conversation_id,
        count(done.paths.len(), "artifact")
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::quoted;

    #[test]
    fn shell_words_are_quoted_only_when_needed() {
        assert_eq!(quoted("ctx://c/tool/a.txt"), "ctx://c/tool/a.txt");
        assert_eq!(quoted("$.items[0:10]"), "'$.items[0:10]'");
        assert_eq!(quoted("it's"), r"'it'\''s'");
        assert_eq!(quoted(""), "''");
    }
}
