//! Ref parsing: `Materializer::resolve_ref` on arbitrary strings (raw, or assembled
//! from a scheme, conversation, kind and file so most inputs get past the prefix).
//!
//! Never panics; every `Ok` path is `<artifacts>/tool/<file>` or
//! `<artifacts>/terminal/<file>` for this conversation's artifacts directory, with a
//! plain file name (no `/`, `\`, NUL, `.` or `..`); and the ref core itself makes for a
//! plain file name always resolves, to the path it names.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use tool_offload_core::materialize::summary_ref;
use tool_offload_core::path::{join, resolve};
use tool_offload_fuzz::{make_ref, materializer};

#[derive(Arbitrary, Debug)]
struct Input {
    user_data: String,
    conversation: String,
    reference: Reference,
}

#[derive(Arbitrary, Debug)]
enum Reference {
    Raw(String),
    Parts {
        scheme: bool,
        conversation: Option<String>,
        kind: Kind,
        file: String,
    },
}

#[derive(Arbitrary, Debug)]
enum Kind {
    Tool,
    Terminal,
    Other(String),
}

fuzz_target!(|input: Input| {
    let Ok(m) = materializer(&input.user_data, &input.conversation, 4000, 16384, 40, None) else {
        return;
    };
    let root = resolve("/", &input.user_data).unwrap();
    let artifacts = join(
        &join(&join(&root, "context"), &input.conversation),
        "artifacts",
    );
    let reference = match &input.reference {
        Reference::Raw(s) => s.clone(),
        Reference::Parts {
            scheme,
            conversation,
            kind,
            file,
        } => {
            let kind = match kind {
                Kind::Tool => "tool",
                Kind::Terminal => "terminal",
                Kind::Other(s) => s,
            };
            let conversation = conversation.as_deref().unwrap_or(&input.conversation);
            let r = make_ref(conversation, kind, file);
            if *scheme {
                r
            } else {
                r.replacen("ctx://", "", 1)
            }
        }
    };
    let _ = summary_ref(&reference);
    match m.resolve_ref(&reference) {
        Ok(path) => check_path(&path, &artifacts),
        Err(e) => {
            assert_eq!(e.code().as_str(), "REF_OUT_OF_SCOPE", "{e}");
            // Completeness: the ref core makes for a plain name in this conversation.
            if let Reference::Parts {
                scheme: true,
                conversation: None,
                kind: Kind::Tool | Kind::Terminal,
                file,
            } = &input.reference
            {
                assert!(!plain_name(file), "{reference:?} refused: {e}");
            }
        }
    }
});

fn check_path(path: &str, artifacts: &str) {
    let rest = path
        .strip_prefix(artifacts)
        .and_then(|r| r.strip_prefix('/'))
        .unwrap_or_else(|| panic!("{path:?} is outside {artifacts:?}"));
    let (kind, file) = rest
        .split_once('/')
        .unwrap_or_else(|| panic!("{path:?}: no kind"));
    assert!(
        matches!(kind, "tool" | "terminal"),
        "{path:?}: kind {kind:?}"
    );
    assert!(plain_name(file), "{path:?}: file {file:?}");
    assert!(!path.contains('\0'), "{path:?}");
    assert!(
        path.split('/')
            .skip(1)
            .all(|s| !matches!(s, "" | "." | "..")),
        "{path:?}"
    );
}

fn plain_name(file: &str) -> bool {
    !file.is_empty()
        && file != "."
        && file != ".."
        && file.len() <= 255
        && !file.contains(['/', '\\', '\0'])
}
