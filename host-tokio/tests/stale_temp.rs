//! The tokio writer removes the temporary files dead writers left, with core's sweep, the
//! first time it creates a directory in a process.

use std::time::{Duration, SystemTime};

use tool_offload::core::temp::STALE_TEMP_MS;
use tool_offload::core::FileWriter;
use tool_offload::TokioFileWriter;

const STALE_AFTER: Duration = Duration::from_millis(STALE_TEMP_MS);

/// On real files: old temporary files of ours go, fresh ones, other files and a
/// directory or a symbolic link of a temporary file's name stay; and each directory
/// is swept once per process.
#[tokio::test]
async fn a_writer_sweeps_each_new_directory_once() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("d");
    std::fs::create_dir(&dir).unwrap();
    let touch = |name: &str, age: Duration| {
        let file = std::fs::File::create(dir.join(name)).unwrap();
        file.set_modified(SystemTime::now() - age).unwrap();
    };
    let old = STALE_AFTER + Duration::from_secs(60);
    touch(".tool-offload-1-0-abc.tmp", old);
    touch(".tool-offload-2-0-def.tmp", Duration::from_secs(5));
    touch("call_1.txt", old);
    touch(".other.tmp", old);
    std::fs::create_dir(dir.join(".tool-offload-3-0-dir.tmp")).unwrap();
    let target = root.path().join("outside.tmp");
    touch("../outside.tmp", old);
    std::os::unix::fs::symlink(&target, dir.join(".tool-offload-4-0-link.tmp")).unwrap();
    let io = TokioFileWriter::new();
    io.mkdir(dir.to_str().unwrap()).await.unwrap();
    let mut left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    left.sort();
    assert_eq!(
        left,
        [
            ".other.tmp",
            ".tool-offload-2-0-def.tmp",
            ".tool-offload-3-0-dir.tmp",
            ".tool-offload-4-0-link.tmp",
            "call_1.txt"
        ]
    );
    assert!(target.exists(), "nothing removed through a link");
    touch(".tool-offload-5-0-again.tmp", old);
    io.mkdir(dir.to_str().unwrap()).await.unwrap();
    assert!(
        dir.join(".tool-offload-5-0-again.tmp").exists(),
        "not listed again by this process"
    );
}
