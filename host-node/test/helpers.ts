// Test helpers shared by the npm package's test files.
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { OffloadError } from 'tool-offload';
import type { FileWriter } from 'tool-offload';

/** A fresh temporary directory, by its real path (process.cwd() reports real paths). */
export const freshDir = (prefix: string): string =>
  realpathSync(mkdtempSync(join(tmpdir(), `tool-offload-${prefix}-`)));

/** `body` given a {@link freshDir}, removed afterwards whatever `body` did. */
export async function inTempDir(prefix: string, body: (dir: string) => Promise<void>): Promise<void> {
  const dir = freshDir(prefix);
  try {
    await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export type Call = ['mkdir', string] | ['writeFile', string, string];

/** An in-memory writer that records its calls and fails the operations it is told to. */
export class RecordingWriter implements FileWriter {
  readonly calls: Call[] = [];
  readonly files = new Map<string, string>();
  constructor(readonly fail: { mkdir?: unknown; writeFile?: unknown } = {}) {}
  async mkdir(dir: string): Promise<void> {
    this.calls.push(['mkdir', dir]);
    if ('mkdir' in this.fail) throw this.fail.mkdir;
  }
  async writeFile(path: string, data: string): Promise<void> {
    this.calls.push(['writeFile', path, data]);
    if ('writeFile' in this.fail) throw this.fail.writeFile;
    this.files.set(path, data);
  }
}

/** Await `promise`, which must reject with an OffloadError; return it. */
export async function offloadError(promise: Promise<unknown>): Promise<OffloadError> {
  let caught: unknown;
  await assert.rejects(promise, (e: unknown) => {
    caught = e;
    return true;
  });
  assert.ok(caught instanceof OffloadError, `expected an OffloadError, got ${String(caught)}`);
  return caught;
}
