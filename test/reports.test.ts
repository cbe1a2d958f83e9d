/**
 * The leadership briefing and the ICS-209 on real data (issue 14): the strongest earthquake of the embedded
 * default (`catintel db seed`) and Hurricane Ian from its NHC b-deck read at Florida landfall. Each PDF is
 * turned into page images and text (MuPDF's WebAssembly build, npm `mupdf`: test/helpers/pdf.ts): the pages
 * exist, the text layer holds the title, the key figures the endpoints give and the notice, and the map page
 * has pixels of the innermost ring's colour. Rendering twice gives the same bytes; HTTP gives the CLI's bytes.
 * The ICS-209 marks what it cannot fill as not known and never shows a casualty or evacuation count.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../src/config/defaults.js';
import type { Context } from '../src/context.js';
import { createApp, type App } from '../src/http/app.js';
import { RING_COLOURS } from '../src/reports/domain/map.js';
import { fmtNumber } from '../src/reports/domain/text.js';
import { PUBLIC_STATUS_ROWS, RESPONDER_STATUS_ROWS } from '../src/reports/domain/ics209.js';
import { SITUATIONAL_AWARENESS_NOTICE } from '../src/reports/domain/briefing.js';
import { Store } from '../src/store/db.js';
import { cli, tempDir } from './helpers/cli.js';
import { seedStore } from './helpers/store.js';
import { pageCount, pagePixels, pageText } from './helpers/pdf.js';
import { REPO_ROOT, sharedData } from './helpers/paths.js';
import { AUTH, token } from './http/helpers/harness.js';
import { responseProblems } from './http/helpers/openapi.js';

const SEED_NOW = fs.readFileSync(path.join(REPO_ROOT, 'data', 'seed', 'as-of.txt'), 'utf8').trim();
const IAN_NOW = '2022-09-28T19:30:00Z'; // Ian's Florida landfall, as docs/usage.md replays it
const dir = tempDir('catintel-reports-');
const seedDb = path.join(dir, 'seed.duckdb');
const ianDb = path.join(dir, 'ian.duckdb');

let quakeId: string;
let ianId: string;

beforeAll(async () => {
  fs.copyFileSync(await seedStore(), seedDb); // `db seed` at SEED_NOW, the seed's instant
  const quakes = (
    await cli(['--db', seedDb, '--json', 'events', 'live', '--event-type', 'earthquake', '--limit', '1000'], {
      CATINTEL_NOW: SEED_NOW,
    })
  ).json();
  quakeId = quakes.features.sort((a: any, b: any) => b.properties.severity - a.properties.severity)[0].properties.id;
  const ian = await cli(
    ['--db', ianDb, 'ingest', 'nhc', '--from', sharedData('hazard_history/hurricanes/bal092022.dat')],
    { CATINTEL_NOW: IAN_NOW },
  );
  expect(ian.code, ian.stderr).toBe(0);
  ianId = (
    await cli(['--db', ianDb, '--json', 'events', 'live', '--event-type', 'hurricane'], { CATINTEL_NOW: IAN_NOW })
  ).json().features[0].properties.id;
}, 60_000);

async function briefing(db: string, now: string, id: string, name: string) {
  const out = path.join(dir, name);
  const r = await cli(['--db', db, '--json', 'briefing', id, '--out', out], { CATINTEL_NOW: now });
  expect(r.code, r.stderr).toBe(0);
  return { file: out, summary: r.json(), bytes: fs.readFileSync(out) };
}

function pdfText(file: string): string {
  // Collapse the layout's line breaks: a key figure's caption may wrap.
  return pageText(file).replace(/\s+/g, ' ');
}

/** Page 1 as RGB pixels, and how many are within `tol` of a colour. */
function page1Pixels(
  file: string,
  dpi = 100,
): { width: number; height: number; count: (hex: string, tol?: number) => number; nonWhite: number } {
  const { width, height, rgb: data } = pagePixels(file, 0, dpi);
  let nonWhite = 0;
  for (let i = 0; i < data.length; i += 3) if (data[i] < 250 || data[i + 1] < 250 || data[i + 2] < 250) nonWhite++;
  const count = (hex: string, tol = 24) => {
    const [r, g, b] = [1, 3, 5].map((o) => parseInt(hex.slice(o, o + 2), 16));
    let n = 0;
    for (let i = 0; i < data.length; i += 3)
      if (Math.abs(data[i] - r) <= tol && Math.abs(data[i + 1] - g) <= tol && Math.abs(data[i + 2] - b) <= tol) n++;
    return n;
  };
  return { width, height, count, nonWhite };
}

