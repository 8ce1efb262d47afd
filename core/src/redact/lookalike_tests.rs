//! No damage: code that names secrets, hashes, ids, placeholders and documented
//! examples, in many languages, come out byte for byte.

use super::lookalikes::{CODE, DATA};
use super::redact;

#[test]
fn look_alikes_are_left_byte_for_byte() {
    let mut changed = Vec::new();
    let total = CODE.len() + DATA.len();
    for &text in CODE.iter().chain(DATA) {
        let out = redact(text);
        if out.text != text {
            changed.push(format!("{text}\n  -> {}", out.text));
        }
    }
    println!("look-alikes changed: {} of {total}", changed.len());
    assert!(changed.is_empty(), "{}", changed.join("\n"));
    // And all of them at once, as one output.
    let all = CODE
        .iter()
        .chain(DATA)
        .copied()
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(redact(&all).text, all);
}

/// The other side: a literal next to the same names is still a secret.
#[test]
fn literals_beside_code_are_still_secrets() {
    for (line, secret) in [
        ("config: password=hunter2!", "hunter2!"),
        ("DB_PASSWORD=hunter22", "hunter22"),
        ("  password: correcthorse", "correcthorse"),
        (
            r#"  "password": "correct horse battery","#,
            "correct horse battery",
        ),
        (
            r#"api_key = "a8f5f167f44f4964e6c998dee827110c""#,
            "a8f5f167f44f4964e6c998dee827110c",
        ),
        ("psql --password=S3cure!pass", "S3cure!pass"),
        (
            "SECRET_KEY=django-insecure-8f3k2jd9s0x7",
            "django-insecure-8f3k2jd9s0x7",
        ),
        ("export SERVICE_TOKEN=q8Zr3mX1pL0vK7", "q8Zr3mX1pL0vK7"),
        (r#"{\"password\": \"hunter2!\"}"#, "hunter2!"),
        ("let password = \"s3cr3t-pw\";", "s3cr3t-pw"),
        (
            "client_secret := \"Zf3D0LXCM3EIMbgJpUNnkRtOfOueHznB\"",
            "Zf3D0LXCM3EIMbgJpUNnkRtOfOueHznB",
        ),
    ] {
        let out = redact(line);
        assert!(!out.text.contains(secret), "{line} -> {}", out.text);
        assert!(
            out.text.contains("[REDACTED:password]"),
            "{line} -> {}",
            out.text
        );
    }
}
