//! The temporary files writers make beside their targets (write, then rename or link):
//! how they are named, and which of them a writer may remove as left by a dead one. The
//! policy lives here so the Node and tokio writers name and sweep them alike.

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
