//! Issue 49's measure of the built-in rules, on the cases core's tests use: every
//! generated secret (random values in each documented shape, in the contexts tools print
//! them, fixed seed) and every look-alike (code naming secrets, hashes, ids,
//! placeholders). Prints how many secrets are gone and how many look-alikes changed;
//! with `--json PATH`, writes the same cases and these results for
//! `bench/redact_detect_secrets.py`, which runs Yelp's detect-secrets on them
//! (`bench/redact.mjs` runs both; `make bench`).
//! `cargo run --release -p tool-offload-core --example redact_bench [-- --json PATH]`
use serde_json::json;
use tool_offload_core::redact::redact;

// The cases are core's test data, included as they are.
#[allow(dead_code)]
#[path = "../src/test_rng.rs"]
mod test_rng;

#[path = "../src/redact/generated_cases.rs"]
mod generated_cases;

#[path = "../src/redact/lookalikes.rs"]
mod lookalikes;

fn main() {
    let json_path = match std::env::args().nth(1).as_deref() {
        Some("--json") => std::env::args().nth(2),
        _ => None,
    };
    // The generated tests' seed: the same values as `generated_tests.rs`.
    let mut rng = test_rng::Rng(0x5EED_0049);
    let mut secrets = Vec::new();
    let (mut caught, mut missed) = (0, Vec::new());
    for case in generated_cases::cases(&mut rng) {
        for context in case.contexts {
            let text = context.replace("{}", &case.value);
            let gone = !redact(&text).text.contains(&case.secret);
            match gone {
                true => caught += 1,
                false => missed.push(case.kind),
            }
            secrets.push(
                json!({ "kind": case.kind, "text": text, "secret": case.secret, "caught": gone }),
            );
        }
    }
    let mut lookalikes = Vec::new();
    let mut changed = 0;
    for &text in lookalikes::CODE.iter().chain(lookalikes::DATA) {
        let same = redact(text).text == text;
        changed += usize::from(!same);
        lookalikes.push(json!({ "text": text, "changed": !same }));
    }
    println!(
        "tool-offload redact: {caught} of {} generated secrets gone, {changed} of {} look-alikes changed{}",
        secrets.len(),
        lookalikes.len(),
        match missed.is_empty() {
            true => String::new(),
            false => format!(" (missed: {})", missed.join(", ")),
        }
    );
    if let Some(path) = json_path {
        let out = json!({ "secrets": secrets, "lookalikes": lookalikes });
        if let Err(e) = std::fs::write(&path, out.to_string()) {
            eprintln!("redact_bench: cannot write {path}: {e}");
            std::process::exit(1);
        }
    }
}
