/**
 * docs/contract.md#provenance: every record every endpoint returns carries `source`, `source_url`
 * and `ingested_at` of the data it was made from; a record derived from the hazard baseline also names its
 * model and data build. The store holds the real USGS day feed and the Hurricane Ian best track, a saved
 * location, a portfolio, triggers (one with a value entered by hand), and each operation of openapi.yaml is
 * called with an enterprise credential; every record of every answer is walked. The operations come from
 * openapi.yaml itself: a new operation fails here until it is walked or listed as returning no records.
 * The event stream is read as a client would, open from before Ian is ingested and a quake revised, to
 * the end: every record of every message it carried is checked the same way.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestSource } from '../src/ingest/run.js';
import { nhc } from '../src/sources/nhc.js';
import { usgsEarthquakes } from '../src/sources/usgs-earthquakes.js';
import type { Store } from '../src/store/db.js';
import { SseParser, type SseEvent } from '../src/stream/sse-client.js';
import { evaluateTriggers } from '../src/triggers/run.js';
import { tempDir } from './helpers/cli.js';
import { sharedData } from './helpers/paths.js';
import { defaultConfig } from '../src/config/defaults.js';
import { FORT_MYERS_TRIGGER } from './helpers/fort-myers-trigger.js';
import { testModels } from './helpers/model-packages.js';
import { contextOn, freshIp, platform, seededStore, token, type Platform } from './http/helpers/harness.js';
import { OPENAPI } from './http/helpers/openapi.js';

type Json = Record<string, any>;

/** Operations whose answers hold no data records, and why. */
const NO_RECORDS: Record<string, string> = {
  'GET /': 'the landing page: links only',
  'GET /conformance': 'conformance classes',
  'GET /collections': 'collection descriptions: the records are their items',
  'GET /collections/{collectionId}': 'a collection description: the records are its items',
  'GET /openapi.json': 'this document',
  'GET /healthz': 'liveness',
  'GET /health': 'service health',
  'GET /health/sources': 'the ingest status of each source, not a record of one',
  'GET /events/{id}/briefing': 'a PDF; its sources page lists each source with its link and ingest time',
  'GET /events/{id}/ics209': 'a form: each block cites its source as {name, url, ingested_at}',
  'GET /portfolio': "the caller's own portfolios, as uploaded",
  'POST /portfolio': "the caller's own portfolio, as uploaded",
  'GET /portfolio/{id}': "the caller's own portfolio, as uploaded",
  'DELETE /portfolio/{id}': 'a deletion receipt',
  'GET /triggers': "the caller's own trigger definitions (their evaluations are the history entries)",
  'POST /triggers': "the caller's own trigger definition",
  'DELETE /triggers/{id}': "the caller's own trigger definition",
  'GET /locations': "the caller's own saved locations",
  'POST /locations': "the caller's own saved location",
  'DELETE /locations/{id}': 'a deletion receipt',
  'GET /admin/keys': 'API keys of the operator',
  'POST /admin/keys': 'an API key of the operator',
  'POST /admin/keys/{id}/revoke': 'an API key of the operator',
};

interface Walk {
  /** The request(s) to make; several when one template serves several collections. */
  calls: () => Array<{ path: string; body?: unknown }>;
  /** The records of an answer. */
  records: (body: Json) => Json[];
  /** Derived from the hazard baseline: names the model (model_version or method) and data_version too. */
  baseline?: true;
}

let db: Store;
let p: Platform;
let tok: string;
const ids: Record<string, string> = {};
const IAN = 'AL092022';
const features = (b: Json) => b.features.map((f: Json) => f.properties);
const perils = (b: Json) => b.perils;

