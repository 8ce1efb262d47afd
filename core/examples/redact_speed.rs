//! How fast `redact` is: a 10 MB log with no candidate, and one whose every line holds a
//! `password=` (the worst case: every rule's regex runs on every line it can), and one
//! line of minified JSON as long, with a candidate every 80 bytes; then the
//! same logs with one user pattern that matches no line, and one that matches every line.
use tool_offload_core::redact::{RedactPattern, Redaction};

fn main() {
    let user = |pattern: &str| {
        Redaction::with_patterns(vec![RedactPattern::new(pattern)], None).expect("valid")
    };
    let runs = [
        ("built-in rules", Redaction::builtin()),
        ("+ ACME-[0-9]{8} (no line)", user("ACME-[0-9]{8}")),
        ("+ worker-[0-9]+ (every line)", user(r"worker-[0-9]+")),
    ];
    for line in [
        "2024-05-14T10:00:01Z INFO worker-3 GET /api/v1/orders/12345 200 1532 bytes in 12ms\n",
        "2024-05-14T10:00:01Z INFO connect password=hunter2-the-longer api_key=abcdefgh\n",
        // Minified JSON: one 10 MB line with a candidate every 80 bytes.
        r#"{"user":"ann","password":"hunter2-the-longer","api_key":"abcdefgh12345"},"#,
    ] {
        let text = line.repeat(10 * 1024 * 1024 / line.len());
        for (name, redaction) in &runs {
            let t = std::time::Instant::now();
            let r = redaction.apply(&text);
            println!(
                "{name}: {} MB in {:?}, {:?}",
                text.len() / 1_000_000,
                t.elapsed(),
                r.counts
            );
        }
    }
}
