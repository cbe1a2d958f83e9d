/**
 * API keys (docs/contract.md#credentials, kind B): `catintel keys create|list|revoke`, and the same three as operator-only
 * endpoints under /api/v1/admin/keys. While `catintel serve` holds the store, the CLI commands are sent
 * to that server's admin endpoints (src/channel/remote.ts), so a revoke takes effect on the next request.
 */
import { newApiKey } from '../auth/api-keys.js';
import { PAID_TIERS, type PaidTier } from '../auth/jwt.js';
import { TOKEN_ACCOUNT_PREFIX, isTokenAccount } from '../auth/token-account.js';
import { CatintelError, type FieldProblem } from '../errors.js';
import { findApiKey, insertApiKey, listApiKeys, revokeApiKey, type ApiKeyRecord } from '../store/keys.js';
import { defineHandler, type Caller, type RawInput } from './types.js';

const KEY_ID_RE = /^key_[0-9A-Za-z]{16}$/;
const API = '/api/v1';

/**
 * Over HTTP (the caller has a client address) the fields come from the JSON body, checked as a whole
 * (422); on the CLI from the options (400, exit 2).
 */
function sourceOf(raw: RawInput, caller: Caller): { values: Record<string, unknown>; fromBody: boolean } {
  if (caller.clientIp === undefined) return { values: raw, fromBody: false };
  if (raw.body === undefined)
    throw new CatintelError(
      'invalid_request',
      'send a JSON body such as {"name": "acme nightly", "tier": "enterprise"}',
    );
  if (typeof raw.body !== 'object' || raw.body === null || Array.isArray(raw.body)) {
    throw new CatintelError('validation_failed', 'the body must be a JSON object', {
      errors: [{ field: 'body', message: 'a JSON object' }],
    });
  }
  return { values: raw.body as Record<string, unknown>, fromBody: true };
}

/** 1..max characters (code points, as the OpenAPI document counts them), no control characters. */
function text(v: unknown, max: number): v is string {
  // eslint-disable-next-line no-control-regex
  return typeof v === 'string' && [...v].length >= 1 && [...v].length <= max && !/[\u0000-\u001f\u007f]/.test(v);
}

function fail(fromBody: boolean, errors: FieldProblem[]): never {
  const message = errors.map((e) => `${e.field}: ${e.message}`).join('; ');
  throw new CatintelError(fromBody ? 'validation_failed' : 'invalid_parameter', message, { errors });
}

interface CreateInput {
  name: string;
  tier: PaidTier;
  sandbox: boolean;
  account: string;
}

function parseCreate(raw: RawInput, caller: Caller): CreateInput {
  const { values, fromBody } = sourceOf(raw, caller);
  const errors: FieldProblem[] = [];
  if (fromBody) {
    for (const k of Object.keys(values)) {
      if (!['name', 'tier', 'sandbox', 'account'].includes(k))
        errors.push({ field: k, message: 'unknown field; allowed: name, tier, sandbox, account' });
    }
  }
  const { name, tier, account } = values;
  const sandbox = values.sandbox === undefined ? false : values.sandbox; // null is not a boolean
  if (!text(name, 200))
    errors.push({ field: 'name', message: 'a name of 1 to 200 characters, e.g. "acme-prod-scoring"' });
  if (typeof tier !== 'string' || !(PAID_TIERS as readonly string[]).includes(tier))
    errors.push({ field: 'tier', message: `one of ${PAID_TIERS.join(', ')}` });
  if (typeof sandbox !== 'boolean') errors.push({ field: 'sandbox', message: 'true or false' });
  if (account !== undefined && !text(account, 320))
    errors.push({ field: 'account', message: 'an account name of 1 to 320 characters' });
  // A key acts for a local account: never a token's (src/auth/token-account.ts), whose data it must not reach.
  const keyAccount = (account as string | undefined) ?? caller.account;
  if (typeof keyAccount === 'string' && isTokenAccount(keyAccount)) {
    errors.push({
      field: 'account',
      message: `a local account name, not a JWT access token's ("${TOKEN_ACCOUNT_PREFIX}..."); name one with --account`,
    });
  }
  if (errors.length) fail(fromBody, errors);
  return { name: name as string, tier: tier as PaidTier, sandbox: sandbox as boolean, account: keyAccount };
}

