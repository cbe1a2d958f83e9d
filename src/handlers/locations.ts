/**
 * Saved locations (docs/contract.md#access and #portfolios, free tier): GET/POST /locations, DELETE /locations/{id} (an addition),
 * GET /locations/exposure and GET /locations/alerts (unread; mark_read=true marks them read), and
 * `catintel locations add|list|remove|exposure|alerts`. Anonymous callers' locations belong to their client
 * address, authenticated callers' to their account (src/locations/owner.ts); another owner's id is 404.
 * An account's alerts also carry its portfolios' alerts (one per portfolio, event and ring, with the TIV inside).
 */
import { randomUUID } from 'node:crypto';
import { EVENT_TYPES } from '../domain/event.js';
import { CatintelError } from '../errors.js';
import { MAX_SAVED_LOCATIONS, validateLocation } from '../locations/domain/validate.js';
import { locationsExposure } from '../locations/exposure.js';
import { ownerOf } from '../locations/owner.js';
import {
  countLocations,
  deleteLocation,
  getLocation,
  insertLocation,
  listLocations,
  markRead,
  unreadLocationAlerts,
  unreadPortfolioAlerts,
} from '../locations/store.js';
import { str } from './params.js';
import { nowIso } from './triggers-common.js';
import { defineHandler, type Caller, type RawInput } from './types.js';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NUMERIC = ['lat', 'lng', 'radius_km'];

function parseCreate(raw: RawInput, caller: Caller) {
  const fromBody = caller.clientIp !== undefined;
  let values: Record<string, unknown>;
  if (fromBody) {
    if (raw.body === undefined)
      throw new CatintelError(
        'invalid_request',
        'send a JSON body with name, lat, lng (and optionally radius_km, perils, notes)',
      );
    if (typeof raw.body !== 'object' || raw.body === null || Array.isArray(raw.body)) {
      throw new CatintelError('validation_failed', 'the body must be a JSON object', {
        errors: [{ field: 'body', message: 'a JSON object' }],
      });
    }
    values = raw.body as Record<string, unknown>;
  } else {
    values = {};
    for (const k of ['name', 'lat', 'lng', 'radius_km', 'perils', 'notes']) {
      const v = raw[k];
      if (v === undefined) continue;
      if (NUMERIC.includes(k))
        values[k] = typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
      else if (k === 'perils')
        values[k] = String(v)
          .split(',')
          .map((p) => p.trim())
          .filter((p) => p !== '');
      else values[k] = v;
    }
  }
  const { fields, errors } = validateLocation(values);
  if (!fields)
    throw new CatintelError(
      fromBody ? 'validation_failed' : 'invalid_parameter',
      errors.map((e) => `${e.field}: ${e.message}`).join('; '),
      { errors },
    );
  return fields;
}

export const locationsCreate = defineHandler({
  name: 'locations.create',
  summary: 'Save a location',
  writes: true,
  keepsEvents: true,
  http: { method: 'POST', path: '/locations', access: 'free', perAccount: true },
  cli: {
    command: ['locations', 'add'],
    options: [
      { flags: '--name <name>', description: 'label (1-200 characters)' },
      { flags: '--lat <deg>', description: 'latitude (WGS84)' },
      { flags: '--lng <deg>', description: 'longitude (WGS84)' },
      { flags: '--radius-km <km>', description: 'alert when a ring comes this close, (0, 2000] km (default 25)' },
      {
        flags: '--perils <list>',
        description: `event types to watch, comma-separated (default all): ${EVENT_TYPES.join(', ')}`,
      },
      { flags: '--notes <text>', description: 'free text, at most 2000 characters' },
    ],
    examples: [
      'catintel locations add --name "Home" --lat 26.64 --lng -81.87',
      'catintel locations add --name Office --lat 25.77 --lng -80.19 --radius-km 50 --perils hurricane,flood --json',
    ],
  },
  parse: parseCreate,
  async run(ctx, input, caller) {
    const owner = ownerOf(caller);
    const id = randomUUID();
    // Count and insert in one transaction: two concurrent saves cannot both take the last slot.
    await ctx.db.transaction(async (tx) => {
      const n = await countLocations(tx, owner);
      if (n >= MAX_SAVED_LOCATIONS) {
        throw new CatintelError(
          'validation_failed',
          `at most ${MAX_SAVED_LOCATIONS} saved locations per ${owner.startsWith('ip:') ? 'client address' : 'account'}, and ${n} are saved; remove one first (DELETE /api/v1/locations/{id}, CLI: catintel locations remove ID)`,
          {
            errors: [{ field: 'locations', message: `at most ${MAX_SAVED_LOCATIONS} saved locations` }],
          },
        );
      }
      await insertLocation(tx, id, owner, input, nowIso(ctx));
    });
    const l = (await getLocation(ctx.db, owner, id))!;
    return { body: l, status: 201, headers: { location: `/api/v1/locations/${id}` } };
  },
});

export const locationsList = defineHandler({
  name: 'locations.list',
  summary: 'Saved locations of the caller',
  http: { method: 'GET', path: '/locations', access: 'free', perAccount: true },
  cli: { command: ['locations', 'list'], examples: ['catintel locations list', 'catintel locations list --json'] },
  parse: () => ({}),
  async run(ctx, _input, caller) {
    const locations = await listLocations(ctx.db, ownerOf(caller));
    return {
      body: { count: locations.length, max: MAX_SAVED_LOCATIONS, locations },
      notes:
        locations.length === 0
          ? ['no saved locations; add one with `catintel locations add --name Home --lat 26.64 --lng -81.87`']
          : undefined,
    };
  },
});

