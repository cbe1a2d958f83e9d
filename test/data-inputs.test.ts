/**
 * The committed-data rebuild checks run when their inputs changed (scripts/data-inputs.ts): a project in
 * miniature (a build script, the source it imports, its committed output, a shared data directory) is
 * recorded, and each kind of change makes the check due again, naming what changed.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSources, changedInputs, fingerprints, FINGERPRINT_FILE, SHARED_DIRS } from '../scripts/data-inputs.js';
import { tempDir } from './helpers/cli.js';
import { REPO_ROOT, SHARED_DATA } from './helpers/paths.js';

function miniature(): { root: string; shared: string } {
  const root = tempDir('catintel-data-inputs-');
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  write('package-lock.json', '{}\n');
  write('scripts/build-thing.ts', "import { parse } from '../src/parse.js';\nexport const x = parse;\n");
  write('scripts/build-wasm.ts', "import '../src/wasm-only.js';\n");
  write('scripts/make-us-portfolio.ts', "import '../src/unrelated.js';\n");
  write('src/parse.ts', "export { helper as parse } from './lib/helper.js';\n");
  write('src/lib/helper.ts', 'export const helper = 1;\n');
  write('src/wasm-only.ts', 'export {};\n');
  write('src/unrelated.ts', 'export {};\n');
  write('data/thing/out.ndjson', '{"a":1}\n');
  const shared = path.join(root, 'shared');
  for (const dir of SHARED_DIRS) write(`shared/${dir}/sample.txt`, `${dir}\n`);
  return { root, shared };
}

const tool = (root: string, shared: string, command: string) =>
  spawnSync(
    process.execPath,
    [path.join(REPO_ROOT, 'dist/scripts/data-inputs.js'), command, '--root', root, '--from', shared],
    { encoding: 'utf8' },
  );

describe('the inputs of the committed data', () => {
  it('are the build scripts and the sources they import, not the WebAssembly build or other scripts', () => {
    const { root } = miniature();
    expect(buildSources(root)).toEqual(['scripts/build-thing.ts', 'src/lib/helper.ts', 'src/parse.ts']);
  });

  it('in this project include the seed parser and the baseline build, and not the HTTP layer', () => {
    const sources = buildSources(REPO_ROOT);
    expect(sources).toEqual(
      expect.arrayContaining([
        'scripts/build-seed.ts',
        'src/sources/usgs-earthquakes.ts',
        'src/databuild/build.ts',
        'src/reference-data/inputs.ts',
      ]),
    );
    expect(sources).not.toContain('src/http/app.ts');
  });

  it('once recorded, are unchanged; a changed source, output or shared file makes the check due and names it', () => {
    const { root, shared } = miniature();
    const recorded = fingerprints(root, shared);
    expect(changedInputs(recorded, fingerprints(root, shared))).toEqual([]);
    fs.appendFileSync(path.join(root, 'src/lib/helper.ts'), '// edited\n');
    fs.appendFileSync(path.join(root, 'data/thing/out.ndjson'), '{"a":2}\n');
    fs.writeFileSync(path.join(shared, 'feeds/new-sample.txt'), 'new\n');
    fs.appendFileSync(path.join(root, 'src/unrelated.ts'), '// not an input\n');
    expect(changedInputs(recorded, fingerprints(root, shared))).toEqual([
      'data/thing/out.ndjson',
      'shared data: feeds/',
      'src/lib/helper.ts',
    ]);
  });

  it('check exits 1 naming the change until record writes them beside the data', () => {
    const { root, shared } = miniature();
    const first = tool(root, shared, 'check');
    expect(first.status, first.stderr).toBe(1); // nothing recorded yet: due
    expect(tool(root, shared, 'record').status).toBe(0);
    expect(fs.readFileSync(path.join(root, FINGERPRINT_FILE), 'utf8')).toMatch(/^[0-9a-f]{64} {2}src\/parse\.ts$/m);
    const clean = tool(root, shared, 'check');
    expect([clean.status, clean.stdout]).toEqual([0, expect.stringMatching(/unchanged/)]);
    fs.appendFileSync(path.join(root, 'src/parse.ts'), '// edited\n');
    const due = tool(root, shared, 'check');
    expect([due.status, due.stdout]).toEqual([
      1,
      expect.stringMatching(/1 input of the committed data changed .*src\/parse\.ts/),
    ]);
  });

  it.skipIf(!fs.existsSync(SHARED_DATA))(
    'in this project are recorded for every build input the committed data was made from',
    () => {
      const recorded = fs.readFileSync(path.join(REPO_ROOT, FINGERPRINT_FILE), 'utf8');
      for (const label of [
        'package-lock.json',
        'scripts/build-seed.ts',
        'data/seed/as-of.txt',
        'shared data: hazard_history/',
      ])
        expect(recorded).toContain(`  ${label}\n`);
    },
  );
});
