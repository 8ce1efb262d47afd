//! agent: summarise the newest entries of a log file.
//!
//! Usage: agent <log-file> [limit]

use std::env;
use std::fs;
use std::process::ExitCode;

/// One parsed log line.
struct Entry {
    level: String,
    message: String,
}

fn parse(line: &str) -> Option<Entry> {
    let (level, message) = line.split_once(": ")?;
    Some(Entry {
        level: level.trim().to_owned(),
        message: message.trim().to_owned(),
    })
}

fn summarise(entries: &[Entry], limit: usize) -> String {
    let mut out = String::new();
    for entry in entries.iter().rev().take(limit) {
        out.push_str(&format!("[{}] {}\n", entry.level, entry.message));
    }
    out
}

fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: agent <log-file> [limit]");
        return ExitCode::FAILURE;
    };
    let Ok(text) = fs::read_to_string(path) else {
        eprintln!("agent: cannot read {path}");
        return ExitCode::FAILURE;
    };
    let entries: Vec<Entry> = text.lines().filter_map(parse).collect();
    let limit: usize = args.get(1);
    print!("{}", summarise(&entries, limit));
    ExitCode::SUCCESS
}
