#!/usr/bin/env node
// Import cycles as a reader sees them, folder by folder, held to a baseline (issue 50).
//
//   node scripts/check-module-cycles.mjs            check every crate against the baseline
//   node scripts/check-module-cycles.mjs --list     the same, listing every cycle and its arrows (and,
//                                                   for one through a folder's own file, the
//                                                   cycles among its children alone)
//   node scripts/check-module-cycles.mjs --update   write today's figures as the baseline
//
// A folder is a module and the modules it declares (a crate's root, a `mod.rs` or `name.rs`
// with `name/`): its graph has one node per child module, subtree included, and one for the
// folder's own file (`lib.rs`, `mod.rs`). Every path the code names (a `use` leaf, an inline
// `crate::`/`self::`/`super::` path, `#[cfg(test)]` left out; scripts/rust-modules.mjs) is one
// arrow, drawn in the folder where its two ends part: from `materialize/store.rs`,
// `crate::workspace::X` is materialize -> workspace in the crate's folder and
// `super::text::Y` is store -> text in `materialize/`. Paths are resolved through modules
// only, never through an import: `crate::FileReader` ends at lib.rs (which re-exports it) and
// `crate::materialize::Name` at materialize's own file, whichever child defines Name. So the
// arrows to and from a folder's own file (parent/child) are kept, and a re-export that
// children import back is a cycle, as it is for a reader going from file to file.
//
// Three figures per crate, none of which may grow (the layout refactor of issue 50 brings
// them down; until then they are a ratchet):
// - cycles: every strongly connected part of a folder's graph, as its modules and the number of
//   arrows between them. A cycle fails unless a baseline cycle of the same folder holds all its
//   modules and at least as many arrows.
// - imports through the crate root: paths that reach an item through the root's re-exports
//   (`crate::OffloadError`, `super::Value` from a top-level module) instead of the module that
//   holds it.
// - imports up the layers (crates with a LAYERS entry): paths from a top-level module to one
//   in a higher layer.
// A figure below its baseline is reported with the command that lowers the baseline.
import fs from 'node:fs';
import path from 'node:path';
import { loadCrate, rel, repo, tarjan } from './rust-modules.mjs';

const CRATES = [
  'core/src/lib.rs',
  'wasm/src/lib.rs',
  'cli/src/main.rs',
  'host-tokio/src/lib.rs',
  'host-python/src/lib.rs',
];
const BASELINE = path.join(repo, 'scripts/module-cycles.baseline.json');

// Core's top-level modules by layer, lowest first: issue 50's foundations, engines, products and
// what goes around them (its proposed folders first), with today's modules placed where their job
// is. The tool registry is a product beside the Materializer and the Workspace: both register
// their read tools on it, and its offload middleware plans as batch offload does. A path from a
// module to one in a higher layer is an import up the layers, and so is one between two modules
// of a layer marked `apart`: the Materializer and the Workspace each stand on the engines, never
// on each other. Every top-level module must be placed here.
const LAYERS = {
  'core/src/lib.rs': [
    [
      'foundations',
      'error text search sort path pattern_limit io memory create temp concurrent object_key base64 ' +
        'identifiers option_keys sha256 forms json view message grep redact transcript',
    ],
    ['engines', 'summary read limits tokens'],
    ['offload', 'offload direct batch plan'],
    ['registry', 'tools'],
    ['products', 'materializer workspace materialize', { apart: true }],
    ['around', 'options bundle mcp replay audit retention gc redact_tree redact_knowledge'],
  ],
};

// The module `segs` names from module `from`, through modules only: the walk stops at the first
// name that is not a child module (an item, or an import, which is not followed). A path
// starting with the module's own import (`use crate::json; ... json::walk`) goes through that
// import. Null for a path outside the crate. `value`: the path's last name is a function or macro
// called, never a module.
function target(from, segs, value, guard = 0) {
  let m = from,
    i = 0;
  if (segs[0] === 'crate') [m, i] = [from.root, 1];
  else if (segs[0] === 'self') i = 1;
  else if (segs[0] === 'super') {
    for (; segs[i] === 'super'; i++) if (!(m = m.parent)) return null;
  } else if (!m.children.has(segs[0])) {
    const imp = m.imports.get(segs[0]);
    return imp && segs.length > 1 && guard < 8
      ? target(imp.mod, [...imp.segs, ...segs.slice(1)], value, guard + 1)
      : null;
  }
  const end = value ? segs.length - 1 : segs.length;
  for (; i < end && m.children.has(segs[i]); i++) m = m.children.get(segs[i]);
  return { mod: m, item: i < segs.length };
}

