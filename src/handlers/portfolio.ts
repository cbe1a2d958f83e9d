/**
 * Portfolios (docs/contract.md#portfolios, issue 11): POST /portfolio (JSON rows, or an OED location CSV as text/csv with
 * ?name=) and `catintel portfolio import FILE --name NAME`; GET /portfolio (paged, nested locations) and
 * `portfolio list`; GET /portfolio/{id} (its locations, paged) and `portfolio show ID`; DELETE /portfolio/{id}
 * and `portfolio delete ID` (additions); GET /portfolio/exposure?portfolio_id= and `portfolio exposure ID`.
 * Every portfolio belongs to the caller's account (CLI: --account); another account's is 404.
 */
import { CatintelError } from '../errors.js';
import { portfolioExposure } from '../portfolios/exposure.js';
import type { ImportResult } from '../portfolios/import.js';
import { forgetIndex } from '../portfolios/location-index.js';
import {
  getPortfolio,
  listPortfolios,
  locationPage,
  type LocationRecord,
  type PortfolioSummary,
} from '../portfolios/read.js';
import type { Context } from '../context.js';
import { decodeCursor, encodeCursor, int, str } from './params.js';
import { nowIso } from './triggers-common.js';
import { defineHandler, type Caller, type RawInput } from './types.js';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BASE = '/api/v1/portfolio';

function portfolioIdParam(raw: RawInput, name: string): string {
  const id = str(raw, name);
  if (id === undefined)
    throw new CatintelError('invalid_parameter', `${name} is required (a portfolio id, as \`portfolio list\` shows)`, {
      errors: [{ field: name, message: 'is required' }],
    });
  if (!UUID_RE.test(id)) {
    throw new CatintelError(
      'invalid_parameter',
      `${name}: "${id.slice(0, 60)}" is not a portfolio id (a UUID, as \`portfolio list\` shows)`,
      { errors: [{ field: name, message: 'a portfolio id (UUID)' }] },
    );
  }
  return id.toLowerCase();
}

async function requirePortfolio(ctx: Context, caller: Caller, id: string): Promise<PortfolioSummary> {
  const p = await getPortfolio(ctx.db, caller.account, id);
  if (!p)
    throw new CatintelError(
      'not_found',
      `no portfolio ${id} in account ${caller.account}; list yours with GET ${BASE} (CLI: catintel portfolio list)`,
    );
  return p;
}

/** A portfolio as the API shows it; amounts with ACORD-style names (CurCd, InsuranceAmt per subject). */
export function portfolioJson(p: PortfolioSummary): Record<string, unknown> {
  const r2 = (x: number) => Math.round(x * 100) / 100;
  return {
    id: p.id,
    name: p.name,
    source: p.source,
    created_at: p.created_at,
    content_sha256: p.content_sha256,
    NumLocations: p.location_count,
    CurCd: p.currency,
    BldgInsuranceAmt: r2(p.building_tiv),
    ContentsInsuranceAmt: r2(p.contents_tiv),
    BIInsuranceAmt: r2(p.bi_tiv),
    OtherInsuranceAmt: r2(p.other_tiv),
    TotalInsuranceAmt: r2(p.building_tiv + p.contents_tiv + p.bi_tiv + p.other_tiv),
  };
}

/** A stored location under its OED names (as imported). */
export function locationJson(l: LocationRecord): Record<string, unknown> {
  return {
    LocNumber: l.loc_number,
    Latitude: l.lat,
    Longitude: l.lng,
    OccupancyCode: l.occupancy_code,
    ConstructionCode: l.construction_code,
    BuildingTIV: l.building_tiv,
    ContentsTIV: l.contents_tiv,
    BITIV: l.bi_tiv,
    OtherTIV: l.other_tiv,
    LocPerilsCovered: l.perils_covered,
    LocCurrency: l.currency,
    row: l.row_number,
  };
}

/** The portfolio name: from the query or a CLI option (400 when bad), or from a JSON body (422). */
function portfolioName(v: unknown, fromBody: boolean): string {
  if (
    typeof v !== 'string' ||
    v.trim().length === 0 ||
    [...v].length > 200 ||
    /[\uD800-\uDFFF]/.test(v.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, ''))
  ) {
    throw new CatintelError(
      fromBody ? 'validation_failed' : 'invalid_parameter',
      'name: the portfolio name must be text of 1-200 characters',
      { errors: [{ field: 'name', message: 'text of 1-200 characters' }] },
    );
  }
  return v.trim();
}

