#!/usr/bin/env bash
# `make fuzz`: run each cargo-fuzz target in fuzz/ for FUZZ_SECONDS (default 60), one
# job each, one after the other, and print the executions per target. Installs
# cargo-fuzz (and a nightly toolchain) when missing. A crash does not stop the other
# targets; the script fails at the end, naming the saved inputs.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-60}
targets=${FUZZ_TARGETS:-json summary_paging refs bundle_import knowledge_list}
# The core has no unsafe code: without AddressSanitizer each target runs ~2-3x more
# inputs. FUZZ_SANITIZER=address puts it back.
sanitizer=${FUZZ_SANITIZER:-none}

if ! rustup toolchain list | grep -q '^nightly'; then
  echo "fuzz: installing the nightly toolchain"
  rustup toolchain install nightly --profile minimal
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz: installing cargo-fuzz (takes a few minutes)"
  cargo install --locked cargo-fuzz
fi

node fuzz/seed.mjs
mkdir -p fuzz/logs
declare -A runs
failed=()
for t in $targets; do
  echo "fuzz: $t for ${seconds}s"
  log=fuzz/logs/$t.log
  if (cd fuzz && cargo +nightly fuzz run --sanitizer "$sanitizer" "$t" -- \
        -max_total_time="$seconds" -print_final_stats=1) >"$log" 2>&1; then
    :
  else
    failed+=("$t")
  fi
  runs[$t]=$(awk '/^stat::number_of_executed_units:/ { print $2 }' "$log" | tail -n 1)
done

total=0
echo
printf '%-16s %14s\n' target executions
for t in $targets; do
  n=${runs[$t]:-0}
  total=$((total + ${n:-0}))
  printf '%-16s %14s\n' "$t" "$n"
done
printf '%-16s %14s\n' total "$total"
if [ ${#failed[@]} -gt 0 ]; then
  echo
  for t in "${failed[@]}"; do
    echo "fuzz: $t FAILED (log fuzz/logs/$t.log); inputs saved:"
    ls fuzz/artifacts/"$t" 2>/dev/null | sed "s|^|  fuzz/artifacts/$t/|"
  done
  exit 1
fi
