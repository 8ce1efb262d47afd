// Demo: an agent loop whose tool results go through a Materializer: an oversized result
// is stored as an artifact and the model gets a summary with a ref, which it reads back
// with the context_grep / context_read tools. Then the conversation is exported to one
// bundle file and imported elsewhere. The model is scripted
// (examples/materialize-loop/script.json): no network, no API key.
//   node examples/materialize-loop.mjs [userDataDir]
//
// host-tokio/examples/materialize_loop.rs replays the same script with the Rust crate;
// both print the same report and write byte-identical files.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Materializer, ToolRegistry, importConversation } from 'tool-offload';
import {
  chars,
  printFiles,
  printSent,
  printSizeHeading,
  registerBuildTool,
  runLoop,
  scriptedModel,
  size,
} from './lib/scripted-loop.mjs';

const script = JSON.parse(await readFile(new URL('./materialize-loop/script.json', import.meta.url), 'utf8'));
const userData = process.argv[2] ?? 'out/materialize-loop/node';
const conversationId = script.conversationId;
await rm(userData, { recursive: true, force: true });

// ── Tools: the Materializer's read-back tools and a build that prints a lot ──────────
const materializer = new Materializer({ userData, conversationId });
const registry = new ToolRegistry({ materialize: materializer });
materializer.registerTools(registry); // context_read, context_tail, context_grep
registerBuildTool(registry, script.build); // the build fails; is_error is kept

// ── The loop ─────────────────────────────────────────────────────────────────────
// `fullHistory` is the conversation with every materialized result inline in full (read
// back from its artifact).
const loop = await runLoop({
  title: 'Materialize loop — npm package (tool-offload, wasm core)',
  registry,
  model: scriptedModel(script.assistant, fillRef),
  prompt: script.prompt,
  fullCopy: (content) => {
    const ref = summaryRef(content);
    return ref && artifactPath(ref);
  },
  printCall: ({ call, result, full, file, flag }) => {
    const where = file ? `summary; the output (${full.content.length} chars) is in the artifact` : 'inline';
    console.log(
      `    ${call.name.padEnd(12)} ${call.id.padEnd(15)} ${String(result.content.length).padStart(5)} chars  ${where}${flag}`,
    );
    console.log(`      ${result.content.split('\n')[0]}`);
  },
});
const { history, fullHistory } = loop;

printSizeHeading(loop);
console.log(`  without materialization  ${chars(size(fullHistory))}   every result inline in full`);
console.log(`  with materialization     ${chars(size(history))}   oversized results replaced by their summary`);
printSent(loop, 'materialization');
const { hits, inlined, savedChars, avgSavedChars } = materializer.stats();
console.log(`stats(): hits ${hits}, inlined ${inlined}, savedChars ${savedChars}, avgSavedChars ${avgSavedChars}`);
const again = await materializer.materializeMessages(history);
console.log(`materializeMessages(history) again: ${again.refs.length} new artifacts (summaries are left alone)`);

// ── Export, then import into a second directory ──────────────────────────────────
const bundle = await materializer.exportConversation(history);
const bundleFile = join(userData, 'bundle.json');
await writeFile(bundleFile, JSON.stringify(bundle));
const importDir = join(userData, 'imported');
const imported = await importConversation(JSON.parse(await readFile(bundleFile, 'utf8')), { userData: importDir });
const n = bundle.artifacts.length;
console.log(
  `\nExported ${bundle.messages.length} messages and ${n} artifact${n === 1 ? '' : 's'} (with SHA-256) to bundle.json; imported it into imported/`,
);
const restored = new Materializer({ userData: importDir, conversationId: imported.conversationId });
const ref = bundle.artifacts[0].ref;
console.log(`  grep(${JSON.stringify(ref)}, "error", first match) in imported/:`);
for (const line of (await restored.grep(ref, 'error', { context: 0, maxMatches: 1 })).split('\n'))
  console.log(`    ${line}`);

await printFiles(
  'Files written (relative to the output directory):',
  userData,
  [...loop.files, bundleFile, ...imported.paths],
  58,
);

// ── Helpers ──────────────────────────────────────────────────────────────────────

/** The ref named on the first line of a summary, or undefined for any other content. */
function summaryRef(content) {
  return /^\[Output of .*? stored as (ctx:\/\/\S+) and not shown in full: /.exec(content)?.[1];
}

/**
 * Where a ref of this conversation is stored: …/context/<conversationId>/artifacts/<kind>/<file>.
 * A ref percent-encodes the file name (docs/materializer.md, "Refs"); the file keeps the raw id.
 */
function artifactPath(ref) {
  const [kind, file] = ref.slice('ctx://'.length).split('/').slice(1);
  return join(userData, 'context', conversationId, 'artifacts', kind, decodeURIComponent(file));
}

/** A script string as the model says it: "{{ref:<id>}}" becomes the ref on the first line of that result's summary. */
function fillRef(text, contentOf) {
  const id = /^\{\{ref:(.+)\}\}$/.exec(text)?.[1];
  if (id === undefined) return text;
  const ref = summaryRef(contentOf(id));
  if (!ref) throw new Error(`the script expects ${id} to have been materialized`);
  return ref;
}
