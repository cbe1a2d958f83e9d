import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OutFile } from './out-file.js';

describe('OutFile', () => {
  it('keeps the order of the bytes while a write runs behind the next drain, and settled() means on file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-out-'));
    const out = await OutFile.create(dir, 'x.csv', 't');
    const expected: string[] = [];
    for (let chunk = 0; chunk < 40; chunk++) {
      // Some chunks span several 1 MiB blocks, so blocks go back to the pool while others are written.
      const line = `${chunk},${'x'.repeat(chunk % 3 === 0 ? 300_000 : 10)}\n`;
      for (let k = 0; k < 5; k++) {
        out.latin1(line);
        expected.push(line);
      }
      await out.drain();
      if (chunk === 20) {
        await out.settled();
        expect(fs.readFileSync(out.tempPath, 'latin1')).toBe(expected.join(''));
      }
    }
    await out.close();
    expect(fs.readFileSync(out.tempPath, 'latin1')).toBe(expected.join(''));
  });
});
