/**
 * The contract document: openapi.yaml is valid OpenAPI 3.0.3 (checked by a maintained validator),
 * served as JSON at /api/v1/openapi.json, and in step with the route table both ways: every route is
 * documented with its access level and status, every documented operation is routed.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RouteTable } from '../../src/http/routes.js';
import { HANDLERS } from '../../src/handlers/registry.js';
import type { Store } from '../../src/store/db.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { newAjv, toJsonSchema } from '../../src/http/oas-schema.js';
import { SseParser, type SseEvent } from '../../src/stream/sse-client.js';
import { OPENAPI, responseProblems } from './helpers/openapi.js';
import { apiKey, freshIp, platform, seededStore, type Platform } from './helpers/harness.js';

let db: Store;
let p: Platform;
beforeAll(async () => {
  db = await seededStore();
  p = await platform(db);
});
afterAll(() => db.close());

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

describe('openapi.yaml', () => {
  it('is a valid OpenAPI 3.0.3 document (swagger-parser)', async () => {
    const api = await SwaggerParser.validate(path.join(REPO_ROOT, 'openapi.yaml'));
    expect((api as { openapi: string }).openapi).toBe('3.0.3');
  });

  it('is served as JSON at /api/v1/openapi.json, with an ETag', async () => {
    const r = await p.call('/api/v1/openapi.json');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(r.body).toEqual(OPENAPI);
    const again = await p.call('/api/v1/openapi.json', { headers: { 'if-none-match': r.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('documents every route with its access level, and routes every documented operation', () => {
    const table = new RouteTable(HANDLERS);
    const routed = table.routes.filter((r) => r.fullPath.startsWith('/api/v1'));
    const fromRoutes = routed.map((r) => ({
      op: `${r.method} ${r.path}`,
      access: r.admin ? 'operator' : r.access,
      byQuery: r.accessByQuery ?? null,
      planned: Boolean(r.planned),
    }));
    const fromDoc = Object.entries<any>(OPENAPI.paths).flatMap(([p, item]) =>
      METHODS.filter((m) => item[m]).map((m) => ({
        op: `${m.toUpperCase()} ${p}`,
        access: item[m]['x-catintel-access'],
        byQuery: item[m]['x-catintel-access-by-query'] ?? null,
        planned: item[m]['x-catintel-status'] === 'planned',
      })),
    );
    const sort = (a: { op: string }, b: { op: string }) => a.op.localeCompare(b.op);
    expect(fromRoutes.sort(sort)).toEqual(fromDoc.sort(sort));
  });

  it('declares security that matches the access level', () => {
    for (const [p, item] of Object.entries<any>(OPENAPI.paths)) {
      for (const m of METHODS.filter((x) => item[x])) {
        const op = item[m];
        const schemes = (op.security as Record<string, unknown>[]).map((s) => Object.keys(s)[0] ?? 'none').sort();
        const want =
          op['x-catintel-access'] === 'operator'
            ? ['adminToken']
            : op['x-catintel-access'] === 'free'
              ? ['apiKeyAuth', 'bearerAuth', 'none']
              : ['apiKeyAuth', 'bearerAuth'];
        expect(schemes, `${m} ${p}`).toEqual(want);
        for (const status of ['401', '429', '500', '503'])
          expect(op.responses[status], `${m} ${p} ${status}`).toBeDefined();
        if (op['x-catintel-access'] !== 'free') expect(op.responses['403'], `${m} ${p} 403`).toBeDefined();
        if (m === 'post') for (const s of ['413', '415']) expect(op.responses[s], `${m} ${p} ${s}`).toBeDefined();
      }
    }
  });

  it('describes the event shapes the handlers produce (the validator catches a drift)', async () => {
    const live = await p.call('/api/v1/events/live?limit=1000');
    expect(live.body.features.length).toBeGreaterThan(100);
    const biggest = [...live.body.features].sort((a: any, b: any) => b.properties.severity - a.properties.severity)[0];
    const show = await p.call(`/api/v1/events/${biggest.properties.slug}`);
    expect(show.body.properties.id).toBe(biggest.properties.id);
    const rings = await p.call(`/api/v1/events/${biggest.properties.id}/rings`);
    expect(rings.body.features.length).toBe(show.body.properties.ring_count);
    expect(rings.body.features.length).toBeGreaterThan(0);
    const nearby = await p.call('/api/v1/events/nearby?lat=38.8&lng=-122.8&radius_km=500');
    expect(nearby.body.features[0].properties.distance_km).toBeGreaterThanOrEqual(0);
    // And the validator is not a rubber stamp: a body that drifts from the schema is reported.
    const drifted = new Response(JSON.stringify({ ...live.body, numberMatched: 'many' }), {
      status: 200,
      headers: live.headers,
    });
    expect((await responseProblems('GET', '/api/v1/events/live', drifted)).join('\n')).toMatch(
      /numberMatched must be integer/,
    );
    const undocumented = new Response('{}', { status: 418, headers: live.headers });
    expect(await responseProblems('GET', '/api/v1/events/live', undocumented)).toEqual([
      'GET /events/live: status 418 is not documented',
    ]);
  });
});

/** Whether a value is one the document allows (the schema as the server and the tests read it). */
function allows(schema: unknown, value: unknown): boolean {
  return newAjv().compile(toJsonSchema(schema, OPENAPI) as object)(value) as boolean;
}

