/**
 * Triggers over HTTP (docs/contract.md#access and #triggers), every answer validated against openapi.yaml by the harness:
 * the per-tier active trigger limits (agency 3, analyst 10, enterprise unlimited: 1,000 here, the last two over HTTP), 422 naming
 * each bad field, 404 for another account's trigger, DELETE freeing a slot, and after an evaluation on
 * the real Hurricane Ian best track the list, history and alerts a client reads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestSource } from '../src/ingest/run.js';
import { nhc } from '../src/sources/nhc.js';
import { evaluateTriggers } from '../src/triggers/run.js';
import type { Store } from '../src/store/db.js';
import { FORT_MYERS_TRIGGER } from './helpers/fort-myers-trigger.js';
import { sharedData } from './helpers/paths.js';
import { contextOn, platform, seededStore, token, type Platform } from './http/helpers/harness.js';

let db: Store;
let p: Platform;
beforeAll(async () => {
  db = await seededStore(); // earthquakes of 2022-09-29 and the clock at 03:32Z, after Ian's landfall
  await ingestSource(contextOn(db), nhc, sharedData('hazard_history/hurricanes/bal092022.dat'));
  p = await platform(db, { rateLimit: 'off' });
}, 60_000);
afterAll(async () => p?.close());

const create = (tok: string, body: unknown = FORT_MYERS_TRIGGER) => p.call('/api/v1/triggers', { token: tok, body });

describe('active trigger limits per tier', () => {
  it('the 4th active trigger of an agency account is 403 trigger_limit_reached; DELETE frees a slot', async () => {
    const agency = await token('agency', { sub: 'agency-limit@example.com' });
    const made = [];
    for (let i = 0; i < 3; i++) {
      const r = await create(agency, { ...FORT_MYERS_TRIGGER, name: `t${i}` });
      expect(r.status).toBe(201);
      expect(r.headers.get('location')).toBe(`/api/v1/triggers/${r.body.id}`);
      expect(r.body).toMatchObject({
        status: 'active',
        state: 'clear',
        proximity_pct: 0,
        alert_at_pct: 80,
        last_evaluated_at: null,
        notes: null,
      });
      made.push(r.body.id);
    }
    const fourth = await create(agency);
    expect([fourth.status, fourth.body.code]).toEqual([403, 'trigger_limit_reached']);
    expect(fourth.body.detail).toMatch(
      /the agency tier allows 3 active triggers and account jwt:catintel\|agency-limit@example\.com has 3/,
    );

    const gone = await p.call(`/api/v1/triggers/${made[0]}`, { method: 'DELETE', token: agency });
    expect([gone.status, gone.body.status]).toEqual([200, 'inactive']);
    expect((await p.call(`/api/v1/triggers/${made[0]}/history`, { token: agency })).status).toBe(404); // the resource is gone
    expect((await p.call(`/api/v1/triggers/${made[0]}`, { method: 'DELETE', token: agency })).status).toBe(404);
    expect((await p.call('/api/v1/triggers', { token: agency })).body.count).toBe(2);
    expect((await create(agency)).status).toBe(201);
  });

  it('the 11th of an analyst account is 403; an enterprise account creates 1,000', async () => {
    const analyst = await token('analyst', { sub: 'analyst-limit@example.com' });
    for (let i = 0; i < 10; i++) expect((await create(analyst)).status).toBe(201);
    const eleventh = await create(analyst);
    expect([eleventh.status, eleventh.body.code]).toEqual([403, 'trigger_limit_reached']);
    expect(eleventh.body.detail).toMatch(/allows 10 active triggers/);

    // Enterprise has no limit. The first, the 999th and the 1,000th are created over HTTP; the 997 between
    // are copies of the first's stored row under ids and names of their own, made in one statement instead
    // of 997 requests: the limit rule counts the account's active rows, however they were made.
    const enterprise = await token('enterprise', { sub: 'enterprise-many@example.com' });
    const first = await create(enterprise, { ...FORT_MYERS_TRIGGER, name: 'e0' });
    expect(first.status).toBe(201);
    await db.run(
      `INSERT INTO triggers SELECT t.* REPLACE (uuid()::VARCHAR AS id, 'e' || r.range AS name)
         FROM triggers t, range(1, 998) r WHERE t.id = $id`,
      { id: first.body.id },
    );
    for (let i = 998; i < 1000; i++) {
      const r = await create(enterprise, { ...FORT_MYERS_TRIGGER, name: `e${i}` });
      expect(r.status).toBe(201);
    }
    const listed = (await p.call('/api/v1/triggers', { token: enterprise })).body;
    expect(listed.count).toBe(1000);
    expect(new Set(listed.triggers.map((t: any) => t.name)).size).toBe(1000);
  }, 60_000);

  it('free callers get 401: triggers need an account', async () => {
    const r = await p.call('/api/v1/triggers', { body: FORT_MYERS_TRIGGER });
    expect(r.status).toBe(401);
  });
});

describe('validation', () => {
  it('a bad body gets 422 naming each bad field', async () => {
    const agency = await token('agency', { sub: 'validation@example.com' });
    const r = await create(agency, {
      name: '',
      peril: 'meteor',
      lat: 95,
      lng: -200,
      radius_km: 0,
      threshold_type: 'wind_speed_kt',
      threshold_value: -1,
      alert_at_pct: 150,
      notes: 7,
    });
    expect([r.status, r.body.code]).toEqual([422, 'validation_failed']);
    expect(r.body.errors.map((e: any) => e.field).sort()).toEqual([
      'alert_at_pct',
      'lat',
      'lng',
      'name',
      'notes',
      'peril',
      'radius_km',
      'threshold_value',
    ]);
    const mismatch = await create(agency, { ...FORT_MYERS_TRIGGER, threshold_type: 'magnitude', threshold_value: 7 });
    expect([mismatch.status, mismatch.body.errors]).toEqual([
      422,
      [
        {
          field: 'threshold_type',
          message:
            'magnitude does not fit peril hurricane; for hurricane use wind_speed_kt, storm_surge_ft, industry_loss_usd, central_pressure_mb',
        },
      ],
    ]);
    expect((await p.call('/api/v1/triggers', { token: agency })).body.count).toBe(0); // nothing half-created
  });
});

describe('accounts', () => {
  it("another account's trigger is 404 on history, DELETE and observations, and never listed", async () => {
    const alice = await token('agency', { sub: 'alice@example.com' });
    const bob = await token('analyst', { sub: 'bob@example.com' });
    const id = (await create(alice)).body.id;
    for (const [path, method] of [
      [`/api/v1/triggers/${id}/history`, 'GET'],
      [`/api/v1/triggers/${id}`, 'DELETE'],
    ] as const) {
      const r = await p.call(path, { method, token: bob });
      expect([r.status, r.body.code], `${method} ${path}`).toEqual([404, 'not_found']);
    }
    const obs = await p.call(`/api/v1/triggers/${id}/observations`, { token: bob, body: { value: 1, source: 'x' } });
    expect(obs.status).toBe(404);
    expect((await p.call('/api/v1/triggers', { token: bob })).body.triggers.map((t: any) => t.id)).not.toContain(id);
    expect((await p.call(`/api/v1/triggers/${id}/history`, { token: alice })).status).toBe(200);
    // An id that is not a trigger id at all is a bad parameter, not a lookup.
    expect((await p.call('/api/v1/triggers/not-an-id/history', { token: alice })).status).toBe(400);
    // /triggers/alerts is its own resource, not a trigger named "alerts": only GET there.
    const del = await p.call('/api/v1/triggers/alerts', { method: 'DELETE', token: alice, unchecked: true });
    expect([del.status, del.headers.get('allow')]).toEqual([405, 'GET, HEAD, OPTIONS']);
    // Names are kept as valid Unicode: a lone surrogate (valid JSON) becomes U+FFFD instead of failing.
    const odd = await create(alice, { ...FORT_MYERS_TRIGGER, name: 'a\ud800b' });
    expect([odd.status, odd.body.name]).toEqual([201, 'a\ufffdb']);
  });
});

describe('after an evaluation on Hurricane Ian', () => {
  it('list shows state and proximity, history the receipt (paged), alerts the notification until marked read', async () => {
    const owner = await token('agency', { sub: 'ian-owner@example.com' });
    const fm = (await create(owner)).body;
    const miami = (await create(owner, { ...FORT_MYERS_TRIGGER, name: 'Miami 100 kt', lat: 25.76, lng: -80.19 })).body;
    const summary = await evaluateTriggers(contextOn(db));
    expect(summary.newly_triggered.map((t) => t.trigger_id)).toContain(fm.id);

    const list = (await p.call('/api/v1/triggers', { token: owner })).body;
    const byId = Object.fromEntries(list.triggers.map((t: any) => [t.id, t]));
    expect(byId[fm.id]).toMatchObject({
      state: 'triggered',
      proximity_pct: 131,
      last_evaluated_at: '2022-09-29T03:32:09Z',
    });
    expect(byId[miami.id]).toMatchObject({ state: 'clear', proximity_pct: 0 });

    const h = (await p.call(`/api/v1/triggers/${fm.id}/history?limit=1`, { token: owner })).body;
    expect(h.numberMatched).toBe(1);
    expect(h.entries[0]).toMatchObject({
      observed_value: 131,
      unit: 'kt',
      distance_km: 37,
      state: 'triggered',
      source_id: 'al092022',
    });

    const alerts = (await p.call('/api/v1/triggers/alerts?mark_read=true', { token: owner })).body;
    expect(alerts.alerts).toMatchObject([{ trigger_id: fm.id, kind: 'triggered', proximity_pct: 131, read_at: null }]);
    expect((await p.call('/api/v1/triggers/alerts', { token: owner })).body.count).toBe(0);
  });
});

describe('entered observations', () => {
  it('a reading for an event the store does not hold is kept as named; an unknown field is 422', async () => {
    const owner = await token('agency', { sub: 'observer@example.com' });
    const t = (
      await create(owner, { ...FORT_MYERS_TRIGGER, threshold_type: 'industry_loss_usd', threshold_value: 1e9 })
    ).body;
    const r = await p.call(`/api/v1/triggers/${t.id}/observations`, {
      token: owner,
      body: { value: 2e9, source: 'PCS', event_id: 'AL142018' },
    });
    expect([r.status, r.body.event_ref, r.body.event_id]).toEqual([201, 'AL142018', null]);
    const linked = await p.call(`/api/v1/triggers/${t.id}/observations`, {
      token: owner,
      body: { value: 3e9, source: 'PCS', event_id: 'AL092022' },
    });
    expect(linked.body.event_title).toMatch(/Ian/);
    const bad = await p.call(`/api/v1/triggers/${t.id}/observations`, {
      token: owner,
      body: { value: 1, source: 'x', extra: true },
    });
    expect([bad.status, bad.body.errors[0].field]).toEqual([422, 'extra']);
  });
});
