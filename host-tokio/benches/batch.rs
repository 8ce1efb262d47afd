//! Placeholder: batch benchmarks are being written.
fn main() {}
