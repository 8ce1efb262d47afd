//! Measured: random values in each documented shape, two or three contexts each (env
//! dump, CLI JSON, config file, URL, header, log line), fixed seed; every secret must be
//! gone from the output. The cases are `generated_cases.rs`.

use super::generated_cases::cases;
use super::redact;
use crate::test_rng::Rng;

#[test]
fn generated_secrets_are_gone_from_every_context() {
    let mut rng = Rng(0x5EED_0049);
    let mut missed = Vec::new();
    let mut total = 0;
    for case in cases(&mut rng) {
        for context in case.contexts {
            total += 1;
            let text = context.replace("{}", &case.value);
            let out = redact(&text);
            if out.text.contains(&case.secret) {
                missed.push(format!("{}: {text}\n  -> {}", case.kind, out.text));
            }
        }
    }
    println!(
        "generated secrets caught: {} of {total}",
        total - missed.len()
    );
    assert!(missed.is_empty(), "{}", missed.join("\n"));
}

/// Through the Materializer with `redact`: no secret in what is returned inline, in the
/// file written, or in the summary.
#[test]
fn generated_secrets_are_gone_from_what_is_written_returned_and_summarised() {
    use crate::materialize::{Materialized, Materializer, MaterializerOptions};
    use crate::summary::ToolOutputRef;
    use futures_executor::block_on;
    let mut options = MaterializerOptions::new("/d", "c", "/");
    options.redact = true.into();
    let m = Materializer::new(options).unwrap();
    let fs = crate::memory::MemoryWriter::new();
    let output = |id: &'static str, text: &'static str| ToolOutputRef {
        tool_call_id: id,
        tool_name: "bash",
        server_name: None,
        text,
        was_value: false,
    };
    let mut rng = Rng(0x5EED_0049);
    let (mut texts, mut secrets) = (Vec::new(), Vec::new());
    for case in cases(&mut rng) {
        for context in case.contexts {
            texts.push(context.replace("{}", &case.value));
            secrets.push(case.secret.clone());
        }
    }
    // Each alone: small, kept inline, returned redacted.
    for (i, (text, secret)) in texts.iter().zip(&secrets).enumerate() {
        let id: &'static str = Box::leak(format!("s{i}").into_boxed_str());
        let text: &'static str = Box::leak(text.clone().into_boxed_str());
        let done = block_on(m.materialize(&output(id, text), &fs)).unwrap();
        let content = done.into_content().unwrap_or_default();
        assert!(!content.contains(secret.as_str()), "{text}\n-> {content}");
    }
    // All in one output, with a build log round them: stored and summarised.
    let steps: String = (0..400).map(|i| format!("step {i} ok\n")).collect();
    let all: &'static str =
        Box::leak(format!("{steps}{}\n{steps}", texts.join("\n")).into_boxed_str());
    let done = block_on(m.materialize(&output("all", all), &fs)).unwrap();
    let Materialized::Artifact { summary, path, .. } = done else {
        panic!("stored")
    };
    let written = fs.read(&path).unwrap();
    for secret in &secrets {
        assert!(!written.contains(secret.as_str()), "{secret} written");
        assert!(
            !summary.contains(secret.as_str()),
            "{secret} in the summary"
        );
    }
}
