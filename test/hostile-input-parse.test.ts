/**
 * Hostile input at every handler's parse step (issue 9 part 6), the one both adapters share: whatever raw
 * object the CLI (options, args) or HTTP (query, path, body) hands over, parse() returns an input or throws a
 * CatintelError the user is told about (HTTP 4xx, CLI exit 2), never a TypeError (a 500 / exit 1), a crash or
 * a hang. Seeded and bounded. The CLI end is run for real too: every command with hostile option values exits
 * 0, 1 (a runtime answer such as "no such event") or 2, with one clear line on stderr, never a stack trace.
 */
import fc from 'fast-check';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CatintelError, exitCodeOf } from '../src/errors.js';
import { HANDLERS } from '../src/handlers/registry.js';
import type { Caller, Handler, RawInput } from '../src/handlers/types.js';
import { cli, tempDir } from './helpers/cli.js';
import { OPENAPI } from './http/helpers/openapi.js';
import { hostileJsonValue, hostileString, SEED } from './helpers/hostile.js';

/** Every raw key a handler can receive: CLI options and args, HTTP query and path parameters, `body`. */
function keysOf(h: Handler): string[] {
  const keys = new Set<string>();
  for (const o of h.cli?.options ?? []) {
    const long = /--([a-z0-9-]+)/.exec(o.flags)?.[1];
    if (long) keys.add(long.replace(/-/g, '_'));
  }
  for (const a of h.cli?.args ?? []) keys.add(a.replace(/\.\.\.$/, ''));
  if (h.http) {
    const item = OPENAPI.paths[h.http.path] ?? {};
    const op = item[h.http.method.toLowerCase()] ?? {};
    for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])]) {
      const param = p.$ref
        ? p.$ref
            .replace(/^#\//, '')
            .split('/')
            .reduce((o: any, k: string) => o?.[k], OPENAPI)
        : p;
      if (param?.in === 'query' || param?.in === 'path') keys.add(param.name);
    }
    for (const m of h.http.path.matchAll(/\{(\w+)\}/g)) keys.add(m[1]);
    if (h.http.method !== 'GET') keys.add('body');
  }
  return [...keys];
}

/** The fields the document gives a JSON body, so hostile values land in the fields parse() reads. */
function bodyFieldsOf(h: Handler): string[] {
  if (!h.http || h.http.method === 'GET') return [];
  const schema =
    OPENAPI.paths[h.http.path]?.[h.http.method.toLowerCase()]?.requestBody?.content?.['application/json']?.schema;
  const s = schema?.$ref
    ? schema.$ref
        .replace(/^#\//, '')
        .split('/')
        .reduce((o: any, k: string) => o?.[k], OPENAPI)
    : schema;
  return Object.keys(s?.properties ?? {});
}

const CALLERS: Caller[] = [
  { tier: 'free', account: 'ip:127.0.0.1', clientIp: '127.0.0.1' },
  { tier: 'enterprise', account: 'local' },
];

/**
 * A raw value as an adapter can hand it over: a string (CLI option, query value, path segment), several (a
 * repeated query key), a CLI flag's true/false. A body is whatever JSON.parse made of the request.
 */
const rawValue = fc.oneof(
  { weight: 6, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.array(hostileString, { minLength: 2, maxLength: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(true, false, undefined) },
);
const jsonBody = hostileJsonValue.map((v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v) ?? 'null')));

function checkParse(h: Handler, raw: RawInput, caller: Caller): void {
  try {
    h.parse(raw, caller);
  } catch (err) {
    if (!(err instanceof CatintelError)) {
      throw new Error(
        `${h.name}.parse threw ${(err as Error)?.name}: ${(err as Error)?.message} for ${JSON.stringify(raw)?.slice(0, 400)}`,
        { cause: err },
      );
    }
    expect(err.status, `${h.name}: ${err.code} ${err.message}`).toBeGreaterThanOrEqual(400);
    expect(err.status, `${h.name}: ${err.code} ${err.message}`).toBeLessThan(500);
    expect(exitCodeOf[err.code], `${h.name}: ${err.code}`).toBe(2);
    expect(err.message.length).toBeGreaterThan(0);
  }
}

describe('hostile input at every parse step', () => {
  const handlers = HANDLERS.filter((h) => keysOf(h).length > 0);

  it.each(handlers.map((h) => [h.name, h] as const))('%s: parse() accepts or refuses with a 4xx / exit 2', (_, h) => {
    const keys = keysOf(h);
    const fields = bodyFieldsOf(h);
    const body = fc.oneof(
      jsonBody,
      fc.dictionary(fc.constantFrom(...(fields.length ? fields : ['name'])), jsonBody, { maxKeys: 8 }),
    );
    const named = keys.filter((k) => k !== 'body');
    const params = named.length
      ? fc.dictionary(fc.constantFrom(...named), rawValue, { maxKeys: named.length })
      : fc.constant({});
    const raw = fc.tuple(params, body).map(([o, b]) => (keys.includes('body') ? { ...o, body: b } : o));
    fc.assert(
      fc.property(raw, fc.constantFrom(...CALLERS), (r, caller) => checkParse(h, r as RawInput, caller)),
      { seed: SEED, numRuns: 300 },
    );
  });
});

describe('hostile option values through the real CLI', () => {
  const commands = HANDLERS.filter(
    (h) => h.cli && !h.writes && !h.storeless && (h.cli.options?.length || h.cli.args?.length),
  );

  it('an error that quotes a value with a newline or a terminal escape stays one line', async () => {
    const r = await cli([
      '--db',
      path.join(tempDir(), 'x.duckdb'),
      'events',
      'live',
      '--event-type',
      'quake\r\n\u001b[31mred',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'catintel: event_type: "quake\\r\\n\\u001b[31mred" is not one of earthquake, hurricane, wildfire, flood, tornado, severe_storm, winter_storm, extreme_heat, tsunami, volcano [invalid_parameter]\n',
    );
  });

  it('every read command exits 0, 1 or 2 with one clear line, never a crash', async () => {
    const db = path.join(tempDir('catintel-hostile-'), 'store.duckdb');
    const arb = fc.record({
      h: fc.constantFrom(...commands),
      value: hostileString.filter((s) => !s.startsWith('-') && s.length < 5000),
      which: fc.nat(),
    });
    await fc.assert(
      fc.asyncProperty(arb, async ({ h, value, which }) => {
        const c = h.cli!;
        const options = c.options ?? [];
        const argv = ['--db', db, ...c.command, ...(c.args ?? []).map(() => value)];
        if (options.length) argv.push(/--[a-z0-9-]+/.exec(options[which % options.length].flags)![0], value);
        const r = await cli(argv);
        expect([0, 1, 2], `${argv.join(' ').slice(0, 300)}: ${r.stderr}`).toContain(r.code);
        if (r.code !== 0) {
          expect(r.stderr, argv.join(' ').slice(0, 300)).toMatch(/^catintel: .+\[[a-z_]+\]\n$/);
          expect(r.stderr).not.toMatch(/internal_error| {4}at /);
        }
      }),
      { seed: SEED, numRuns: 120 },
    );
  });
});
