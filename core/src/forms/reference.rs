//! Artifact refs, `ctx://<conversationId>/<kind>/<file>`: minted from ids, parsed back.
//!
//! Ids may hold any character the API accepts (everything but `/`, `\` and NUL), yet a ref
//! must survive being quoted in prose, in JSON (legacy records), in `context_tail("…")`
//! advice, being found again by the exporter's scanner, and being typed back by a model.
//! So the conversation id and the file name are percent-encoded: every UTF-8 byte outside
//! [`is_plain`]'s set becomes `%XX` (uppercase hex), as in URIs. Ids made only of plain
//! characters (`call_abc`, `toolu_01A…`, UUIDs, `functions.bash:0`) keep the ref they always
//! had. Decoding is lenient where that is harmless: hex in either case, and a character
//! that should have been escaped taken as itself (a model that types `call (1).txt` back
//! still reaches `call (1).txt`); only a `%` that starts no valid escape is refused.

use std::borrow::Cow;
use std::fmt::Write as _;

use crate::path::unsafe_component;

/// What produced an artifact: a tool call, or a terminal snippet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArtifactKind {
    /// `artifacts/tool/<toolCallId>.json|.txt`.
    Tool,
    /// `artifacts/terminal/<snippetId>.log`.
    Terminal,
    /// `artifacts/knowledge/<id>.txt|.json`: a workspace's knowledge artifact (see
    /// [`crate::workspace`]).
    Knowledge,
}

impl ArtifactKind {
    /// The directory under `artifacts/`, also the ref's kind segment.
    pub fn dir(self) -> &'static str {
        match self {
            ArtifactKind::Tool => "tool",
            ArtifactKind::Terminal => "terminal",
            ArtifactKind::Knowledge => "knowledge",
        }
    }

    /// The kind whose [`dir`](ArtifactKind::dir) is `dir`, if any.
    ///
    /// ```
    /// use tool_offload_core::materialize::ArtifactKind;
    /// assert_eq!(ArtifactKind::from_dir("terminal"), Some(ArtifactKind::Terminal));
    /// assert_eq!(ArtifactKind::from_dir("index"), None);
    /// ```
    pub fn from_dir(dir: &str) -> Option<Self> {
        [Self::Tool, Self::Terminal, Self::Knowledge]
            .into_iter()
            .find(|kind| kind.dir() == dir)
    }

    /// The option or field naming the artifact, for error messages.
    pub(crate) fn id_field(self) -> &'static str {
        match self {
            ArtifactKind::Tool => "toolCallId",
            ArtifactKind::Terminal => "snippetId",
            ArtifactKind::Knowledge => "id",
        }
    }
}

/// Scheme of artifact refs: `ctx://<conversationId>/<kind>/<file>`.
pub(crate) const SCHEME: &str = "ctx://";

/// Bytes a ref shows as they are: ASCII letters and digits and `- . _ ~ :`, i.e. URI
/// "unreserved" plus `:` (Kimi-style `functions.bash:0` ids). Everything else is escaped:
/// `%` itself (or escapes would be ambiguous); space, quotes, brackets, `,` and `\`, which
/// end a ref in prose or JSON; `/` (a separator); `<>&` (markup), `*` (markdown), `#?`
/// (URL parts); control characters; and every non-ASCII byte, since Unicode spaces would
/// end a ref, look-alikes and invisible or bidi characters would hide what it names, and
/// a model or client may re-normalise non-ASCII text it copies, where ASCII is copied
/// exactly.
pub(crate) fn is_plain(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~' | b':')
}

/// `segment` as it appears in a ref: unchanged when every byte is plain.
pub(crate) fn encode(segment: &str) -> Cow<'_, str> {
    if segment.bytes().all(is_plain) {
        return Cow::Borrowed(segment);
    }
    let mut out = String::with_capacity(segment.len() * 3);
    for byte in segment.bytes() {
        if is_plain(byte) {
            out.push(char::from(byte));
        } else {
            // Writing to a String cannot fail.
            let _ = write!(out, "%{byte:02X}");
        }
    }
    Cow::Owned(out)
}

