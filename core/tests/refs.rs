//! Refs survive any id the API accepts: materialize → ref → read back, and export →
//! import → every ref resolves and reads back. A seeded generator (no timing, same ids on
//! every run) covers the characters that used to cut refs short: spaces, quotes,
//! brackets, commas, `%`, `:`, controls, Unicode spaces and non-ASCII text.

use futures_executor::block_on;
use serde_json::{json, Value};
use tool_offload_core::materialize::{
    format_legacy_tool_record, import_conversation, LegacyToolRecord, Materialized, Materializer,
    MaterializerOptions, ToolOutputRef,
};
use tool_offload_core::{apply_edits, ErrorCode, MemoryWriter};

/// SplitMix64: small, seeded, good enough to pick characters.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Pieces ids are made of: every ASCII character the API accepts (all but `/`, `\`, NUL)
/// and non-ASCII ones that are spaces, invisible, bidi, combining, astral; plus whole
/// sequences that look like escapes or refs.
fn pieces() -> Vec<String> {
    let mut pieces: Vec<String> = (1u8..0x80)
        .filter(|b| !matches!(b, b'/' | b'\\'))
        .map(|b| char::from(b).to_string())
        .collect();
    for s in [
        "é", "日本", "😀", "\u{a0}", "\u{2028}", "\u{200b}", "\u{202e}", "\u{feff}", "e\u{301}",
        "\u{3000}", "%41", "%2F", "%2E%2E", "%", "%%", "%zz", ".txt", ".json", "ctx:", "call_",
        "toolu_", " ", "..",
    ] {
        pieces.push(s.to_owned());
    }
    pieces
}

fn random_id(rng: &mut Rng, pieces: &[String]) -> String {
    loop {
        let len = 1 + rng.below(8);
        let id: String = (0..len)
            .map(|_| pieces[rng.below(pieces.len())].as_str())
            .collect();
        if id != "." && id != ".." {
            return id;
        }
    }
}

fn big_text(marker: &str) -> String {
    format!("{marker}\n{}", "filler line\n".repeat(350))
}

/// Materializes a few outputs under random ids in a conversation with a random id, reads
/// each back by its ref, then exports the conversation (summaries as tool results, and
/// the same summaries inside legacy records in assistant text) and imports it into a
/// fresh writer, where every ref reads back the same content.
fn round_trip(seed: u64, pieces: &[String]) {
    let mut rng = Rng(seed);
    let conversation = random_id(&mut rng, pieces);
    let fs = MemoryWriter::new();
    let m = Materializer::new(MaterializerOptions::new("/a", conversation.as_str(), "/")).unwrap();
    let mut messages = Vec::new();
    let mut legacy = String::new();
    let mut refs = Vec::new();
    for i in 0..4 {
        let id = random_id(&mut rng, pieces);
        let marker = format!("marker {seed} {i}");
        let text = big_text(&marker);
        let (terminal, materialized) = if i == 3 {
            (true, block_on(m.materialize_terminal(&id, &text, &fs)))
        } else {
            let output = ToolOutputRef {
                tool_call_id: &id,
                tool_name: "bash",
                server_name: None,
                text: &text,
                was_value: false,
            };
            (false, block_on(m.materialize(&output, &fs)))
        };
        let Ok(Materialized::Artifact {
            summary,
            reference,
            path,
        }) = materialized
        else {
            panic!(
                "seed {seed}: {id:?} in {conversation:?} was not materialized: {materialized:?}"
            );
        };
        let what = format!(
            "seed {seed}: id {id:?} in {conversation:?}, ref {}",
            reference.id
        );
        // The ref resolves to the file written, and reads back what was written.
        assert_eq!(m.resolve_ref(&reference.id).unwrap(), path, "{what}");
        let page = block_on(m.read(&reference.id, 0, 1, &fs)).unwrap();
        assert!(page.ends_with(&format!("\n1| {marker}")), "{what}: {page}");
        // The file keeps the raw id as its name.
        let ext = if terminal { "log" } else { "txt" };
        assert!(path.ends_with(&format!("/{id}.{ext}")), "{what}: {path}");
        assert_eq!(fs.read(&path).as_deref(), Some(text.as_str()), "{what}");
        legacy += &format_legacy_tool_record(&LegacyToolRecord {
            tool_name: "bash",
            tool_call_id: Some(&id),
            arguments: &json!({}),
            response: &Value::String(summary.clone()),
        });
        // Terminal artifacts are named only in the legacy record.
        if !terminal {
            messages.push(json!({"role": "tool", "tool_call_id": id, "content": summary}));
        }
        refs.push((reference.id, text));
    }
    messages.push(json!({"role": "assistant", "content": legacy}));
    let messages = Value::Array(messages);

    let bundle = block_on(m.export_conversation(&messages, &fs)).unwrap();
    let exported = bundle["artifacts"].as_array().unwrap();
    let distinct: std::collections::HashSet<_> = refs.iter().map(|(r, _)| r).collect();
    assert_eq!(exported.len(), distinct.len(), "seed {seed}: {bundle}");

    let fresh = MemoryWriter::new();
    let imported = block_on(import_conversation(&bundle, "/b", "/", &fresh)).unwrap();
    assert_eq!(imported.conversation_id, conversation);
    let restored =
        Materializer::new(MaterializerOptions::new("/b", conversation.as_str(), "/")).unwrap();
    for (reference, text) in &refs {
        let path = restored.resolve_ref(reference).unwrap();
        assert_eq!(
            fresh.read(&path).as_deref(),
            Some(text.as_str()),
            "seed {seed}: {reference} after import"
        );
        let first = text.lines().next().unwrap();
        let page = block_on(restored.read(reference, 0, 1, &fresh)).unwrap();
        assert!(
            page.ends_with(&format!("\n1| {first}")),
            "seed {seed}: {page}"
        );
    }
}

