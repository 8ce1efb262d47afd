//! Lines of newline-delimited JSON-RPC as the proxy reads them, from either side: bytes
//! decoded as Node decodes a stream (a byte that is not UTF-8 becomes U+FFFD), JSON
//! parsed as `JSON.parse` parses it (escaped lone surrogates too, held as core's
//! stand-ins, [`LoneSurrogates`]) up to [`MAX_DEPTH`] levels of nesting. Of a line it
//! cannot parse, the proxy still learns what [`envelope`](super::envelope) finds (its
//! id, whether it is a request) and whether `JSON.parse` would take it.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::Value;
use tokio::io::{AsyncBufRead, AsyncBufReadExt};
use tool_offload::json::{is_json_document, LoneSurrogates};

use super::envelope;
use super::rpc::RequestId;

/// The deepest nesting of arrays and objects the proxy parses: far past anything MCP
/// sends (serde_json's own default is 128). Parsing, patching, storing and dropping a
/// message this deep takes about 2.5 MiB of stack in a debug build, much less in
/// release: a quarter of a worker's ([`super::THREAD_STACK`]; tested here and in
/// `result.rs`). A deeper line is relayed as it is when nothing in it needs changing,
/// else its request is answered with an error.
pub const MAX_DEPTH: usize = 1000;

/// The next line of `reader` (without its `\n` or `\r\n`), bytes that are not UTF-8 as
/// U+FFFD; `None` at the end. `buf` is scratch space kept between calls.
///
/// # Errors
/// When reading fails.
pub async fn next_line<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    buf: &mut Vec<u8>,
) -> std::io::Result<Option<String>> {
    buf.clear();
    if reader.read_until(b'\n', buf).await? == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
    }
    Ok(Some(String::from_utf8_lossy(buf).into_owned()))
}

/// A parsed line.
#[derive(Debug)]
pub struct Message {
    /// The message, a lone surrogate as its stand-in.
    pub value: Value,
    /// The stand-ins of the line's lone surrogates.
    pub lone: LoneSurrogates,
}

impl Message {
    /// The message's `id`, unless it has none or `null`.
    pub fn id(&self) -> Option<RequestId> {
        let id = self.value.get("id").filter(|id| !id.is_null())?;
        Some(RequestId::of(id, &self.lone))
    }

    /// The message's `method`, if it is a string.
    pub fn method(&self) -> Option<&str> {
        self.value.get("method").and_then(Value::as_str)
    }

    /// The message (changed or not) as a line, each lone surrogate as the escape
    /// `JSON.stringify` prints.
    pub fn to_line(&self) -> String {
        self.lone.restore(&self.value.to_string()).into_owned()
    }

    /// `value` (a part of this message) as JavaScript hands it on: each lone surrogate
    /// as U+FFFD, what the Materializer stores and a read-back tool reads.
    pub fn written<'v>(&self, value: &'v Value) -> Cow<'v, Value> {
        if self.lone.is_empty() {
            Cow::Borrowed(value)
        } else {
            Cow::Owned(written(value, &self.lone))
        }
    }
}

/// A line the proxy could not parse, and what it learnt of it nonetheless.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unparsed {
    /// Why, to follow "cannot relay it: ": `not valid JSON (EOF while parsing…)`.
    pub cause: String,
    /// The parser's own words: `EOF while parsing a string at line 1 column 51`.
    pub detail: String,
    /// Whether `JSON.parse` takes it (as an object or array): then it can still be
    /// relayed as it is.
    pub is_json: bool,
    /// The top-level `id`, when it is a string or a number.
    pub id: Option<RequestId>,
    /// Whether it has a top-level `method` (a request or notification, not a response).
    pub has_method: bool,
}

/// Parse `line` as `JSON.parse` would, up to [`MAX_DEPTH`] levels deep.
///
/// # Errors
/// The [`Unparsed`] line when it is not JSON, nests deeper than [`MAX_DEPTH`], or holds
/// what serde_json cannot (a number such as `1e400`, which `JSON.parse` reads as
/// `Infinity`).
pub fn parse(line: &str) -> Result<Message, Unparsed> {
    let envelope = envelope::scan(line.as_bytes());
    let unparsed = |detail: String| {
        let is_json = is_json_document(line);
        Unparsed {
            cause: if is_json {
                format!("not readable by the proxy ({detail})")
            } else {
                format!("not valid JSON ({detail})")
            },
            detail,
            is_json,
            id: envelope.id.clone().and_then(|range| id_at(&line[range])),
            has_method: envelope.has_method,
        }
    };
    if envelope.depth > MAX_DEPTH {
        let mut refused = unparsed(format!(
            "nested {} levels deep, more than the {MAX_DEPTH} the proxy reads",
            envelope.depth
        ));
        refused.cause = if refused.is_json {
            refused.detail.clone()
        } else {
            "not valid JSON".to_owned()
        };
        return Err(refused);
    }
    let (marked, lone) =
        LoneSurrogates::mark(line.as_bytes()).map_err(|e| unparsed(e.to_string()))?;
    let mut de = serde_json::Deserializer::from_slice(&marked);
    // Within MAX_DEPTH (checked above), which the workers' stacks hold.
    de.disable_recursion_limit();
    let value = Value::deserialize(&mut de)
        .and_then(|value| de.end().map(|()| value))
        .map_err(|e| unparsed(e.to_string()))?;
    Ok(Message { value, lone })
}

