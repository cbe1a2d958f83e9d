/**
 * Reproduce the "Hurricane event set: landfalls" section of docs/validation.md:
 *   npx tsc -p tsconfig.json && node dist/scripts/validate-hurricane-landfalls.js --from ../shared/data [--years 10000] [--seed 1] [--write docs/validation.md]
 * Builds the catalog, detects its landfalls and HURDAT2's, prints the Markdown section; --write replaces the
 * section between its markers in the page (appending it when absent).
 */
import fs from 'node:fs';
import {
  formatLandfallSection,
  validateLandfalls,
  withLandfallSection,
} from '../src/models/hurricane/landfall-validation.js';
import { arg, sharedDataDir, wholeNumber } from './lib/script-args.js';

const dataDir = sharedDataDir();
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
