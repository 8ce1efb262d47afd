//! Retention never follows a symbolic link (issue 29): a link inside a user-data or batch
//! directory to a directory or file outside it is not descended into, nothing is removed
//! or marked through it, the link itself stays, and a link loop ends nothing.

#![cfg(unix)]

use std::os::unix::fs::symlink;
use std::path::Path;

use serde_json::Value;
use tool_offload::{gc_dir, GcOptions, Materializer, ToolOutputInput};

fn tree(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let entry = entry.unwrap();
            let kind = entry.file_type().unwrap();
            let name = entry
                .path()
                .strip_prefix(root)
                .unwrap()
                .display()
                .to_string();
            if kind.is_dir() {
                pending.push(entry.path());
            }
            out.push(if kind.is_symlink() {
                format!("{name} -> link")
            } else {
                name
            });
        }
    }
    out.sort();
    out
}

#[tokio::test]
async fn gc_never_follows_a_link_out_of_its_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let outside = tmp.path().join("outside");
    std::fs::create_dir_all(outside.join("tool")).unwrap();
    // Files outside that look like ours: a gc following links would take them.
    for name in ["keep.txt", "tool/call_9.txt", "tool-result-x.md"] {
        std::fs::write(outside.join(name), "not yours\n".repeat(100)).unwrap();
    }
    let before = tree(&outside);

    let user_data = tmp.path().join("data");
    let m = Materializer::in_dir(user_data.to_str().unwrap(), "conv").unwrap();
    let output = Value::String("line\n".repeat(2000));
    for id in ["call_1", "call_2"] {
        let call = ToolOutputInput {
            tool_call_id: id,
            tool_name: "bash",
            server_name: None,
            output: &output,
        };
        m.materialize(&call).await.unwrap();
    }
    let tool = user_data.join("context/conv/artifacts/tool");
    symlink(&outside, tool.join("linked_dir")).unwrap();
    symlink(
        outside.join("tool"),
        user_data.join("context/conv/artifacts/terminal"),
    )
    .unwrap();
    symlink(outside.join("keep.txt"), tool.join("call_3.txt")).unwrap();
    symlink(&user_data, user_data.join("context/loop")).unwrap();

    let everything = GcOptions {
        max_bytes: Some(0),
        ..GcOptions::default()
    };
    let report = gc_dir(&user_data, &everything).await.unwrap();

    assert_eq!(tree(&outside), before, "nothing outside removed or marked");
    for name in ["keep.txt", "tool/call_9.txt", "tool-result-x.md"] {
        assert_eq!(
            std::fs::read_to_string(outside.join(name)).unwrap(),
            "not yours\n".repeat(100)
        );
    }
    // Our artifacts went (a marker stays beside each); every link stayed, untouched.
    assert_eq!(report.removed.len(), 2, "{:?}", report.removed);
    assert!(report
        .removed
        .iter()
        .all(|p| p.ends_with("/tool/call_1.txt") || p.ends_with("/tool/call_2.txt")));
    for link in [
        tool.join("linked_dir"),
        tool.join("call_3.txt"),
        user_data.join("context/loop"),
    ] {
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink(),
            "{}",
            link.display()
        );
    }
    assert!(!tool.join("call_3.txt.removed").exists());
}
