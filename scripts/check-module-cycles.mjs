#!/usr/bin/env node
// Fails when the source files of a crate import each other in a cycle (issue 30: "import
// cycles per crate = 0"). A cycle means neither file can be read, tested or moved without
// the other, so two files that should be one module, or a helper stuck in the wrong one.
//
//   node scripts/check-module-cycles.mjs [crate-root.rs ...]   (default: every crate)
//
// Each file reached from the crate root through `mod name;` is a node (`#[cfg(test)]` items
// are left out). File A depends on file B when A's code (not comments or strings) names a
// path that resolves into B: a `use` (nested braces included) or an inline path starting
// with `crate::`, `self::` or `super::`. A path is resolved segment by segment through the
// module tree; when it stops at an item that the reached module imports or re-exports
// (`pub use child::{Name as Other}`, `pub use child::*`, ...), the import is followed to the
// file that defines the item. Edges to a file's own ancestors or descendants are normal and
// ignored; every strongly connected component of two files or more is reported.
import fs from 'node:fs';
import path from 'node:path';

const repo = path.resolve(path.dirname(decodeURIComponent(new URL(import.meta.url).pathname)), '..');
const rel = (f) => path.relative(repo, f) || f;
const isId = (c) => c !== undefined && /[A-Za-z0-9_]/.test(c);

