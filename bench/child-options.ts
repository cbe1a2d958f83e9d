/**
 * What the model benches (ep-models.ts, event-loss.ts) share: their `--name VALUE` options, and the ES module
 * snippet that runs one catintel command in a fresh process (child.ts) and prints its JSON answer with
 * the seconds the command itself took.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../src/lib/package-root.js';

/** --name VALUE on the command line, else the environment variable. */
export function option(name: string, env: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : process.env[env];
}

/** A positive whole-number option's value, or undefined when it is not given. */
export function whole(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} ${raw}: give a whole number, e.g. --${name} 1000`);
  return n;
}

/** A catintel command in a child process: its JSON answer and the seconds the command itself took. */
export function command(argv: string[], env: Record<string, string> = {}): string {
  const href = pathToFileURL(path.join(packageRoot(), 'dist', 'src', 'cli', 'main.js')).href;
  return `
    import { run } from ${JSON.stringify(href)};
    let out = '';
    const t0 = performance.now();
    const code = await run(${JSON.stringify(['--quiet', '--json', ...argv])},
      { stdout: (t) => (out += t), stderr: (t) => process.stderr.write(t), env: ${JSON.stringify(env)}, isTTY: false });
    if (code !== 0) process.exit(code);
    console.log(JSON.stringify({ seconds: (performance.now() - t0) / 1000, answer: JSON.parse(out) }));`;
}
