/**
 * The briefing's live-loss section: Ian's b-deck at 18:00 UTC on 28 September 2022 (an hour before
 * landfall) in a store holding a Lee County book, `catintel briefing` writes a PDF whose "Portfolio loss
 * (live)" section gives the book's loss band and the best-track version it was computed on. With no
 * portfolio in the event's rings there is no such section.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { testModels } from './helpers/model-packages.js';
import { sharedData } from './helpers/paths.js';
import { pageText } from './helpers/pdf.js';
import { OED_LOCATION_HEADER, leeCountyRows } from './helpers/event-loss-books.js';

const BDECK = sharedData('hazard_history/hurricanes/bal092022.dat');
const HEADER = OED_LOCATION_HEADER;
/** Four of the Lee County homes of test/event-loss.test.ts. */
const LEE = leeCountyRows(['CC1', 'FM1', 'FMB', 'EST']);
const AT = '2022-09-28T18:00:00Z';

let dir: string;
let models: string;
beforeAll(async () => {
  models = await testModels('hurricane');
  dir = tempDir('catintel-briefing-loss-');
}, 900_000);

async function briefing(withBook: boolean) {
  const db = path.join(dir, `${withBook ? 'book' : 'none'}.duckdb`);
  const env = { CATINTEL_MODELS: models };
  if (withBook) {
    const file = path.join(dir, 'lee.csv');
    fs.writeFileSync(file, [HEADER, ...LEE].join('\n') + '\n');
    const r = await cli(
      ['--db', db, '--as-of', AT, '--json', 'portfolio', 'import', file, '--name', 'Lee County'],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
  }
  expect((await cli(['--db', db, '--as-of', AT, '--quiet', 'ingest', 'nhc', '--from', BDECK], env)).code).toBe(0);
  const out = path.join(dir, `${withBook ? 'book' : 'none'}.pdf`);
  const r = await cli(['--db', db, '--as-of', AT, '--json', 'briefing', 'al092022', '--out', out], env);
  expect(r.code, r.stderr).toBe(0);
  return { summary: r.json(), text: pageText(out).replace(/\s+/g, ' ') };
}

describe('briefing: the live loss of each portfolio the event reached', () => {
  it('gives the Lee County book its band and the version it used', async () => {
    const { summary, text } = await briefing(true);
    expect(summary.sections).toContainEqual({ heading: 'Portfolio loss (live)', available: true });
    const at = text.indexOf('Portfolio loss (live)');
    expect(at).toBeGreaterThan(0);
    const section = text.slice(at, at + 1500);
    console.log(section);
    expect(section).toContain('Lee County');
    expect(section).toMatch(/best track through 2022-09-28T18:00:00Z \(27 ?fixes\)/);
    expect(section).toMatch(/[\d,]+ USD/);
    expect(section).toContain('20 ensemble members and 10 damage samples');
  }, 600_000);

  it('has no such section when no portfolio is in the rings', async () => {
    const { summary, text } = await briefing(false);
    expect(summary.sections.map((s: { heading: string }) => s.heading)).not.toContain('Portfolio loss (live)');
    expect(text).not.toContain('Portfolio loss (live)');
  }, 600_000);
});
