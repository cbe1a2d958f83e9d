/**
 * The digests a package's cache key is made of (domain/cache-key.ts), read from the disk: the code that
 * builds, the data it reads, the --oed-location book.
 *
 * The code is every file of the running installation's code tree (dist/src when run compiled, src when
 * run from the TypeScript sources under the tests) rather than the modules a build imports: an import
 * graph worked out by hand would miss the one module that changed. Its installed dependencies count too
 * (the land grid is drawn from us-atlas's boundaries): npm's record of the installed tree.
 */
import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../../lib/package-root.js';

const TEST_FILE = /\.test\.[cm]?[jt]sx?$/;

/** The code tree this module is part of: two folders up from models/package-cache/. */
export function codeTree(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
}

/** Every file under `dir` (recursively), as sorted paths relative to it; none when it is missing. */
function filesUnder(dir: string): string[] {
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.relative(dir, path.join(d.parentPath, d.name)).split(path.sep).join('/'))
    .sort();
}

/** Adds a file's name and contents. */
function addFile(h: Hash, name: string, file: string): void {
  const bytes = fs.readFileSync(file);
  h.update(`${name}\0${bytes.length}\0`).update(bytes);
}

/** A file or a folder's every file; a missing one is recorded as missing (its builder says what is wrong). */
function addPath(h: Hash, name: string, abs: string): void {
  const stat = fs.statSync(abs, { throwIfNoEntry: false });
  if (!stat) h.update(`${name}\0missing\0`);
  else if (stat.isDirectory()) for (const f of filesUnder(abs)) addFile(h, `${name}/${f}`, path.join(abs, f));
  else addFile(h, name, abs);
}

let codeMemo: string | undefined;

/** sha256 over the code tree's files (tests excluded), package.json and the installed dependencies. */
export function codeDigest(): string {
  if (codeMemo) return codeMemo;
  const h = createHash('sha256');
  const tree = codeTree();
  for (const f of filesUnder(tree)) if (!TEST_FILE.test(f)) addFile(h, `code/${f}`, path.join(tree, f));
  const root = packageRoot();
  addPath(h, 'package.json', path.join(root, 'package.json'));
  // npm's record of what is installed (versions and integrity of every package); the lock file without it.
  const installed = path.join(root, 'node_modules', '.package-lock.json');
  addPath(h, 'dependencies', fs.existsSync(installed) ? installed : path.join(root, 'package-lock.json'));
  return (codeMemo = h.digest('hex'));
}

/** sha256 over the given paths under `dataDir` (files, or folders whose every file counts). */
export function dataDigest(dataDir: string, inputs: readonly string[]): string {
  const h = createHash('sha256');
  for (const rel of [...inputs].sort()) addPath(h, rel, path.join(dataDir, rel));
  return h.digest('hex');
}

export function fileDigest(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

export const runtimeOf = () => `node ${process.version} ${process.platform}-${process.arch}`;