/**
 * Ian's briefing at landfall, rendered once for the tests that read it; the test of repeatable bytes renders
 * it again (and over HTTP) and compares with this one.
 */
let ianRendered: ReturnType<typeof briefing> | undefined;
const ianBriefing = () => (ianRendered ??= briefing(ianDb, IAN_NOW, ianId, 'ian.pdf'));

describe('leadership briefing PDF', () => {
  it('of the strongest earthquake of the embedded default: pages, title, key figures, notice, ring colour on the map', async () => {
    const b = await briefing(seedDb, SEED_NOW, quakeId, 'quake.pdf');
    const event = (await cli(['--db', seedDb, '--json', 'events', 'show', quakeId], { CATINTEL_NOW: SEED_NOW })).json()
      .properties;
    expect(b.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pageCount(b.file)).toBe(b.summary.pages);
    expect(b.summary.pages).toBeGreaterThanOrEqual(2);
    const text = pdfText(b.file);
    expect(text).toContain(event.title);
    expect(text).toContain(`M ${event.severity.toFixed(1)}`);
    expect(text).toContain(`depth ${fmtNumber(event.details.depth_km, 1)} km`);
    expect(text).toContain(SITUATIONAL_AWARENESS_NOTICE);
    // The prediction's own figures (Reasenberg & Jones), as GET /events/{id}/prediction gives them.
    const prediction = (
      await cli(['--db', seedDb, '--json', 'events', 'prediction', quakeId], { CATINTEL_NOW: SEED_NOW })
    ).json();
    expect(text).toContain(prediction.method.name);
    expect(text).toContain(fmtNumber(prediction.forecast.windows[0].p_m5, 2));
    // Outside the US: the map says there are no outlines rather than drawing an empty frame.
    expect(text).toContain('no county or state outlines');
    const px = page1Pixels(b.file);
    expect(px.count(RING_COLOURS[0])).toBeGreaterThan(50);
  }, 60_000);

  it('of Hurricane Ian at landfall: category, people and hospitals in the innermost ring from /exposure, track and outlines', async () => {
    const b = await ianBriefing();
    const event = (await cli(['--db', ianDb, '--json', 'events', 'show', ianId], { CATINTEL_NOW: IAN_NOW })).json()
      .properties;
    const exposure = (
      await cli(['--db', ianDb, '--json', 'events', 'exposure', ianId], { CATINTEL_NOW: IAN_NOW })
    ).json();
    const inner = exposure.rings[0];
    const text = pdfText(b.file);
    expect(text).toContain('Hurricane Ian (AL09 2022)');
    expect(text).toContain(event.severity_label);
    expect(text).toContain(`${event.details.max_wind_kt} kt sustained wind`);
    expect(inner.population.population).toBeGreaterThan(0);
    expect(text).toContain(fmtNumber(inner.population.population));
    expect(text).toContain(`hospitals inside ${inner.label.split(' (')[0]}`);
    expect(text).toContain(fmtNumber(inner.infrastructure.counts.hospital));
    expect(text).toContain(SITUATIONAL_AWARENESS_NOTICE);
    expect(text).toContain('state border');
    expect(text).toContain('track (fixes as dots)');
    // Every section has content for a hurricane; the sources name the feed and when it was ingested.
    expect(b.summary.sections.every((s: { available: boolean }) => s.available)).toBe(true);
    expect(text).toContain('bal092022.dat');
    const px = page1Pixels(b.file);
    expect(px.count(RING_COLOURS[0])).toBeGreaterThan(50);
    expect(px.nonWhite / (px.width * px.height)).toBeGreaterThan(0.2); // outlines, land and rings, not a blank frame
  }, 60_000);

  it('renders the same bytes twice, and GET /events/{id}/briefing gives those bytes as application/pdf (analyst and up)', async () => {
    const first = await ianBriefing();
    const second = await briefing(ianDb, IAN_NOW, ianId, 'ian-again.pdf');
    expect(second.bytes.equals(first.bytes)).toBe(true);
    const http = await appAt(ianDb, IAN_NOW);
    try {
      const url = `http://localhost/api/v1/events/${ianId}/briefing`;
      const res = await http.app.fetch(
        new Request(url, { headers: { authorization: `Bearer ${await token('analyst')}` } }),
      );
      expect(await responseProblems('GET', url, res.clone(), { rateLimited: false })).toEqual([]);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(Buffer.from(await res.arrayBuffer()).equals(first.bytes)).toBe(true);
      const agency = await http.app.fetch(
        new Request(url, { headers: { authorization: `Bearer ${await token('agency')}` } }),
      );
      expect(agency.status).toBe(403);
    } finally {
      await http.close();
    }
  }, 60_000);
});