/// The longest a ref's conversation id or file name may be once encoded, in characters:
/// as long as a file name may be in bytes. It bounds a ref to ~520 characters, so a
/// summary or page naming it still fits the smallest limits (a 255-byte id of bytes that
/// all need escaping would otherwise make a 765-character segment).
///
/// ```
/// use tool_offload_core::materialize::{Materializer, MaterializerOptions, MAX_REF_SEGMENT_CHARS};
/// assert_eq!(MAX_REF_SEGMENT_CHARS, 255);
/// // "é" is 2 bytes, 6 characters once encoded (%C3%A9): 43 of them are too many.
/// assert!(Materializer::new(MaterializerOptions::new("/d", &"é".repeat(43), "/")).is_err());
/// ```
pub const MAX_REF_SEGMENT_CHARS: usize = crate::path::MAX_FILE_NAME_BYTES;

/// Why `value` cannot be an id whose file name (with `name_bytes` more bytes around it)
/// also appears in refs: [`unsafe_component`]'s reasons, or a segment over
/// [`MAX_REF_SEGMENT_CHARS`] once percent-encoded. `None` when it is safe.
pub(crate) fn unsafe_ref_component(value: &str, name_bytes: usize) -> Option<&'static str> {
    unsafe_component(value, name_bytes).or_else(|| {
        let encoded: usize = value.bytes().map(|b| if is_plain(b) { 1 } else { 3 }).sum();
        (encoded + name_bytes > MAX_REF_SEGMENT_CHARS)
            .then_some("makes a ref segment longer than 255 characters once percent-encoded")
    })
}

/// The ref of artifact `file` of `kind` in `conversation`.
pub(crate) fn mint(conversation: &str, kind: ArtifactKind, file: &str) -> String {
    format!(
        "{SCHEME}{}/{}/{}",
        encode(conversation),
        kind.dir(),
        encode(file)
    )
}

/// `segment` with its `%XX` escapes decoded; any other character stands for itself.
///
/// # Errors
/// Why it is malformed: a `%` not followed by two hex digits, or escapes that are not
/// UTF-8.
pub(crate) fn decode(segment: &str) -> Result<Cow<'_, str>, String> {
    if !segment.contains('%') {
        return Ok(Cow::Borrowed(segment));
    }
    let bytes = segment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'%' {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        let digit = |at: usize| bytes.get(at).and_then(|b| char::from(*b).to_digit(16));
        let (Some(high), Some(low)) = (digit(i + 1), digit(i + 2)) else {
            let shown: String = segment[i..].chars().take(3).collect();
            return Err(format!(
                "{shown:?} is not an escape: \"%\" must be followed by two hex digits (\"%\" itself is written %25)"
            ));
        };
        // Two hex digits make at most 0xFF.
        out.push((high * 16 + low) as u8);
        i += 3;
    }
    String::from_utf8(out)
        .map(Cow::Owned)
        .map_err(|_| "its %-escapes do not decode to UTF-8 text".to_owned())
}

/// The ref of the artifact `file` of `kind` in `conversation`, both ids
/// percent-encoded as every ref is: how a listing names what it finds on disk.
///
/// ```
/// use tool_offload_core::materialize::{artifact_ref, ArtifactKind};
/// assert_eq!(artifact_ref("conv 1", ArtifactKind::Tool, "call (1).txt"), "ctx://conv%201/tool/call%20%281%29.txt");
/// ```
pub fn artifact_ref(conversation: &str, kind: ArtifactKind, file: &str) -> String {
    mint(conversation, kind, file)
}

/// The conversation a ref belongs to, decoded: what a reader needs to open it without
/// knowing the conversation beforehand (the command line's `read`, `tail`, `grep`).
///
/// # Errors
/// `REF_OUT_OF_SCOPE` for a string that is not a ref (or a malformed one).
///
/// ```
/// use tool_offload_core::materialize::ref_conversation;
/// assert_eq!(ref_conversation("ctx://conv%201/tool/c1.txt").unwrap(), "conv 1");
/// assert!(ref_conversation("ctx://conv/tool/..").is_err());
/// ```
pub fn ref_conversation(reference: &str) -> Result<String, crate::error::OffloadError> {
    match parse(reference) {
        Ok(parsed) => Ok(parsed.conversation.into_owned()),
        Err(RefError::Malformed(reason)) => Err(crate::error::OffloadError::MalformedRef {
            reference: reference.into(),
            reason,
        }),
        Err(RefError::OutOfScope) => {
            Err(crate::error::OffloadError::RefOutOfScope(reference.into()))
        }
    }
}

