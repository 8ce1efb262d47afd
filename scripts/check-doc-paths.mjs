#!/usr/bin/env node
// Fails when a document names a path of this repository that does not exist (issue 50:
// ARCHITECTURE.md named `scripts/build.mjs`, which is host-node/scripts/build.mjs).
//
//   node scripts/check-doc-paths.mjs [file.md ...]   (default: README.md, ARCHITECTURE.md, docs/*.md)
//
// What counts as a path, outside fenced code blocks:
// - a link's target (`[text](target)`, `[label]: target`) that is not a URL or an anchor: it
//   must exist relative to the document;
// - code in backticks whose first segment is a top-level entry of the repository
//   (`scripts/build.mjs`, `core/src/`, `.ci/run`): it must exist from the repository's root;
// - in a code map (ARCHITECTURE.md), code in backticks naming a source file (`.rs`, `.ts`, `.mjs`,
//   `.cjs`, `.sh`, `.toml`), with or without folders before it (`scan.rs`, `workspace/store.rs`),
//   or a folder (`summary/`) under a heading that names one: it must be a file (a folder) whose
//   path ends with it, under the folder the nearest heading names in backticks
//   (`### \`core/src/materialize/\``) when there is one, anywhere in the repository otherwise.
//   Other documents name such files as examples (`src/store.rs`) and history (docs/size.md).
// `*` matches within a name (`scripts/check-*`, `wasm/ts/*.d.ts`); a path git ignores is a build
// output and passes. Text with spaces, `<…>`, `$`, `:` or a leading `/`, `~` or `..` is an
// example, not a path of this repository.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const repo = path.resolve(path.dirname(decodeURIComponent(new URL(import.meta.url).pathname)), '..');
const SOURCE = /\.(rs|ts|mjs|cjs|sh|toml)$/;
const CODE_MAPS = ['ARCHITECTURE.md'];

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: repo })
  .toString()
  .split('\n')
  .filter((f) => f && fs.existsSync(path.join(repo, f)));
const dirs = [
  ...new Set(
    files.flatMap((f) =>
      f
        .split('/')
        .slice(0, -1)
        .map((_, i, s) => s.slice(0, i + 1).join('/') + '/'),
    ),
  ),
];
const top = new Set(files.map((f) => f.split('/')[0]));

const pattern = (p) => new RegExp('^' + p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*') + '$');
const anyMatch = (list, test) => list.some((f) => test(f));
// Whether `name` (a file, or a folder with a trailing `/`) is the end of a path under `base`.
const endsUnder = (name, base) => {
  const list = name.endsWith('/') ? dirs : files,
    re = pattern(name),
    tail = name.replace(/\/$/, '').split('/').length;
  return anyMatch(list, (f) => {
    if (!f.startsWith(base)) return false;
    const segs = f.slice(base.length).replace(/\/$/, '').split('/');
    return segs.length >= tail && re.test(segs.slice(-tail).join('/') + (name.endsWith('/') ? '/' : ''));
  });
};
const ignored = (p) => {
  try {
    execFileSync('git', ['check-ignore', '-q', p], { cwd: repo, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const exists = (p) =>
  p.endsWith('/')
    ? anyMatch(dirs, (d) => pattern(p).test(d))
    : anyMatch([...files, ...dirs], (f) => pattern(p).test(f.replace(/\/$/, '')));

// [line, text] of every inline code span, link target and heading context of a Markdown file.
function scan(doc) {
  const out = [],
    headings = []; // [level, folder]
  let fence = null;
  fs.readFileSync(path.join(repo, doc), 'utf8')
    .split('\n')
    .forEach((text, i) => {
      const line = i + 1,
        f = /^\s*(```|~~~)/.exec(text);
      if (f) fence = fence ? (text.trim().startsWith(fence) ? null : fence) : f[1];
      if (fence || f) return;
      const h = /^(#{1,6})\s/.exec(text);
      if (h) {
        while (headings.length && headings.at(-1)[0] >= h[1].length) headings.pop();
        const named = [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]).find((p) => p.endsWith('/') && exists(p));
        headings.push([h[1].length, named ?? null]);
      }
      const context = headings.findLast(([, d]) => d)?.[1] ?? null;
      for (const m of text
        .replace(/`[^`]*`/g, (s) => ' '.repeat(s.length))
        .matchAll(/\]\(([^)\s]+)\)|^\s*\[[^\]]+\]:\s+(\S+)/g))
        out.push({ line, link: m[1] ?? m[2] });
      for (const m of text.matchAll(/(`+)(.+?)\1/g)) out.push({ line, code: m[2].trim(), context });
    });
  return out;
}

function problem(doc, { link, code, context }, codeMap) {
  if (link) {
    if (/^([a-z][a-z0-9+.-]*:|#)/i.test(link)) return null;
    const target = decodeURIComponent(link.replace(/[#?].*$/, ''));
    const p = path.normalize(path.join(target.startsWith('/') ? '' : path.dirname(doc), target));
    return exists(p) || exists(p + '/') ? null : `link to ${link}: no ${p}`;
  }
  let p = code.replace(/^\.\//, '');
  if (/[\s<>$:]/.test(p) || /^([/~@-]|\.\.)/.test(p) || !/^[\w.*/-]+$/.test(p)) return null;
  const first = p.split('/')[0];
  if (p.includes('/') && top.has(first))
    return exists(p) || ignored(p) ? null : `\`${code}\`: no ${p} in the repository`;
  if (!codeMap || p.startsWith('.') || (p.endsWith('/') ? !context : !SOURCE.test(p))) return null;
  if (exists(path.join(path.dirname(doc), p)) || endsUnder(p, context ?? '')) return null;
  return `\`${code}\`: no ${p.endsWith('/') ? 'folder' : 'file'} ${context ? `under ${context}` : 'in the repository'} ends with ${p}`;
}

const docs =
  process.argv.length > 2
    ? process.argv.slice(2).map((f) => path.relative(repo, path.resolve(f)))
    : ['README.md', 'ARCHITECTURE.md', ...files.filter((f) => /^docs\/[^/]+\.md$/.test(f)).sort()];
let bad = 0;
for (const doc of docs)
  for (const ref of scan(doc)) {
    const why = problem(doc, ref, CODE_MAPS.includes(doc));
    if (why === null) continue;
    bad++;
    console.log(`${doc}:${ref.line}: ${why}`);
  }
console.log(`${docs.length} documents, ${bad} of the paths they name missing`);
process.exit(bad ? 1 : 0);
