/**
 * A planned POST endpoint checks its body against the OpenAPI document before answering 501 (issue 7,
 * item 17). Every contract endpoint is built today, so no registered route exercises this path: a
 * synthetic planned handler on POST /locations (whose request body the document describes) stands in
 * for the next endpoint of the contract.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planned } from '../../src/handlers/planned.js';
import { createApp, type App } from '../../src/http/app.js';
import type { Store } from '../../src/store/db.js';
import { AUTH, call, contextOn, seededStore } from './helpers/harness.js';

let db: Store;
let app: App;
beforeAll(async () => {
  db = await seededStore();
  const locationsCreate = planned('locations-create', 'planned', {
    method: 'POST',
    path: '/locations',
    access: 'free',
  });
  app = createApp({ ctx: contextOn(db), auth: AUTH, trustProxy: 1, handlers: [locationsCreate] });
});
afterAll(() => db.close());

const post = (o: { body?: unknown; raw?: string; contentType?: string }) =>
  call(app, '/api/v1/locations', { ...o, unchecked: true });

describe('a planned POST endpoint', () => {
  it('answers 400 to malformed JSON and to no body, before any 501', async () => {
    const malformed = await post({ raw: '{"name": ', contentType: 'application/json' });
    expect([malformed.status, malformed.body.code]).toEqual([400, 'invalid_request']);
    const none = await call(app, '/api/v1/locations', { method: 'POST', unchecked: true });
    expect([none.status, none.body.code]).toEqual([400, 'invalid_request']);
  });

  it('answers 422 naming each field the document refuses', async () => {
    const r = await post({ body: { name: 'home', lat: 38.8 } });
    expect([r.status, r.body.code]).toEqual([422, 'validation_failed']);
    expect(r.body.errors).toEqual([{ field: 'lng', message: 'is required' }]);
  });

  it('answers 501 not_implemented only to a valid body', async () => {
    const r = await post({ body: { name: 'home', lat: 38.8, lng: -122.8 } });
    expect([r.status, r.body.code]).toEqual([501, 'not_implemented']);
  });
});