/// A ref taken apart, its segments decoded (borrowed when they hold no escape).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ParsedRef<'a> {
    /// The conversation id, as the materializer was given it.
    pub conversation: Cow<'a, str>,
    /// `tool/` or `terminal/`.
    pub kind: ArtifactKind,
    /// The file name on disk: a single safe path component.
    pub file: Cow<'a, str>,
    /// Whether the ref was spelled as [`mint`] spells it (so callers holding the text
    /// can use it as the canonical ref without building one).
    pub canonical_spelling: bool,
}

impl ParsedRef<'_> {
    /// The canonical spelling of this ref, as [`mint`] writes it.
    pub fn canonical(&self) -> String {
        mint(&self.conversation, self.kind, &self.file)
    }
}

/// `text` without what a model wraps a ref in when it copies one: surrounding blanks,
/// backticks, quotes, angle brackets, parentheses or square brackets, and punctuation
/// after it (a ref's file name ends in its extension, and escapes every bracket and
/// quote, so none of these is ever part of one). A direct or batch offload placeholder
/// given whole becomes the file it names (see
/// [`Materializer::resolve_readable`](crate::materialize::Materializer::resolve_readable)).
///
/// ```
/// use tool_offload_core::materialize::clean_ref;
/// assert_eq!(clean_ref(" `ctx://c/tool/call_1.txt`."), "ctx://c/tool/call_1.txt");
/// assert_eq!(clean_ref("(\"ctx://c/tool/a.json\"),"), "ctx://c/tool/a.json");
/// assert_eq!(clean_ref("<ctx://c/tool/a.txt>"), "ctx://c/tool/a.txt");
/// assert_eq!(clean_ref("ctx://c/tool/a.txt"), "ctx://c/tool/a.txt");
/// assert_eq!(clean_ref("[Content offloaded to: ./tool-result-t1.md]"), "./tool-result-t1.md");
/// ```
pub fn clean_ref(text: &str) -> &str {
    let unwrapped = unwrap(text);
    match PLACEHOLDER_PREFIXES
        .iter()
        .find_map(|p| unwrapped.strip_prefix(p))
    {
        Some(file) => unwrap(file),
        None => unwrapped,
    }
}

/// What precedes the file in the direct and batch placeholders, once their brackets are
/// off.
const PLACEHOLDER_PREFIXES: [&str; 2] = [
    crate::forms::placeholder::BATCH_LABEL,
    crate::forms::placeholder::DIRECT_LABEL,
];

/// `text` without the wrapping [`clean_ref`] takes off.
fn unwrap(text: &str) -> &str {
    const WRAP: &[char] = &['`', '"', '\'', '<', '>', '(', ')', '[', ']', '{', '}', '*'];
    const AFTER: &[char] = &['.', ',', ';', ':', '!', '?'];
    let mut s = text.trim_matches(|c: char| c.is_ascii_whitespace());
    loop {
        let next = s
            .trim_start_matches(WRAP)
            .trim_end_matches(WRAP)
            .trim_end_matches(AFTER)
            .trim_matches(|c: char| c.is_ascii_whitespace());
        if next.len() == s.len() {
            return s;
        }
        s = next;
    }
}

/// Why a string is not a usable ref.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum RefError {
    /// Not a ref, an unknown kind, or a file name that is not one safe component once
    /// decoded (`..`, a `/`, a `\`, a NUL).
    OutOfScope,
    /// A `%` that starts no valid escape, or escapes that are not UTF-8.
    Malformed(String),
}

