/**
 * One handler layer, two adapters: every handler that has both a CLI and an HTTP binding gives the same
 * JSON through `catintel ... --json` and through the /api/v1 app. A handler added with both bindings
 * and no case here fails the test, so the two cannot drift apart.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDLERS } from '../src/handlers/registry.js';
import { cli } from './helpers/cli.js';
import { EARTHQUAKE_TEST_PACKAGE_YEARS, testModels } from './helpers/model-packages.js';
import { appOn, weekStore, WEEK_NOW } from './helpers/store.js';
import { AUTH, SECRET, token, tokenAccount } from './http/helpers/harness.js';
import { Store } from '../src/store/db.js';
import { insertTrigger } from '../src/triggers/store.js';

/** A trigger of the HTTP caller's account (the enterprise token's), inserted before the cases run. */
const PARITY_TRIGGER = '00000000-0000-4000-8000-00000000b7e5';

interface Case {
  cli: string[];
  http: string;
}
type CaseFactory = (ids: { id: string; slug: string; usId: string }) => Case[];

const CASES: Record<string, CaseFactory> = {
  'events.live': () => [
    { cli: ['events', 'live'], http: '/api/v1/events/live' },
    {
      cli: ['events', 'live', '--event-type', 'earthquake', '--status', 'active', '--limit', '7'],
      http: '/api/v1/events/live?event_type=earthquake&status=active&limit=7',
    },
    {
      cli: ['events', 'live', '--bbox', '-125,32,-114,42', '--since', '2020-07-05T00:00:00Z'],
      http: '/api/v1/events/live?bbox=-125,32,-114,42&since=2020-07-05T00:00:00Z',
    },
  ],
  'events.show': ({ id, slug }) => [
    { cli: ['events', 'show', id], http: `/api/v1/events/${id}` },
    { cli: ['events', 'show', slug], http: `/api/v1/events/${slug}` },
  ],
  'events.rings': ({ id }) => [{ cli: ['events', 'rings', id], http: `/api/v1/events/${id}/rings` }],
  'hazard.curve': () => [
    {
      cli: ['hazard', 'curve', '--lat', '41.88', '--lng', '-87.63', '--peril', 'earthquake'],
      http: '/api/v1/hazard/curve?lat=41.88&lng=-87.63&peril=earthquake',
    },
    {
      cli: ['hazard', 'curve', '--lat', '29.76', '--lng', '-95.37', '--peril', 'hurricane'],
      http: '/api/v1/hazard/curve?lat=29.76&lng=-95.37&peril=hurricane',
    },
  ],
  'risk.score': () => [
    { cli: ['score', 'point', '--lat', '25.77', '--lng', '-80.19'], http: '/api/v1/risk/score?lat=25.77&lng=-80.19' },
    {
      cli: [
        'score',
        'point',
        '--lat',
        '37.77',
        '--lng',
        '-122.42',
        '--perils',
        'earthquake,wildfire',
        '--scenario',
        'ssp585',
        '--horizon',
        '2080',
      ],
      http: '/api/v1/risk/score?lat=37.77&lng=-122.42&perils=earthquake,wildfire&scenario=ssp585&horizon=2080',
    },
  ],
  'events.score': ({ usId }) => [
    {
      cli: ['events', 'score', usId, '--perils', 'earthquake'],
      http: `/api/v1/events/${usId}/score?perils=earthquake`,
    },
    {
      cli: ['events', 'score', usId, '--scenario', 'ssp245', '--horizon', '2030'],
      http: `/api/v1/events/${usId}/score?scenario=ssp245&horizon=2030`,
    },
  ],
  'triggers.backtest': () => [
    {
      cli: ['trigger', 'backtest', PARITY_TRIGGER, '--since', '1950'],
      http: `/api/v1/triggers/${PARITY_TRIGGER}/backtest?since=1950`,
    },
  ],
  'triggers.basis_risk': () => [
    {
      cli: ['trigger', 'basis-risk', PARITY_TRIGGER, '--portfolio', epPortfolioId, '--loss-level', '1000'],
      http: `/api/v1/triggers/${PARITY_TRIGGER}/basis-risk?portfolio_id=${epPortfolioId}&loss_level=1000`,
    },
  ],
  'triggers.list': () => [{ cli: ['trigger', 'list'], http: '/api/v1/triggers' }],
  'triggers.history': () => [
    {
      cli: ['trigger', 'history', PARITY_TRIGGER, '--limit', '5'],
      http: `/api/v1/triggers/${PARITY_TRIGGER}/history?limit=5`,
    },
  ],
  'triggers.alerts': () => [{ cli: ['trigger', 'alerts'], http: '/api/v1/triggers/alerts' }],
  'events.prediction': ({ id, usId }) => [
    { cli: ['events', 'prediction', id], http: `/api/v1/events/${id}/prediction` },
    { cli: ['events', 'prediction', usId], http: `/api/v1/events/${usId}/prediction` },
  ],
  'events.timeline': ({ id }) => [{ cli: ['events', 'timeline', id], http: `/api/v1/events/${id}/timeline` }],
  'events.exposure': ({ usId }) => [{ cli: ['events', 'exposure', usId], http: `/api/v1/events/${usId}/exposure` }],
  infrastructure: () => [
    {
      cli: [
        'infra',
        'near',
        '--lat',
        '25.77',
        '--lng',
        '-80.19',
        '--radius-km',
        '10',
        '--kind',
        'hospital',
        '--limit',
        '5',
      ],
      http: '/api/v1/infrastructure?lat=25.77&lng=-80.19&radius_km=10&kind=hospital&limit=5',
    },
    {
      cli: ['infra', 'near', '--lat', '44.94', '--lng', '-123.03', '--kind', 'school,fire_station'],
      http: '/api/v1/infrastructure?lat=44.94&lng=-123.03&kind=school,fire_station',
    },
  ],
  'scenarios.show': () => [{ cli: ['scenario', 'show', scenarioId], http: `/api/v1/scenarios/${scenarioId}` }],
  'events.nearby': () => [
    {
      cli: ['events', 'nearby', '--lat', '35.7', '--lng', '-117.5', '--radius-km', '150', '--limit', '20'],
      http: '/api/v1/events/nearby?lat=35.7&lng=-117.5&radius_km=150&limit=20',
    },
  ],
  'portfolio.list': () => [
    { cli: ['portfolio', 'list', '--locations-limit', '1'], http: '/api/v1/portfolio?locations_limit=1' },
  ],
  'portfolio.show': () => [
    { cli: ['portfolio', 'show', epPortfolioId, '--limit', '1'], http: `/api/v1/portfolio/${epPortfolioId}?limit=1` },
  ],
  'portfolio.exposure': () => [
    { cli: ['portfolio', 'exposure', epPortfolioId], http: `/api/v1/portfolio/exposure?portfolio_id=${epPortfolioId}` },
  ],
  'locations.list': () => [{ cli: ['locations', 'list'], http: '/api/v1/locations' }],
  'locations.exposure': () => [{ cli: ['locations', 'exposure'], http: '/api/v1/locations/exposure' }],
  'locations.alerts': () => [{ cli: ['locations', 'alerts'], http: '/api/v1/locations/alerts' }],
  'portfolio.ep_curve': () => [
    {
      cli: [
        'portfolio',
        'ep-curve',
        epPortfolioId,
        '--years',
        '50',
        '--seed',
        '2',
        '--perils',
        'hurricane_wind,wildfire',
      ],
      http: `/api/v1/portfolio/ep-curve?portfolio_id=${epPortfolioId}&years=50&seed=2&perils=hurricane_wind,wildfire`,
    },
  ],
  'events.diff': ({ usId }) => [
    { cli: ['events', 'diff', usId, '--from', '1'], http: `/api/v1/events/${usId}/diff?from=1` },
  ],
  'portfolio.event_loss': ({ usId }) => [
    {
      cli: ['portfolio', 'event-loss', epPortfolioId, '--event', usId, '--samples', '3'],
      http: `/api/v1/portfolio/event-loss?portfolio_id=${epPortfolioId}&event_id=${usId}&samples=3`,
    },
  ],
};

