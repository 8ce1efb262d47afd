// The playground page: wiring the panels to the package's browser build. State is the
// conversation read from the input and the last run; artifacts live in OPFS, so they are
// still there after a reload.
import * as lib from 'tool-offload';

import { readBack, renderArtifacts } from './artifacts.ts';
import { formatName, parseConversation } from './conversation.ts';
import { $, renderRun } from './render.ts';
import { materializer, PLACES, run, type Mode, type Settings } from './run.ts';
import { SAMPLE } from './sample.ts';

const writer = new lib.OpfsWriter();
let lastMessages: object[] | undefined;

function mode(): Mode {
  return (document.querySelector<HTMLInputElement>('input[name="mode"]:checked')?.value ?? 'batch') as Mode;
}

function settings(): Settings {
  const value = (id: string) => Number($<HTMLInputElement>(id).value);
  return {
    threshold: value('threshold'),
    maxInlineChars: value('max-chars'),
    maxInlineBytes: value('max-bytes'),
    inlineLimit: value('inline-limit'),
    tokenThreshold: value('token-threshold'),
  };
}

/** Show only the settings of the chosen mode. */
function showSettings(): void {
  for (const label of document.querySelectorAll<HTMLElement>('.settings [data-mode]')) {
    label.hidden = label.dataset.mode !== mode();
  }
}

/** `task`, its failure shown in the error line rather than lost. */
async function guarded(task: () => Promise<void>): Promise<void> {
  $('error').textContent = '';
  try {
    await task();
  } catch (e) {
    const err = e as Error & { code?: string };
    $('error').textContent = err.code ? `${err.code}: ${err.message}` : err.message;
  }
}

function conversation(): object[] {
  const messages = parseConversation($<HTMLTextAreaElement>('source').value);
  $('format').textContent = `${messages.length} messages · ${formatName(messages)}`;
  return messages;
}

async function offload(): Promise<void> {
  const messages = conversation();
  const result = await run(lib, writer, messages, mode(), settings());
  lastMessages = result.messages;
  renderRun(result);
  await renderArtifacts(writer);
  if (result.refs.length > 0) $<HTMLSelectElement>('ref').value = result.refs[0]!;
  document.body.dataset.runs = String(Number(document.body.dataset.runs ?? 0) + 1);
}

function loadText(text: string): void {
  $<HTMLTextAreaElement>('source').value = text;
  void guarded(async () => void conversation());
}

async function download(): Promise<void> {
  const messages = lastMessages ?? conversation();
  const bundle = await materializer(lib, writer, settings()).exportConversation(messages);
  const url = URL.createObjectURL(new Blob([JSON.stringify(bundle, null, 2)], { type: 'application/json' }));
  const link = Object.assign(document.createElement('a'), {
    href: url,
    download: `${PLACES.conversationId}-bundle.json`,
  });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

async function importBundle(file: File): Promise<void> {
  const bundle = JSON.parse(await file.text());
  const imported = await lib.importConversation(bundle, { userData: PLACES.userData, writer });
  $<HTMLTextAreaElement>('source').value = JSON.stringify(imported.messages, null, 2);
  conversation();
  lastMessages = imported.messages as object[];
  await renderArtifacts(writer);
  $('tool-output').textContent = `Imported ${imported.paths.length} artifacts of ${imported.conversationId}.`;
}

async function clearStorage(): Promise<void> {
  const root = await navigator.storage.getDirectory();
  await root.removeEntry(PLACES.root.slice(1), { recursive: true }).catch(() => undefined);
  $('tool-output').textContent = '';
  await renderArtifacts(writer);
}

const source = $<HTMLTextAreaElement>('source');
$('load-sample').addEventListener('click', () => loadText(JSON.stringify(SAMPLE, null, 2)));
$('file').addEventListener('change', async (e) => {
  const file = (e.target as HTMLInputElement).files?.[0];
  if (file) loadText(await file.text());
});
source.addEventListener('dragover', (e) => {
  e.preventDefault();
  source.classList.add('dragging');
});
source.addEventListener('dragleave', () => source.classList.remove('dragging'));
source.addEventListener('drop', async (e) => {
  e.preventDefault();
  source.classList.remove('dragging');
  const file = e.dataTransfer?.files[0];
  if (file) loadText(await file.text());
});
for (const input of document.querySelectorAll('input[name="mode"]')) input.addEventListener('change', showSettings);
$('run').addEventListener('click', () => guarded(offload));
$('export').addEventListener('click', () => guarded(download));
$('import').addEventListener('change', (e) => {
  const file = (e.target as HTMLInputElement).files?.[0];
  if (file) void guarded(() => importBundle(file));
  (e.target as HTMLInputElement).value = '';
});
$('clear').addEventListener('click', () => guarded(clearStorage));
for (const tool of ['read', 'tail', 'grep'] as const) {
  $(tool).addEventListener('click', () => guarded(() => readBack(materializer(lib, writer, settings()), tool)));
}

showSettings();
await guarded(() => renderArtifacts(writer));
document.body.dataset.ready = 'true';
