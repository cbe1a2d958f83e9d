/**
 * docs/cli.md is the command registry written out (scripts/cli-reference.ts): every command `catintel
 * --help` knows, with its arguments, options and examples. It fails while the committed page is stale,
 * naming the command that rewrites it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandTree } from '../src/cli/main.js';
import { CLI_REFERENCE, currentCliReference, renderCliReference } from '../scripts/cli-reference.js';
import { REPO_ROOT } from './helpers/paths.js';

const committed = () =>
  fs.existsSync(path.join(REPO_ROOT, CLI_REFERENCE))
    ? fs.readFileSync(path.join(REPO_ROOT, CLI_REFERENCE), 'utf8')
    : '(missing)';

describe('docs/cli.md, generated from the command registry', () => {
  it('is what the registry says today (else: node dist/scripts/cli-reference.js)', async () => {
    expect(
      committed(),
      `${CLI_REFERENCE} is stale: run \`npx tsc -p tsconfig.json && node dist/scripts/cli-reference.js\``,
    ).toBe(await currentCliReference());
  });

  it('has a section for every command, with every option and example its --help shows', async () => {
    const page = committed();
    const program = await commandTree();
    const leaves: string[][] = [];
    const walk = (cmd: typeof program, words: string[]) => {
      for (const sub of cmd.commands) {
        if (sub.commands.length === 0) leaves.push([...words, sub.name()]);
        walk(sub, [...words, sub.name()]);
      }
    };
    walk(program, []);
    expect(leaves.length).toBeGreaterThan(40);
    for (const words of leaves) expect(page, words.join(' ')).toContain(`### \`catintel ${words.join(' ')}\``);
    for (const flag of [
      '--fail-on-breach',
      '--shakemap',
      '--oed-ri-scope',
      '--trust-proxy [proxies]',
      '--as-of <time>',
    ])
      expect(page).toContain(`\`${flag}`);
    expect(page).toContain('$ catintel ingest && catintel trigger evaluate --json --fail-on-breach');
    expect(page).toContain('CATINTEL_JWT_SECRET'); // serve's help text after its options
  });

  it('changes when a command changes: an option added to the program shows up in the page', async () => {
    const program = await commandTree();
    program.commands
      .find((c) => c.name() === 'events')!
      .commands.find((c) => c.name() === 'live')!
      .option('--newest-only', 'only the newest event');
    const page = renderCliReference(program);
    expect(page).toContain('| `--newest-only` | only the newest event |');
    expect(page).not.toBe(committed());
  });
});
