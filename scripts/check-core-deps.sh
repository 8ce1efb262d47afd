#!/usr/bin/env bash
# Fails when tool-offload-core reaches for IO or JavaScript: core's contract is no
# tokio, wasm-bindgen or js-sys in its dependency tree, and no std::fs/net/process.
set -euo pipefail
cd "$(dirname "$0")/.."
tree=$(cargo tree -p tool-offload-core -e normal,build --prefix none --format '{p}')
if bad=$(grep -E '^(tokio|wasm-bindgen|js-sys|web-sys|wasm-bindgen-futures) ' <<<"$tree"); then
  echo "core depends on an IO or JS crate:"; echo "$bad"; exit 1
fi
if grep -rnE 'std::(fs|net|process)|tokio::|js_sys|wasm_bindgen' core/src; then
  echo "core/src reaches for IO or JS (see above)"; exit 1
fi
echo "core: $(wc -l <<<"$tree") crates in its tree, none of them IO or JS"
