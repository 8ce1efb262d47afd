//! Removing the temporary files of writers that died mid-write (killed process, power
//! loss): without it, every crash would leave a `.tool-offload-*.tmp` behind for good.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

use tool_offload_core::temp::{is_stale_temp, is_temp};

/// Directories already swept by this process: each is swept once, the first time a
/// writer creates it, so the cost is one directory listing per directory per process.
static SWEPT: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);

/// Remove stale temporary files from `dir`, once per process. Best effort: a failure to
/// list or remove is ignored (another process may be sweeping too).
pub(crate) fn sweep_once(dir: &Path) {
    {
        let mut swept = SWEPT.lock().unwrap_or_else(|e| e.into_inner());
        if !swept
            .get_or_insert_with(HashSet::new)
            .insert(dir.to_owned())
        {
            return;
        }
    }
    let _ = sweep(dir, SystemTime::now());
}

/// Remove every writer's temporary file in `dir` that core's [`is_stale_temp`] calls stale
/// at `now`;
/// how many were removed.
pub(crate) fn sweep(dir: &Path, now: SystemTime) -> std::io::Result<usize> {
    let mut removed = 0;
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if !is_temp(&name) {
            continue;
        }
        let Ok(modified) = entry.metadata().and_then(|m| m.modified()) else {
            continue;
        };
        // A time in the future (clock skew) is age 0: kept.
        let age = now.duration_since(modified).unwrap_or_default();
        let age_ms = u64::try_from(age.as_millis()).unwrap_or(u64::MAX);
        if is_stale_temp(&name, age_ms) && std::fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use tool_offload_core::temp::STALE_TEMP_MS;

    const STALE_AFTER: Duration = Duration::from_millis(STALE_TEMP_MS);

    #[test]
    fn removes_only_old_temporary_files_of_ours() {
        let dir = tempfile::tempdir().unwrap();
        let touch = |name: &str, age: Duration| {
            let path = dir.path().join(name);
            let file = std::fs::File::create(&path).unwrap();
            file.set_modified(SystemTime::now() - age).unwrap();
        };
        let old = STALE_AFTER + Duration::from_secs(60);
        touch(".tool-offload-1-0-abc.tmp", old);
        touch(".tool-offload-2-0-def.tmp", Duration::from_secs(5));
        touch("call_1.txt", old);
        touch(".other.tmp", old);
        assert_eq!(sweep(dir.path(), SystemTime::now()).unwrap(), 1);
        let mut left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(
            left,
            [".other.tmp", ".tool-offload-2-0-def.tmp", "call_1.txt"]
        );
    }

    #[test]
    fn each_directory_is_swept_once_per_process() {
        let dir = tempfile::tempdir().unwrap();
        let stale = |name: &str| {
            let file = std::fs::File::create(dir.path().join(name)).unwrap();
            file.set_modified(SystemTime::now() - STALE_AFTER * 2)
                .unwrap();
        };
        stale(".tool-offload-1-0-a.tmp");
        sweep_once(dir.path());
        assert!(
            !dir.path().join(".tool-offload-1-0-a.tmp").exists(),
            "swept"
        );
        stale(".tool-offload-2-0-b.tmp");
        sweep_once(dir.path());
        assert!(
            dir.path().join(".tool-offload-2-0-b.tmp").exists(),
            "not listed again by this process"
        );
    }
}