const ancestors = (m) => {
  const out = [];
  for (; m; m = m.parent) out.unshift(m);
  return out;
};
const selfName = (m) => (m.fileMod === m ? path.basename(m.file) : `{${m.name}}`);
const folderName = (m) => rel(m.dir) + '/';

function measure(rootFile) {
  const { root, refs } = loadCrate(path.join(repo, rootFile));
  const folders = new Map(); // folder module -> Map a -> Map b -> [an example, count]
  let throughRoot = 0;
  const up = new Map(); // a -> Map b -> [an example, count], a below b
  const layers =
    LAYERS[rootFile] && new Map(LAYERS[rootFile].flatMap(([, ms], rank) => ms.split(' ').map((m) => [m, rank])));
  const apart = new Set((LAYERS[rootFile] ?? []).flatMap(([, ms, how], rank) => (how?.apart ? [rank] : [])));
  const above = (a, b) =>
    layers.get(a) < layers.get(b) || (layers.get(a) === layers.get(b) && apart.has(layers.get(a)));
  const lines = new Map();
  const example = ({ file, line, segs }) => {
    if (!lines.has(file)) lines.set(file, fs.readFileSync(file, 'utf8').split('\n'));
    return `${rel(file)}:${line}: ${lines.get(file)[line - 1].trim()}  [${segs.join('::')}]`;
  };
  const count = (map, a, b, ref) => {
    if (!map.has(a)) map.set(a, new Map());
    const to = map.get(a);
    if (to.has(b)) to.get(b)[1]++;
    else to.set(b, [example(ref), 1]);
  };
  for (const ref of refs) {
    const t = target(ref.mod, ref.segs, ref.value);
    if (!t || t.mod === ref.mod) continue;
    if (t.mod === root && t.item && ref.mod !== root) throughRoot++;
    const from = ancestors(ref.mod),
      to = ancestors(t.mod);
    let k = 0;
    while (from[k + 1] && from[k + 1] === to[k + 1]) k++;
    const folder = from[k],
      a = from[k + 1]?.name ?? selfName(folder),
      b = to[k + 1]?.name ?? selfName(folder);
    if (!folders.has(folder)) folders.set(folder, new Map());
    count(folders.get(folder), a, b, ref);
    if (layers && k === 0 && from[1] && to[1] && above(a, b)) count(up, a, b, ref);
  }
  const cycles = [];
  for (const [folder, edges] of folders) {
    const nodes = [...new Set([...edges.keys(), ...[...edges.values()].flatMap((to) => [...to.keys()])])];
    for (const modules of tarjan(nodes, edges)) {
      const inside = new Set(modules),
        arrows = [];
      for (const a of modules) for (const [b, ex] of edges.get(a) ?? []) if (inside.has(b)) arrows.push([a, b, ...ex]);
      // The same folder without its own file: the cycles between siblings alone.
      const own = selfName(folder),
        siblings = new Map([...edges].filter(([a]) => a !== own && inside.has(a)));
      for (const [a, to] of siblings) siblings.set(a, new Map([...to].filter(([b]) => b !== own && inside.has(b))));
      const among = modules.includes(own)
        ? tarjan(
            modules.filter((m) => m !== own),
            siblings,
          )
        : [];
      cycles.push({ folder: folderName(folder), modules, arrows, among });
    }
  }
  cycles.sort((x, y) => x.folder.localeCompare(y.folder) || x.modules[0].localeCompare(y.modules[0]));
  const upward = [...up].flatMap(([a, to]) => [...to].map(([b, ex]) => [a, b, ...ex]));
  const unplaced = layers ? [...root.children.keys()].filter((name) => !layers.has(name)) : [];
  return {
    root: selfName(root),
    cycles,
    throughRoot,
    upward,
    upwardCount: upward.reduce((n, x) => n + x[3], 0),
    unplaced,
  };
}

const figures = (m) => ({
  throughRoot: m.throughRoot,
  ...(LAYERS[m.rootFile] ? { upward: m.upwardCount } : {}),
  cycles: m.cycles.map((c) => ({ folder: c.folder, modules: c.modules, arrows: c.arrows.length })),
});

const args = process.argv.slice(2);
const list = args.includes('--list'),
  update = args.includes('--update');
