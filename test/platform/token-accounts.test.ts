/**
 * JWT access tokens and local accounts never share a name (docs/contract.md#credentials): a token acts for
 * `jwt:<iss>|<sub>`, so an identity provider's subject cannot name the CLI operator's account (`local`)
 * or an API key's (`acctA`), and no local name (`--account`, a key's account) can be spelled as a
 * token's. The CLI with CATINTEL_TOKEN acts for the account the server derives from the same token.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newApiKey } from '../../src/auth/api-keys.js';
import { createApp } from '../../src/http/app.js';
import { Store } from '../../src/store/db.js';
import { insertApiKey } from '../../src/store/keys.js';
import { cli, tempDir } from '../helpers/cli.js';
import { FORT_MYERS_TRIGGER } from '../helpers/fort-myers-trigger.js';
import { AUTH, SECRET, call, contextOn, platform, seededStore, token, type Platform } from '../http/helpers/harness.js';

const BOOK = {
  name: 'operator book',
  locations: [{ LocNumber: '1', Latitude: 28.54, Longitude: -81.38, BuildingTIV: 1_000_000 }],
};

let db: Store;
let p: Platform;
beforeAll(async () => {
  db = await seededStore();
  p = await platform(db, { rateLimit: 'off' });
});
afterAll(() => db.close());

async function keyFor(account: string): Promise<string> {
  const k = newApiKey(false);
  await insertApiKey(
    db,
    {
      id: k.id,
      name: `${account} key`,
      tier: 'enterprise',
      account,
      sandbox: false,
      prefix: k.prefix,
      created_at: '2022-09-29T03:32:09Z',
    },
    k.hash,
  );
  return k.key;
}

describe("a token's subject never names a local account", () => {
  it("sub=local does not see the operator's portfolios", async () => {
    // The operator's admin token acts for the local account, as the CLI does.
    const made = await p.call('/api/v1/portfolio', { token: p.adminToken, body: BOOK });
    expect(made.status).toBe(201);
    expect(
      (await p.call('/api/v1/portfolio', { token: p.adminToken })).body.portfolios.map((b: any) => b.name),
    ).toContain('operator book');
    const local = await token('enterprise', { sub: 'local' });
    const theirs = await p.call('/api/v1/portfolio', { token: local });
    expect(theirs.status).toBe(200);
    expect(theirs.body).toMatchObject({ account: 'jwt:catintel|local', numberMatched: 0, portfolios: [] });
    expect((await p.call(`/api/v1/portfolio/${made.body.id}`, { token: local })).status).toBe(404);
  });

  it("sub=acctA does not see the triggers acctA's API key made", async () => {
    const key = await keyFor('acctA');
    const t = await p.call('/api/v1/triggers', { token: key, body: FORT_MYERS_TRIGGER });
    expect(t.status).toBe(201);
    const acctA = await token('enterprise', { sub: 'acctA' });
    const list = await p.call('/api/v1/triggers', { token: acctA });
    expect(list.body).toMatchObject({ account: 'jwt:catintel|acctA', count: 0 });
    expect((await p.call(`/api/v1/triggers/${t.body.id}/history`, { token: acctA })).status).toBe(404);
    expect((await p.call(`/api/v1/triggers/${t.body.id}`, { token: acctA, method: 'DELETE' })).status).toBe(404);
    expect((await p.call('/api/v1/triggers', { token: key })).body).toMatchObject({ account: 'acctA', count: 1 });
  });

  it('the same subject sees its own data with every token it is issued', async () => {
    const first = await token('enterprise', { sub: 'carol@example.com' });
    const made = await p.call('/api/v1/triggers', { token: first, body: FORT_MYERS_TRIGGER });
    expect(made.status).toBe(201);
    const again = await token('enterprise', { sub: 'carol@example.com', ttlSeconds: 1800 });
    expect(again).not.toBe(first);
    const list = await p.call('/api/v1/triggers', { token: again });
    expect(list.body.account).toBe('jwt:catintel|carol@example.com');
    expect(list.body.triggers.map((x: any) => x.id)).toEqual([made.body.id]);
  });

  it('no API key can be created for a token account', async () => {
    const r = await p.call('/api/v1/admin/keys', {
      token: p.adminToken,
      body: { name: 'sneaky', tier: 'enterprise', account: 'jwt:catintel|carol@example.com' },
    });
    expect([r.status, r.body.code]).toEqual([422, 'validation_failed']);
    expect(r.body.errors).toEqual([
      { field: 'account', message: expect.stringMatching(/a local account name, not a JWT access token's/) },
    ]);
  });
});

describe('the CLI', () => {
  it('refuses a local account spelled as a token account, by --account or CATINTEL_ACCOUNT', async () => {
    const db = path.join(tempDir(), 'store.duckdb');
    const byFlag = await cli(['--db', db, '--account', 'jwt:catintel|carol@example.com', 'trigger', 'list']);
    expect(byFlag.code).toBe(2);
    expect(byFlag.stderr).toMatch(
      /^catintel: --account "jwt:catintel\|carol@example\.com": names starting with "jwt:" are the accounts of JWT access tokens/,
    );
    const byEnv = await cli(['--db', db, 'trigger', 'list'], { CATINTEL_ACCOUNT: 'JWT:catintel|carol@example.com' });
    expect(byEnv.code).toBe(2);
    expect(byEnv.stderr).toMatch(/CATINTEL_ACCOUNT "JWT:catintel\|carol@example\.com"/);
  });

  it('with CATINTEL_TOKEN acts for the account the server derives from that token', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'store.duckdb');
    const carol = await token('analyst', { sub: 'carol@example.com' });
    const env = { CATINTEL_TOKEN: carol, CATINTEL_JWT_SECRET: SECRET };
    const made = await cli(
      [
        '--db',
        file,
        '--json',
        'trigger',
        'create',
        '--name',
        'SF M6.5',
        '--peril',
        'earthquake',
        '--lat',
        '37.77',
        '--lng',
        '-122.42',
        '--radius-km',
        '50',
        '--threshold-type',
        'magnitude',
        '--threshold-value',
        '6.5',
      ],
      env,
    );
    expect(made.code).toBe(0);
    const mine = (await cli(['--db', file, '--json', 'trigger', 'list'], env)).json();
    expect(mine).toMatchObject({ account: 'jwt:catintel|carol@example.com', count: 1 });
    // The bare subject is a local account like any other, and not hers.
    expect(
      (await cli(['--db', file, '--json', '--account', 'carol@example.com', 'trigger', 'list'])).json().count,
    ).toBe(0);
    // A token that does not verify is refused for a command that acts on its account.
    const forged = await cli(['--db', file, 'trigger', 'list'], { ...env, CATINTEL_JWT_SECRET: 'x'.repeat(48) });
    expect(forged.code).toBe(2);
    expect(forged.stderr).toMatch(/^catintel: CATINTEL_TOKEN: the token signature is invalid \[unauthorized\]/);

    // The server on the same store, with the same token: the same trigger.
    const store = await Store.open(file);
    try {
      const app = createApp({ ctx: contextOn(store), auth: AUTH, rateLimit: 'off' });
      const list = await call(app, '/api/v1/triggers', { token: carol }, false);
      expect(list.body.account).toBe('jwt:catintel|carol@example.com');
      expect(list.body.triggers.map((t: any) => t.id)).toEqual([made.json().id]);
    } finally {
      await store.close();
    }
  });
});