/// Take `reference` apart. The split on `/` comes before decoding, so an escaped `%2F`
/// never acts as a separator, and the decoded file must be one safe path component.
pub(crate) fn parse(reference: &str) -> Result<ParsedRef<'_>, RefError> {
    let rest = reference.strip_prefix(SCHEME).ok_or(RefError::OutOfScope)?;
    let (conversation, rest) = rest.split_once('/').ok_or(RefError::OutOfScope)?;
    let (kind, file) = rest.split_once('/').ok_or(RefError::OutOfScope)?;
    parse_parts(conversation, kind, file)
}

/// [`parse`] of `ctx://<conversation>/<kind>/<file>`, already split.
pub(crate) fn parse_parts<'a>(
    conversation: &'a str,
    kind: &str,
    file: &'a str,
) -> Result<ParsedRef<'a>, RefError> {
    let kind = ArtifactKind::from_dir(kind).ok_or(RefError::OutOfScope)?;
    let canonical_spelling = conversation.bytes().all(is_plain) && file.bytes().all(is_plain);
    let conversation = decode(conversation).map_err(RefError::Malformed)?;
    let file = decode(file).map_err(RefError::Malformed)?;
    if unsafe_component(&conversation, 0).is_some() || unsafe_component(&file, 0).is_some() {
        return Err(RefError::OutOfScope);
    }
    Ok(ParsedRef {
        conversation,
        kind,
        file,
        canonical_spelling,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_ids_are_unchanged_and_others_escaped_as_utf8() {
        for id in ["call_abc-1", "toolu_01A09q", "functions.bash:0", "a~b.txt"] {
            assert_eq!(encode(id), id);
        }
        assert_eq!(encode("call (1)"), "call%20%281%29");
        assert_eq!(encode("50%"), "50%25");
        assert_eq!(encode("é😀"), "%C3%A9%F0%9F%98%80");
        assert_eq!(
            encode("\"'`()[]{}<>,"),
            "%22%27%60%28%29%5B%5D%7B%7D%3C%3E%2C"
        );
        assert_eq!(
            mint("c 1", ArtifactKind::Terminal, "t.log"),
            "ctx://c%201/terminal/t.log"
        );
    }

    #[test]
    fn decode_is_lenient_about_case_and_raw_characters_but_not_stray_percents() {
        assert_eq!(decode("call%20%281%29").unwrap(), "call (1)");
        assert_eq!(decode("%c3%a9").unwrap(), "é");
        assert_eq!(decode("call (1)").unwrap(), "call (1)");
        assert_eq!(decode("%2541").unwrap(), "%41");
        for bad in ["50%", "50%.txt", "%zz", "%4", "a%G0"] {
            let err = decode(bad).unwrap_err();
            assert!(err.contains("is not an escape"), "{bad}: {err}");
        }
        assert!(decode("%C3").unwrap_err().contains("UTF-8"));
        assert!(decode("%FF%FE").unwrap_err().contains("UTF-8"));
    }

    #[test]
    fn decoding_never_yields_a_path() {
        for file in ["%2E%2E", "%2e", "a%2Fb.txt", "a%5Cb.txt", "a%00.txt", ""] {
            assert_eq!(
                parse(&format!("ctx://c/tool/{file}")),
                Err(RefError::OutOfScope),
                "{file}"
            );
        }
        assert_eq!(parse("ctx://%2E%2E/tool/a.txt"), Err(RefError::OutOfScope));
        assert_eq!(parse("ctx://c/other/a.txt"), Err(RefError::OutOfScope));
        let parsed = parse("ctx://c%2Fd/tool/a.txt");
        assert_eq!(parsed, Err(RefError::OutOfScope));
    }

    #[test]
    fn parse_inverts_mint() {
        let id = "x %25 /? \u{0}";
        let reference = mint("conv 1", ArtifactKind::Tool, "call (1).txt");
        assert_eq!(reference, "ctx://conv%201/tool/call%20%281%29.txt");
        let parsed = parse(&reference).unwrap();
        assert_eq!(parsed.conversation, "conv 1");
        assert_eq!(parsed.file, "call (1).txt");
        assert_eq!(parsed.canonical(), reference);
        // The file name itself never holds "/" or NUL (the API refuses such ids), but
        // their escapes round-trip through decode all the same.
        assert_eq!(decode(&encode(id)).unwrap(), id);
    }
}
