/** Runs the real CLI in-process (run(argv, io)) and captures what a user would see. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { run } from '../../src/cli/main.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json: () => any;
}

export async function cli(argv: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    // The run's model package cache (test/helpers/model-cache.ts), never the home folder's, unless a test gives its own.
    env: { CATINTEL_NOW: env.CATINTEL_NOW, CATINTEL_CACHE: process.env.CATINTEL_CACHE, ...env },
    isTTY: false,
  });
  return { code, stdout, stderr, json: () => JSON.parse(stdout) };
}

/** A fresh directory for a test's store files. */
export function tempDir(prefix = 'catintel-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}