export interface CreateInput {
  name: string;
  /** CLI: an OED location CSV on the caller's machine (resolved by the local channel when a server runs). */
  file?: string;
  /** HTTP text/csv body. */
  csv?: string;
  /** HTTP JSON body's locations. */
  rows?: unknown[];
}

function parseCreate(raw: RawInput): CreateInput {
  const body = raw.body;
  if (typeof body === 'string') {
    const name = str(raw, 'name');
    if (name === undefined)
      throw new CatintelError(
        'invalid_parameter',
        'name: a CSV upload names its portfolio in the query: POST /api/v1/portfolio?name=...',
        { errors: [{ field: 'name', message: 'is required with a text/csv body' }] },
      );
    return { name: portfolioName(name, false), csv: body };
  }
  if (body !== undefined) {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new CatintelError(
        'validation_failed',
        'the body must be a JSON object { name, locations: [OED location rows] }',
        { errors: [{ field: 'body', message: 'a JSON object' }] },
      );
    }
    const b = body as Record<string, unknown>;
    const extra = Object.keys(b).filter((k) => k !== 'name' && k !== 'locations');
    const errors = extra.map((k) => ({ field: k, message: 'unknown field; allowed: name, locations' }));
    if (b.name === undefined) errors.push({ field: 'name', message: 'is required' });
    if (!Array.isArray(b.locations) || b.locations.length === 0)
      errors.push({ field: 'locations', message: 'a non-empty array of OED location rows' });
    if (errors.length)
      throw new CatintelError('validation_failed', errors.map((e) => `${e.field}: ${e.message}`).join('; '), {
        errors,
      });
    return { name: portfolioName(b.name, true), rows: b.locations as unknown[] };
  }
  const file = str(raw, 'file');
  if (file === undefined) {
    // An HTTP POST with no body, or the CLI without FILE.
    throw new CatintelError(
      'invalid_request',
      'send a JSON body { name, locations } or an OED location CSV (text/csv) with ?name=; CLI: catintel portfolio import FILE --name NAME',
    );
  }
  const name = str(raw, 'name');
  if (name === undefined)
    throw new CatintelError('invalid_parameter', '--name is required: the portfolio name (1-200 characters)', {
      errors: [{ field: 'name', message: 'is required' }],
    });
  return { name: portfolioName(name, false), file };
}

export const portfolioCreate = defineHandler({
  name: 'portfolio.create',
  summary: 'Create a portfolio from JSON or an OED location CSV',
  writes: true,
  keepsEvents: true,
  http: {
    method: 'POST',
    path: '/portfolio',
    access: 'agency',
    accepts: ['application/json', 'text/csv'],
    perAccount: true,
  },
  cli: {
    command: ['portfolio', 'import'],
    args: ['file'],
    options: [{ flags: '--name <name>', description: 'portfolio name (1-200 characters)' }],
    paths: ['file'],
    examples: [
      'catintel portfolio import location.csv --name "FL homeowners 2026"',
      'catintel portfolio import location.csv --name book --account alice@example.com --json',
    ],
  },
  parse: parseCreate,
  async run(ctx, input, caller) {
    const o = {
      account: caller.account,
      name: input.name,
      now: nowIso(ctx),
      progress: ctx.progress,
      signal: ctx.signal,
    };
    // Loaded here: the CSV reader and the row checks serve an import only, and the commands quick to answer
    // that share this module (`portfolio exposure`) would pay for loading them on every start.
    const { importCsvFile, importCsvText, importJsonRows } = await import('../portfolios/import.js');
    let result: ImportResult;
    if (input.file !== undefined) result = await importCsvFile(ctx.db, input.file, o);
    else if (input.csv !== undefined) result = await importCsvText(ctx.db, input.csv, o);
    else result = await importJsonRows(ctx.db, input.rows ?? [], o);
    const p = result.portfolio;
    // Loaded here: the hazard grid is read only by an import, not by every command that loads this module.
    const { locationsOutsideCoverage, outsideCoverageNote } = await import('../portfolios/coverage.js');
    const outside = await locationsOutsideCoverage(ctx.db, p.id);
    const notes = [
      outsideCoverageNote(outside, p.location_count),
      result.created
        ? undefined
        : 'this file was already imported under this name: the stored portfolio is shown, nothing was added',
    ].filter((n): n is string => n !== undefined);
    return {
      body: {
        ...portfolioJson(p),
        NumLocationsOutsideCoverage: outside,
        created: result.created,
        locations_url: `${BASE}/${p.id}`,
      },
      status: result.created ? 201 : 200,
      headers: { location: `${BASE}/${p.id}` },
      notes: notes.length ? notes : undefined,
    };
  },
});