function locationIdParam(raw: RawInput): string {
  const id = str(raw, 'id');
  if (id === undefined || !UUID_RE.test(id)) {
    throw new CatintelError(
      'invalid_parameter',
      `id: "${String(id ?? '').slice(0, 60)}" is not a saved location id (a UUID, as \`locations list\` shows)`,
      { errors: [{ field: 'id', message: 'a saved location id (UUID)' }] },
    );
  }
  return id.toLowerCase();
}

export const locationsRemove = defineHandler({
  name: 'locations.remove',
  summary: 'Remove a saved location and its alerts',
  writes: true,
  keepsEvents: true,
  http: { method: 'DELETE', path: '/locations/{id}', access: 'free', perAccount: true },
  cli: { command: ['locations', 'remove'], args: ['id'], examples: ['catintel locations remove 3f0c...'] },
  parse: (raw) => ({ id: locationIdParam(raw) }),
  async run(ctx, input, caller) {
    const owner = ownerOf(caller);
    const l = await getLocation(ctx.db, owner, input.id);
    if (!l || !(await deleteLocation(ctx.db, owner, input.id))) {
      throw new CatintelError(
        'not_found',
        `no saved location ${input.id} for this caller; list yours with GET /api/v1/locations (CLI: catintel locations list)`,
      );
    }
    return { body: { ...l, deleted: true } };
  },
});

export const locationsExposureHandler = defineHandler({
  name: 'locations.exposure',
  summary: 'Saved locations against active event rings',
  http: { method: 'GET', path: '/locations/exposure', access: 'free', perAccount: true },
  cli: {
    command: ['locations', 'exposure'],
    options: [
      {
        flags: '--format <format>',
        description:
          'json (default: the answer on stdout) | arrow: an Arrow IPC file of one row per location, event and ring reaching it now (needs --out)',
      },
      { flags: '--out <file>', description: 'the file --format arrow writes (replaced whole when written)' },
    ],
    examples: [
      'catintel locations exposure',
      'catintel locations exposure --json',
      'catintel locations exposure --format arrow --out exposure.arrow',
    ],
    paths: ['out'],
    tableFile: true,
  },
  parse: () => ({}),
  async run(ctx, _input, caller) {
    const locations = await listLocations(ctx.db, ownerOf(caller));
    const now = nowIso(ctx);
    const exposure = await locationsExposure(ctx.db, locations, now);
    // reached: by a ring now; reached_so_far: by a ring now or by the swath of an event up to the clock.
    const reached = exposure.filter((x) => x.events.some((e) => e.rings.length > 0)).length;
    const reachedSoFar = exposure.filter((x) => x.events.length > 0).length;
    return {
      body: { as_of: now, count: exposure.length, reached, reached_so_far: reachedSoFar, locations: exposure },
      notes: locations.length === 0 ? ['no saved locations; add one with `catintel locations add --help`'] : undefined,
    };
  },
});

function markReadParam(raw: RawInput): boolean {
  const v = raw.mark_read;
  if (v === undefined || v === false || v === 'false') return false;
  if (v === true || v === 'true') return true;
  throw new CatintelError('invalid_parameter', `mark_read: "${String(str(raw, 'mark_read'))}" must be true or false`, {
    errors: [{ field: 'mark_read', message: 'true or false' }],
  });
}

export const locationsAlerts = defineHandler({
  name: 'locations.alerts',
  summary: "Unread alerts of saved locations (and of the account's portfolios)",
  writes: true,
  keepsEvents: true,
  http: { method: 'GET', path: '/locations/alerts', access: 'free', perAccount: true },
  cli: {
    command: ['locations', 'alerts'],
    options: [{ flags: '--mark-read', description: 'mark the returned alerts read' }],
    examples: ['catintel locations alerts', 'catintel locations alerts --mark-read --json'],
  },
  parse: (raw) => ({ markRead: markReadParam(raw) }),
  async run(ctx, input, caller) {
    const owner = ownerOf(caller);
    const alerts = await unreadLocationAlerts(ctx.db, owner);
    // Portfolios belong to accounts: an anonymous caller has none.
    const portfolioAlerts = owner.startsWith('account:') ? await unreadPortfolioAlerts(ctx.db, caller.account) : [];
    if (input.markRead) {
      const at = nowIso(ctx);
      await markRead(
        ctx.db,
        'location_alerts',
        alerts.map((a) => a.id),
        at,
      );
      await markRead(
        ctx.db,
        'portfolio_alerts',
        portfolioAlerts.map((a) => a.id),
        at,
      );
    }
    return {
      body: {
        count: alerts.length + portfolioAlerts.length,
        marked_read: input.markRead,
        alerts,
        portfolio_alerts: portfolioAlerts,
      },
      notes:
        alerts.length + portfolioAlerts.length === 0
          ? ["no unread alerts; alerts are raised when an ingest brings a ring within a saved location's radius_km"]
          : undefined,
    };
  },
});