const WALKS: Record<string, Walk> = {
  'GET /events/live': { calls: () => [{ path: '/events/live?limit=50' }], records: features },
  'GET /events/nearby': {
    calls: () => [{ path: '/events/nearby?lat=28.54&lng=-81.38&radius_km=500' }],
    records: features,
  },
  'GET /events/{id}': { calls: () => [{ path: `/events/${IAN}` }], records: (b) => [b.properties] },
  'GET /events/{id}/rings': { calls: () => [{ path: `/events/${IAN}/rings` }], records: features },
  'GET /events/{id}/prediction': { calls: () => [{ path: `/events/${IAN}/prediction` }], records: (b) => [b, b.event] },
  'GET /events/{id}/timeline': {
    calls: () => [{ path: `/events/${IAN}/timeline` }],
    records: (b) => [b.event, ...b.points],
  },
  'GET /events/{id}/exposure': {
    calls: () => [{ path: `/events/${IAN}/exposure` }],
    records: (b) => [b.event, ...b.rings, ...b.so_far.rings],
  },
  'GET /events/{id}/score': { calls: () => [{ path: `/events/${IAN}/score` }], records: perils, baseline: true },
  'GET /risk/score': {
    // Honolulu: earthquake from the NRI fallback beside catalog perils.
    calls: () => [{ path: '/risk/score?lat=28.54&lng=-81.38' }, { path: '/risk/score?lat=21.3069&lng=-157.8583' }],
    records: perils,
    baseline: true,
  },
  'GET /hazard/curve': {
    calls: () => [
      { path: '/hazard/curve?lat=28.54&lng=-81.38&peril=hurricane_wind' },
      { path: '/hazard/curve?lat=38.8&lng=-122.8&peril=earthquake&imt=pga' },
    ],
    records: (b) => [b],
    baseline: true,
  },
  'POST /scenarios/run': {
    calls: () => [{ path: '/scenarios/run', body: { event_type: 'earthquake', lat: 38.8, lng: -122.8, magnitude: 7 } }],
    records: (b) => [...features(b.rings), ...b.exposure.rings, ...b.scores.perils],
  },
  'GET /scenarios/{id}': {
    calls: () => [{ path: `/scenarios/${ids.scenario}` }],
    records: (b) => [...features(b.rings), ...b.exposure.rings, ...b.scores.perils],
  },
  'GET /infrastructure': {
    calls: () => [{ path: '/infrastructure?lat=28.54&lng=-81.38&limit=20' }],
    records: features,
  },
  'GET /portfolio/exposure': {
    calls: () => [{ path: `/portfolio/exposure?portfolio_id=${ids.portfolio}` }],
    records: (b) => b.events,
  },
  'GET /portfolio/ep-curve': {
    calls: () => [{ path: `/portfolio/ep-curve?portfolio_id=${ids.portfolio}&years=50` }],
    records: (b) => [b],
    baseline: true,
  },
  'GET /events/{id}/diff': {
    // Ian is ingested once here: its one version against itself (the diff's fields, nothing moved).
    calls: () => [{ path: `/events/${IAN}/diff?from=1&to=1` }],
    records: (b) => [b],
  },
  'GET /portfolio/event-loss': {
    calls: () => [{ path: `/portfolio/event-loss?portfolio_id=${ids.portfolio}&event_id=${IAN}` }],
    records: (b) => [b],
  },
  'GET /triggers/alerts': { calls: () => [{ path: '/triggers/alerts' }], records: (b) => b.alerts },
  'GET /triggers/{id}/history': {
    calls: () => [{ path: `/triggers/${ids.trigger}/history` }],
    records: (b) => b.entries,
  },
  'POST /triggers/{id}/observations': {
    calls: () => [
      {
        path: `/triggers/${ids.trigger}/observations`,
        body: { value: 120, source: 'calculation agent report', event_id: IAN },
      },
    ],
    records: (b) => [b],
  },
  'GET /triggers/{id}/backtest': {
    calls: () => [{ path: `/triggers/${ids.trigger}/backtest` }],
    records: (b) => [b],
    baseline: true,
  },
  'GET /triggers/{id}/basis-risk': {
    calls: () => [{ path: `/triggers/${ids.trigger}/basis-risk?portfolio_id=${ids.portfolio}&loss_level=100000` }],
    records: (b) => [b],
    baseline: true,
  },
  'GET /locations/exposure': {
    calls: () => [{ path: '/locations/exposure' }],
    records: (b) => b.locations.flatMap((l: Json) => l.events),
  },
  'GET /locations/alerts': {
    calls: () => [{ path: '/locations/alerts' }],
    records: (b) => [...b.alerts, ...b.portfolio_alerts],
  },
  'GET /collections/{collectionId}/items': {
    calls: () => [{ path: '/collections/events/items?limit=50' }, { path: '/collections/rings/items?limit=50' }],
    records: features,
  },
  'GET /collections/{collectionId}/items/{featureId}': {
    calls: () => [{ path: `/collections/events/items/${ids.event}` }, { path: `/collections/rings/items/${ids.ring}` }],
    records: (b) => [b.properties],
  },
};

