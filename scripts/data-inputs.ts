/**
 * The inputs of the committed derived data (`make data`), fingerprinted in data/inputs.sha256, so that the
 * checks that rebuild that data byte for byte (test/data-check/, about a minute) run only when something
 * they depend on changed: `make test` runs them when a fingerprint no longer matches, `make data-check`
 * always runs them and records the fingerprints once they pass.
 *
 * The inputs are every build script (scripts/build-*.ts but the WebAssembly one) and the source files they
 * import, package-lock.json (library versions), the committed data itself, and the directories of the
 * shared data the builds read, one digest per directory.
 *
 *   node dist/scripts/data-inputs.js check  [--root <project>] [--from <shared data>]   exit 1 when due
 *   node dist/scripts/data-inputs.js record [--root <project>] [--from <shared data>]
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const FINGERPRINT_FILE = 'data/inputs.sha256';

/** The shared data directories `make data` reads from (the seed's feed samples, the catalogs, HIFLD). */
export const SHARED_DIRS = ['exposure', 'feeds', 'hazard_history', 'infrastructure'];

const HEADER = [
  '# The inputs of the committed data under data/ when its rebuild checks last passed (make data-check).',
  '# make test runs those checks again when a line here no longer matches; see docs/performance.md.',
];

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** Every file under dir, as paths relative to it with '/' separators, sorted. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else if (e.isFile()) out.push(r);
    }
  };
  walk('');
  return out.sort();
}

/** The build scripts and every project source file they import, transitively (relative imports only). */
export function buildSources(root: string): string[] {
  const entries = fs
    .readdirSync(path.join(root, 'scripts'))
    .filter((f) => /^build-.*\.ts$/.test(f) && f !== 'build-wasm.ts')
    .map((f) => path.join(root, 'scripts', f));
  const seen = new Set<string>();
  const stack = [...entries];
  while (stack.length) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = fs.readFileSync(file, 'utf8');
    // import/export ... from './x.js', import './x.js', import('./x.js')
    for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = path.resolve(path.dirname(file), m[1]);
      const candidates = [target.replace(/\.js$/, '.ts'), target.replace(/\.js$/, '.tsx'), target];
      const found = candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
      if (found) stack.push(found);
    }
  }
  return [...seen].map((f) => path.relative(root, f).split(path.sep).join('/')).sort();
}

/** label -> sha256 of every input, in a fixed order. */
export function fingerprints(root: string, sharedDir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const rel of ['package-lock.json', ...buildSources(root)])
    out.set(rel, sha256(fs.readFileSync(path.join(root, rel))));
  for (const rel of filesUnder(path.join(root, 'data'))) {
    if (`data/${rel}` !== FINGERPRINT_FILE)
      out.set(`data/${rel}`, sha256(fs.readFileSync(path.join(root, 'data', rel))));
  }
  for (const dir of SHARED_DIRS) {
    // One digest a directory: each file's path and content hash, in order (a renamed file counts as a change).
    const base = path.join(sharedDir, dir);
    const digest = createHash('sha256');
    for (const rel of filesUnder(base)) digest.update(`${rel}\0${sha256(fs.readFileSync(path.join(base, rel)))}\n`);
    out.set(`shared data: ${dir}/`, digest.digest('hex'));
  }
  return out;
}

export function formatFingerprints(f: Map<string, string>): string {
  return [...HEADER, ...[...f].map(([label, hash]) => `${hash}  ${label}`)].join('\n') + '\n';
}

export function parseFingerprints(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    if (m) out.set(m[2], m[1]);
  }
  return out;
}

/** The labels whose fingerprint differs, appeared or disappeared. */
export function changedInputs(recorded: Map<string, string>, current: Map<string, string>): string[] {
  const labels = new Set([...recorded.keys(), ...current.keys()]);
  return [...labels].filter((l) => recorded.get(l) !== current.get(l)).sort();
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const command = process.argv[2];
  const root = path.resolve(arg('--root', '.'));
  const sharedDir = path.resolve(root, arg('--from', '../shared/data'));
  if (command !== 'check' && command !== 'record') {
    process.stderr.write(`data-inputs: unknown command ${command ?? '(none)'}; use check or record\n`);
    process.exit(2);
  }
  if (!fs.existsSync(sharedDir)) {
    // Without the shared data nothing can be rebuilt, so there is nothing to check (the checks skip themselves too).
    process.stderr.write(
      `data-inputs: no shared data directory at ${sharedDir}; the committed-data checks cannot run\n`,
    );
    process.exit(0);
  }
  const file = path.join(root, FINGERPRINT_FILE);
  const current = fingerprints(root, sharedDir);
  if (command === 'record') {
    fs.writeFileSync(file, formatFingerprints(current));
    process.stdout.write(`data-inputs: recorded ${current.size} inputs in ${FINGERPRINT_FILE}\n`);
  } else {
    const recorded = fs.existsSync(file) ? parseFingerprints(fs.readFileSync(file, 'utf8')) : new Map<string, string>();
    const changed = changedInputs(recorded, current);
    if (changed.length === 0) {
      process.stdout.write(
        `data-inputs: the inputs of the committed data are unchanged since ${FINGERPRINT_FILE}; its rebuild checks are skipped (make data-check runs them)\n`,
      );
    } else {
      const shown = changed.slice(0, 5).join(', ') + (changed.length > 5 ? `, and ${changed.length - 5} more` : '');
      process.stdout.write(
        `data-inputs: ${changed.length} input${changed.length === 1 ? '' : 's'} of the committed data changed since ${FINGERPRINT_FILE} (${shown}): its rebuild checks are due\n`,
      );
      process.exit(1);
    }
  }
}