let db: string;
let ids: { id: string; slug: string; usId: string };
/** A scenario of the HTTP caller's account (run through the CLI before the cases; its id is random). */
let scenarioId = '';
/** A portfolio of the HTTP caller's account for the EP curve (imported through the CLI; its id is random). */
let epPortfolioId = '';
/** The CLI acts for the HTTP caller's account through its token (CATINTEL_TOKEN), verified as the server does. */
let asCaller: Record<string, string> = {};
/** The EP curve's model packages (a small hurricane package shared by the run), for the CLI and the server alike. */
let models = '';
beforeAll(async () => {
  // The hurricane and earthquake test packages side by side in one models folder (the event loss runs an earthquake of the week).
  const [hurricane, earthquake] = [
    await testModels(),
    await testModels('earthquake', { years: EARTHQUAKE_TEST_PACKAGE_YEARS }),
  ];
  models = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-parity-models-'));
  fs.symlinkSync(path.join(hurricane, 'hurricane'), path.join(models, 'hurricane'));
  fs.symlinkSync(path.join(earthquake, 'earthquake'), path.join(models, 'earthquake'));
  asCaller = { CATINTEL_TOKEN: await token('enterprise'), CATINTEL_JWT_SECRET: SECRET, CATINTEL_MODELS: models };
  db = await weekStore();
  const live = await cli(['--db', db, '--json', 'events', 'live', '--event-type', 'earthquake', '--limit', '1000'], {
    CATINTEL_NOW: WEEK_NOW,
  });
  const biggest = live.json().features.sort((a: any, b: any) => b.properties.severity - a.properties.severity)[0];
  // Scores need a point inside US coverage: the week's quakes near Ridgecrest, California.
  const near = await cli(
    [
      '--db',
      db,
      '--json',
      'events',
      'nearby',
      '--lat',
      '35.77',
      '--lng',
      '-117.6',
      '--radius-km',
      '50',
      '--limit',
      '1',
    ],
    { CATINTEL_NOW: WEEK_NOW },
  );
  ids = { id: biggest.properties.id, slug: biggest.properties.slug, usId: near.json().features[0].properties.id };
  const store = await Store.open(db);
  await insertTrigger(store, {
    id: PARITY_TRIGGER,
    account: tokenAccount('enterprise@example.com'),
    name: 'parity',
    peril: 'hurricane',
    lat: 25.76,
    lng: -80.19,
    radius_km: 50,
    threshold_type: 'wind_speed_kt',
    threshold_value: 100,
    alert_at_pct: 80,
    notes: null,
    status: 'active',
    created_at: '2020-07-01T00:00:00Z',
  });
  await store.close();
  const scenario = await cli(
    [
      '--db',
      db,
      '--json',
      'scenario',
      'run',
      '--event-type',
      'earthquake',
      '--lat',
      '35.77',
      '--lng',
      '-117.6',
      '--magnitude',
      '6.4',
    ],
    { CATINTEL_NOW: WEEK_NOW, ...asCaller },
  );
  scenarioId = scenario.json().id;
  const oed = path.join(path.dirname(db), 'parity-portfolio.csv');
  fs.writeFileSync(
    oed,
    'LocNumber,Latitude,Longitude,BuildingTIV,LocPerilsCovered\nMIA,25.77,-80.19,1000000,AA1\nSF,37.77,-122.42,2000000,QQ1\n',
  );
  const imported = await cli(['--db', db, '--json', 'portfolio', 'import', oed, '--name', 'parity'], {
    CATINTEL_NOW: WEEK_NOW,
    ...asCaller,
  });
  epPortfolioId = imported.json().id;
  // A saved location near the week's Ridgecrest quakes, so the locations cases have something to show.
  const saved = await cli(
    [
      '--db',
      db,
      '--json',
      'locations',
      'add',
      '--name',
      'Ridgecrest',
      '--lat',
      '35.77',
      '--lng',
      '-117.6',
      '--radius-km',
      '50',
    ],
    { CATINTEL_NOW: WEEK_NOW, ...asCaller },
  );
  expect(saved.code, saved.stderr).toBe(0);
  // The first run after the hurricane model's code changes builds the shared test package (about a minute).
}, 300_000);