interface PortfolioAfter {
  at: string;
  id: string;
}
const isPortfolioAfter = (v: unknown): v is PortfolioAfter =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as PortfolioAfter).at === 'string' &&
  /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test((v as PortfolioAfter).at) &&
  typeof (v as PortfolioAfter).id === 'string';
const isSeq = (v: unknown): v is { seq: number } =>
  typeof v === 'object' &&
  v !== null &&
  Number.isInteger((v as { seq: number }).seq) &&
  (v as { seq: number }).seq >= 0;

const link = (rel: string, href: string) => ({ rel, type: 'application/json', href });

export const portfolioList = defineHandler({
  name: 'portfolio.list',
  summary: 'Portfolios with nested locations',
  http: { method: 'GET', path: '/portfolio', access: 'agency', perAccount: true },
  cli: {
    command: ['portfolio', 'list'],
    options: [
      { flags: '--limit <n>', description: 'portfolios per page (default 20, max 100)' },
      {
        flags: '--locations-limit <n>',
        description: 'locations nested in each portfolio (default 100, max 1000; the rest via portfolio show)',
      },
      { flags: '--cursor <cursor>', description: 'the next page (from links.next of the previous one)' },
    ],
    examples: ['catintel portfolio list', 'catintel portfolio list --locations-limit 5 --json'],
  },
  parse: (raw) => ({
    limit: int(raw, 'limit', { min: 1, max: 100 }, 20),
    locationsLimit: int(raw, 'locations_limit', { min: 0, max: 1000 }, 100),
    after: decodeCursor(raw, isPortfolioAfter),
  }),
  async run(ctx, input, caller) {
    const page = await listPortfolios(ctx.db, caller.account, {
      limit: input.limit,
      after: input.after && { created_at: input.after.at, id: input.after.id },
    });
    const portfolios = [];
    for (const p of page.rows) {
      const locations = input.locationsLimit > 0 ? await locationPage(ctx.db, p.id, 0, input.locationsLimit) : [];
      const more = p.location_count > locations.length;
      portfolios.push({
        ...portfolioJson(p),
        locations: locations.map(locationJson),
        locations_next: more
          ? `${BASE}/${p.id}?limit=${Math.max(1, input.locationsLimit)}${locations.length ? `&cursor=${encodeCursor({ seq: locations[locations.length - 1].seq })}` : ''}`
          : null,
      });
    }
    const q = `limit=${input.limit}&locations_limit=${input.locationsLimit}`;
    const links = [link('self', `${BASE}?${q}`)];
    const last = page.rows[page.rows.length - 1];
    if (last && page.rows.length === input.limit)
      links.push(link('next', `${BASE}?${q}&cursor=${encodeCursor({ at: last.created_at, id: last.id })}`));
    return {
      body: {
        account: caller.account,
        numberMatched: page.matched,
        numberReturned: page.rows.length,
        portfolios,
        links,
      },
      notes:
        page.matched === 0
          ? ['no portfolios yet; import one with `catintel portfolio import location.csv --name NAME`']
          : undefined,
    };
  },
});