describe('page 1 of the briefing with an exposed portfolio (the picture in docs/reports.md)', () => {
  /** A page's text (1-based, as a reader counts pages) with its line breaks and runs of spaces as one space. */
  const pageWords = (file: string, page: number) => pageText(file, page - 1).replace(/\s+/g, ' ');

  it('writes the TIV compactly and every key figure label whole, nothing cut with an ellipsis', async () => {
    const db = path.join(dir, 'ian-book.duckdb');
    fs.copyFileSync(ianDb, db);
    // 20 Lee County locations of $60M each: a $1.2B book inside Ian's rings at landfall.
    const csv = path.join(dir, 'lee.csv');
    const rows = Array.from(
      { length: 20 },
      (_, i) =>
        `1,A1,LEE${i},${(26.55 + i * 0.01).toFixed(2)},-81.87,1050,5050,50000000,8000000,2000000,WW1;WSS,USD,US`,
    );
    fs.writeFileSync(
      csv,
      [
        'PortNumber,AccNumber,LocNumber,Latitude,Longitude,OccupancyCode,ConstructionCode,BuildingTIV,ContentsTIV,BITIV,LocPerilsCovered,LocCurrency,CountryCode',
        ...rows,
      ].join('\n') + '\n',
    );
    expect(
      (await cli(['--db', db, 'portfolio', 'import', csv, '--name', 'Lee County'], { CATINTEL_NOW: IAN_NOW })).code,
    ).toBe(0);
    const b = await briefing(db, IAN_NOW, ianId, 'ian-book.pdf');
    const page1 = pageWords(b.file, 1);
    expect(page1).toContain('$1.2B');
    expect(page1).not.toMatch(/USD…|USD\.\.\./);
    expect(page1).not.toContain('…');
    // The captions as the briefing builds them, whole.
    expect(page1).toContain('people inside 64 kt (hurricane-force) winds (county-apportioned estimate)');
    expect(page1).toContain('hospitals inside 64 kt (hurricane-force) winds');
    expect(page1).toMatch(
      /insured TIV of your portfolios inside 34 kt \(tropical-storm-force\) winds \(20 locations\)/,
    );
    // Fire stations have no data in Florida: the exposure table says so, never "0".
    expect(pdfText(b.file)).toMatch(/not covered/);
    // The picture in docs/reports.md is this case (that page says how it is made).
    const px = page1Pixels(b.file);
    expect(px.count(RING_COLOURS[0])).toBeGreaterThan(50);
  }, 60_000);

  it('bounds a very long title and draws emoji and right-to-left text as one documented placeholder', async () => {
    const { buildBriefing } = await import('../src/reports/domain/briefing.js');
    const { gatherInputs } = await import('../src/reports/gather.js');
    const { reportSources } = await import('../src/handlers/report-sources.js');
    const caller = { tier: 'enterprise', account: 'local' } as const;
    const { renderBriefingPdf } = await import('../src/reports/pdf.js');
    const { UNDRAWABLE } = await import('../src/reports/domain/text.js');
    const store = await Store.open(ianDb, { readOnly: true, holder: 'test' });
    try {
      const ctx: Context = {
        config: defaultConfig({ dbPath: ianDb }),
        db: store,
        clock: () => new Date(IAN_NOW),
        log: () => {},
        progress: () => {},
      };
      const inputs = await gatherInputs(ctx, ianId, caller, reportSources(ctx, caller));
      inputs.event.props.title = `Storm 🌀👨‍👩‍👧 Ian סופה גדולה ${'lorem ipsum '.repeat(8751)}`; // 105,052 characters
      const b = buildBriefing(inputs);
      expect([...b.title].length).toBeLessThanOrEqual(160);
      const { pdf, pages } = await renderBriefingPdf(b, inputs);
      expect(pages).toBeLessThanOrEqual(4);
      const file = path.join(dir, 'long-title.pdf');
      fs.writeFileSync(file, pdf);
      const page1 = pageWords(file, 1);
      expect(page1).toContain(`Storm ${UNDRAWABLE} Ian ${UNDRAWABLE} lorem ipsum`);
      expect(page1).not.toMatch(/\?\?/);
    } finally {
      await store.close();
    }
  }, 60_000);
});

