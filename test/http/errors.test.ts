/**
 * Errors (docs/contract.md#errors): RFC 9457 problem+json for every condition, with a stable code, field-level
 * `errors` where there are fields, the headers the condition calls for (Allow, Retry-After,
 * WWW-Authenticate, Accept-Post), never a stack trace, file path or SQL; X-Request-Id on every
 * response. The CLI prints the same problem object with --json and exits with the contract's codes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineHandler } from '../../src/handlers/types.js';
import type { Store } from '../../src/store/db.js';
import path from 'node:path';
import { cli, tempDir } from '../helpers/cli.js';
import { createApp } from '../../src/http/app.js';
import {
  AUTH,
  call,
  contextOn,
  freshIp,
  liveEventId,
  platform,
  seededStore,
  token,
  type Platform,
} from './helpers/harness.js';

let db: Store;
let p: Platform;
beforeAll(async () => {
  db = await seededStore();
  p = await platform(db);
});
afterAll(() => db.close());

const PROBLEM_KEYS = ['code', 'detail', 'instance', 'status', 'title', 'type'];

function isProblem(r: { status: number; headers: Headers; body: any }, status: number, code: string) {
  expect(r.status).toBe(status);
  expect(r.headers.get('content-type')).toBe('application/problem+json');
  expect(
    Object.keys(r.body)
      .filter((k) => k !== 'errors')
      .sort(),
  ).toEqual(PROBLEM_KEYS);
  expect(r.body).toMatchObject({ status, code, type: `https://catintel.dev/problems/${code.replace(/_/g, '-')}` });
  expect(r.body.instance).toMatch(/^\//);
}

describe('problem+json for every condition of docs/contract.md#errors', () => {
  it('400 invalid_parameter names the parameter, checked against the OpenAPI document', async () => {
    const r = await p.call('/api/v1/events/nearby?lat=91&lng=abc');
    isProblem(r, 400, 'invalid_parameter');
    expect(r.body.errors).toEqual([
      { field: 'lat', message: 'must be <= 90' },
      { field: 'lng', message: 'must be number' },
    ]);
    expect(r.body.detail).toBe('lat: must be <= 90; lng: must be number');
    const list = await p.call('/api/v1/events/live?event_type=earthquake,meteor');
    isProblem(list, 400, 'invalid_parameter');
    expect(list.body.detail).toMatch(/^event_type: "meteor" is not one of earthquake, hurricane, /);
    const twice = await p.call('/api/v1/events/live?limit=1&limit=2');
    expect(twice.body.errors[0]).toEqual({ field: 'limit', message: 'give it once' });
    // A rule the schema cannot state is still the handler's: minLat above maxLat.
    const box = await p.call('/api/v1/events/live?bbox=-125,42,-114,32');
    isProblem(box, 400, 'invalid_parameter');
    expect(box.body.errors[0].field).toBe('bbox');
  });

  it('400 invalid_request for malformed JSON', async () => {
    const r = await p.call('/api/v1/admin/keys', {
      token: p.adminToken,
      raw: '{"tier": "agency",',
      contentType: 'application/json',
    });
    isProblem(r, 400, 'invalid_request');
    expect(r.body.errors).toEqual([{ field: 'body', message: 'malformed JSON' }]);
  });

  it('401 unauthorized with WWW-Authenticate, 403 insufficient_tier', async () => {
    const r = await p.call('/api/v1/portfolio');
    isProblem(r, 401, 'unauthorized');
    expect(r.headers.get('www-authenticate')).toBe('Bearer realm="catintel"');
    isProblem(await p.call('/api/v1/portfolio', { token: 'x.y.z' }), 401, 'unauthorized');
    isProblem(
      await p.call(`/api/v1/events/${(await liveEventId(p)).id}/exposure`, { token: await token('agency') }),
      403,
      'insufficient_tier',
    );
  });

  it('404 not_found for an unknown route and an unknown id', async () => {
    isProblem(await p.call('/api/v1/volcanoes'), 404, 'not_found');
    isProblem(await p.call('/v2/events/live'), 404, 'not_found');
    const id = await p.call('/api/v1/events/00000000-0000-4000-8000-000000000000');
    isProblem(id, 404, 'not_found');
    expect(id.body.detail).toMatch(/no event with id, slug or source id/);
  });

  it('405 method_not_allowed lists the allowed methods in Allow', async () => {
    const r = await p.call('/api/v1/events/live', { method: 'POST', body: {} });
    isProblem(r, 405, 'method_not_allowed');
    expect(r.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const both = await p.call('/api/v1/triggers', { method: 'PUT' });
    expect(both.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    const options = await p.call('/api/v1/portfolio', { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
  });

  it('413 payload_too_large over 1 MiB of JSON and 50 MiB of CSV, before the handler', async () => {
    const agency = await token('agency');
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024) });
    const r = await p.call('/api/v1/triggers', { token: agency, raw: big, contentType: 'application/json' });
    isProblem(r, 413, 'payload_too_large');
    expect(r.body.detail).toBe('the application/json body is larger than 1 MiB');
    const justUnder = JSON.stringify({ name: 'x'.repeat(1024 * 1024 - 20) });
    // Past the size check, the body is read and checked (a 201-character name is not valid).
    expect(
      (await p.call('/api/v1/triggers', { token: agency, raw: justUnder, contentType: 'application/json' })).status,
    ).toBe(422);
    // CSV portfolios may be 50 MiB; a streamed body is counted as it arrives, whatever it claims.
    const csvOk = await p.call('/api/v1/portfolio?name=big', {
      token: agency,
      raw: 'LocNumber,Latitude,Longitude\n'.padEnd(5 * 1024 * 1024, '1'),
      contentType: 'text/csv',
    });
    expect(csvOk.status).toBe(422); // read and checked: its one row has 1 field, the header 3
    const chunk = new Uint8Array(1024 * 1024).fill(49);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent++ < 51) c.enqueue(chunk);
        else c.close();
      },
    });
    const res = await p.app.fetch(
      new Request('http://localhost/api/v1/portfolio', {
        method: 'POST',
        body: stream,
        duplex: 'half',
        headers: { authorization: `Bearer ${agency}`, 'content-type': 'text/csv', 'x-forwarded-for': freshIp() },
      } as RequestInit),
    );
    expect(res.status).toBe(413);
    expect(((await res.json()) as any).detail).toBe('the text/csv body is larger than 50 MiB');
  });

  it('415 unsupported_media_type for a body of another type, with Accept-Post', async () => {
    const r = await p.call('/api/v1/triggers', {
      token: await token('agency'),
      raw: 'name=x',
      contentType: 'application/x-www-form-urlencoded',
    });
    isProblem(r, 415, 'unsupported_media_type');
    expect(r.headers.get('accept-post')).toBe('application/json');
    const csvToTriggers = await p.call('/api/v1/triggers', {
      token: await token('agency'),
      raw: 'a,b\n1,2\n',
      contentType: 'text/csv',
    });
    expect(csvToTriggers.status).toBe(415);
    const noType = await p.call('/api/v1/admin/keys', {
      token: p.adminToken,
      raw: '{"name":"x","tier":"agency"}',
      contentType: '',
    });
    expect(noType.status).toBe(415);
    // The charset parameter is fine.
    const charset = await p.call('/api/v1/admin/keys', {
      token: p.adminToken,
      body: { name: 'x', tier: 'agency' },
      contentType: 'application/json; charset=utf-8',
    });
    expect(charset.status).toBe(201);
  });

  it('422 validation_failed lists every bad field', async () => {
    const r = await p.call('/api/v1/admin/keys', { token: p.adminToken, body: { tier: 'platinum', sandbox: 1 } });
    isProblem(r, 422, 'validation_failed');
    expect(r.body.errors).toEqual([
      { field: 'name', message: 'a name of 1 to 200 characters, e.g. "acme-prod-scoring"' },
      { field: 'tier', message: 'one of agency, analyst, enterprise' },
      { field: 'sandbox', message: 'true or false' },
    ]);
  });

  it('429 rate_limited with Retry-After', async () => {
    const ip = freshIp();
    for (let i = 0; i < 60; i++) await p.call('/api/v1/openapi.json', { ip });
    const r = await p.call('/api/v1/openapi.json', { ip });
    isProblem(r, 429, 'rate_limited');
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('500 internal_error and 503 unavailable reveal nothing of the internals', async () => {
    const logged: unknown[] = [];
    const boom = defineHandler({
      name: 'test.boom',
      summary: 'fails',
      http: { method: 'GET', path: '/boom', access: 'free' },
      parse: () => ({}),
      async run() {
        throw new Error('Binder Error: SELECT * FROM secret_table WHERE x = 1 at /srv/catintel/src/store/db.ts:42');
      },
    });
    const hang = defineHandler({
      name: 'test.hang',
      summary: 'never answers',
      http: { method: 'GET', path: '/hang', access: 'free' },
      parse: () => ({}),
      run: () => new Promise(() => {}),
    });
    const ctx = { ...contextOn(db), log: (...a: unknown[]) => logged.push(a) };
    const app = createApp({ ctx, auth: AUTH, trustProxy: 1, handlers: [boom, hang], handlerTimeoutMs: 200 });
    const r = await call(app, '/api/v1/boom', {});
    isProblem(r, 500, 'internal_error');
    const text = JSON.stringify(r.body);
    expect(text).not.toMatch(/SELECT|secret_table|\/work\/|db\.ts|Binder|at /);
    expect(r.body.detail).toBe('An unexpected error occurred; the request was not completed.');
    expect(JSON.stringify(logged)).toMatch(/secret_table/); // the operator's log has it
    const t = await call(app, '/api/v1/hang', {});
    isProblem(t, 503, 'unavailable');
    expect(t.headers.get('retry-after')).toBe('10');
  });

  it('501 not_implemented for contract endpoints not built yet', async () => {
    // Every contract endpoint is built now; a route registered as planned still answers 501 after the access checks.
    const planned = defineHandler({
      name: 'planned.test',
      summary: 'planned',
      http: { method: 'GET', path: '/infrastructure', access: 'free', planned: true },
      parse: () => ({}),
      run: async () => ({ body: {} }),
    });
    const app = createApp({ ctx: contextOn(db), auth: AUTH, trustProxy: 1, handlers: [planned] });
    const r = await call(app, '/api/v1/infrastructure?lat=38&lng=-122', { unchecked: true });
    isProblem(r, 501, 'not_implemented');
    expect(r.body.detail).toBe(
      'GET /api/v1/infrastructure is part of the API contract but not available in this version yet',
    );
  });
});

describe('X-Request-Id', () => {
  it('echoes a valid incoming id and replaces an invalid one', async () => {
    const echo = await p.call('/api/v1/events/live?limit=1', { headers: { 'x-request-id': 'req-42.a:b_c' } });
    expect(echo.headers.get('x-request-id')).toBe('req-42.a:b_c');
    const bad = await p.call('/api/v1/nope', { headers: { 'x-request-id': 'has spaces and <script>' } });
    expect(bad.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const a = await p.call('/api/v1/healthz');
    const b = await p.call('/api/v1/healthz');
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });
});

describe('the CLI prints the same problem', () => {
  it('one clear line by default, the problem object with --json, and the contract exit codes', async () => {
    const file = path.join(tempDir(), 'errors.duckdb');
    const line = await cli(['--db', file, 'keys', 'revoke', 'nope']);
    expect(line.code).toBe(2);
    expect(line.stderr).toBe(
      'catintel: id: "nope" is not a key id such as key_3fA9xQ2LmP0sTu7W (see `catintel keys list`) [invalid_parameter]\n',
    );
    const json = await cli(['--db', file, '--json', 'keys', 'revoke', 'key_0000000000000000']);
    expect(json.code).toBe(2); // an unknown id is bad input (docs/contract.md#errors)
    expect(JSON.parse(json.stderr)).toEqual({
      type: 'https://catintel.dev/problems/not-found',
      title: 'Not found',
      status: 404,
      detail: 'no API key key_0000000000000000; list them with `catintel keys list --include-revoked`',
      code: 'not_found',
    });
    const usage = await cli(['keys', 'create', '--bogus']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^catintel: unknown option '--bogus'; see --help \[invalid_request\]\n$/);
  });
});
