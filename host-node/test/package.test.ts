// The package as users get it: `npm pack`, installed into a fresh project, used from ESM
// and CommonJS, and type-checked by a TypeScript consumer in both module systems.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const pkgDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const repo = dirname(pkgDir);
const tsc = join(repo, 'node_modules', '.bin', 'tsc');

// npm variables inherited from `npm test` (workspace, lifecycle, package) must not leak
// into the pack and install below.
const env = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) || /^npm_config_(cache|userconfig|registry)$/i.test(k)),
);
const npm = (args: string[], cwd: string) => spawnSync('npm', args, { cwd, env, encoding: 'utf8', timeout: 60_000 });

let work: string;
let consumer: string;
let tarball: string;
let entries: string[];

before(() => {
  if (!existsSync(join(pkgDir, 'esm', 'index.js'))) {
    execFileSync(process.execPath, [join(pkgDir, 'scripts', 'build.mjs')], { cwd: repo, stdio: 'inherit' });
  }
  work = realpathSync(mkdtempSync(join(tmpdir(), 'tool-offload-pkg-')));

  const packed = npm(['pack', '--json', '--pack-destination', work], pkgDir);
  assert.equal(packed.status, 0, packed.stderr);
  const [info] = JSON.parse(packed.stdout) as { filename: string }[];
  tarball = join(work, info!.filename);
  assert.ok(existsSync(tarball), tarball);
  entries = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean);

  consumer = join(work, 'consumer');
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
  let installed = npm(['install', '--no-audit', '--no-fund', '--offline', tarball], consumer);
  if (installed.status !== 0) installed = npm(['install', '--no-audit', '--no-fund', tarball], consumer);
  assert.equal(installed.status, 0, installed.stderr);
});

