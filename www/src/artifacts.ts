// The artifacts panel: every file the playground keeps in OPFS, the refs the model can
// read back, and the read-back tools run as the model runs them (a ToolRegistry with the
// Materializer's context_read / context_tail / context_grep), their results shown as the
// model receives them.
import * as lib from 'tool-offload';

import { $, element } from './render.ts';
import { PLACES } from './run.ts';

/** Every file under `dir`, by path, depth first in name order. */
export async function listFiles(writer: lib.OpfsWriter, dir: string = PLACES.root): Promise<string[]> {
  const found: string[] = [];
  for (const name of await writer.listDir(dir)) {
    const path = `${dir}/${name}`;
    if ((await writer.stat(path))?.isDir) found.push(...(await listFiles(writer, path)));
    else found.push(path);
  }
  return found;
}

/** Every ref of the playground's materialized artifacts, found in storage. */
export function refsIn(files: readonly string[]): string[] {
  const prefix = `${PLACES.userData}/context/${PLACES.conversationId}/artifacts/`;
  return files
    .filter((f) => f.startsWith(prefix) && !f.endsWith('.lines'))
    .map((f) => `ctx://${PLACES.conversationId}/${f.slice(prefix.length)}`);
}

export async function renderArtifacts(writer: lib.OpfsWriter): Promise<void> {
  const files = await listFiles(writer);
  const list = $('files');
  list.replaceChildren(
    ...(files.length === 0
      ? [element('li', { className: 'empty' }, 'No artifacts yet.')]
      : files.map((f) => element('li', { title: f }, f.slice(PLACES.root.length + 1)))),
  );
  const select = $<HTMLSelectElement>('ref');
  const current = select.value;
  const refs = refsIn(files);
  select.replaceChildren(...refs.map((r) => element('option', { value: r }, r)));
  if (refs.includes(current)) select.value = current;
  for (const id of ['read', 'tail', 'grep']) $<HTMLButtonElement>(id).disabled = refs.length === 0;
  $<HTMLButtonElement>('export').disabled = refs.length === 0;
}

/** Run one read-back tool on the selected ref as the model would, and show its result. */
export async function readBack(materializer: lib.Materializer, tool: 'read' | 'tail' | 'grep'): Promise<void> {
  const registry = new lib.ToolRegistry();
  materializer.registerTools(registry);
  const ref = $<HTMLSelectElement>('ref').value;
  const params =
    tool === 'read'
      ? { ref, offset: Number($<HTMLInputElement>('offset').value) }
      : tool === 'tail'
        ? { ref, lines: Number($<HTMLInputElement>('lines').value) }
        : { ref, pattern: $<HTMLInputElement>('pattern').value };
  const result = await registry.executeTool('toolu_playground', `context_${tool}`, params);
  $('tool-output').textContent = result.content;
}
