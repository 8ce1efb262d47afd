//! Any JS object with `mkdir(dir)` and `writeFile(path, data)` (and, for the no-clobber
//! guarantee, `createFile(path, data)`) as a core [`FileWriter`].

use js_sys::{Function, JsString};
use tool_offload_core::{
    safe_count, CreateOutcome, FileLifecycle, FileReader, FileStat, FileWriter, IoError,
    OffloadError,
};
use wasm_bindgen::prelude::*;

use crate::args::kind_of;
use crate::js_io::JsIo;
use crate::reader::JsFileReader;

pub(crate) struct JsFileWriter {
    io: JsIo,
    mkdir: Function,
    write_file: Function,
    /// Optional: without it, creating is emulated by a read then a write (see
    /// [`JsFileWriter::create_with`]).
    create_file: Option<Function>,
    /// Optional, for retention (`gc`): `stat(path)` and `remove(path)`.
    stat: Option<Function>,
    remove: Option<Function>,
    /// The same object as a reader, when it has `readFile`.
    reader: Option<JsFileReader>,
}

impl JsFileWriter {
    pub(crate) fn new(target: &JsValue) -> Result<Self, OffloadError> {
        let method = |name| JsIo::method(target, name);
        match (target.is_object(), method("mkdir"), method("writeFile")) {
            (true, Some(mkdir), Some(write_file)) => Ok(JsFileWriter {
                io: JsIo::new(target),
                mkdir,
                write_file,
                create_file: method("createFile"),
                stat: method("stat"),
                remove: method("remove"),
                reader: JsFileReader::from_object(target),
            }),
            _ => Err(OffloadError::InvalidArgument(
                "writer must be an object with mkdir(dir) and writeFile(path, data) methods".into(),
            )),
        }
    }

    /// The same JS object with its own failure slot: one per call, so concurrent calls
    /// never take each other's `cause`.
    pub(crate) fn fresh(&self) -> Self {
        JsFileWriter {
            io: self.io.fresh(),
            mkdir: self.mkdir.clone(),
            write_file: self.write_file.clone(),
            create_file: self.create_file.clone(),
            stat: self.stat.clone(),
            remove: self.remove.clone(),
            reader: self.reader.as_ref().map(JsFileReader::fresh),
        }
    }

    /// This writer (and its reader) with its waits raced against `abort`'s signal.
    pub(crate) fn aborting_with(mut self, abort: Option<&crate::abort::Abort>) -> Self {
        self.io.abort_with(abort);
        self.reader = self.reader.map(|r| r.aborting_with(abort));
        self
    }

    /// The JS object this writer calls (a reader may default to it).
    pub(crate) fn target(&self) -> &JsValue {
        &self.io.target
    }

    pub(crate) fn take_failure(&self) -> Option<JsValue> {
        self.io
            .take_failure()
            .or_else(|| self.reader.as_ref().and_then(JsFileReader::take_failure))
    }

    /// `createFile(path, data)` when the writer has it (it must resolve to `true` when
    /// it created the file, `false` when something was already there). Without it the
    /// old, weaker guarantee: `reader` (when there is one) is asked whether the file
    /// exists, and it is written if not — two concurrent calls may still race.
    pub(crate) async fn create_with(
        &self,
        path: &str,
        data: &JsValue,
        reader: Option<&JsFileReader>,
    ) -> Result<CreateOutcome, IoError> {
        if let Some(create_file) = &self.create_file {
            let created = self.io.call2(create_file, &path.into(), data).await?;
            return match created.as_bool() {
                Some(true) => Ok(CreateOutcome::Created),
                Some(false) => Ok(CreateOutcome::Exists),
                None => {
                    let message = format!(
                        "createFile must resolve to true (created) or false (already exists); got {}",
                        kind_of(&created)
                    );
                    Err(self.io.fail(created, message))
                }
            };
        }
        if let Some(reader) = reader {
            if reader.read_file(path).await?.is_some() {
                return Ok(CreateOutcome::Exists);
            }
        }
        self.io.call2(&self.write_file, &path.into(), data).await?;
        Ok(CreateOutcome::Created)
    }
}