after(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Run `source` as `name` inside the consumer project; return its parsed JSON output. */
function runInConsumer(name: string, source: string): Record<string, any> {
  writeFileSync(join(consumer, name), source);
  const child = spawnSync(process.execPath, [name], { cwd: consumer, encoding: 'utf8', timeout: 30_000 });
  assert.equal(child.status, 0, `${name} failed:\n${child.stderr}`);
  return JSON.parse(child.stdout);
}

const placeholder = (path: string) => `[Tool result offloaded to file: ${path}]`;

test('the tarball holds the built package and nothing else', () => {
  const files = entries.map((e) => e.replace(/^package\//, ''));
  for (const required of [
    'package.json',
    'wasm/tool_offload_wasm_bg.wasm',
    'wasm/tool_offload_wasm.js',
    'wasm/tool_offload_wasm.d.ts',
    'esm/index.js',
    'esm/index.d.ts',
    'esm/node-file-writer.js',
    'esm/s3-io.js',
    'esm/s3-io.d.ts',
    'cjs/s3-io.js',
    'web/esm/s3-io.js',
    'cjs/index.js',
    'cjs/index.d.ts',
    'cjs/package.json',
    'web/esm/browser.js',
    'web/esm/browser.d.ts',
    'web/wasm/tool_offload_wasm.js',
    'web/wasm/glue/tool_offload_wasm.js',
    'web/wasm/glue/tool_offload_wasm_bg.wasm',
    'README.md',
    'LICENSE',
  ]) {
    assert.ok(files.includes(required), `missing ${required}`);
  }
  const unexpected = files.filter(
    (f) =>
      /^(src|test|scripts|node_modules)\//.test(f) ||
      /^tsconfig.*\.json$/.test(f) ||
      (f.endsWith('.ts') && !f.endsWith('.d.ts')),
  );
  assert.deepEqual(unexpected, []);
  assert.ok(
    files.every((f) => /^(esm|cjs|wasm|web)\//.test(f) || ['package.json', 'README.md', 'LICENSE'].includes(f)),
    files.join('\n'),
  );
});

test("the shipped README's links work outside the repository", () => {
  const readme = readFileSync(join(consumer, 'node_modules', 'tool-offload', 'README.md'), 'utf8');
  const targets = [...readme.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!);
  assert.ok(
    targets.some((t) => t.endsWith('/blob/main/docs/materializer.md')),
    'the docs are linked',
  );
  assert.deepEqual(
    targets.filter((t) => !/^(https?:|#)/.test(t)),
    [],
    'no link relative to a repository the tarball does not hold',
  );
  const manifest = JSON.parse(readFileSync(join(consumer, 'node_modules', 'tool-offload', 'package.json'), 'utf8'));
  assert.equal(manifest.repository.url, 'git+https://github.com/tool-offload/tool-offload.git');
  assert.ok(manifest.bugs.url && manifest.homepage);
});

test('the installed package works from ESM', () => {
  const out = runInConsumer(
    'esm.mjs',
    `
import { readFileSync } from 'node:fs';
import { offloadToolResultToFile, OffloadError, NodeFileWriter } from 'tool-offload';

const content = 'x'.repeat(2000) + ' 😀';
const result = await offloadToolResultToFile({ role: 'tool', tool_call_id: 'call_esm', content }, { sessionId: 'sess', outputDir: 'out' });
let error;
try {
  await offloadToolResultToFile({ role: 'tool', tool_call_id: '..', content }, { sessionId: 'sess', outputDir: 'out' });
} catch (e) {
  error = { isOffloadError: e instanceof OffloadError, isError: e instanceof Error, name: e.name, code: e.code };
}
console.log(JSON.stringify({
  resolved: import.meta.resolve('tool-offload'),
  result,
  data: readFileSync(result.file, 'utf8'),
  contentLength: content.length,
  error,
  writer: typeof new NodeFileWriter().writeFile,
}));
`,
  );
  const file = join(consumer, 'out', 'sess', 'call_esm.md');
  assert.equal(fileURLToPath(out.resolved), join(consumer, 'node_modules', 'tool-offload', 'esm', 'index.js'));
  assert.equal(out.result.file, file);
  assert.deepEqual(out.result.files, [file]);
  assert.deepEqual(out.result.message, { role: 'tool', tool_call_id: 'call_esm', content: placeholder(file) });
  assert.equal(out.data, 'x'.repeat(2000) + ' 😀');
  assert.equal(readFileSync(file, 'utf8'), out.data);
  assert.equal(out.result.freedChars, out.contentLength - placeholder(file).length);
  assert.deepEqual(out.error, { isOffloadError: true, isError: true, name: 'OffloadError', code: 'INVALID_ID' });
  assert.equal(out.writer, 'function');
});

test('tool-offload/s3 resolves from ESM and CommonJS; without its optional peer the import names it', () => {
  const out = runInConsumer(
    's3.mjs',
    `
import { createRequire } from 'node:module';
let error;
try {
  await import('tool-offload/s3');
} catch (e) {
  error = { code: e.code, message: e.message };
}
console.log(JSON.stringify({
  esm: import.meta.resolve('tool-offload/s3'),
  cjs: createRequire(import.meta.url).resolve('tool-offload/s3'),
  error,
}));
`,
  );
  const pkg = join(consumer, 'node_modules', 'tool-offload');
  assert.equal(fileURLToPath(out.esm), join(pkg, 'esm', 's3-io.js'));
  assert.equal(out.cjs, join(pkg, 'cjs', 's3-io.js'));
  // @aws-sdk/client-s3 is an optional peer dependency: not installed here.
  assert.equal(out.error.code, 'ERR_MODULE_NOT_FOUND');
  assert.match(out.error.message, /Cannot find package '@aws-sdk\/client-s3'/);
});

test('the installed package works from CommonJS and shares OffloadError with ESM', () => {
  const out = runInConsumer(
    'cjs.cjs',
    `
const { readFileSync } = require('node:fs');
const { offloadToolResultToFile, OffloadError, NodeFileWriter } = require('tool-offload');

(async () => {
  const message = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_cjs', content: [{ type: 'text', text: 'from cjs' }] }] };
  const result = await offloadToolResultToFile(message, { sessionId: 'sess', outputDir: 'out-cjs' });
  let error;
  try {
    await offloadToolResultToFile({ role: 'user', content: 'no tool result' }, { sessionId: 'sess', outputDir: 'out-cjs' });
  } catch (e) {
    error = { isOffloadError: e instanceof OffloadError, isError: e instanceof Error, name: e.name, code: e.code };
  }
  const esm = await import('tool-offload');
  console.log(JSON.stringify({
    resolved: require.resolve('tool-offload'),
    result,
    data: readFileSync(result.file, 'utf8'),
    error,
    writer: typeof new NodeFileWriter().writeFile,
    sameErrorClass: esm.OffloadError === OffloadError,
  }));
})().catch((e) => { console.error(e); process.exit(1); });
`,
  );
  const file = join(consumer, 'out-cjs', 'sess', 'toolu_cjs.md');
  assert.equal(out.resolved, join(consumer, 'node_modules', 'tool-offload', 'cjs', 'index.js'));
  assert.equal(out.result.file, file);
  assert.equal(out.data, '[{"type":"text","text":"from cjs"}]');
  assert.equal(readFileSync(file, 'utf8'), out.data);
  assert.deepEqual(out.result.message, {
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: 'toolu_cjs', content: placeholder(file) }],
  });
  assert.equal(out.result.freedChars, out.data.length - placeholder(file).length);
  assert.deepEqual(out.error, { isOffloadError: true, isError: true, name: 'OffloadError', code: 'NO_TOOL_RESULT' });
  assert.equal(out.writer, 'function');
  assert.equal(out.sameErrorClass, true, 'an OffloadError from either entry point passes instanceof in the other');
});

const tscArgs = [
  '--noEmit',
  '--strict',
  '--module',
  'nodenext',
  '--moduleResolution',
  'nodenext',
  '--target',
  'es2022',
  '--types',
  'node',
  '--typeRoots',
  join(repo, 'node_modules', '@types'),
];

function typeCheck(files: Record<string, string>, extra: string[] = []): { status: number | null; output: string } {
  for (const [name, source] of Object.entries(files)) writeFileSync(join(consumer, name), source);
  const child = spawnSync(tsc, [...tscArgs, ...extra, ...Object.keys(files)], {
    cwd: consumer,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: child.status, output: child.stdout + child.stderr };
}

const consumerTypes = `
import { NodeFileWriter, OffloadError, offloadToolResult, offloadToolResultToFile } from 'tool-offload';
import type { FileWriter, Message, OffloadResult } from 'tool-offload';

const message: Message = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'x' }] };
const writer: FileWriter = new NodeFileWriter({ durable: true });
const custom: FileWriter = { mkdir: async (dir: string) => void dir, writeFile: async (path: string, data: string) => void [path, data] };

export async function run(): Promise<string | undefined> {
  try {
    const a: OffloadResult = await offloadToolResult(message, 's', 'out', writer, { cwd: '/srv' });
    const b: OffloadResult = await offloadToolResultToFile(message, { sessionId: 's', outputDir: 'out' });
    await offloadToolResult(message, 's', 'out', custom);
    const n: number = a.freedChars + b.freedChars;
    const files: string[] = [...a.files, b.file];
    return n > 0 ? files[0] : undefined;
  } catch (err) {
    if (err instanceof OffloadError && err.code === 'INVALID_ID') {
      const path: string | undefined = err.path;
      return path;
    }
    throw err;
  }
}
`;

test('a TypeScript consumer type-checks against the installed package (ESM and CommonJS)', () => {
  const ok = typeCheck({ 'consumer.mts': consumerTypes, 'consumer.cts': consumerTypes }, ['--listFiles']);
  assert.equal(ok.status, 0, ok.output);
  const listed = ok.output.split('\n').filter(Boolean);
  assert.deepEqual(
    listed.filter((line) => !line.startsWith('/')),
    [],
    'no diagnostics',
  );
  // Each module system gets its own declarations, both from the installed package.
  const installed = join(consumer, 'node_modules', 'tool-offload');
  for (const decl of ['esm/index.d.ts', 'cjs/index.d.ts', 'wasm/tool_offload_wasm.d.ts']) {
    assert.ok(listed.includes(join(installed, decl)), `${decl} not type-checked:\n${ok.output}`);
  }
});

test('the installed types reject misuse', () => {
  const bad = typeCheck({
    'misuse.mts': `
import { OffloadError, offloadToolResultToFile } from 'tool-offload';
import type { Message } from 'tool-offload';
declare const err: unknown;
if (err instanceof OffloadError && err.code === 'NOT_A_CODE') {}
const message: Message = { role: 'tool', tool_call_id: 'c', content: 'x' };
void offloadToolResultToFile(message, { sessionId: 's' });
`,
  });
  assert.notEqual(bad.status, 0);
  assert.match(bad.output, /misuse\.mts\(5,\d+\): error TS2367/);
  assert.match(bad.output, /misuse\.mts\(7,\d+\): error TS2741/);
});

test("a browser app's TypeScript (bundler resolution, the browser condition) gets the browser entry's types", () => {
  const dir = join(consumer, 'browser-app');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: 'esnext',
        moduleResolution: 'bundler',
        customConditions: ['browser'],
        target: 'es2022',
        lib: ['es2022', 'dom'],
        types: [],
      },
      files: ['app.ts'],
    }),
  );
  const check = (source: string) => {
    writeFileSync(join(dir, 'app.ts'), source);
    const child = spawnSync(tsc, ['-p', dir, '--listFiles'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    return { status: child.status, output: child.stdout + child.stderr };
  };
  const ok = check(`
import { Materializer, MemoryWriter, OpfsWriter } from 'tool-offload';
const root: FileSystemDirectoryHandle = await navigator.storage.getDirectory();
const materializer = new Materializer({ userData: '/agent', conversationId: 'c1', writer: new OpfsWriter({ root }) });
export const inMemory = new Materializer({ userData: '/agent', conversationId: 'c1', writer: new MemoryWriter() });
export const summary: Promise<string> = materializer.grep('ctx://c1/tool/a.txt', 'error');
`);
  assert.equal(ok.status, 0, ok.output);
  assert.ok(
    ok.output.includes(join(consumer, 'node_modules', 'tool-offload', 'web', 'esm', 'browser.d.ts')),
    ok.output,
  );
  const bad = check(`import { NodeFileWriter } from 'tool-offload';\nexport const w = new NodeFileWriter();\n`);
  assert.notEqual(bad.status, 0);
  assert.match(bad.output, /has no exported member named 'NodeFileWriter'/);
});
