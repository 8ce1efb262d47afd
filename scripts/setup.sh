#!/usr/bin/env bash
# Installs what building and the demo need, idempotently: the wasm32 target,
# wasm-bindgen-cli at exactly the Cargo.lock version of wasm-bindgen, and npm deps.
# With --test, also what only the tests need: Chromium and its WebDriver, moto's S3
# server and PostgreSQL (a fresh machine's `make demo` installs none of them); with
# --test-only, only those (`make test` runs it beside setup and the build).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}

# With --test: what only the tests need, installed beside the Rust installs below (they
# wait on the network and dpkg while cargo keeps the cores busy): Debian's Chromium and its
# WebDriver for the browser tests (never a downloaded browser) and PostgreSQL's server
# binaries for the workspace's PostgreSQL index tests (host-tokio/tests/pg/cluster.rs starts
# its own throwaway cluster under target/; the package's service is not used), in one apt
# run; moto's S3 server for ObjectStoreIo's tests (host-tokio/tests/object_store_s3.rs:
# server mode honours conditional puts, If-None-Match: *; docs/object-store.md).
test_installs() {
  local packages=()
  command -v chromium >/dev/null && command -v chromedriver >/dev/null || packages+=(chromium chromium-driver)
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || packages+=(postgresql)
  if [ ${#packages[@]} -gt 0 ]; then
    if command -v apt-get >/dev/null; then
      echo "setup: installing ${packages[*]}"
      local sudo
      sudo=$([ "$(id -u)" = 0 ] || echo sudo)
      $sudo apt-get update -qq || true
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${packages[@]}" >/dev/null
    else
      echo "setup: no apt-get here; install ${packages[*]} for the browser and PostgreSQL tests" >&2
    fi
  fi
  if ! command -v moto_server >/dev/null; then
    echo "setup: installing moto[server] (pip)"
    python3 -m pip install --quiet 'moto[server]==5.2.1'
  fi
}
if [ "$mode" = --test-only ]; then
  test_installs
  exit 0
fi
# npm ci only when the lockfile changed since the last install; it waits on the network
# while the Rust installs below keep the cores busy, so it runs beside them.
npm_pid= log=
trap 'for p in $npm_pid ${test_pid:-}; do kill "$p" 2>/dev/null; done; rm -f "$log"' EXIT
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci (beside the Rust installs)"
  # Errors only: the warnings were 30 lines of Node >= 22 engine notes from test-only
  # framework packages (which run on Node 20) and esbuild's install script.
  npm ci --no-audit --no-fund --loglevel=error &
  npm_pid=$!
fi

test_pid=
if [ "$mode" = --test ]; then
  test_installs &
  test_pid=$!
fi

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  echo "setup: adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# The CLI must match the wasm-bindgen crate exactly, or the generated glue is refused.
want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }' || true)
if [ "$have" != "$want" ]; then
  echo "setup: installing wasm-bindgen-cli $want (found '${have:-none}'; takes a few minutes)"
  # --locked first for reproducibility; a registry missing one of its locked
  # dependencies' exact versions falls back to a fresh resolution.
  # --force: cargo may still list a binary that is gone or replaced.
  # Unoptimised (opt-level 0): it compiles in 56 s instead of 138 on two cores, and the
  # CLI then takes 0.7 s instead of 0.2 to process our wasm, with byte-identical output.
  log=$(mktemp)
  export CARGO_PROFILE_RELEASE_OPT_LEVEL=0
  if ! cargo install --quiet --force wasm-bindgen-cli --version "$want" --locked 2>"$log"; then
    echo "setup: --locked failed ($(grep -m1 '^error' "$log" | cut -c8-100)); resolving afresh"
    cargo install --quiet --force wasm-bindgen-cli --version "$want"
  fi
  unset CARGO_PROFILE_RELEASE_OPT_LEVEL
  wasm-bindgen --version | grep -qx "wasm-bindgen $want" || { echo "setup: wasm-bindgen $want did not install"; exit 1; }
fi

if [ -n "$npm_pid" ]; then
  wait "$npm_pid" || { echo "setup: npm ci failed" >&2; exit 1; }
  npm_pid=
fi

if [ -n "$test_pid" ]; then
  wait "$test_pid" || { echo "setup: installing what the tests need failed" >&2; exit 1; }
  test_pid=
fi