// What schemathesis found with an enterprise key (issue 27): values the document allowed and the server
// refused, and a stream whose messages the document described wrongly. Each pair now agrees.
describe('the document and the server agree on what is accepted', () => {
  const S = OPENAPI.components.schemas;

  it('a name of 200 characters is accepted when the characters are astral (the document counts code points)', async () => {
    const name = '\u{1F30A}'.repeat(200); // 200 characters, 400 UTF-16 units
    const body = { name, lat: 30.0, lng: -90.0 };
    expect(allows(S.LocationCreate, body)).toBe(true);
    const r = await p.call('/api/v1/locations', { body, ip: freshIp() });
    expect(r.status).toBe(201);
    expect(r.body.name).toBe(name);
    expect(allows(S.LocationCreate, { ...body, name: name + 'x' })).toBe(false);
    // Only white space: refused by both (the name is stored trimmed).
    expect(allows(S.LocationCreate, { ...body, name: ' \u3000' })).toBe(false);
    expect((await p.call('/api/v1/locations', { body: { ...body, name: ' \u3000' }, ip: freshIp() })).status).toBe(422);
  });

  it('a scenario name of 200 characters is accepted when the characters are astral', async () => {
    const name = '\u{1F30A}'.repeat(200);
    const body = { name, event_type: 'earthquake', lat: 34.05, lng: -118.25, magnitude: 6 };
    expect(allows(S.ScenarioRun, body)).toBe(true);
    const { key } = await apiKey(db, 'enterprise');
    const r = await p.call('/api/v1/scenarios/run', { token: key, body });
    expect(r.status).toBe(201);
    expect(r.body.name).toBe(name);
  });

  it('a JSON null in a location row is refused, even when the same rows without it are stored', async () => {
    const { key } = await apiKey(db, 'enterprise');
    const row = { LocNumber: 'n1', Latitude: 30.0, Longitude: -90.0 };
    expect((await p.call('/api/v1/portfolio', { token: key, body: { name: 'nulls', locations: [row] } })).status).toBe(
      201,
    );
    expect(allows(S.OedLocation, { ...row, OtherTIV: null })).toBe(false);
    const r = await p.call('/api/v1/portfolio', {
      token: key,
      body: { name: 'nulls', locations: [{ ...row, OtherTIV: null }] },
    });
    expect(r.status).toBe(422);
  });

  it('an empty CSV upload is outside the document, as the server refuses it', async () => {
    const csv = OPENAPI.paths['/portfolio'].post.requestBody.content['text/csv'].schema;
    expect(allows(csv, '')).toBe(false);
    const { key } = await apiKey(db, 'enterprise');
    const r = await p.call('/api/v1/portfolio?name=empty', { token: key, raw: '', contentType: 'text/csv' });
    expect(r.status).toBe(400);
  });

  it('describes each server-sent event as SSE clients read it: event, id and a data line of JSON', async () => {
    const res = await p.app.fetch(
      new Request('http://localhost/api/v1/events/stream', { headers: { 'x-forwarded-for': freshIp() } }),
    );
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const parser = new SseParser();
    const messages: SseEvent[] = [];
    const decoder = new TextDecoder();
    while (!messages.some((m) => m.event === 'stream.open')) {
      const { done, value } = await reader.read();
      if (done) break;
      messages.push(...parser.push(decoder.decode(value, { stream: true })));
    }
    await reader.cancel();
    const schema = OPENAPI.paths['/events/stream'].get.responses['200'].content['text/event-stream'].schema;
    const open = messages.find((m) => m.event === 'stream.open')!;
    // As schemathesis reads a message: { event, data, id? } with data the raw text of the data line.
    const asRead = { event: open.event, data: open.data, ...(open.lastEventId ? { id: open.lastEventId } : {}) };
    expect(allows(schema, asRead)).toBe(true);
    expect(JSON.parse(open.data).type).toBe('stream.open');
  });
});
