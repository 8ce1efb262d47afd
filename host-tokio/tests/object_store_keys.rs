//! The object keys of tests/object-store/keys.json: the same paths give the same keys
//! (and the same refusals) here as in the npm package's `S3Io`, so Rust and Node workers
//! read each other's artifacts; and each name lists back as written.

use std::sync::Arc;

use serde_json::Value;
use tool_offload::{FileReader, FileWriter, ObjectStoreIo};

#[tokio::test]
async fn paths_map_to_the_shared_keys_and_list_back() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/object-store/keys.json"
    );
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    let cases = doc["cases"].as_array().unwrap();
    assert!(cases.len() > 20);
    for case in cases {
        let (prefix, path) = (
            case["prefix"].as_str().unwrap(),
            case["path"].as_str().unwrap(),
        );
        let store = Arc::new(object_store::memory::InMemory::new());
        let io = ObjectStoreIo::new(store, prefix).unwrap();
        match (io.key(path), case.get("key")) {
            (Ok(key), Some(want)) => {
                assert_eq!(key, want.as_str().unwrap(), "{path:?}");
                let Some((dir, name)) = path.trim_end_matches('/').rsplit_once('/') else {
                    continue;
                };
                if name.is_empty() {
                    continue;
                }
                io.write_file(path, "x").await.unwrap();
                assert_eq!(io.list_dir(dir).await.unwrap(), [name], "{path:?}");
            }
            (Err(err), None) => assert_eq!(err.to_string(), case["error"].as_str().unwrap()),
            (got, _) => panic!("{path:?}: {got:?}, want {case}"),
        }
    }
}
