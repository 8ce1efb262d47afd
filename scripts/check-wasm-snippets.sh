#!/usr/bin/env bash
# Fails when the wasm crate imports more than four JS snippet modules. The page
# wasm-bindgen-test-runner serves (make test-browser) fetches them all at once, and its
# server (tiny_http 0.12's thread pool) can leave a fifth simultaneous connection unread:
# the page load then hangs until chromedriver gives up after 300 s, in about one run in
# four. Add a function to an existing module in wasm/js/ instead of a new module.
set -euo pipefail
cd "$(dirname "$0")/.."
modules=$(grep -rhoE 'module = "/js/[^"]+"' wasm/src | sort -u)
count=$(grep -c . <<<"$modules")
if ((count > 4)); then
  echo "wasm imports $count JS snippet modules (at most 4, see $0):"; echo "$modules"; exit 1
fi
echo "wasm: $count JS snippet modules (at most 4)"
