//! Where an artifact goes: its directory made once, then the first free name of
//! `<stem>.<ext>`, `<stem>-1.<ext>`… (or one already holding the same content), for text
//! and binary data alike.

use super::materializer::Materializer;
use crate::create::{create_at_free_name, Payload, Payloads, SameData};
use crate::forms::reference::unsafe_ref_component;
use crate::forms::reference::ArtifactKind;
use crate::path::join;
use crate::{error::OffloadError, io::FileReader, io::FileWriter};

impl Materializer {
    /// Store `data` (text or bytes: one copy of this for both) as an artifact of `kind`
    /// named after `stem` with extension `ext`: its file name and path. The directory is
    /// made the first time (and again when it was removed since: the create is tried
    /// once more).
    pub(super) async fn place<IO: FileWriter + FileReader + ?Sized>(
        &self,
        kind: ArtifactKind,
        (stem, ext): (&str, &str),
        data: Payload<'_>,
        io: &IO,
    ) -> Result<(String, String), OffloadError> {
        let (io, same) = (&Payloads(io), SameData::of(&data));
        let dir = join(&self.artifacts.dir, kind.dir());
        let bit = 1 << kind as u8;
        let mut made = self.artifacts.made(bit);
        loop {
            if !made {
                self.make_dir(&dir, bit, io).await?;
            }
            match self
                .create_artifact((kind, &dir), (stem, ext), (&data, &same), io)
                .await
            {
                // Made earlier, and perhaps removed since (by hand, or a conversation's
                // directory deleted): made again, and the create tried once more.
                Err(OffloadError::WriteFailed { .. }) if made => made = false,
                created => return created,
            }
        }
    }

    /// Create the artifact at the first of `<stem>.<ext>`, `<stem>-1.<ext>`… in `dir`
    /// that is free, or reuse one that already holds exactly `data`; its file name and
    /// path. Creation is exclusive ([`FileWriter::create_file`]), so concurrent calls and
    /// processes never overwrite each other's artifacts.
    async fn create_artifact<IO: FileWriter + FileReader + ?Sized>(
        &self,
        (kind, dir): (ArtifactKind, &str),
        (stem, ext): (&str, &str),
        (data, same): (&Payload<'_>, &SameData<'_>),
        io: &Payloads<'_, IO>,
    ) -> Result<(String, String), OffloadError> {
        let file_name = |n: u32| match n {
            0 => format!("{stem}.{ext}"),
            n => format!("{stem}-{n}.{ext}"),
        };
        let placed = create_at_free_name(io, data, same, 0, |n| {
            let file = file_name(n);
            // Fails once the suffix makes the name too long, so the search ends.
            match unsafe_ref_component(&file, 0) {
                Some(reason) => Err(OffloadError::InvalidId {
                    field: kind.id_field().into(),
                    value: Some(stem.into()),
                    reason,
                }),
                None => Ok(join(dir, &file)),
            }
        })
        .await?;
        Ok((file_name(placed.number), placed.path))
    }
}
