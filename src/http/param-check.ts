/**
 * Query and path parameters are checked against the OpenAPI document before a handler runs: the
 * document is the contract, so a value it does not allow is a 400 invalid_parameter naming the
 * parameter, even where a handler's own parser would be more lenient (the CLI keeps those parsers).
 * Handlers still apply the rules a schema cannot say (minLat <= maxLat, cursors this server issued).
 */
import { CatintelError, type FieldProblem } from '../errors.js';
import type { RawInput } from '../handlers/types.js';
import { newAjv, resolveRef, toJsonSchema, type ValidateFunction } from './oas-schema.js';
import type { Route } from './routes.js';

type Json = Record<string, unknown>;
interface Parameter { name: string; in: string; required?: boolean; schema?: unknown; description?: string; $ref?: string }

export type ParamCheck = (query: RawInput, path: Record<string, string>) => void;

export function paramChecks(doc: Json, routes: Route[]): Map<Route, ParamCheck> {
  const ajv = newAjv({ coerceTypes: true, allErrors: true });
  const checks = new Map<Route, ParamCheck>();
  const paths = (doc.paths ?? {}) as Record<string, Json>;
  for (const route of routes) {
    const item = paths[route.path];
    const op = item?.[route.method.toLowerCase()] as Json | undefined;
    if (!item || !op || route.fullPath === '/healthz') continue;
    const params = new Map<string, Parameter>();
    for (const p of [...((item.parameters ?? []) as Parameter[]), ...((op.parameters ?? []) as Parameter[])]) {
      const resolved = p.$ref ? resolveRef<Parameter>(doc, p.$ref) : p;
      params.set(`${resolved.in}:${resolved.name}`, resolved);
    }
    const query = compile(ajv, doc, [...params.values()].filter((p) => p.in === 'query'));
    const path = compile(ajv, doc, [...params.values()].filter((p) => p.in === 'path'));
    const described = new Map([...params.values()].map((p) => [p.name, p.description]));
    checks.set(route, (q, p) => {
      const problems = [...run(query, { ...q }, described), ...run(path, { ...p }, described)];
      if (problems.length) {
        throw new CatintelError('invalid_parameter', problems.map((e) => `${e.field}: ${e.message}`).join('; '), { errors: problems });
      }
    });
  }
  return checks;
}

function compile(ajv: ReturnType<typeof newAjv>, doc: Json, params: Parameter[]): ValidateFunction | null {
  if (params.length === 0) return null;
  return ajv.compile({
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [p.name, toJsonSchema(p.schema ?? {}, doc)])),
    required: params.filter((p) => p.required).map((p) => p.name),
  });
}

function run(validate: ValidateFunction | null, values: Json, described: Map<string, string | undefined>): FieldProblem[] {
  if (!validate || validate(values)) return [];
  return (validate.errors ?? []).map((e) => {
    const field = e.instancePath ? e.instancePath.slice(1).split('/')[0] : String((e.params as { missingProperty?: string }).missingProperty ?? '');
    const message = e.keyword === 'required' ? 'is required'
      : e.keyword === 'pattern' ? `"${String(values[field]).slice(0, 60)}" is not valid${described.get(field) ? ` (${described.get(field)})` : ''}`
      : e.keyword === 'type' && Array.isArray(values[field]) ? 'give it once'
      : e.message ?? 'is not valid';
    return { field, message };
  });
}
