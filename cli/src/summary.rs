//! What a run did, and the summary printed on stderr: text for people, or one JSON
//! object (`--json`) for programs.

use serde_json::json;
use tool_offload::core::Map;
use tool_offload::core::PlannedMessage;
use tool_offload::json::stringify;
use tool_offload::Value;

/// Counts accumulated over the messages of a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Messages read (blank JSONL lines excluded).
    pub messages: u64,
    /// Tool results seen, offloaded or not.
    pub tool_results: u64,
    /// Their total size in UTF-16 code units.
    pub tool_result_chars: u64,
    /// Tool results offloaded, one file each.
    pub offloaded: u64,
    /// Sum of the sizes of the offloaded contents, in UTF-16 code units.
    pub freed_chars: u64,
    /// Items that look like tool results but are of no shape we know (left as they are).
    pub unrecognized: u64,
}

impl Stats {
    /// Count one message as planned (and written).
    pub fn add<T>(&mut self, planned: &PlannedMessage<T>) {
        self.messages += 1;
        self.tool_results += planned.tool_results as u64;
        self.tool_result_chars += planned.tool_result_chars;
        self.offloaded += planned.offloads.len() as u64;
        self.freed_chars += planned.offloads.iter().map(|o| o.chars as u64).sum::<u64>();
        self.unrecognized += planned.unrecognized.len() as u64;
    }

    /// Freed characters as a percentage of all tool-result characters, to one
    /// decimal (0 when there were none).
    pub fn freed_percent(&self) -> f64 {
        if self.tool_result_chars == 0 {
            return 0.0;
        }
        (self.freed_chars as f64 * 1000.0 / self.tool_result_chars as f64).round() / 10.0
    }
}

/// The summary as one JSON object (`--json`), in `JSON.stringify` form; with several
/// inputs it names its `input` first.
pub fn to_json(stats: &Stats, output_dir: &str, input: Option<&str>) -> String {
    let mut summary = json!({
        "messages": stats.messages,
        "toolResults": stats.tool_results,
        "offloaded": stats.offloaded,
        "freedChars": stats.freed_chars,
        "toolResultChars": stats.tool_result_chars,
        "freedPercent": stats.freed_percent(),
        "files": stats.offloaded,
        "outputDir": output_dir,
    });
    if let (true, Value::Object(fields)) = (stats.unrecognized > 0, &mut summary) {
        fields.insert("unrecognized".into(), stats.unrecognized.into());
    }
    if let (Some(input), Value::Object(fields)) = (input, &mut summary) {
        let mut named = Map::new();
        named.insert("input".into(), input.into());
        named.append(fields);
        summary = Value::Object(named);
    }
    stringify(&summary)
}

/// The summary as text for people, one fact per line.
pub fn to_text(stats: &Stats, output_dir: &str) -> String {
    format!(
        "messages:      {}\n\
         tool results:  {} seen, {} offloaded\n\
         freed:         {} of {} characters ({:.1}%)\n\
         files written: {} in {}\n",
        stats.messages,
        stats.tool_results,
        stats.offloaded,
        stats.freed_chars,
        stats.tool_result_chars,
        stats.freed_percent(),
        stats.offloaded,
        output_dir,
    )
}