// Tokens of Rust source: identifiers, `::`, single punctuation, strings ({s: value});
// comments, char literals and lifetimes' quotes are dropped. Each token keeps its line.
function tokenize(src) {
  const toks = [];
  let i = 0,
    line = 1;
  const skipTo = (end) => {
    for (; i < end; i++) if (src[i] === '\n') line++;
  };
  while (i < src.length) {
    const c = src[i],
      at = line;
    if (c === '\n') {
      line++;
      i++;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (src.startsWith('//', i)) {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    if (src.startsWith('/*', i)) {
      let depth = 0;
      do {
        if (src.startsWith('/*', i)) {
          depth++;
          i += 2;
        } else if (src.startsWith('*/', i)) {
          depth--;
          i += 2;
        } else skipTo(i + 1);
      } while (depth > 0 && i < src.length);
      continue;
    }
    const raw = !isId(src[i - 1]) && /^[bc]?r(#*)"/.exec(src.slice(i, i + 300));
    if (raw) {
      const close = '"' + raw[1],
        start = i + raw[0].length,
        end = src.indexOf(close, start);
      const s = src.slice(start, end);
      skipTo(end + close.length);
      toks.push({ t: '"', s, line: at });
      continue;
    }
    if (c === '"' || (/[bc]/.test(c) && src[i + 1] === '"' && !isId(src[i - 1]))) {
      let j = src.indexOf('"', i) + 1;
      const start = j;
      while (j < src.length && src[j] !== '"') j += src[j] === '\\' ? 2 : 1;
      const s = src.slice(start, j);
      skipTo(j + 1);
      toks.push({ t: '"', s, line: at });
      continue;
    }
    if (c === "'") {
      const cp = src.codePointAt(i + 1) ?? 0,
        len = cp > 0xffff ? 2 : 1;
      if (src[i + 1] === '\\') {
        let j = i + 3;
        while (j < src.length && src[j] !== "'") j++;
        skipTo(j + 1);
      } else if (src[i + 1 + len] === "'")
        i += 2 + len; // char literal
      else i++; // lifetime: its name becomes an identifier token
      continue;
    }
    if (isId(c)) {
      let j = i;
      if (src.startsWith('r#', i) && isId(src[i + 2])) j = i += 2; // raw identifier
      while (isId(src[j])) j++;
      toks.push({ t: src.slice(i, j), line: at });
      i = j;
      continue;
    }
    if (src.startsWith('::', i)) {
      toks.push({ t: '::', line: at });
      i += 2;
      continue;
    }
    toks.push({ t: c, line: at });
    i++;
  }
  return toks;
}

const OPEN = new Set(['(', '[', '{']),
  CLOSE = new Set([')', ']', '}']);
// Index just past the attribute starting at toks[i] (`#` `[` ... `]` or `#` `!` `[` ... `]`).
function attrEnd(toks, i) {
  let j = i + (toks[i + 1]?.t === '!' ? 2 : 1),
    depth = 0;
  do {
    if (OPEN.has(toks[j].t)) depth++;
    else if (CLOSE.has(toks[j].t)) depth--;
    j++;
  } while (depth > 0);
  return j;
}
const isCfgTest = (toks, i) =>
  toks
    .slice(i, i + 8)
    .map((x) => x.t)
    .filter((t, k) => k !== 1 || t !== '!')
    .join(' ')
    .startsWith('# [ cfg ( test ) ]');
const ITEM_START =
  /^(pub|let|fn|struct|enum|impl|mod|use|const|static|type|trait|union|async|unsafe|extern|macro_rules)$/;

// The tokens without `#[cfg(test)]` items; null for a file under `#![cfg(test)]`.
function dropTestItems(toks) {
  const out = [];
  for (let i = 0; i < toks.length;) {
    if (toks[i].t !== '#' || !isCfgTest(toks, i)) {
      out.push(toks[i++]);
      continue;
    }
    if (toks[i + 1].t === '!') return null;
    i = attrEnd(toks, i);
    while (toks[i]?.t === '#') i = attrEnd(toks, i);
    // An item ends at `;` or after its first `{...}`; a field, argument or match arm at `,`;
    // either one before the bracket that closes what encloses it.
    const item = ITEM_START.test(toks[i]?.t);
    for (let depth = 0; i < toks.length; i++) {
      const t = toks[i].t;
      if (depth === 0 && (t === ';' || (t === ',' && !item))) {
        i++;
        break;
      }
      if (OPEN.has(t)) depth++;
      else if (CLOSE.has(t) && depth === 0)
        break; // closes the enclosing block: keep it
      else if (CLOSE.has(t) && --depth === 0 && t === '}') {
        i++;
        break;
      }
    }
  }
  return out;
}

const ITEM = new Set(['fn', 'struct', 'enum', 'trait', 'type', 'const', 'static', 'union']);
const newModule = (name, parent, file, dir) => ({
  name,
  parent,
  file,
  dir,
  root: parent?.root ?? null,
  children: new Map(),
  items: new Set(),
  imports: new Map(),
  globs: [],
  fileMod: null,
});

// Reads `file` as module `mod`: its items, imports, child modules (recursively) and every path
// it names, pushed to `refs` as {mod, segs, line, file}.
function loadFile(mod, refs, files) {
  const toks = dropTestItems(tokenize(fs.readFileSync(mod.file, 'utf8')));
  if (!toks) return;
  files.push(mod);
  const stack = [{ mod, depth: 0 }];
  let depth = 0,
    pendingPath = null;
  const tok = (k) => toks[k]?.t;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i].t,
      cur = stack.at(-1).mod,
      top = depth === stack.at(-1).depth;
    if (t === '{') depth++;
    else if (t === '}') {
      if (depth-- === stack.at(-1).depth && stack.length > 1) stack.pop();
    } else if (t === '#' && tok(i + 1) === '[' && tok(i + 2) === 'path' && tok(i + 3) === '=')
      pendingPath = toks[i + 4].s;
    else if (t === 'mod' && isId(tok(i + 1)?.[0]) && (tok(i + 2) === ';' || tok(i + 2) === '{')) {
      const name = tok(i + 1),
        inline = tok(i + 2) === '{';
      const base = cur === cur.fileMod ? path.dirname(cur.file) : cur.dir;
      const file = inline
        ? cur.file
        : pendingPath
          ? path.join(base, pendingPath)
          : [path.join(cur.dir, name + '.rs'), path.join(cur.dir, name, 'mod.rs')].find((f) => fs.existsSync(f));
      pendingPath = null;
      if (!file) {
        console.error(`${rel(cur.file)}:${toks[i].line}: no file for mod ${name}`);
        continue;
      }
      const dir = inline
        ? path.join(cur.dir, name)
        : path.basename(file) === 'mod.rs'
          ? path.dirname(file)
          : file.slice(0, -3);
      const child = newModule(name, cur, file, dir);
      cur.children.set(name, child);
      cur.items.add(name);
      if (inline) {
        child.fileMod = cur.fileMod;
        stack.push({ mod: child, depth: depth + 1 });
      } else {
        child.fileMod = child;
        loadFile(child, refs, files);
      }
      i += 1;
    } else if (top && ITEM.has(t) && isId(tok(i + 1)?.[0]) && tok(i + 1) !== 'fn') {
      cur.items.add(tok(i + 1) === 'mut' ? tok(i + 2) : tok(i + 1));
    } else if (top && t === 'macro_rules' && tok(i + 1) === '!') cur.items.add(tok(i + 2));
    else if (t === 'use' && tok(i + 1) !== '<') {
      // A use tree: prefix::{a, b::c as d, self, *}; each leaf is a path and, at module level, an import.
      let k = i + 1;
      const leaf = (segs, alias, line) => {
        refs.push({ mod: cur, segs, line, file: cur.fileMod.file });
        if (!top) return;
        if (alias === '*') cur.globs.push({ mod: cur, segs });
        else if (alias !== '_') cur.imports.set(alias, { mod: cur, segs });
      };
      const tree = (prefix) => {
        const segs = [...prefix];
        if (tok(k) === '::' || tok(k) === '$') k++; // `::std`, a macro's `$crate`
        for (;;) {
          if (tok(k) === '{') {
            for (k++; tok(k) !== '}' && k < toks.length;) {
              tree(segs);
              if (tok(k) === ',') k++;
            }
            return void k++;
          }
          if (tok(k) === '*') {
            leaf(segs, '*', toks[k++].line);
            return;
          }
          const line = toks[k].line;
          segs.push(tok(k++));
          if (tok(k) === '::') {
            k++;
            continue;
          }
          let alias = segs.at(-1);
          if (tok(k) === 'as') {
            alias = tok(k + 1);
            k += 2;
          }
          if (segs.at(-1) === 'self') {
            segs.pop();
            if (alias === 'self') alias = segs.at(-1);
          }
          leaf(segs, alias, line);
          return;
        }
      };
      tree([]);
      i = k; // the `;`
    } else if (
      /^(crate|self|super)$/.test(t) &&
      tok(i + 1) === '::' &&
      tok(i - 1) !== '::' &&
      !(tok(i - 1) === 'in' && tok(i - 2) === '(' && tok(i - 3) === 'pub')
    ) {
      const segs = [t];
      let k = i + 1;
      while (tok(k) === '::' && isId(tok(k + 1)?.[0])) {
        segs.push(tok(k + 1));
        k += 2;
      }
      refs.push({ mod: cur, segs, line: toks[i].line, file: cur.fileMod.file });
      i = k - 1;
    } else if (t === ';' || t === '}') pendingPath = null;
  }
}

// The module a path names, from module `from`: {mod, definite} (definite: the last name was
// found as a module or an item there), or null for a path outside the crate.
function resolve(from, segs, guard = 0) {
  if (guard > 24 || !from) return null;
  let m = from,
    i = 0;
  if (segs[0] === 'crate') {
    m = from.root;
    i = 1;
  } else if (segs[0] === 'self') i = 1;
  else
    while (segs[i] === 'super') {
      m = m.parent;
      i++;
      if (!m) return null;
    }
  for (; i < segs.length; i++) {
    const name = segs[i],
      child = m.children.get(name);
    if (child) {
      m = child;
      continue;
    }
    if (m.items.has(name)) return { mod: m, definite: true };
    const imp = m.imports.get(name);
    if (imp)
      return (
        resolve(imp.mod, [...imp.segs, ...segs.slice(i + 1)], guard + 1) ?? (i ? { mod: m, definite: false } : null)
      );
    for (const g of m.globs) {
      const r = resolve(g.mod, [...g.segs, ...segs.slice(i)], guard + 1);
      if (r?.definite) return r;
    }
    return i ? { mod: m, definite: false } : null;
  }
  return { mod: m, definite: true };
}

const isAncestor = (a, b) => {
  for (let m = b.parent; m; m = m.parent) if (m === a) return true;
  return false;
};

// Strongly connected components of the graph `edges` (Map file -> Map file -> example), Tarjan.
function tarjan(nodes, edges) {
  const index = new Map(),
    low = new Map(),
    stack = [],
    onStack = new Set(),
    sccs = [];
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const scc = [];
      for (let w; w !== v;) {
        w = stack.pop();
        onStack.delete(w);
        scc.push(w);
      }
      if (scc.length > 1) sccs.push(scc.sort());
    }
  };
  for (const v of nodes) if (!index.has(v)) visit(v);
  return sccs;
}