/** GET /events/stream: the records each message type carries; a type listed with none holds no data. */
const STREAM_OP = 'GET /events/stream';
const STREAM_RECORDS: Record<string, (d: Json) => Json[]> = {
  'event.new': (d) => [d.event.properties],
  'event.updated': (d) => [d.event.properties],
  'event.ended': (d) => [d.event.properties],
  'event.snapshot': (d) => [d.event.properties],
  'rings.changed': (d) => d.rings,
  'trigger.state': (d) => [d],
  'trigger.alert': (d) => [d],
  'trigger.probability': (d) => [d],
  'location.alert': (d) => [d],
  'portfolio.alert': (d) => [d],
  'portfolio.loss': (d) => [d],
  'stream.open': () => [], // the id the client is up to date at
  reset: () => [], // why the backlog cannot resume, and where the live set is
};

interface StreamClient {
  messages: SseEvent[];
  opened(): Promise<void>;
  close(): Promise<void>;
}

/** GET /events/stream read as a client reads it, until close(). */
async function openStream(headers: Record<string, string> = {}): Promise<StreamClient> {
  const res = await p.app.fetch(
    new Request('http://localhost/api/v1/events/stream', {
      headers: { authorization: `Bearer ${tok}`, 'x-forwarded-for': freshIp(), ...headers },
    }),
  );
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const parser = new SseParser();
  const messages: SseEvent[] = [];
  const decoder = new TextDecoder();
  const done = (async () => {
    for (;;) {
      const { done: end, value } = await reader.read();
      if (end) return;
      messages.push(...parser.push(decoder.decode(value, { stream: true })));
    }
  })();
  return {
    messages,
    opened: async () => {
      for (
        const end = Date.now() + 5000;
        !messages.some((m) => m.event === 'stream.open');
        await new Promise((r) => setTimeout(r, 10))
      ) {
        if (Date.now() > end) throw new Error('the stream did not open');
      }
    },
    close: async () => {
      await reader.cancel();
      await done.catch(() => {});
    },
  };
}

/** The day feed with its largest quake revised by its network: a larger magnitude, a minute later (new rings). */
function revisedDay(): string {
  const file = sharedData('feeds/usgs_earthquakes/all_day.geojson');
  const feed = JSON.parse(fs.readFileSync(file, 'utf8'));
  const f = feed.features.reduce((a: Json, b: Json) => ((b.properties.mag ?? 0) > (a.properties.mag ?? 0) ? b : a));
  f.properties.mag = Math.round((f.properties.mag + 0.6) * 10) / 10;
  f.properties.updated += 60_000;
  const out = path.join(tempDir(), 'all_day_revised.geojson');
  fs.writeFileSync(out, JSON.stringify(feed));
  return out;
}

let stream: StreamClient;

const ISO_INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
/** A link to the provider's record: an absolute http(s) URL, or a resource of this service for data entered here. */
const isUrl = (s: unknown) =>
  typeof s === 'string' && (/^https?:\/\/[^\s/]+\.[^\s]+$/.test(s) || /^\/api\/v1\/\S+$/.test(s));

