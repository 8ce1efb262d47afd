// Builds the npm package in place: wasm/ (wasm-bindgen output for Node), esm/ and cjs/
// (the TypeScript layer, compiled twice), and web/ (the browser build: wasm-bindgen's
// `--target web` glue over the same .wasm, and the TypeScript compiled a third time). Run from anywhere: `node host-node/scripts/build.mjs`.
// Prints the wasm's size; with `--gz-budget=BYTES` (the Makefile's WASM_GZ_BUDGET) it exits
// non-zero when the wasm, gzipped at level 9, is larger than BYTES.
import { execFileSync } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const pkg = dirname(dirname(fileURLToPath(import.meta.url)));
const repo = dirname(pkg);
const bin = (name) => join(repo, 'node_modules', '.bin', name);
const run = (cmd, args, cwd = repo) => execFileSync(cmd, args, { cwd, stdio: 'inherit' });
const budgetArg = process.argv.slice(2).find((a) => a.startsWith('--gz-budget='));
const gzBudget = budgetArg === undefined ? undefined : Number(budgetArg.slice('--gz-budget='.length));
if (gzBudget !== undefined && !(Number.isInteger(gzBudget) && gzBudget > 0)) {
  console.error(`build: --gz-budget must be a positive number of bytes, got ${budgetArg}`);
  process.exit(2);
}

for (const dir of ['wasm', 'esm', 'cjs', 'web']) rmSync(join(pkg, dir), { recursive: true, force: true });

run('cargo', [
  'build',
  '--quiet',
  '-p',
  'tool-offload-wasm',
  '--target',
  'wasm32-unknown-unknown',
  '--profile',
  'wasm',
]);
const built = join(repo, 'target', 'wasm32-unknown-unknown', 'wasm', 'tool_offload_wasm.wasm');
run('wasm-bindgen', ['--target', 'nodejs', '--out-dir', join(pkg, 'wasm'), built]);

// wasm-bindgen copies JS snippets verbatim (ES module syntax) but loads them with
// require(); Node before 20.19 cannot require ES modules, so make them CommonJS.
for (const file of walk(join(pkg, 'wasm', 'snippets'))) {
  const source = readFileSync(file, 'utf8');
  const names = [...source.matchAll(/^export (?:class|function) (\w+)/gm)].map((m) => m[1]);
  const cjs = source.replace(/^export (class|function) /gm, '$1 ') + `\nmodule.exports = { ${names.join(', ')} };\n`;
  writeFileSync(file, cjs);
}
writeFileSync(join(pkg, 'wasm', 'package.json'), '{ "type": "commonjs" }\n');

// Shrink with binaryen's wasm-opt from npm (Debian's wasm-opt 108 corrupts this output).
// `--converge` repeats -Oz while it still shrinks (0.5 KB gzipped). `--low-memory-unused`
// (1.2 KB) lets it fold constant address offsets: Rust's wasm32 layout puts the 1 MiB
// stack first (data from 0x100000), so the lowest 1 KiB is only reached by a stack
// that has already overflowed.
const wasmFile = join(pkg, 'wasm', 'tool_offload_wasm_bg.wasm');
run(bin('wasm-opt'), [
  '--low-memory-unused',
  '-Oz',
  '--converge',
  '--strip-debug',
  '--strip-producers',
  '--enable-bulk-memory',
  '--enable-nontrapping-float-to-int',
  '--enable-sign-ext',
  '--enable-reference-types',
  '--enable-multivalue',
  '--enable-mutable-globals',
  '--enable-simd',
  wasmFile,
  '-o',
  wasmFile,
]);

// The browser build (docs/browser.md): the web glue for the same .wasm, whose bytes are the
// Node build's (only the JS around them differs), and web-wasm/'s wrapper that
// instantiates it before any importer runs.
const webWasm = join(pkg, 'web', 'wasm');
run('wasm-bindgen', ['--target', 'web', '--out-dir', join(webWasm, 'glue'), built]);
copyFileSync(wasmFile, join(webWasm, 'glue', 'tool_offload_wasm_bg.wasm'));
for (const file of ['tool_offload_wasm.js', 'tool_offload_wasm.d.ts']) {
  copyFileSync(join(pkg, 'web-wasm', file), join(webWasm, file));
}

run(bin('tsc'), ['-p', 'tsconfig.json'], pkg);
run(bin('tsc'), ['-p', 'tsconfig.web.json'], pkg);
run(bin('tsc'), ['-p', 'tsconfig.cjs.json'], pkg);
writeFileSync(join(pkg, 'cjs', 'package.json'), '{ "type": "commonjs" }\n');
// The package's own README (npm-first: install, quick start, adapters, runtimes), its
// links into the repository (docs/, README.md…) pointed at it on GitHub, since the
// tarball holds only the README; and the project's licence.
const { repository } = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
const blob = `${repository.url.replace(/^git\+/, '').replace(/\.git$/, '')}/blob/main/`;
const readme = readFileSync(join(pkg, 'npm-readme.md'), 'utf8').replace(
  /\]\((?!https?:|#|mailto:)([^)]+)\)/g,
  (_, target) => `](${blob}${target})`,
);
writeFileSync(join(pkg, 'README.md'), readme);
copyFileSync(join(repo, 'LICENSE'), join(pkg, 'LICENSE'));
const gzipped = gzipSync(readFileSync(wasmFile), { level: 9 }).length;
const budgetNote = gzBudget === undefined ? '' : ` (budget ${gzBudget})`;
console.log(`built tool-offload: wasm ${statSync(wasmFile).size} bytes, ${gzipped} gzipped${budgetNote}`);
if (gzBudget !== undefined && gzipped > gzBudget) {
  console.error(
    `build: the wasm is ${gzipped} bytes gzipped, ${gzipped - gzBudget} over the budget of ${gzBudget} ` +
      '(WASM_GZ_BUDGET in the Makefile): shrink it, or raise the budget on purpose',
  );
  process.exit(1);
}

function* walk(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else if (e.name.endsWith('.js')) yield p;
  }
}