describe('CLI and HTTP parity', () => {
  // Operator endpoints (keys) need the server run's admin token and mint random ids: test/platform covers them.
  // Writes that mint a random id (trigger create, observe) or change what the next case reads (deactivate)
  // are compared field by field in test/triggers-http.test.ts instead (scenario run: test/scenarios.test.ts).
  // Portfolio import and delete, location add and remove: test/portfolios-http.test.ts and test/portfolios.test.ts.
  const WRITES_WITH_NEW_IDS = [
    'triggers.create',
    'triggers.deactivate',
    'triggers.observe',
    'scenarios.run',
    'portfolio.create',
    'portfolio.delete',
    'locations.create',
    'locations.remove',
  ];
  const both = HANDLERS.filter((h) => h.cli && h.http && !h.http.admin && !WRITES_WITH_NEW_IDS.includes(h.name));

  it('has a parity case for every handler with both bindings', () => {
    expect(both.map((h) => h.name).filter((n) => !CASES[n])).toEqual([]);
  });

  it('gives the same JSON through both adapters', async () => {
    const expected: { url: string; body: unknown }[] = [];
    for (const h of both) {
      for (const c of CASES[h.name](ids)) {
        const r = await cli(['--db', db, '--json', ...c.cli], { CATINTEL_NOW: WEEK_NOW, ...asCaller });
        expect(r.code, r.stderr).toBe(0);
        expected.push({ url: c.http, body: r.json() });
      }
    }
    // The CLI has closed the store; the server opens it now (one writer at a time). The CLI is the
    // operator on their own machine (enterprise tier), so the HTTP caller is an enterprise token.
    const server = await appOn(db, WEEK_NOW, { auth: AUTH, env: { CATINTEL_MODELS: models } });
    const bearer = { authorization: `Bearer ${await token('enterprise')}` };
    try {
      for (const e of expected) {
        const res = await server.get(e.url, bearer);
        expect(res.status, e.url).toBe(200);
        expect(await res.json(), e.url).toEqual(e.body);
      }
    } finally {
      await server.close();
    }
    // Every handler twice; the EP curve and the event loss run the loss engine on a model package (seconds each way).
  }, 240_000);
});

afterAll(() => {
  if (models) fs.rmSync(models, { recursive: true, force: true });
});
