// The module tree of a Rust crate as its source shows it, for the lint scripts
// (check-module-cycles.mjs): no compiler, no cargo, a tokenizer good enough for our code.
//
// loadCrate(root file) reads every file reached from the crate root through `mod name;`
// (`#[path]` honoured, `#[cfg(test)]` items and files left out) into a tree of modules, each
// with the names it defines (`items`), imports (`imports`, `globs`) and declares (`children`),
// and lists every path the code (not comments or strings) names: each leaf of a `use` tree
// (nested braces included) and each inline path starting with `crate::`, `self::` or `super::`,
// as {mod, segs, line, file, value} (value: an inline path that is called, `f(` or `m!(`).
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
      // `crate::stored_form(...)`: a function (or macro) named like a module is not the module.
      const value = tok(k) === '(' || tok(k) === '!';
      refs.push({ mod: cur, segs, line: toks[i].line, file: cur.fileMod.file, value });
      i = k - 1;
    } else if (t === ';' || t === '}') pendingPath = null;
  }
}

// Strongly connected components of two nodes or more of the graph `edges` (Map node -> Map
// node -> anything), Tarjan; each sorted by `String(node)`.
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

// The crate whose root file is `rootFile`: {root, files, refs}; `files`: the modules that are files, as read.
export function loadCrate(rootFile) {
  const root = newModule('crate', null, rootFile, path.dirname(rootFile));
  root.root = root.fileMod = root;
  const refs = [],
    files = [];
  loadFile(root, refs, files);
  return { root, files, refs };
}

export { repo, rel, tarjan };