export const keysCreate = defineHandler({
  name: 'keys.create',
  summary: 'Create an API key; the key is printed once and only its hash is stored',
  writes: true,
  keepsEvents: true,
  http: { method: 'POST', path: '/admin/keys', access: 'enterprise', admin: true },
  cli: {
    command: ['keys', 'create'],
    options: [
      { flags: '--tier <tier>', description: `the key's tier: ${PAID_TIERS.join(', ')}` },
      { flags: '--name <name>', description: 'what the key is for, shown by `keys list`' },
      { flags: '--sandbox', description: 'a sandbox key (ci_test_...) instead of a production key (ci_live_...)' },
    ],
    examples: [
      'catintel keys create --tier enterprise --name "acme nightly scoring"',
      'catintel keys create --tier agency --name ci --sandbox --json',
    ],
  },
  parse: parseCreate,
  async run(ctx, input) {
    const k = newApiKey(input.sandbox);
    const record: Omit<ApiKeyRecord, 'revoked_at'> = {
      id: k.id,
      name: input.name,
      tier: input.tier,
      account: input.account,
      sandbox: input.sandbox,
      prefix: k.prefix,
      created_at: ctx
        .clock()
        .toISOString()
        .replace(/\.\d{3}Z$/, 'Z'),
    };
    await insertApiKey(ctx.db, record, k.hash);
    return {
      status: 201,
      headers: { location: `${API}/admin/keys/${k.id}` },
      body: {
        ...record,
        revoked_at: null,
        key: k.key,
        note: 'Store this key now: it is not shown again. Send it as `Authorization: Bearer <key>`.',
      },
    };
  },
});

export const keysList = defineHandler({
  name: 'keys.list',
  summary: 'List API keys (never the keys themselves): id, name, tier, prefix, created, revoked',
  http: { method: 'GET', path: '/admin/keys', access: 'enterprise', admin: true },
  cli: {
    command: ['keys', 'list'],
    options: [{ flags: '--include-revoked', description: 'also list revoked keys' }],
    examples: ['catintel keys list', 'catintel keys list --include-revoked --json'],
  },
  parse(raw) {
    const v = raw.include_revoked;
    if (v === undefined || v === true || v === 'true') return { includeRevoked: v !== undefined };
    if (v === 'false') return { includeRevoked: false };
    throw new CatintelError('invalid_parameter', `include_revoked: "${String(v)}" is not true or false`, {
      errors: [{ field: 'include_revoked', message: 'true or false' }],
    });
  },
  async run(ctx, input) {
    return { body: { keys: await listApiKeys(ctx.db, input) } };
  },
});

export const keysRevoke = defineHandler({
  name: 'keys.revoke',
  summary: 'Revoke an API key; it stops working on the next request, also in a running server',
  writes: true,
  keepsEvents: true,
  http: { method: 'POST', path: '/admin/keys/{id}/revoke', access: 'enterprise', admin: true },
  cli: { command: ['keys', 'revoke'], args: ['id'], examples: ['catintel keys revoke key_3fA9xQ2LmP0sTu7W'] },
  parse(raw) {
    const id = raw.id;
    if (typeof id !== 'string' || !KEY_ID_RE.test(id)) {
      throw new CatintelError(
        'invalid_parameter',
        `id: "${String(id).slice(0, 40)}" is not a key id such as key_3fA9xQ2LmP0sTu7W (see \`catintel keys list\`)`,
        {
          errors: [{ field: 'id', message: 'key_ followed by 16 letters or digits' }],
        },
      );
    }
    return { id };
  },
  async run(ctx, { id }) {
    const before = await findApiKey(ctx.db, id);
    if (!before)
      throw new CatintelError('not_found', `no API key ${id}; list them with \`catintel keys list --include-revoked\``);
    const after = await revokeApiKey(ctx.db, id, ctx.clock().toISOString());
    return { body: after ?? before };
  },
});