#[test]
fn refs_of_random_ids_round_trip_through_read_export_and_import() {
    let pieces = pieces();
    for seed in 0..300 {
        round_trip(seed, &pieces);
    }
}

#[test]
fn a_call_id_with_a_space_and_parentheses_survives_export_and_import() {
    let conversation = "chat \"A\" (1), [b] {c} <d> 'e' `f` 50% é";
    let fs = MemoryWriter::new();
    let m = Materializer::new(MaterializerOptions::new("/a", conversation, "/")).unwrap();
    let messages = json!([
        {"role": "assistant", "tool_calls": [{"id": "call (1)", "type": "function", "function": {"name": "bash", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "call (1)", "content": big_text("first")},
    ]);
    let views: Vec<_> = messages.as_array().unwrap().iter().collect();
    let done = block_on(m.materialize_messages(&views, &fs)).unwrap();
    let reference = &done.refs[0].id;
    assert_eq!(
        reference,
        "ctx://chat%20%22A%22%20%281%29%2C%20%5Bb%5D%20%7Bc%7D%20%3Cd%3E%20%27e%27%20%60f%60%2050%25%20%C3%A9/tool/call%20%281%29.txt"
    );
    assert_eq!(
        done.paths[0],
        format!("/a/context/{conversation}/artifacts/tool/call (1).txt")
    );
    let mut slim = messages.clone();
    apply_edits(&mut slim[1], done.changed[0].1.clone());

    let bundle = block_on(m.export_conversation(&slim, &fs)).unwrap();
    assert_eq!(bundle["artifacts"][0]["ref"], json!(reference));
    assert_eq!(bundle["artifacts"][0]["path"], json!("tool/call (1).txt"));

    let fresh = MemoryWriter::new();
    block_on(import_conversation(&bundle, "/b", "/", &fresh)).unwrap();
    let restored = Materializer::new(MaterializerOptions::new("/b", conversation, "/")).unwrap();
    let page = block_on(restored.read(reference, 0, 1, &fresh)).unwrap();
    assert!(page.ends_with("\n1| first"), "{page}");
    // Typed back with the characters unescaped, the ref still reaches the artifact.
    let raw = format!(
        "ctx://{}/tool/call (1).txt",
        reference.split('/').nth(2).unwrap()
    );
    assert!(block_on(restored.read(&raw, 0, 1, &fresh))
        .unwrap()
        .ends_with("\n1| first"));
}

#[test]
fn malformed_escapes_and_decoded_paths_are_out_of_scope() {
    let m = Materializer::new(MaterializerOptions::new("/a", "c", "/")).unwrap();
    let fs = MemoryWriter::new();
    for reference in [
        "ctx://c/tool/50%.txt",
        "ctx://c/tool/%zz.txt",
        "ctx://c/tool/%C3.txt",
    ] {
        let err = block_on(m.read(reference, 0, 1, &fs)).unwrap_err();
        assert_eq!(err.code(), ErrorCode::RefOutOfScope, "{reference}");
        assert!(err.to_string().contains("is malformed"), "{err}");
    }
    for reference in [
        "ctx://c/tool/%2E%2E",
        "ctx://c/tool/..%2Fx.txt",
        "ctx://c/tool/a%5Cb.txt",
        "ctx://c/tool/a%00.txt",
        "ctx://c%2F..%2Fd/tool/a.txt",
    ] {
        let err = block_on(m.read(reference, 0, 1, &fs)).unwrap_err();
        assert_eq!(err.code(), ErrorCode::RefOutOfScope, "{reference}");
        assert_eq!(
            err.to_string(),
            format!("ref {reference:?} is outside this conversation's artifacts")
        );
    }
}

#[test]
fn import_accepts_any_spelling_of_a_ref_once_and_refuses_malformed_ones() {
    let content = big_text("x");
    let sha = tool_offload_core::materialize::sha256_hex(&content);
    let bundle = |artifacts: Value| {
        json!({
            "format": "tool-offload/conversation", "version": 1, "conversationId": "c 1",
            "messages": [{"role": "tool", "tool_call_id": "call (1)", "content": "see ctx://c%201/tool/call%20%281%29.txt."}],
            "artifacts": artifacts,
        })
    };
    let artifact = |reference: &str| json!({"ref": reference, "path": "tool/call (1).txt", "sha256": sha, "content": content});
    let import = |b: &Value| block_on(import_conversation(b, "/b", "/", &MemoryWriter::new()));

    // Spelled with raw characters and lowercase hex, it is still the artifact the message names.
    let imported = import(&bundle(json!([artifact(
        "ctx://c%201/tool/call (1%29.txt"
    )])))
    .unwrap();
    assert_eq!(
        imported.paths,
        ["/b/context/c 1/artifacts/tool/call (1).txt"]
    );
    let err = import(&bundle(json!([
        artifact("ctx://c%201/tool/call%20%281%29.txt"),
        artifact("ctx://c 1/tool/call (1).txt"),
    ])))
    .unwrap_err();
    assert!(err.to_string().contains("appears twice"), "{err}");
    let err = import(&bundle(json!([
        artifact("ctx://c%201/tool/call%20%281%29.txt"),
        artifact("ctx://c%201/tool/50%.txt")
    ])))
    .unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidBundle);
    assert!(
        err.to_string()
            .contains("artifacts[1].ref \"ctx://c%201/tool/50%.txt\" is malformed"),
        "{err}"
    );
    // The path is the file's own name, not the encoded one.
    let mut encoded_path = artifact("ctx://c%201/tool/call%20%281%29.txt");
    encoded_path["path"] = json!("tool/call%20%281%29.txt");
    let err = import(&bundle(json!([encoded_path]))).unwrap_err();
    assert!(err.to_string().contains("does not match its ref"), "{err}");
}

#[test]
fn an_id_whose_encoded_ref_segment_would_pass_255_characters_is_invalid() {
    // 42 × "é" is 84 bytes but 252 characters once encoded (%C3%A9 each): the ref stays
    // short enough that a summary naming it fits the smallest limits.
    let fs = MemoryWriter::new();
    let reason = "makes a ref segment longer than 255 characters once percent-encoded";
    let conversation = |id: &str| Materializer::new(MaterializerOptions::new("/d", id, "/"));
    assert!(conversation(&"é".repeat(42)).is_ok());
    let err = conversation(&"é".repeat(43)).unwrap_err();
    assert_eq!(
        (err.code(), err.to_string().contains(reason)),
        (ErrorCode::InvalidId, true)
    );

    let m = conversation("c").unwrap();
    let text = "x\n".repeat(30_000);
    let materialize = |id: &str| {
        let out = ToolOutputRef {
            tool_call_id: id,
            tool_name: "t",
            server_name: None,
            text: &text,
            was_value: false,
        };
        block_on(m.materialize(&out, &fs))
    };
    // 41 × "é" = 246 encoded characters, + ".txt" = 250: fits; 42 + ".txt" = 256 does not.
    assert!(materialize(&"é".repeat(41)).is_ok());
    let err = materialize(&"é".repeat(42)).unwrap_err();
    assert_eq!(
        (err.code(), err.to_string().contains(reason)),
        (ErrorCode::InvalidId, true)
    );
}
