//! An artifact's content in a bundle: text as it is, binary data (`.bin`) in base64
//! (`"encoding": "base64"`), each hashed over its bytes.

use crate::read::artifacts::is_binary_path;
use crate::sha256::sha256_hex_of;

use crate::create::{create_unless_taken, holds, Creation, Payload, Payloads, SameData};
use crate::{error::OffloadError, io::FileReader, io::FileWriter};
use serde_json::{Map, Value};

/// The `encoding` of binary content in a bundle.
const BASE64: &str = "base64";

/// One artifact's content, read from a file or a bundle.
pub(super) enum Content<'a> {
    Text(std::borrow::Cow<'a, str>),
    Bytes(Vec<u8>),
}

impl<'a> Content<'a> {
    /// The artifact at `path` (ref `reference`): bytes for a `.bin`, else text.
    pub(super) async fn read<R: FileReader + ?Sized>(
        reference: &str,
        path: String,
        reader: &R,
    ) -> Result<Content<'static>, OffloadError> {
        let failed = |path: String| move |source| OffloadError::ReadFailed { path, source };
        if !is_binary_path(&path) {
            return match reader.read_file(&path).await {
                Ok(Some(text)) => Ok(Content::Text(text.into())),
                Ok(None) => Err(OffloadError::RefNotFound(reference.into())),
                Err(source) => Err(OffloadError::ReadFailed { path, source }),
            };
        }
        match reader.size(&path).await.map_err(failed(path.clone()))? {
            None => Err(OffloadError::RefNotFound(reference.into())),
            Some(size) => match reader.read_range(&path, 0, size).await {
                Ok(bytes) => Ok(Content::Bytes(bytes)),
                // Removed since its size was read (a concurrent gc): missing, as when
                // not found at all.
                Err(source) => match reader.size(&path).await {
                    Ok(None) => Err(OffloadError::RefNotFound(reference.into())),
                    _ => Err(OffloadError::ReadFailed { path, source }),
                },
            },
        }
    }

    /// The content of a bundle's `artifact`, whose `content` field is `content`.
    pub(super) fn of(artifact: &Value, content: &'a str) -> Result<Self, String> {
        match artifact.get("encoding") {
            None | Some(Value::Null) => Ok(Content::Text(content.into())),
            Some(Value::String(e)) if e == BASE64 => crate::base64::decode(content)
                .map(Content::Bytes)
                .ok_or_else(|| "has content that is not padded base64".to_owned()),
            Some(other) => Err(format!(
                "has encoding {}: only \"base64\" is known",
                crate::json::stringify(other)
            )),
        }
    }

    /// `content` (and `encoding` for binary data) in a bundle's artifact.
    pub(super) fn insert_into(self, artifact: &mut Map<String, Value>) {
        match self {
            Content::Text(text) => {
                artifact.insert("content".into(), Value::String(text.into_owned()));
            }
            Content::Bytes(bytes) => {
                artifact.insert("encoding".into(), BASE64.into());
                let encoded = crate::base64::encode(&bytes);
                artifact.insert("content".into(), Value::String(encoded));
            }
        }
    }

    /// Lowercase hex SHA-256 of its bytes (a text's UTF-8).
    pub(super) fn sha256(&self) -> String {
        match self {
            Content::Text(text) => sha256_hex_of(text.as_bytes()),
            Content::Bytes(bytes) => sha256_hex_of(bytes),
        }
    }

    /// What is written.
    fn payload(&self) -> Payload<'_> {
        match self {
            Content::Text(text) => Payload::Text(text),
            Content::Bytes(bytes) => Payload::Bytes(bytes),
        }
    }

    /// Whether the file at `target` holds this content: `None` when there is none.
    pub(super) async fn held_at<IO: FileReader + ?Sized>(
        &self,
        target: &str,
        io: &IO,
    ) -> Result<Option<bool>, OffloadError> {
        holds(&Payloads(io), target, &SameData::of(&self.payload())).await
    }

    /// Create the file at `target` with this content, unless something is there.
    pub(super) async fn create_at<IO: FileWriter + FileReader + ?Sized>(
        &self,
        target: &str,
        io: &IO,
    ) -> Result<Creation, OffloadError> {
        let payload = self.payload();
        let same = SameData::of(&payload);
        create_unless_taken(&Payloads(io), target, &payload, &same).await
    }
}
