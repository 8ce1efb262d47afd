#!/usr/bin/env bash
# Run one scripted demo loop through the npm package and the Rust host, then check both
# printed the same report (after its first line, which names the host) and wrote
# byte-identical files (the Rust workspace's own SQLite index aside).
#   scripts/demo-loop.sh <name> <rust-example-binary> <what>
#   e.g. scripts/demo-loop.sh agent-loop target/debug/examples/agent_loop "agent loops"
set -euo pipefail
name=$1 binary=$2 what=$3
node "examples/$name.mjs" | tee "out/$name.node.txt"
echo
"$binary" | tee "out/$name.rust.txt"
echo
if diff -r --exclude="index.sqlite*" "out/$name/node" "out/$name/rust" >/dev/null &&
  diff <(tail -n +2 "out/$name.node.txt") <(tail -n +2 "out/$name.rust.txt") >/dev/null; then
  echo "Node and Rust $what printed the same report and wrote byte-identical files ($(find "out/$name/node" -type f | wc -l) each)."
else
  echo "MISMATCH between the Node and Rust $what"
  exit 1
fi
