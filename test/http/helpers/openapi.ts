/**
 * Validates a Response against openapi.yaml, as the contract tests do for every response they receive:
 * the operation must document the status, the required headers must be there and match their schemas,
 * and the body must be of a documented media type and match its schema (Ajv, via the same OpenAPI ->
 * JSON Schema reading the server uses). Responses of no operation (unknown path, 405, injected test
 * handlers) must still be problem+json with the platform headers.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { newAjv, resolveRef, toJsonSchema } from '../../../src/http/oas-schema.js';
import { REPO_ROOT } from '../../helpers/paths.js';

type Json = Record<string, any>;

export const OPENAPI: Json = parse(readFileSync(path.join(REPO_ROOT, 'openapi.yaml'), 'utf8'));
const ajv = newAjv();
const compiled = new Map<unknown, ReturnType<typeof ajv.compile>>();

function validatorFor(schema: unknown) {
  let v = compiled.get(schema);
  if (!v) compiled.set(schema, (v = ajv.compile(toJsonSchema(schema, OPENAPI) as object)));
  return v;
}

const deref = (x: any): any => (x && typeof x.$ref === 'string' ? deref(resolveRef(OPENAPI, x.$ref)) : x);

/** The operation a request reached: '/api/v1/events/abc/rings' -> paths['/events/{id}/rings'].get. */
export function operationOf(method: string, pathname: string): { template: string; op: Json } | undefined {
  if (!pathname.startsWith('/api/v1/') && pathname !== '/api/v1') return undefined;
  // '/api/v1' and '/api/v1/' are the landing page, documented as '/'.
  const rel = pathname.slice('/api/v1'.length).replace(/\/$/, '') || '/';
  const m = method === 'HEAD' ? 'get' : method.toLowerCase();
  const candidates = Object.keys(OPENAPI.paths).filter((t) => {
    const re = new RegExp(`^${t.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}|\{\w+\}/g, '[^/]+')}$`);
    return re.test(rel) && OPENAPI.paths[t][m];
  });
  // Static segments win, as in the server's route table.
  candidates.sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0));
  const template = candidates[0];
  return template ? { template, op: OPENAPI.paths[template][m] } : undefined;
}

const PLATFORM_HEADERS = ['x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

/** Problems with the response, [] when it conforms. Reads a clone, so the caller can still read the body. */
export async function responseProblems(
  method: string,
  url: string,
  res: Response,
  opts: { rateLimited?: boolean } = {},
): Promise<string[]> {
  const problems: string[] = [];
  const pathname = new URL(url, 'http://x').pathname;
  const found = operationOf(method, pathname);
  const hasBody = method !== 'HEAD' && res.status !== 204 && res.status !== 304;
  const text = hasBody ? await res.clone().text() : '';
  const mediaType = (res.headers.get('content-type') ?? '').split(';')[0].trim();

  if (!found) {
    for (const h of PLATFORM_HEADERS)
      if (opts.rateLimited !== false && !res.headers.has(h)) problems.push(`missing header ${h}`);
    if (res.status >= 400 && hasBody) {
      if (mediaType !== 'application/problem+json')
        problems.push(`status ${res.status} without problem+json (${mediaType})`);
      else problems.push(...schemaProblems(OPENAPI.components.schemas.Problem, JSON.parse(text), 'body'));
    }
    return problems;
  }
  const response = deref(found.op.responses[String(res.status)] ?? found.op.responses.default);
  if (!response) return [`${method} ${found.template}: status ${res.status} is not documented`];
  for (const [name, header] of Object.entries<any>(response.headers ?? {})) {
    const h = deref(header);
    const value = res.headers.get(name);
    if (value === null) {
      if (h.required && !(opts.rateLimited === false && name.toLowerCase().startsWith('x-ratelimit')))
        problems.push(`missing required header ${name}`);
      continue;
    }
    const schema = deref(h.schema ?? {});
    const typed = schema.type === 'integer' || schema.type === 'number' ? Number(value) : value;
    problems.push(...schemaProblems(schema, typed, `header ${name}`));
  }
  if (hasBody && text.length > 0) {
    const content = response.content ?? {};
    if (!content[mediaType]) problems.push(`media type ${mediaType} is not documented for ${res.status}`);
    else if (/json/.test(mediaType))
      problems.push(...schemaProblems(content[mediaType].schema ?? {}, JSON.parse(text), 'body'));
  }
  return problems.map((p) => `${method} ${found.template} ${res.status}: ${p}`);
}

function schemaProblems(schema: unknown, value: unknown, where: string): string[] {
  const v = validatorFor(schema);
  if (v(value)) return [];
  return (v.errors ?? []).slice(0, 5).map((e) => `${where}${e.instancePath} ${e.message}`);
}
