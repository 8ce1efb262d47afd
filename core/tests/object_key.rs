//! The object keys of `tests/object-store/keys.json`, the cases every host checks (the
//! `tool-offload` crate's `ObjectStoreIo`, the npm package's `S3Io`): the same paths give
//! the same keys and the same refusals, and each key's last segment decodes to the name.

use serde_json::Value;
use tool_offload_core::object_key::{decode_key_segment, object_key, parse_key_prefix};

#[test]
fn paths_map_to_the_shared_keys() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/object-store/keys.json"
    );
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    let cases = doc["cases"].as_array().unwrap();
    assert!(cases.len() > 20);
    for case in cases {
        let prefix = parse_key_prefix(case["prefix"].as_str().unwrap()).unwrap();
        let path = case["path"].as_str().unwrap();
        match (object_key(prefix, path), case.get("key")) {
            (Ok(key), Some(want)) => {
                assert_eq!(key, want.as_str().unwrap(), "{path:?}");
                if let Some(name) = path.rsplit('/').find(|s| !s.is_empty()) {
                    let part = key.rsplit('/').next().unwrap();
                    assert_eq!(decode_key_segment(part), name, "{path:?}");
                }
            }
            (Err(err), None) => assert_eq!(err.to_string(), case["error"].as_str().unwrap()),
            (got, _) => panic!("{path:?}: {got:?}, want {case}"),
        }
    }
}
