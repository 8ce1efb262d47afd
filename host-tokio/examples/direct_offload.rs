//! Demo: offload a large tool-result message through the native tokio host.
//!
//! `cargo run -p tool-offload --example direct_offload [-- OUTPUT_DIR]`

use tool_offload::{json, offload_tool_result_to_file, utf16_len};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let sample = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/sample/tool-result-message.json"
    );
    let message = json::parse(&std::fs::read_to_string(sample)?)?;
    let output_dir = std::env::args().nth(1).unwrap_or_else(|| "out/demo".into());

    let before = utf16_len(&json::stringify(&message));
    let result = offload_tool_result_to_file(&message, "rust", &output_dir).await?;
    let after = utf16_len(&json::stringify(&result.message));

    println!("tokio host (tool-offload crate):");
    for file in &result.files {
        println!("  wrote {file}");
    }
    println!(
        "  freed {} characters of tool-result content",
        result.freed_chars
    );
    println!(
        "  message: {before} → {after} characters (~{} → ~{} tokens)",
        tokens(before),
        tokens(after)
    );
    let first = result.message["content"][0]["content"]
        .as_str()
        .unwrap_or_default();
    println!("  first block now: {first}");
    Ok(())
}

/// A rough token estimate: about four characters per token.
fn tokens(chars: usize) -> usize {
    (chars as f64 / 4.0).round() as usize
}