/// Content is written as the JavaScript string it came as: it never crosses into wasm.
impl FileWriter<JsString> for JsFileWriter {
    async fn mkdir(&self, dir: &str) -> Result<(), IoError> {
        self.io.call1(&self.mkdir, &dir.into()).await.map(drop)
    }

    async fn write_file(&self, path: &str, data: &JsString) -> Result<(), IoError> {
        self.io
            .call2(&self.write_file, &path.into(), data)
            .await
            .map(drop)
    }

    async fn create_file(&self, path: &str, data: &JsString) -> Result<CreateOutcome, IoError> {
        self.create_with(path, data, self.reader.as_ref()).await
    }
}

/// Rust strings (tool results produced in wasm) are handed to JS as new strings.
impl FileWriter<str> for JsFileWriter {
    async fn mkdir(&self, dir: &str) -> Result<(), IoError> {
        FileWriter::<JsString>::mkdir(self, dir).await
    }

    async fn write_file(&self, path: &str, data: &str) -> Result<(), IoError> {
        FileWriter::<JsString>::write_file(self, path, &data.into()).await
    }

    async fn create_file(&self, path: &str, data: &str) -> Result<CreateOutcome, IoError> {
        self.create_with(path, &data.into(), self.reader.as_ref())
            .await
    }
}

/// The writer's own object as a reader (batch offload compares a taken name's content
/// with its own); a writer without `readFile` finds every file missing.
impl FileReader for JsFileWriter {
    async fn read_file(&self, path: &str) -> Result<Option<String>, IoError> {
        self.reader.read_file(path).await
    }

    async fn list_dir(&self, dir: &str) -> Result<Vec<String>, IoError> {
        self.reader.list_dir(dir).await
    }
    async fn size(&self, path: &str) -> Result<Option<u64>, IoError> {
        self.reader.size(path).await
    }
    async fn read_range(&self, path: &str, start: u64, end: u64) -> Result<Vec<u8>, IoError> {
        self.reader.read_range(path, start, end).await
    }
}

/// Retention through the writer's optional `stat(path)` (resolving to `{ size,
/// modifiedMs, isDir, isLink? }` or `undefined`; `isLink` true for a symbolic link, which
/// retention never follows) and `remove(path)`.
impl FileLifecycle for JsFileWriter {
    async fn stat(&self, path: &str) -> Result<Option<FileStat>, IoError> {
        let Some(stat) = &self.stat else {
            return Err(IoError::new(
                "the writer has no stat(path) method: retention needs stat and remove",
            ));
        };
        let value = self.io.call1(stat, &path.into()).await?;
        if value.is_undefined() || value.is_null() {
            return Ok(None);
        }
        let field = |name: &'static str| crate::keys::field(&value, name);
        let count = |name: &'static str| field(name).as_f64().and_then(safe_count);
        let is_dir = field("isDir").as_bool();
        let link = field("isLink");
        let is_link = if link.is_undefined() {
            Some(false)
        } else {
            link.as_bool()
        };
        match (count("size"), count("modifiedMs"), is_dir, is_link) {
            (Some(size), Some(modified_ms), Some(is_dir), Some(is_link)) => Ok(Some(FileStat {
                size,
                modified_ms,
                is_dir,
                is_link,
            })),
            _ => {
                let message = format!(
                    "stat must resolve to {{ size, modifiedMs, isDir, isLink? }} (whole numbers and booleans), or undefined when nothing is there; got {}",
                    kind_of(&value)
                );
                Err(self.io.fail(value, message))
            }
        }
    }

    async fn remove(&self, path: &str) -> Result<(), IoError> {
        let Some(remove) = &self.remove else {
            return Err(IoError::new(
                "the writer has no remove(path) method: retention needs stat and remove",
            ));
        };
        self.io.call1(remove, &path.into()).await.map(drop)
    }
}
