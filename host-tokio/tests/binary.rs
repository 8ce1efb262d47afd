//! Binary outputs on the tokio host: the bytes on disk and in an object store exactly
//! as given, read-back refusing them clearly, and a bundle carrying them to another
//! directory.

use serde_json::json;
use tool_offload::core::materialize::{BinaryOutputRef, Materialized};
use tool_offload::{import_conversation, Materializer};

/// A gzip signature, then every byte value.
fn gzip() -> Vec<u8> {
    let mut bytes = vec![0x1F, 0x8B, 0x08, 0x00];
    bytes.extend((0..=255u8).rev());
    bytes
}

fn output(bytes: &[u8]) -> BinaryOutputRef<'_> {
    BinaryOutputRef {
        tool_call_id: "archive",
        tool_name: "download",
        server_name: None,
        bytes,
    }
}

#[tokio::test]
async fn bytes_reach_the_disk_as_given_and_travel_in_a_bundle() {
    let tmp = tempfile::tempdir().unwrap();
    let m = Materializer::in_dir(tmp.path().join("a"), "c1").unwrap();
    let bytes = gzip();
    let Materialized::Artifact {
        summary,
        reference,
        path,
    } = m.materialize_binary(&output(&bytes)).await.unwrap()
    else {
        panic!("inline");
    };
    assert!(
        summary.contains("binary data, 260 bytes, looks like gzip data"),
        "{summary}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
    let err = m.read(&reference.id, 0, 10).await.unwrap_err();
    assert_eq!(err.code().as_str(), "INVALID_ARGUMENT");
    assert!(err
        .to_string()
        .contains("is binary data (260 bytes, looks like gzip data)"));

    let messages = [json!({"role": "tool", "tool_call_id": "archive", "content": summary})];
    let bundle = m.export_conversation(&messages).await.unwrap();
    let done = import_conversation(&bundle, tmp.path().join("b"))
        .await
        .unwrap();
    assert_eq!(std::fs::read(&done.paths[0]).unwrap(), bytes);
}

#[cfg(feature = "object-store")]
#[tokio::test]
async fn an_object_store_holds_the_bytes_as_given() {
    use object_store::memory::InMemory;
    use std::sync::Arc;
    use tool_offload::ObjectStoreIo;
    let io = ObjectStoreIo::new(Arc::new(InMemory::new()), "p").unwrap();
    let m = Materializer::with_io(tool_offload::MaterializerOptions::at("/u", "c1"), io).unwrap();
    let bytes = gzip();
    let Materialized::Artifact { path, .. } = m.materialize_binary(&output(&bytes)).await.unwrap()
    else {
        panic!("inline");
    };
    let again = m.materialize_binary(&output(&bytes)).await.unwrap();
    assert!(matches!(again, Materialized::Artifact { path: p, .. } if p == path));
    use tool_offload::core::FileReader;
    let stored = m.io().read_range(&path, 0, 1000).await.unwrap();
    assert_eq!(stored, bytes);
}
