/**
 * Requests Node's HTTP parser refuses before they reach the app (issue 7, item 7): a URL or headers
 * over 16 KB (431), bad framing (400), headers too slow (408). They get what every response gets:
 * problem+json, X-Request-Id, the X-RateLimit-* headers, and they count against the address's limit.
 * Sent on a raw socket, as a client that does this would.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/http/server.js';
import type { Store } from '../../src/store/db.js';
import { OPENAPI } from '../http/helpers/openapi.js';
import { newAjv, toJsonSchema } from '../../src/http/oas-schema.js';
import { AUTH, contextOn, seededStore } from '../http/helpers/harness.js';

let db: Store;
let s: RunningServer;
let port: number;
const logged: { status: number; code?: string }[] = [];
beforeAll(async () => {
  db = await seededStore();
  s = await startServer({
    ctx: contextOn(db),
    auth: AUTH,
    host: '127.0.0.1',
    port: 0,
    headersTimeoutMs: 300,
    requestTimeoutMs: 600,
    accessLog: (e) => logged.push(e),
  });
  port = Number(new URL(s.url).port);
});
afterAll(async () => {
  await s.stop(1000);
  db.close();
});

interface Raw {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/** Sends bytes, reads until the server closes the connection, parses the HTTP/1.1 response. */
function send(bytes: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sock = net.connect(port, '127.0.0.1', () => sock.write(bytes));
    sock.on('data', (d) => chunks.push(d));
    sock.on('error', () => undefined); // the server may reset after answering; what it sent is what counts
    sock.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const [head, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const m = /^HTTP\/1\.1 (\d{3}) /.exec(statusLine);
      if (!m) return reject(new Error(`not an HTTP response: ${JSON.stringify(text.slice(0, 200))}`));
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      const body = rest.join('\r\n\r\n');
      resolve({ status: Number(m[1]), headers, body: body ? JSON.parse(body) : null });
    });
  });
}

const validProblem = newAjv().compile(toJsonSchema(OPENAPI.components.schemas.Problem, OPENAPI) as object);

function isPlatformProblem(r: Raw, status: number, code: string) {
  expect(r.status).toBe(status);
  expect(r.headers['content-type']).toBe('application/problem+json');
  expect(r.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
    expect(r.headers[h], h).toMatch(/^\d+$/);
  expect(r.headers.connection).toBe('close');
  expect(validProblem(r.body), JSON.stringify(validProblem.errors)).toBe(true);
  expect(r.body).toMatchObject({ status, code });
}

describe('requests the HTTP parser refuses', () => {
  it('431 for a URL over 16 KB, with problem+json and the platform headers', async () => {
    const r = await send(
      `GET /api/v1/events/live?event_type=${'earthquake,'.repeat(2000)}earthquake HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    isPlatformProblem(r, 431, 'headers_too_large');
    expect(r.body.detail).toBe(
      'the request line and headers are larger than 16 KB; shorten the URL (fewer or shorter query values) or the headers',
    );
    expect(r.headers['x-ratelimit-limit']).toBe('60');
  });

  it('431 for headers over 16 KB', async () => {
    const r = await send(`GET /api/v1/healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17_000)}\r\n\r\n`);
    isPlatformProblem(r, 431, 'headers_too_large');
  });

  it('400 for bad framing (Content-Length with chunked) and a malformed request line', async () => {
    const framing = await send(
      'POST /api/v1/locations HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    );
    isPlatformProblem(framing, 400, 'invalid_request');
    expect(framing.body.detail).toMatch(/^the request is not valid HTTP\/1\.1/);
    const garbage = await send('HELLO THERE\r\n\r\n');
    isPlatformProblem(garbage, 400, 'invalid_request');
  });

  it('408 for headers that never finish', async () => {
    const r = await send('GET /api/v1/healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    isPlatformProblem(r, 408, 'request_timeout');
  });

  it('counts against the client address like any request, and is in the access log', async () => {
    const a = await send('HELLO\r\n\r\n');
    const b = await send('HELLO\r\n\r\n');
    expect(Number(b.headers['x-ratelimit-remaining'])).toBe(Number(a.headers['x-ratelimit-remaining']) - 1);
    const good = await fetch(`${s.url}/api/v1/healthz`);
    expect(Number(good.headers.get('x-ratelimit-remaining'))).toBe(Number(b.headers['x-ratelimit-remaining']) - 1);
    expect(logged.filter((e) => e.code === 'invalid_request').length).toBeGreaterThanOrEqual(2);
  });
});