const measured = CRATES.filter((f) => fs.existsSync(path.join(repo, f))).map((rootFile) => ({
  rootFile,
  ...measure(rootFile),
}));

if (update) {
  const crates = Object.fromEntries(measured.map((m) => [m.rootFile, figures(m)]));
  // One cycle a line, so that a diff of the baseline reads as the change it records.
  const text = JSON.stringify({ crates }, null, 2).replace(
    /\{\s+"folder": ("[^"]*"),\s+"modules": \[([^\]]*)\],\s+"arrows": (\d+)\s+\}/g,
    (_, folder, modules, arrows) =>
      `{ "folder": ${folder}, "modules": [${modules.trim().split(/,\s+/).join(', ')}], "arrows": ${arrows} }`,
  );
  fs.writeFileSync(BASELINE, text + '\n');
  console.log(`wrote ${rel(BASELINE)}`);
}

const baseline = fs.existsSync(BASELINE) ? JSON.parse(fs.readFileSync(BASELINE, 'utf8')).crates : {};
const arrowLines = (arrows) => arrows.map(([a, b, ex, n]) => `    ${a} -> ${b} (${n}), e.g. ${ex}`).join('\n');
let failed = 0,
  lower = 0;
for (const m of measured) {
  const base = baseline[m.rootFile] ?? { throughRoot: 0, upward: 0, cycles: [] };
  const fail = (what) => (failed++, console.log(`${m.rootFile}: ${what}`));
  for (const name of m.unplaced)
    fail(`module ${name} has no layer: place it in LAYERS (scripts/check-module-cycles.mjs)`);
  for (const c of m.cycles) {
    const held = base.cycles.filter((b) => b.folder === c.folder && c.modules.every((x) => b.modules.includes(x)));
    const cycle = `${c.folder}: ${c.modules.join(' ↔ ')}`;
    if (!held.length) fail(`a cycle the baseline does not hold, ${cycle}\n${arrowLines(c.arrows)}`);
    else if (held.every((b) => c.arrows.length > b.arrows))
      fail(
        `${c.arrows.length} arrows in ${cycle} (baseline ${Math.max(...held.map((b) => b.arrows))})\n${arrowLines(c.arrows)}`,
      );
    else if (list) {
      console.log(`${m.rootFile}: ${cycle} (${c.arrows.length} arrows)`);
      for (const s of c.among) console.log(`  among its children alone: ${s.join(' ↔ ')}`);
      console.log(arrowLines(c.arrows));
    }
  }
  for (const b of base.cycles)
    if (
      !m.cycles.some(
        (c) => c.folder === b.folder && c.modules.join() === b.modules.join() && c.arrows.length === b.arrows,
      )
    )
      lower++;
  const counts = [
    ['throughRoot', m.throughRoot, `imports through ${m.root}'s re-exports`, []],
    ['upward', m.upwardCount, 'imports up the layers', m.upward],
  ];
  for (const [key, n, what, arrows] of counts) {
    const was = base[key] ?? 0;
    if (n > was) fail(`${n} ${what} (baseline ${was})${arrows.length ? '\n' + arrowLines(arrows) : ''}`);
    else if (n < was) lower++;
    if (list && key === 'upward' && arrows.length) console.log(`${m.rootFile}: ${what}\n${arrowLines(arrows)}`);
  }
  const modules = new Set(m.cycles.flatMap((c) => c.modules.map((x) => c.folder + x))).size;
  console.log(
    `${m.rootFile}: ${m.cycles.length} cycle${m.cycles.length === 1 ? '' : 's'} (${modules} modules), ` +
      `${m.throughRoot} imports through ${m.root}` +
      (LAYERS[m.rootFile] ? `, ${m.upwardCount} up the layers` : ''),
  );
}
if (lower && !failed)
  console.log(
    `Below the baseline in ${lower} place${lower === 1 ? '' : 's'}: run \`node scripts/check-module-cycles.mjs --update\` ` +
      `and commit ${rel(BASELINE)} to keep the gain.`,
  );
if (failed)
  console.log(
    `\n${failed} failure${failed === 1 ? '' : 's'} against ${rel(BASELINE)} and LAYERS. Import from the module ` +
      `that holds the item (\`crate::error::OffloadError\`, not \`crate::OffloadError\`), or move the item ` +
      `below both of its users; \`--list\` shows every cycle and its arrows.`,
  );
process.exit(failed ? 1 : 0);
