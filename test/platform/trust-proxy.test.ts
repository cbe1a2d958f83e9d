/**
 * The client address behind a reverse proxy (docs/contract.md#client-address): with `--trust-proxy` naming the proxies
 * in front of the server, the client is the first X-Forwarded-For address from the right that is not
 * one of them. The leftmost entry, which the client writes, never chooses the rate-limit window or the
 * owner of anonymous saved locations; forwarded headers from a peer that is not a trusted proxy are
 * not read at all. Requests go over a real loopback socket, as a proxy on the same machine sends them.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessLogEntry } from '../../src/http/access-log.js';
import { startServer, type RunningServer } from '../../src/http/server.js';
import type { Store } from '../../src/store/db.js';
import { cli, tempDir } from '../helpers/cli.js';
import { AUTH, contextOn, seededStore } from '../http/helpers/harness.js';

let db: Store;
beforeAll(async () => {
  db = await seededStore();
});
afterAll(() => db.close());

/** The server behind a proxy on this machine (`--trust-proxy`, bare: loopback) or as the value names. */
async function behindProxy(trustProxy: string | number, log: AccessLogEntry[] = []): Promise<RunningServer> {
  return startServer({
    ctx: contextOn(db),
    auth: AUTH,
    host: '127.0.0.1',
    port: 0,
    cacheTtlMs: 0,
    trustProxy,
    accessLog: (e) => log.push(e),
  });
}

/** What the proxy forwards: the client's own X-Forwarded-For, with the address the proxy saw appended. */
const viaProxy = (clientSent: string | undefined, clientAddress: string) => ({
  'x-forwarded-for': clientSent ? `${clientSent}, ${clientAddress}` : clientAddress,
});

describe('a client behind a trusted proxy', () => {
  it('cannot escape the anonymous rate limit by forging the leftmost X-Forwarded-For entry', async () => {
    const server = await behindProxy('loopback');
    try {
      let i = 0;
      const replies = await Promise.all(
        Array.from({ length: 200 }, () =>
          fetch(`${server.url}/api/v1/events/live?limit=1`, {
            headers: viaProxy(`203.0.113.${i++ % 250}`, '192.0.2.10'),
          }),
        ),
      );
      await Promise.all(replies.map((r) => r.arrayBuffer()));
      expect(replies.filter((r) => r.status === 200).length).toBe(60);
      expect(replies.filter((r) => r.status === 429).length).toBe(140);
    } finally {
      await server.stop(1000);
    }
  });

  it("cannot read or delete another address's saved locations by sending that address", async () => {
    const server = await behindProxy('loopback');
    const victim = '192.0.2.10';
    const attacker = '192.0.2.66';
    const as = (clientAddress: string, clientSent?: string) => viaProxy(clientSent, clientAddress);
    try {
      const saved = await fetch(`${server.url}/api/v1/locations`, {
        method: 'POST',
        headers: { ...as(victim), 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Victim home', lat: 38.8, lng: -122.8 }),
      });
      expect(saved.status).toBe(201);
      const { id } = (await saved.json()) as { id: string };
      const list = await fetch(`${server.url}/api/v1/locations`, { headers: as(attacker, victim) });
      expect(((await list.json()) as { count: number }).count).toBe(0);
      const del = await fetch(`${server.url}/api/v1/locations/${id}`, {
        method: 'DELETE',
        headers: as(attacker, victim),
      });
      expect(del.status).toBe(404);
      await del.arrayBuffer();
      // The victim, through the proxy, still has it.
      const own = (await (await fetch(`${server.url}/api/v1/locations`, { headers: as(victim) })).json()) as {
        locations: { id: string }[];
      };
      expect(own.locations.map((l) => l.id)).toEqual([id]);
    } finally {
      await server.stop(1000);
    }
  });

  it('is named by its real address, behind one proxy (hop count) or a chain of listed proxies', async () => {
    const log: AccessLogEntry[] = [];
    const oneHop = await behindProxy(1, log);
    const chain = await behindProxy('127.0.0.1,10.0.0.0/8', log);
    try {
      await (await fetch(`${oneHop.url}/api/v1/health`, { headers: viaProxy('1.2.3.4', '192.0.2.10') })).arrayBuffer();
      // client -> 10.1.1.1 -> 10.2.2.2 -> the proxy on this machine: both inner proxies are listed.
      await (
        await fetch(`${chain.url}/api/v1/health`, {
          headers: { 'x-forwarded-for': '1.2.3.4, 198.51.100.23, 10.1.1.1, 10.2.2.2' },
        })
      ).arrayBuffer();
      // No X-Forwarded-For: the peer is the client.
      await (await fetch(`${chain.url}/api/v1/health`)).arrayBuffer();
      expect(log.map((e) => e.client_ip)).toEqual(['192.0.2.10', '198.51.100.23', '127.0.0.1']);
    } finally {
      await oneHop.stop(1000);
      await chain.stop(1000);
    }
  });
});

describe('a peer that is not a trusted proxy', () => {
  it('is the client, and its X-Forwarded-For and X-Forwarded-Host are not read', async () => {
    const log: AccessLogEntry[] = [];
    const server = await behindProxy('10.0.0.0/8', log); // the proxies are elsewhere; this request comes straight from loopback
    try {
      await (await fetch(`${server.url}/api/v1/health`, { headers: { 'x-forwarded-for': '10.9.9.9' } })).arrayBuffer();
      expect(log.map((e) => e.client_ip)).toEqual(['127.0.0.1']);
      const landing = (await (
        await fetch(`${server.url}/api/v1/`, {
          headers: { 'x-forwarded-host': 'evil.example.com', 'x-forwarded-proto': 'https' },
        })
      ).json()) as { links: { href: string }[] };
      expect(landing.links.every((l) => l.href.startsWith(server.url))).toBe(true);
    } finally {
      await server.stop(1000);
    }
  });

  it('behind a trusted proxy, links use the host the proxy wrote, not one the client added on the left', async () => {
    const server = await behindProxy('loopback');
    try {
      const landing = (await (
        await fetch(`${server.url}/api/v1/`, {
          headers: { 'x-forwarded-host': 'evil.example.com, gis.example.com', 'x-forwarded-proto': 'https' },
        })
      ).json()) as { links: { href: string }[] };
      expect(landing.links.length).toBeGreaterThan(0);
      expect(landing.links.every((l) => l.href.startsWith('https://gis.example.com/api/v1'))).toBe(true);
    } finally {
      await server.stop(1000);
    }
  });
});

describe('catintel serve --trust-proxy', () => {
  it.each([
    ['0', /a hop count is 1 to 32/],
    ['proxy.example.com', /"proxy\.example\.com" is not an IP address or CIDR block/],
    ['10.0.0.0/33', /"10\.0\.0\.0\/33" has a bad prefix length/],
    ['10.0.0.0/8,,::1', /"" is not an IP address/],
  ])('refuses %s with a usage error (exit 2) before opening the store', async (value, message) => {
    const db = path.join(tempDir(), 'store.duckdb');
    const r = await cli(['--db', db, 'serve', '--port', '0', '--trust-proxy', value]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(/give a hop count \(1\), or a comma list of proxy addresses and CIDR blocks/);
  });
});
