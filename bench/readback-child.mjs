// One read-back measurement through the npm package, in a fresh process (run by
// bench/readback.mjs; the Rust twin is `readback_artifact measure`, same arguments):
//
//   node bench/readback-child.mjs DIR REF tail|read|grep ARG RUNS BUDGET_MS EXPECT
//
// The first call, then up to RUNS more (stopping once BUDGET_MS have been spent, after at
// least 2); the peak resident memory (VmHWM) at the end over the resident memory (VmRSS)
// just before the first call. A failed call, or a page without EXPECT (a fast wrong page
// must not pass for a fast one), ends the run and is reported, never thrown.
// Prints one JSON line.
import { readFileSync } from 'node:fs';

import { Materializer } from 'tool-offload';

const [dir, ref, op, arg, runs, budgetMs, expect] = process.argv.slice(2);
const m = new Materializer({ userData: dir, conversationId: 'bench' });
const call = {
  tail: () => m.tail(ref, Number(arg)),
  read: () => m.read(ref, { offset: Number(arg), limit: 200 }),
  grep: () => m.grep(ref, arg),
}[op];

function memoryKiB() {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const field = (name) => Number(status.match(new RegExp(`^${name}:\\s*(\\d+) kB`, 'm'))?.[1]);
    return { rss: field('VmRSS'), hwm: field('VmHWM') };
  } catch {
    return {};
  }
}

const before = memoryKiB();
const samples = [];
let spent = 0;
let pageBytes = 0;
let error = null;
for (let i = 0; i <= Number(runs); i++) {
  const t0 = process.hrtime.bigint();
  try {
    const page = await call();
    if (!page.includes(expect)) {
      error = `WRONG_PAGE: the page lacks ${JSON.stringify(expect)}`;
      break;
    }
    pageBytes = Buffer.byteLength(page);
  } catch (e) {
    error = `${e?.code ?? e?.name ?? 'Error'}: ${e?.message ?? String(e)}`;
    break;
  }
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  samples.push(ms);
  spent += ms;
  if (i >= 2 && spent > Number(budgetMs)) break;
}
const after = memoryKiB();
console.log(
  JSON.stringify({
    first: samples[0] ?? null,
    later: samples.slice(1),
    pageBytes,
    error,
    baselineKiB: before.rss ?? null,
    peakKiB: after.hwm ?? null,
  }),
);