async function appAt(db: string, now: string): Promise<{ app: App; close: () => Promise<void> }> {
  const store = await Store.open(db, { holder: 'test' });
  const ctx: Context = {
    config: defaultConfig({ dbPath: db }),
    db: store,
    clock: () => new Date(now),
    log: () => {},
    progress: () => {},
  };
  return { app: createApp({ ctx, auth: AUTH, rateLimit: 'off' }), close: () => store.close() };
}

/** Any number next to a casualty, evacuation or resource word, in any cell of the form. */
const COUNT_NEAR_WORD =
  /\b\d[\d,.]*\s*(?:people\s+)?(?:fatalit|dead|deaths?|killed|injur|missing|evacuat|shelter|rescued|trapped|personnel|responders?)/i;
const WORD_THEN_COUNT =
  /(?:fatalit|deaths?|killed|injur|missing|evacuat|shelter|rescue|trapped|personnel|responders?)\w*[^.;\d]{0,20}\b\d/i;

describe('ICS-209 from live data', () => {
  let form: any;
  beforeAll(async () => {
    const r = await cli(['--db', ianDb, '--json', 'ics209', ianId], { CATINTEL_NOW: IAN_NOW });
    expect(r.code, r.stderr).toBe(0);
    form = r.json();
  }, 60_000);

  it('has the 53 blocks, unofficial, with the generation time and sources; fills the live blocks from the NHC feed', () => {
    expect(form.blocks.map((b: any) => b.number)).toEqual(Array.from({ length: 53 }, (_, i) => i + 1));
    expect(form.unofficial).toBe(true);
    expect(form.generated_at).toBe(IAN_NOW);
    expect(form.notice).toMatch(/unofficial/i);
    expect(form.sources[0]).toMatchObject({ url: 'https://ftp.nhc.noaa.gov/atcf/btk/bal092022.dat' });
    const block = (n: number) => form.blocks[n - 1];
    expect(block(1)).toMatchObject({ basis: 'observed', value: 'Hurricane Ian (AL09 2022)' });
    expect(block(2)).toMatchObject({ basis: 'observed', value: 'AL092022' });
    expect(block(3).value).toMatch(/^(Initial|Update) - Rpt # \d+ \(UNOFFICIAL, AUTOMATED\)$/);
    expect(block(6).value).toContain('time zone: UTC');
    // The centre at landfall is just off the coast: placed in the nearest county, and said so.
    expect(block(16)).toMatchObject({ basis: 'derived' });
    expect(block(16).value).toMatch(/^Florida \(the point is about \d+ km offshore; nearest\)$/);
    expect(block(17).value).toMatch(/^Lee \(county FIPS 12071\)/);
    expect(block(22).value).toMatch(/decimal degrees, WGS84/);
    expect(block(23).value).toMatch(/^17R [A-Z]{2} \d{5} \d{5} \(USNG, WGS84\)$/);
    expect(block(26).value).toMatch(/^Zone 17N \d+ mE \d+ mN \(WGS84\)$/);
    // Over water at the clock: the prediction has no projection, so block 36 stays Not known.
    expect(block(36).basis).toBe('not_known');
    expect(block(38).basis).toBe('model');
    expect(block(38).value).toMatch(/^catintel estimate: 64 kt .* people \(county-apportioned\)/);
  });

  it('fills block 36 by horizon from the prediction once Ian is inland (the embedded default), labelled catintel estimate', async () => {
    const seeded = (await cli(['--db', seedDb, '--json', 'ics209', 'al092022'], { CATINTEL_NOW: SEED_NOW })).json();
    const b36 = seeded.blocks[35];
    expect(b36.basis).toBe('model');
    expect(b36.value).toMatch(/^catintel estimate \(Kaplan & DeMaria/);
    expect(b36.rows.find((r: any) => r.label === '12 hours').value).toMatch(
      /kt sustained wind at .* \(catintel estimate\)$/,
    );
    expect(b36.rows.find((r: any) => r.label === '72 hours').value).toBe('Not known');
  });

  it('marks every block it cannot fill as not known, and never shows a casualty or evacuation count', () => {
    const unfilled = form.blocks
      .filter((b: any) => b.basis === 'not_known' || b.basis === 'not_reported')
      .map((b: any) => b.number);
    expect(form.not_known).toEqual(unfilled);
    // The blocks only the incident's own people can fill (docs/reports.md#the-ics-209).
    for (const n of [4, 5, 10, 14, 15, 19, 20, 21, 24, 31, 32, 37, 39, 40, 41, 44, 46, 48, 49, 50, 52, 53])
      expect(unfilled, `block ${n}`).toContain(n);
    for (const n of unfilled)
      expect(form.blocks[n - 1].value, `block ${n}`).toMatch(
        /^(Not (known|reported|approved|submitted)|No item checked)/,
      );
    const block = (n: number) => form.blocks[n - 1];
    expect(block(31).rows.map((r: any) => r.label)).toEqual(PUBLIC_STATUS_ROWS);
    expect(block(31).rows.every((r: any) => r.value === 'Not reported')).toBe(true);
    expect(block(32).rows.map((r: any) => r.label)).toEqual(RESPONDER_STATUS_ROWS);
    expect(block(32).rows.every((r: any) => r.value === 'Not reported')).toBe(true);
    expect(block(34).rows.every((r: any) => r.value === 'not checked')).toBe(true);
    for (const b of form.blocks) {
      for (const text of [b.value, ...(b.rows ?? []).map((r: any) => `${r.label}: ${r.value}`)]) {
        expect(text, `block ${b.number}`).not.toMatch(COUNT_NEAR_WORD);
        expect(text, `block ${b.number}`).not.toMatch(WORD_THEN_COUNT);
      }
    }
  });

  it('is the same JSON over HTTP (validated against openapi.yaml); an agency caller gets no exposure figures; a PDF with format=pdf', async () => {
    const http = await appAt(ianDb, IAN_NOW);
    try {
      const agency = `Bearer ${await token('agency')}`;
      const url = `http://localhost/api/v1/events/${ianId}/ics209`;
      const res = await http.app.fetch(
        new Request(url, { headers: { authorization: `Bearer ${await token('analyst')}` } }),
      );
      expect(await responseProblems('GET', url, res.clone(), { rateLimited: false })).toEqual([]);
      expect(await res.json()).toEqual(form);
      // /exposure is for analysts: the agency caller's form says so instead of showing its figures.
      const lower = await (await http.app.fetch(new Request(url, { headers: { authorization: agency } }))).json();
      expect(lower.blocks[37]).toMatchObject({ number: 38, basis: 'not_known' });
      expect(lower.blocks[37].value).toContain('needs the analyst tier');
      const pdf = await http.app.fetch(new Request(`${url}?format=pdf`, { headers: { authorization: agency } }));
      expect(await responseProblems('GET', `${url}?format=pdf`, pdf.clone(), { rateLimited: false })).toEqual([]);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(
        Buffer.from(await pdf.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');
      expect((await http.app.fetch(new Request(url))).status).toBe(401);
    } finally {
      await http.close();
    }
  }, 60_000);

  it('writes the PDF form with --format pdf --out, marked unofficial, with Not known blocks', async () => {
    const out = path.join(dir, 'ian-209.pdf');
    const r = await cli(['--db', ianDb, '--json', 'ics209', ianId, '--format', 'pdf', '--out', out], {
      CATINTEL_NOW: IAN_NOW,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ format: 'pdf', path: out, not_known: form.not_known });
    const text = pdfText(out);
    expect(text).toContain('UNOFFICIAL');
    expect(text).toContain('4. Incident Commander(s) & Agency or Organization');
    expect(text).toContain('Not known');
    expect(text).toContain('Hurricane Ian (AL09 2022)');
  }, 60_000);

  it('prints the form block by block for a person (without --json)', async () => {
    const r = await cli(['--db', ianDb, 'ics209', ianId], { CATINTEL_NOW: IAN_NOW });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      '1. Incident Name [observed: NOAA National Hurricane Center (ATCF best track)]\n   Hurricane Ian (AL09 2022)\n',
    );
    expect(r.stdout).toContain(
      '31. Public Status Summary [not reported]\n    Not reported\n      D Fatalities: Not reported\n',
    );
    expect(r.stdout).toContain(`not known or not reported: blocks ${form.not_known.join(', ')}`);
  });

  it('refuses --format pdf without --out, and an unknown id, with exit 2', async () => {
    expect((await cli(['--db', ianDb, 'ics209', ianId, '--format', 'pdf'], { CATINTEL_NOW: IAN_NOW })).code).toBe(2);
    expect(
      (
        await cli(['--db', ianDb, 'briefing', 'no-such-event', '--out', path.join(dir, 'x.pdf')], {
          CATINTEL_NOW: IAN_NOW,
        })
      ).code,
    ).toBe(2);
    expect(fs.existsSync(path.join(dir, 'x.pdf'))).toBe(false);
  });
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});