/// The id whose JSON text is `text` (a string or a number).
fn id_at(text: &str) -> Option<RequestId> {
    let (marked, lone) = LoneSurrogates::mark(text.as_bytes()).ok()?;
    let id: Value = serde_json::from_slice(&marked).ok()?;
    (id.is_string() || id.is_number()).then(|| RequestId::of(&id, &lone))
}

/// `value` with each stand-in of `lone` as U+FFFD, in keys and strings.
fn written(value: &Value, lone: &LoneSurrogates) -> Value {
    match value {
        Value::String(s) => Value::String(lone.to_written(s).into_owned()),
        Value::Array(items) => items.iter().map(|item| written(item, lone)).collect(),
        Value::Object(members) => members
            .iter()
            .map(|(k, v)| (lone.to_written(k).into_owned(), written(v, lone)))
            .collect(),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lone_surrogates_parse_and_go_back_out_as_escapes() {
        let line = r#"{"jsonrpc":"2.0","id":"k\udc00","result":{"text":"cut \ud83d","pair":"\ud83d\ude00"}}"#;
        let message = parse(line).unwrap();
        assert_eq!(message.id().unwrap().json(), r#""k\udc00""#);
        assert_eq!(message.value["result"]["pair"], "😀");
        assert_eq!(
            *message.written(&message.value["result"]),
            json!({ "text": "cut \u{FFFD}", "pair": "😀" })
        );
        assert_eq!(
            message.to_line(),
            r#"{"jsonrpc":"2.0","id":"k\udc00","result":{"text":"cut \ud83d","pair":"😀"}}"#
        );
    }

    #[test]
    fn a_line_that_is_not_json_keeps_its_envelope() {
        let cut = r#"{"jsonrpc":"2.0","id":3,"result":{"content":[{"text":"a"#;
        let unparsed = parse(cut).unwrap_err();
        assert!(!unparsed.is_json);
        assert!(!unparsed.has_method);
        assert_eq!(unparsed.id.unwrap().json(), "3");
        assert_eq!(
            unparsed.cause,
            "not valid JSON (EOF while parsing a string at line 1 column 55)"
        );
        let request = parse(r#"{"id":"x\ud800","method":"ping","params":{,}}"#).unwrap_err();
        assert_eq!(request.id.unwrap().json(), r#""x\ud800""#);
        assert!(request.has_method);
        assert_eq!(parse("this is not JSON-RPC").unwrap_err().id, None);
    }

    #[test]
    fn what_json_parse_takes_but_serde_json_cannot_hold_is_still_json() {
        let unparsed = parse(r#"{"id":1,"result":[1e400]}"#).unwrap_err();
        assert!(unparsed.is_json);
        assert!(unparsed
            .cause
            .starts_with("not readable by the proxy (number out of range at line 1"));
    }

    fn nested(depth: usize) -> String {
        let inner = format!("{}\"x\"{}", "[".repeat(depth), "]".repeat(depth));
        format!(r#"{{"jsonrpc":"2.0","id":1,"result":{inner}}}"#)
    }

    /// Run `f` on a quarter of the stack the runtime's workers get.
    fn on_a_quarter_stack(f: impl FnOnce() + Send + 'static) {
        std::thread::Builder::new()
            .stack_size(super::super::THREAD_STACK / 4)
            .spawn(f)
            .unwrap()
            .join()
            .unwrap();
    }

    #[test]
    fn lines_up_to_max_depth_parse_and_deeper_ones_are_refused_whole() {
        on_a_quarter_stack(|| {
            assert!(parse(&nested(200)).is_ok());
            assert!(parse(&nested(MAX_DEPTH - 1)).is_ok());
        });
        let unparsed = parse(&nested(MAX_DEPTH)).unwrap_err();
        assert_eq!(
            unparsed.cause,
            "nested 1001 levels deep, more than the 1000 the proxy reads"
        );
        assert!(unparsed.is_json);
        assert_eq!(unparsed.id.unwrap().json(), "1");
        let far = parse(&nested(100_000)).unwrap_err();
        assert!(far.is_json);
        let broken = parse(&nested(2000)[..3000]).unwrap_err();
        assert_eq!(
            (broken.cause.as_str(), broken.is_json),
            ("not valid JSON", false)
        );
    }

    #[test]
    fn max_depth_fits_a_worker_stack_with_room_to_spare() {
        // Parse, copy, patch, serialize and drop at the deepest.
        let line = nested(MAX_DEPTH - 1).replace("\"x\"", "\"cut \\ud83d\"");
        on_a_quarter_stack(move || {
            let mut message = parse(&line).unwrap();
            let copy = message.written(&message.value["result"]).into_owned();
            message.value["result"] = json!([copy.clone(), copy]);
            assert!(message.to_line().len() > 2 * line.len() - 100);
            drop(message);
        });
    }

    #[tokio::test]
    async fn lines_are_decoded_as_node_decodes_them() {
        let input: &[u8] = b"{\"a\":\"\xff\"}\r\nlast";
        let mut reader = tokio::io::BufReader::new(input);
        let mut buf = Vec::new();
        let first = next_line(&mut reader, &mut buf).await.unwrap();
        assert_eq!(first.as_deref(), Some("{\"a\":\"\u{FFFD}\"}"));
        let last = next_line(&mut reader, &mut buf).await.unwrap();
        assert_eq!(last.as_deref(), Some("last"));
        assert_eq!(next_line(&mut reader, &mut buf).await.unwrap(), None);
    }
}
