#!/usr/bin/env node
// Fails when a product file is over 400 lines (issue 50: the rule in `make lint`, not only in
// review). Product files are the Rust sources in core/, wasm/, host-tokio/, host-python/ and
// cli/'s `src/` and the TypeScript in host-node/src/; tests/, benches/, examples/ and scripts are not. A file's
// lines are those before its first `#[cfg(test)]` at the start of a line, counted as
// `sed '/^#\[cfg(test)\]/,$d' FILE | wc -l` counts them (the count the session hooks print): unit
// tests at the end of a file do not count, a `*_tests.rs` module in `src/` counts whole.
//
//   node scripts/check-file-lines.mjs [--list]   (--list: every file from 380 lines up)
import fs from 'node:fs';
import path from 'node:path';

const LIMIT = 400,
  NEAR = 380;
const repo = path.resolve(path.dirname(decodeURIComponent(new URL(import.meta.url).pathname)), '..');
const ROOTS = [
  ['core/src', '.rs'],
  ['wasm/src', '.rs'],
  ['host-tokio/src', '.rs'],
  ['cli/src', '.rs'],
  ['host-python/src', '.rs'],
  ['host-node/src', '.ts'],
];

const files = [];
const walk = (dir, ext) => {
  for (const e of fs
    .readdirSync(path.join(repo, dir), { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1)))
    if (e.isDirectory()) walk(`${dir}/${e.name}`, ext);
    else if (e.name.endsWith(ext)) files.push(`${dir}/${e.name}`);
};
for (const [dir, ext] of ROOTS) if (fs.existsSync(path.join(repo, dir))) walk(dir, ext);

// `wc -l` counts newlines: every kept line when a `#[cfg(test)]` line ends the count, the file's
// newlines otherwise (a last line without one is not counted).
const lines = (text) => {
  const all = text.split('\n'),
    tests = all.findIndex((l) => l.startsWith('#[cfg(test)]'));
  return tests >= 0 ? tests : all.length - 1;
};
const counted = files.map((f) => [f, lines(fs.readFileSync(path.join(repo, f), 'utf8'))]).sort((a, b) => b[1] - a[1]);
const over = counted.filter(([, n]) => n > LIMIT);
if (process.argv.includes('--list'))
  for (const [f, n] of counted.filter(([, n]) => n >= NEAR)) console.log(`${n} ${f}`);
for (const [f, n] of over) console.log(`${f}: ${n} lines, over ${LIMIT}`);
const near = counted.filter(([, n]) => n >= NEAR && n <= LIMIT).length;
console.log(
  `${files.length} product files, ${over.length} over ${LIMIT} lines, ${near} at ${NEAR}–${LIMIT}; the longest: ` +
    `${counted[0][0]} (${counted[0][1]})`,
);
if (over.length)
  console.log(
    `Split ${over.length === 1 ? 'it' : 'them'} where the code has two jobs, into a module named for the one that ` +
      `moves; lines after \`#[cfg(test)]\` (unit tests) do not count.`,
  );
process.exit(over.length ? 1 : 0);
