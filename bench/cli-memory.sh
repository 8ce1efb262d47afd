#!/usr/bin/env bash
# Peak memory and throughput of `tool-offload offload --jsonl` on a generated ≥ 1 GB
# transcript (target: max RSS < 64 MB). Numbers, not pass/fail.
#
#   bash bench/cli-memory.sh            # 1 GiB, threshold 4000, file input
#   BYTES=200000000 bash bench/cli-memory.sh
#   INPUT=stdin bash bench/cli-memory.sh   # feed it on stdin (`-`), spooled by the CLI
#   PROFILE=bench bash bench/cli-memory.sh # build with the opt-level-3 bench profile instead
#
# The transcript (bench/gen-jsonl.mjs, deterministic) is streamed to a scratch directory
# under ${TMPDIR:-/tmp}, with the artifacts and the output; all of it is deleted afterwards.
set -euo pipefail

cd "$(dirname "$0")/.."
BYTES=${BYTES:-1073741824}
THRESHOLD=${THRESHOLD:-4000}
INPUT=${INPUT:-file}
PROFILE=${PROFILE:-release}

if [[ $PROFILE == release ]]; then
  cargo build --quiet --release -p tool-offload-cli --bin tool-offload
else
  cargo build --quiet --profile "$PROFILE" -p tool-offload-cli --bin tool-offload
fi
target_dir=$(cargo metadata --format-version 1 --no-deps | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).target_directory))')
case $PROFILE in # cargo's directory for each profile (bench shares release's, test dev's)
  release | bench) profile_dir=release ;;
  dev | test) profile_dir=debug ;;
  *) profile_dir=$PROFILE ;;
esac
bin="$target_dir/$profile_dir/tool-offload"
[[ -x $bin ]] || { echo "cli-memory: $bin was not built" >&2; exit 1; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/tool-offload-memory-XXXXXX")
trap 'rm -rf "$scratch"' EXIT
transcript="$scratch/transcript.jsonl"

echo "generating $BYTES bytes of JSONL into $transcript …" >&2
node bench/gen-jsonl.mjs "$transcript" "$BYTES"
size=$(stat -c %s "$transcript")
lines=$(wc -l < "$transcript")
sync # the generator's dirty pages are not the CLI's to flush

args=(offload --out "$scratch/artifacts" --threshold "$THRESHOLD" -o "$scratch/out.jsonl" --jsonl --json)
echo "running: $bin ${args[*]} ($INPUT input)" >&2
if [[ $INPUT == stdin ]]; then
  /usr/bin/time -v -o "$scratch/time.txt" "$bin" "${args[0]}" - "${args[@]:1}" < "$transcript" 2> "$scratch/summary.json"
else
  /usr/bin/time -v -o "$scratch/time.txt" "$bin" "${args[0]}" "$transcript" "${args[@]:1}" 2> "$scratch/summary.json"
fi

rss_kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$scratch/time.txt")
wall=$(awk -F': ' '/Elapsed \(wall clock\) time/ {print $2}' "$scratch/time.txt")
user=$(awk -F': ' '/User time/ {print $2}' "$scratch/time.txt")
sys=$(awk -F': ' '/System time/ {print $2}' "$scratch/time.txt")
files=$(find "$scratch/artifacts" -type f | wc -l)
out_size=$(stat -c %s "$scratch/out.jsonl")

node - "$size" "$lines" "$rss_kb" "$wall" "$user" "$sys" "$files" "$out_size" "$scratch/summary.json" "$PROFILE" "$INPUT" "$THRESHOLD" <<'EOF'
const [size, lines, rssKb, wall, user, sys, files, outSize, summaryFile, profile, input, threshold] = process.argv.slice(2);
const seconds = wall.split(':').reduce((s, part) => s * 60 + Number(part), 0);
const mb = (b) => (b / 1e6).toFixed(1);
let summary = '';
try { summary = JSON.stringify(JSON.parse(require('node:fs').readFileSync(summaryFile, 'utf8'))); } catch { summary = '(no JSON summary)'; }
const rssMiB = Number(rssKb) / 1024;
console.log(`tool-offload offload --jsonl (${profile} profile, ${input} input, threshold ${threshold})`);
console.log(`  input        ${mb(Number(size))} MB, ${lines} messages`);
console.log(`  output       ${mb(Number(outSize))} MB, ${files} artifact files`);
console.log(`  wall         ${seconds.toFixed(1)} s (user ${user} s, sys ${sys} s)`);
console.log(`  throughput   ${mb(Number(size) / seconds)} MB/s, ${Math.round(Number(lines) / seconds)} messages/s`);
console.log(`  max RSS      ${rssMiB.toFixed(1)} MiB   (target < 64 MB: ${rssMiB * 1048576 < 64e6 ? 'met' : 'MISSED'})`);
console.log(`  summary      ${summary}`);
EOF