/** What is wrong with one record's provenance, as readable lines. */
function problemsOf(r: Json, baseline: boolean): string[] {
  const out: string[] = [];
  if (typeof r.source !== 'string' || r.source.trim() === '') out.push(`source ${JSON.stringify(r.source)}`);
  if (!isUrl(r.source_url)) out.push(`source_url ${JSON.stringify(r.source_url)}`);
  if (typeof r.ingested_at !== 'string' || !ISO_INSTANT.test(r.ingested_at) || Number.isNaN(Date.parse(r.ingested_at)))
    out.push(`ingested_at ${JSON.stringify(r.ingested_at)}`);
  if (baseline) {
    if (!(typeof r.model_version === 'string' && r.model_version) && !(typeof r.method === 'string' && r.method))
      out.push('no model_version or method');
    if (typeof r.data_version !== 'string' || r.data_version === '')
      out.push(`data_version ${JSON.stringify(r.data_version)}`);
  }
  return out;
}

beforeAll(async () => {
  db = await seededStore(); // the USGS day feed, clock 2022-09-29 03:32Z
  // The EP curve runs on a small hurricane package shared by the run.
  const env = { CATINTEL_MODELS: await testModels() };
  p = await platform(db, {
    rateLimit: 'off',
    ctx: { ...contextOn(db), config: defaultConfig({ dbPath: ':memory:', env }) },
  });
  tok = await token('enterprise', { sub: 'provenance@example.com' });
  // Saved before Ian is ingested, so the ingest raises their alerts.
  await p.call('/api/v1/locations', { token: tok, body: { name: 'Orlando', lat: 28.54, lng: -81.38 } });
  ids.portfolio = (
    await p.call('/api/v1/portfolio', {
      token: tok,
      body: {
        name: 'Orlando book',
        locations: [
          { LocNumber: 'ORL-1', Latitude: 28.54, Longitude: -81.38, BuildingTIV: 1_500_000, LocPerilsCovered: 'WW1' },
        ],
      },
    })
  ).body.id;
  ids.trigger = (
    await p.call('/api/v1/triggers', {
      token: tok,
      body: FORT_MYERS_TRIGGER,
    })
  ).body.id;
  // The stream is open before anything below happens, so it carries every kind of message.
  stream = await openStream();
  await stream.opened();
  await ingestSource(contextOn(db), nhc, sharedData('hazard_history/hurricanes/bal092022.dat'));
  await ingestSource(contextOn(db), usgsEarthquakes, revisedDay());
  await evaluateTriggers(contextOn(db));
  await p.app.storeChanged(); // what `catintel serve` does after every store change
}, 300_000);
afterAll(async () => {
  await stream?.close();
  await db?.close();
});

