/**
 * Reproduce the "Hurricane event set: landfalls" section of docs/validation.md:
 *   npx tsc -p tsconfig.json && node dist/scripts/validate-hurricane-landfalls.js --from ../shared/data [--years 10000] [--seed 1] [--write docs/validation.md]
 * Builds the catalog, detects its landfalls and HURDAT2's, prints the Markdown section; --write replaces the
 * section between its markers in the page (appending it when absent).
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  formatLandfallSection,
  validateLandfalls,
  withLandfallSection,
} from '../src/models/hurricane/landfall-validation.js';
import { packageRoot } from '../src/lib/package-root.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function wholeNumber(name: string, fallback: number): number {
  const raw = arg(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    process.stderr.write(`${name} must be a positive whole number, got "${raw}"\n`);
    process.exit(2);
  }
  return n;
}

const dataDir = path.resolve(arg('--from') ?? path.join(packageRoot(), '..', 'shared', 'data'));
const years = wholeNumber('--years', 10_000);
const seed = wholeNumber('--seed', 1);
let section: string;
try {
  section = formatLandfallSection(validateLandfalls({ dataDir, years, seed }));
} catch (e) {
  process.stderr.write(`${(e as Error).message}\n`);
  process.exit(1);
}
process.stdout.write(section + '\n');
const page = arg('--write');
if (page) {
  fs.writeFileSync(page, withLandfallSection(fs.readFileSync(page, 'utf8'), section));
  process.stderr.write(`wrote the hurricane landfall section of ${page}\n`);
}
