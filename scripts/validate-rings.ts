/**
 * Reproduce the "Earthquake rings" figures of docs/validation.md from the shared data:
 *   npm run build && node dist/scripts/validate-rings.js --from ../shared/data
 * Prints one Markdown table: recall and precision of the MMI VIII / VI / IV rings for Loma Prieta 1989,
 * South Napa 2014 and Hebgen Lake 1959, with the intensity equation before and after its correction, and
 * with the ShakeMap itself where the reference is one. test/rings-validation.test.ts checks the same numbers.
 */
import { sharedDataDir } from './lib/script-args.js';
import { formatSkillTable, meanF1, ringSkillTable } from './ring-references.js';

const from = sharedDataDir();

const rows = ringSkillTable(from);
const out = formatSkillTable(rows);
out.push(
  '',
  `Mean F1 over the rings the references reach: uncorrected ${meanF1(rows, 'before').toFixed(2)}, corrected ${meanF1(rows, 'after').toFixed(2)}.`,
);
process.stdout.write(out.join('\n') + '\n');