describe('provenance on every record (docs/contract.md#provenance)', () => {
  const operations = Object.entries(OPENAPI.paths as Json).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
      .map((m) => `${m.toUpperCase()} ${path}`),
  );

  it('every operation of openapi.yaml is walked here or listed as returning no records', () => {
    expect(operations.filter((o) => !(o in WALKS) && !(o in NO_RECORDS) && o !== STREAM_OP)).toEqual([]);
    expect(Object.keys(WALKS).filter((o) => !operations.includes(o))).toEqual([]); // no walk of an operation that is gone
  });

  it('each record of each answer carries source, source_url and ingested_at (and model and data build when derived)', async () => {
    // Values entered by hand are evaluated too: their history entry's source is the reporter.
    const entered = WALKS['POST /triggers/{id}/observations'];
    const seen: string[] = [];
    const problems: string[] = [];
    const walk = async (op: string, w: Walk) => {
      for (const c of w.calls()) {
        const r = await p.call(`/api/v1${c.path}`, { token: tok, body: c.body });
        expect(r.status, `${op} ${c.path}: ${JSON.stringify(r.body).slice(0, 300)}`).toBeLessThan(300);
        const records = w.records(r.body);
        expect(records.length, `${op} ${c.path} returned no records to check`).toBeGreaterThan(0);
        records.forEach((rec, i) => {
          for (const x of problemsOf(rec, w.baseline === true)) problems.push(`${op} ${c.path} record ${i}: ${x}`);
        });
        seen.push(op);
        if (op === 'POST /scenarios/run') ids.scenario = r.body.id;
        if (op === 'GET /events/{id}') ids.event = r.body.id;
        if (op === 'GET /events/{id}/rings') ids.ring = r.body.features[0].properties.ring_id;
      }
    };
    await walk('POST /triggers/{id}/observations', entered);
    await evaluateTriggers(contextOn(db));
    for (const [op, w] of Object.entries(WALKS)) if (op !== 'POST /triggers/{id}/observations') await walk(op, w);
    expect(problems).toEqual([]);
    expect(new Set(seen)).toEqual(new Set(Object.keys(WALKS)));
    // The history holds both kinds of entry: one from the best track, one entered by hand.
    const history = (await p.call(`/api/v1/triggers/${ids.trigger}/history`, { token: tok })).body.entries;
    expect(new Set(history.map((e: Json) => e.source))).toEqual(new Set(['nhc', 'trigger-observe']));
  }, 180_000);

  it('each record of each message of the event stream carries them too: events, rings, trigger states, alerts and probabilities, location and portfolio alerts', async () => {
    await evaluateTriggers(contextOn(db));
    await p.app.storeChanged();
    await stream.close();
    // A client whose Last-Event-ID cannot be resumed gets the live set again, as event.snapshot messages.
    const reset = await openStream({ 'last-event-id': 'not-an-id' });
    await reset.opened();
    await reset.close();
    const messages = [...stream.messages, ...reset.messages];
    const problems: string[] = [];
    messages.forEach((m, n) => {
      const records = STREAM_RECORDS[m.event];
      if (!records) return problems.push(`message ${n}: type ${m.event} is not listed in STREAM_RECORDS`);
      records(JSON.parse(m.data)).forEach((rec, i) => {
        for (const x of problemsOf(rec, false))
          problems.push(`${STREAM_OP} ${m.event} (message ${n}) record ${i}: ${x}`);
      });
    });
    expect(problems).toEqual([]);
    // The same values the HTTP reads give: an alert's and a ring's are their event's, a state move's one of its history entries'.
    const prov = (r: Json) => ({ source: r.source, source_url: r.source_url, ingested_at: r.ingested_at });
    for (const m of messages) {
      const d = JSON.parse(m.data);
      const eventId =
        m.event === 'rings.changed' ||
        m.event.endsWith('.alert') ||
        m.event === 'portfolio.loss' ||
        m.event === 'trigger.probability'
          ? d.event_id
          : undefined;
      if (eventId && d.source !== 'trigger-observe') {
        const event = prov((await p.call(`/api/v1/events/${eventId}`, { token: tok })).body.properties);
        for (const rec of STREAM_RECORDS[m.event](d))
          expect(prov(rec), `${m.event} ${m.data.slice(0, 200)}`).toEqual(event);
      }
      if (m.event === 'trigger.state') {
        const entries = (await p.call(`/api/v1/triggers/${d.trigger_id}/history`, { token: tok })).body.entries.map(
          prov,
        );
        expect(entries).toContainEqual(prov(d));
      }
    }
    expect(new Set(messages.map((m) => m.event))).toEqual(
      new Set([
        'stream.open',
        'event.new',
        'event.updated',
        'rings.changed',
        'trigger.state',
        'trigger.alert',
        'trigger.probability',
        'location.alert',
        'portfolio.alert',
        'portfolio.loss',
        'reset',
        'event.snapshot',
      ]),
    );
  }, 60_000);
});