const defaults = ['core/src/lib.rs', 'wasm/src/lib.rs', 'cli/src/main.rs', 'cli/src/lib.rs', 'host-tokio/src/lib.rs']
  .map((f) => path.join(repo, f))
  .filter((f) => fs.existsSync(f));
const roots = process.argv.length > 2 ? process.argv.slice(2).map((f) => path.resolve(f)) : defaults;
for (const f of roots)
  if (!fs.existsSync(f)) {
    console.error(`no such crate root: ${f}`);
    process.exit(2);
  }
let total = 0;
for (const rootFile of roots) {
  const label = rel(rootFile).replace(/\/src\/(lib|main)\.rs$/, (_, s) =>
    roots.some((r) => r !== rootFile && path.dirname(r) === path.dirname(rootFile)) ? ` (${s})` : '',
  );
  const root = newModule('crate', null, rootFile, path.dirname(rootFile));
  root.root = root.fileMod = root;
  const refs = [],
    files = [],
    lines = new Map(),
    edges = new Map();
  loadFile(root, refs, files);
  for (const { mod, segs, line, file } of refs) {
    const target = resolve(mod, segs)?.mod.fileMod,
      source = mod.fileMod;
    if (!target || target === source || isAncestor(target, source) || isAncestor(source, target)) continue;
    if (!edges.has(file)) edges.set(file, new Map());
    if (edges.get(file).has(target.file)) continue;
    if (!lines.has(file)) lines.set(file, fs.readFileSync(file, 'utf8').split('\n'));
    edges.get(file).set(target.file, `${rel(file)}:${line}: ${lines.get(file)[line - 1].trim()}  [${segs.join('::')}]`);
  }
  const sccs = tarjan(
    files.map((m) => m.file),
    edges,
  );
  for (const scc of sccs) {
    console.log(`${label}: cycle between ${scc.map(rel).join(', ')}`);
    for (const a of scc)
      for (const b of scc) {
        const example = edges.get(a)?.get(b);
        if (example) console.log(`  ${rel(a)} -> ${rel(b)}\n      ${example}`);
      }
  }
  console.log(`${label}: ${sccs.length} cycle${sccs.length === 1 ? '' : 's'} in ${files.length} modules`);
  total += sccs.length;
}
process.exit(total ? 1 : 0);
