/**
 * A model package with vulnerabilities added for one run: a book whose occupancy and construction name
 * vulnerabilities the package was not built with gets them computed for the run (the package's own
 * vulnerability code, on the shared public data it was built from), in a scratch model directory that
 * links every file of the package but vulnerability.csv, which holds the package's rows and the new ones.
 * The package itself is never changed.
 */
import fs from 'node:fs';
import path from 'node:path';

/**
 * The scratch model directory in `scratch`: the package's files linked, vulnerability.csv the package's
 * rows followed by those of `extra` (a vulnerability.csv of the same damage bins, written by the caller).
 */
export function packageWithVulnerabilities(modelDir: string, extraVulnerabilityCsv: string, scratch: string): string {
  const dir = path.join(scratch, 'model');
  fs.mkdirSync(dir, { recursive: true });
  for (const f of fs.readdirSync(modelDir)) {
    if (f === 'vulnerability.csv' || f === 'manifest.json') continue;
    fs.symlinkSync(path.join(modelDir, f), path.join(dir, f));
  }
  const own = fs.readFileSync(path.join(modelDir, 'vulnerability.csv'));
  const extra = fs.readFileSync(extraVulnerabilityCsv, 'utf8');
  const rows = extra.slice(extra.indexOf('\n') + 1);
  const out = fs.openSync(path.join(dir, 'vulnerability.csv'), 'w');
  try {
    fs.writeSync(out, own);
    if (own.length && own[own.length - 1] !== 0x0a) fs.writeSync(out, '\n');
    fs.writeSync(out, rows);
  } finally {
    fs.closeSync(out);
  }
  return dir;
}
