//! How fast `redact` is: a 10 MB log with no candidate, and one whose every line holds a
//! `password=` (the worst case: every rule's regex runs on every line it can).
fn main() {
    for line in [
        "2024-05-14T10:00:01Z INFO worker-3 GET /api/v1/orders/12345 200 1532 bytes in 12ms\n",
        "2024-05-14T10:00:01Z INFO connect password=hunter2-the-longer api_key=abcdefgh\n",
    ] {
        let text = line.repeat(10 * 1024 * 1024 / line.len());
        let t = std::time::Instant::now();
        let r = tool_offload_core::redact::redact(&text);
        println!(
            "{} MB in {:?}, {:?}",
            text.len() / 1_000_000,
            t.elapsed(),
            r.counts
        );
    }
}
