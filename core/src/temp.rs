//! The temporary files writers make beside their targets (write, then rename or link):
//! how they are named, which of them a writer may remove as left by a dead one, and the
//! sweep that removes those: one implementation every writer (tokio, Node, OPFS) runs
//! over its own listing, `stat` and `remove`.

use crate::{io::FileLifecycle, io::FileReader, io::IoError};

/// A temporary file untouched for this long (10 minutes) belongs to a writer that died
/// mid-write: a live one renames, links or removes its own within one write.
pub const STALE_TEMP_MS: u64 = 10 * 60 * 1000;

const PREFIX: &str = ".tool-offload-";
const SUFFIX: &str = ".tmp";

/// The name of a writer's temporary file: hidden, tagged with the process id, made
/// unique by `unique` (the caller's counter and random part; containers sharing a
/// volume often all run as PID 1). It does not embed the target's name, which may
/// already be at the 255-byte limit.
///
/// ```
/// use tool_offload_core::temp::{is_stale_temp, is_temp, temp_file_name, STALE_TEMP_MS};
/// let name = temp_file_name(42, "7-9f3a");
/// assert_eq!(name, ".tool-offload-42-7-9f3a.tmp");
/// assert!(is_temp(&name));
/// assert!(is_stale_temp(&name, STALE_TEMP_MS));
/// assert!(!is_stale_temp(&name, STALE_TEMP_MS - 1));
/// assert!(!is_stale_temp("call_1.txt", STALE_TEMP_MS * 10));
/// ```
pub fn temp_file_name(pid: u32, unique: &str) -> String {
    format!("{PREFIX}{pid}-{unique}{SUFFIX}")
}

/// Whether the directory entry `name` is a writer's temporary file (checked before
/// its age, so other entries cost nothing).
pub fn is_temp(name: &str) -> bool {
    name.starts_with(PREFIX) && name.ends_with(SUFFIX)
}

/// Whether the directory entry `name`, last modified `age_ms` ago, is a writer's
/// temporary file old enough to be removed.
pub fn is_stale_temp(name: &str, age_ms: u64) -> bool {
    is_temp(name) && age_ms >= STALE_TEMP_MS
}

/// Remove from `dir` every writer's temporary file that [`is_stale_temp`] calls stale at
/// `now_ms` (milliseconds since the Unix epoch; each file's age from the host's `stat`):
/// how many were removed. Best effort past the listing: an entry gone meanwhile, a
/// directory or a symbolic link of that name, or a file the host cannot remove is left
/// (another process may be sweeping too). A time in the future (clock skew) is age 0.
///
/// # Errors
/// The listing's own.
///
/// ```
/// use tool_offload_core::temp::{sweep_stale_temp, STALE_TEMP_MS};
/// use tool_offload_core::{FileReader, FileWriter, MemoryWriter};
/// let io = MemoryWriter::new();
/// futures_executor::block_on(async {
///     io.mkdir("/d").await.unwrap();
///     io.write_file("/d/.tool-offload-1-0-a.tmp", "half").await.unwrap();
///     io.write_file("/d/call_1.txt", "kept").await.unwrap();
///     assert_eq!(sweep_stale_temp("/d", STALE_TEMP_MS - 1, &io).await.unwrap(), 0);
///     assert_eq!(sweep_stale_temp("/d", STALE_TEMP_MS, &io).await.unwrap(), 1);
///     assert_eq!(io.list_dir("/d").await.unwrap(), ["call_1.txt"]);
/// });
/// ```
pub async fn sweep_stale_temp<IO: FileReader + FileLifecycle + ?Sized>(
    dir: &str,
    now_ms: u64,
    io: &IO,
) -> Result<usize, IoError> {
    let mut removed = 0;
    for name in io.list_dir(dir).await? {
        if !is_temp(&name) {
            continue;
        }
        let path = crate::path::join(dir, &name);
        let Ok(Some(stat)) = io.stat(&path).await else {
            continue;
        };
        let age_ms = now_ms.saturating_sub(stat.modified_ms);
        if !stat.is_dir && !stat.is_link && is_stale_temp(&name, age_ms) {
            removed += usize::from(io.remove(&path).await.is_ok());
        }
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{io::FileWriter, memory::MemoryWriter};
    use futures_executor::block_on;

    #[test]
    fn only_stale_temporary_files_are_swept() {
        let io = MemoryWriter::new();
        let names = block_on(async {
            io.mkdir("/d").await.unwrap();
            io.set_now(1_000);
            io.write_file("/d/.tool-offload-1-0-old.tmp", "x")
                .await
                .unwrap();
            io.write_file("/d/old.txt", "x").await.unwrap();
            io.mkdir("/d/.tool-offload-2-0-dir.tmp").await.unwrap();
            io.set_now(1_000 + STALE_TEMP_MS);
            io.write_file("/d/.tool-offload-3-0-new.tmp", "x")
                .await
                .unwrap();
            // Written "after" the sweep's now: a clock ahead of it, age 0.
            io.set_now(5 * STALE_TEMP_MS);
            io.write_file("/d/.tool-offload-4-0-skew.tmp", "x")
                .await
                .unwrap();
            let removed = sweep_stale_temp("/d", 1_000 + STALE_TEMP_MS, &io);
            assert_eq!(removed.await.unwrap(), 1);
            io.list_dir("/d").await.unwrap()
        });
        assert_eq!(
            names,
            [
                ".tool-offload-2-0-dir.tmp",
                ".tool-offload-3-0-new.tmp",
                ".tool-offload-4-0-skew.tmp",
                "old.txt"
            ]
        );
        let missing = block_on(sweep_stale_temp("/nowhere", 0, &io));
        assert_eq!(missing.unwrap(), 0, "a missing directory lists empty");
    }
}
