import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { progressWriter } from './execute.js';
import { barText, startProgressView } from './progress-view.js';

/** A terminal-like stream that keeps what ink writes. */
function terminal(): NodeJS.WriteStream & { text: () => string } {
  let out = '';
  const s = new Writable({
    write(chunk, _enc, cb) {
      out += String(chunk);
      cb();
    },
  }) as unknown as NodeJS.WriteStream & { text: () => string };
  Object.assign(s, { isTTY: true, columns: 100, rows: 30, text: () => out });
  return s;
}

// eslint-disable-next-line no-control-regex -- strips the terminal's escape sequences from what the test reads
const plain = (s: string) => s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');

describe('progress on a terminal (ink)', () => {
  it('draws a bar of done/total', () => {
    expect(barText(0, 100, 10)).toBe('░'.repeat(10));
    expect(barText(50, 100, 10)).toBe('█████░░░░░');
    expect(barText(100, 100, 10)).toBe('█'.repeat(10));
    expect(barText(5, undefined, 10)).toBe('');
  });

  it('renders the task, the bar, the percentage and the message, and leaves the last frame on stop', async () => {
    const tty = terminal();
    let now = 1_000;
    const view = startProgressView(tty, 1_000, () => now);
    view.update({ task: 'score', done: 25, total: 100, message: '250000 rows' });
    now = 3_500;
    view.update({ task: 'score', done: 50, total: 100, message: '500000 rows' });
    await new Promise((r) => setTimeout(r, 150));
    view.stop();
    const text = plain(tty.text());
    expect(text).toContain('score');
    expect(text).toContain('███████████████░░░░░░░░░░░░░░░  50%');
    expect(text).toContain('500,000 rows');
    expect(text).toContain('2.5 s');
  });

  it('the CLI loads ink only for a terminal; otherwise progress is NDJSON on stderr, or nothing with --quiet', async () => {
    const lines: string[] = [];
    const io = { stdout: () => {}, stderr: (t: string) => lines.push(t), env: {}, isTTY: false };
    const ndjson = progressWriter({}, io, undefined);
    ndjson.emit({ task: 'score', done: 1, total: 2, message: 'x' });
    expect(lines.map((l) => JSON.parse(l))).toEqual([{ progress: 'score', done: 1, total: 2, message: 'x' }]);
    progressWriter({ quiet: true }, io, undefined).emit({ task: 'score', done: 2, total: 2 });
    expect(lines).toHaveLength(1);

    const tty = terminal();
    const bar = progressWriter({}, io, tty);
    bar.emit({ task: 'score', done: 3, total: 4, message: 'three' });
    await new Promise((r) => setTimeout(r, 300));
    await bar.flush();
    expect(plain(tty.text())).toContain('75%');
    expect(lines).toHaveLength(1);
  });
});
