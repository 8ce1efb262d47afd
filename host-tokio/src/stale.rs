//! Removing the temporary files of writers that died mid-write (killed process, power
//! loss): without it, every crash would leave a `.tool-offload-*.tmp` behind for good.
//! Which files are stale and how they are removed is core's
//! ([`sweep_stale_temp`]); this remembers which
//! directories this process has swept.

use std::collections::HashSet;
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use tool_offload_core::temp::sweep_stale_temp;
use tool_offload_core::{FileLifecycle, FileReader};

/// Directories already swept by this process: each is swept once, the first time a
/// writer creates it, so the cost is one directory listing per directory per process.
static SWEPT: Mutex<Option<HashSet<String>>> = Mutex::new(None);

/// Sweep `dir` with `io`'s listing, `stat` and `remove`, once per process. Best effort:
/// a failure to list is ignored (another process may be sweeping too).
pub(crate) async fn sweep_once<IO: FileReader + FileLifecycle>(dir: &str, io: &IO) {
    {
        let mut swept = SWEPT.lock().unwrap_or_else(|e| e.into_inner());
        if !swept
            .get_or_insert_with(HashSet::new)
            .insert(dir.to_owned())
        {
            return;
        }
    }
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let now_ms = u64::try_from(now.as_millis()).unwrap_or(u64::MAX);
    let _ = sweep_stale_temp(dir, now_ms, io).await;
}