export const portfolioShow = defineHandler({
  name: 'portfolio.show',
  summary: 'One portfolio and its locations (paged)',
  http: { method: 'GET', path: '/portfolio/{id}', access: 'agency', perAccount: true },
  cli: {
    command: ['portfolio', 'show'],
    args: ['id'],
    options: [
      { flags: '--limit <n>', description: 'locations per page (default 100, max 1000)' },
      { flags: '--cursor <cursor>', description: 'the next page (from links.next of the previous one)' },
    ],
    examples: ['catintel portfolio show 3f0c...', 'catintel portfolio show 3f0c... --limit 1000 --json'],
  },
  // The cursor is read after the portfolio is found: an unknown portfolio is 404 whatever the cursor says.
  parse: (raw) => ({ id: portfolioIdParam(raw, 'id'), limit: int(raw, 'limit', { min: 1, max: 1000 }, 100), raw }),
  async run(ctx, input, caller) {
    const p = await requirePortfolio(ctx, caller, input.id);
    const after = decodeCursor(input.raw, isSeq)?.seq ?? 0;
    const rows = await locationPage(ctx.db, p.id, after, input.limit);
    const links = [link('self', `${BASE}/${p.id}?limit=${input.limit}`)];
    const last = rows[rows.length - 1];
    if (last && rows.length === input.limit && last.seq < p.location_count)
      links.push(link('next', `${BASE}/${p.id}?limit=${input.limit}&cursor=${encodeCursor({ seq: last.seq })}`));
    return {
      body: {
        ...portfolioJson(p),
        numberMatched: p.location_count,
        numberReturned: rows.length,
        locations: rows.map(locationJson),
        links,
      },
    };
  },
});

export const portfolioDelete = defineHandler({
  name: 'portfolio.delete',
  summary: 'Delete a portfolio, its locations and its alerts',
  writes: true,
  keepsEvents: true,
  http: { method: 'DELETE', path: '/portfolio/{id}', access: 'agency', perAccount: true },
  cli: { command: ['portfolio', 'delete'], args: ['id'], examples: ['catintel portfolio delete 3f0c...'] },
  parse: (raw) => ({ id: portfolioIdParam(raw, 'id') }),
  async run(ctx, input, caller) {
    const p = await requirePortfolio(ctx, caller, input.id);
    await ctx.db.transaction(async (tx) => {
      await tx.run(`DELETE FROM portfolio_locations WHERE portfolio_id = $id`, { id: p.id });
      await tx.run(`DELETE FROM portfolio_alerts WHERE portfolio_id = $id`, { id: p.id });
      await tx.run(`DELETE FROM portfolios WHERE id = $id AND account = $account`, {
        id: p.id,
        account: caller.account,
      });
    });
    forgetIndex(p.id);
    return { body: { ...portfolioJson(p), deleted: true } };
  },
});

export const portfolioExposureHandler = defineHandler({
  name: 'portfolio.exposure',
  summary: 'Portfolio exposure against active consequence rings',
  http: { method: 'GET', path: '/portfolio/exposure', access: 'agency', perAccount: true },
  cli: {
    command: ['portfolio', 'exposure'],
    args: ['portfolio_id'],
    options: [
      {
        flags: '--locations-limit <n>',
        description: 'locations listed per ring (default 100, max 10000; counts and TIV always cover all)',
      },
      {
        flags: '--format <format>',
        description:
          'json (default: the answer on stdout) | arrow: an Arrow IPC file of one row per event and ring, with the JSON names (needs --out)',
      },
      { flags: '--out <file>', description: 'the file --format arrow writes (replaced whole when written)' },
    ],
    examples: [
      'catintel portfolio exposure 3f0c...',
      'catintel portfolio exposure 3f0c... --locations-limit 0 --json',
      'catintel portfolio exposure 3f0c... --format arrow --out exposure.arrow',
    ],
    paths: ['out'],
    tableFile: true,
  },
  parse: (raw) => ({
    id: portfolioIdParam(raw, 'portfolio_id'),
    locationsLimit: int(raw, 'locations_limit', { min: 0, max: 10000 }, 100),
  }),
  async run(ctx, input, caller) {
    const p = await requirePortfolio(ctx, caller, input.id);
    const body = await portfolioExposure(ctx.db, p, nowIso(ctx), input.locationsLimit);
    return {
      body,
      notes:
        body.events.length === 0
          ? ['no live event reaches this portfolio now; `catintel events live` lists the live events']
          : undefined,
    };
  },
});
