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
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: unknown;
  description?: string;
  $ref?: string;
}

export type ParamCheck = (query: RawInput, path: Record<string, string>) => void;

/**
 * Compiled once per document and route for the life of the process: compiling every route's schemas
 * takes about half a second, and a process may build many apps on the one document (a test file does).
 */
const compiled = new WeakMap<Json, { ajv: ReturnType<typeof newAjv>; byRoute: Map<string, ParamCheck | null> }>();

export function paramChecks(doc: Json, routes: Route[]): Map<Route, ParamCheck> {
  let memo = compiled.get(doc);
  if (!memo) compiled.set(doc, (memo = { ajv: newAjv({ coerceTypes: true, allErrors: true }), byRoute: new Map() }));
  const checks = new Map<Route, ParamCheck>();
  for (const route of routes) {
    const key = `${route.method} ${route.fullPath}`;
    if (!memo.byRoute.has(key)) memo.byRoute.set(key, compileRoute(memo.ajv, doc, route));
    const check = memo.byRoute.get(key);
    if (check) checks.set(route, check);
  }
  return checks;
}

/** The check of one route, or null when the document says nothing of it. */
function compileRoute(ajv: ReturnType<typeof newAjv>, doc: Json, route: Route): ParamCheck | null {
  const item = ((doc.paths ?? {}) as Record<string, Json>)[route.path];
  const op = item?.[route.method.toLowerCase()] as Json | undefined;
  if (!item || !op || route.fullPath === '/healthz') return null;
  const params = new Map<string, Parameter>();
  for (const p of [...((item.parameters ?? []) as Parameter[]), ...((op.parameters ?? []) as Parameter[])]) {
    const resolved = p.$ref ? resolveRef<Parameter>(doc, p.$ref) : p;
    params.set(`${resolved.in}:${resolved.name}`, resolved);
  }
  const queryParams = [...params.values()].filter((p) => p.in === 'query');
  const query = compile(ajv, doc, queryParams);
  const path = compile(
    ajv,
    doc,
    [...params.values()].filter((p) => p.in === 'path'),
  );
  const info = new Map([...params.values()].map((p) => [p.name, describe(p, doc)]));
  // Comma lists (style form, explode false): validated item by item, so a bad item is named.
  const lists = queryParams.filter((p) => info.get(p.name)!.isList).map((p) => p.name);
  return (q, p) => {
    const values: Json = { ...q };
    const problems: FieldProblem[] = [];
    for (const name of lists) {
      const v = values[name];
      if (Array.isArray(v)) problems.push({ field: name, message: 'give it once (a comma list)' });
      if (typeof v === 'string') values[name] = v.split(',');
    }
    problems.push(...run(query, values, info), ...run(path, { ...p }, info));
    if (problems.length) {
      throw new CatintelError('invalid_parameter', problems.map((e) => `${e.field}: ${e.message}`).join('; '), {
        errors: problems,
      });
    }
  };
}

interface ParamInfo {
  description?: string;
  isList: boolean;
  /** The values an enumerated parameter (or each item of a list) may take, as a user would type them. */
  allowed?: string[];
}

function describe(p: Parameter, doc: Json): ParamInfo {
  const schema = toJsonSchema(p.schema ?? {}, doc) as Json;
  const isList = schema.type === 'array';
  const values = (isList ? (schema.items as Json | undefined) : schema) ?? {};
  const allowed = Array.isArray(values.enum)
    ? values.enum.map(String)
    : values.type === 'boolean'
      ? ['true', 'false']
      : undefined;
  return { description: p.description, isList, allowed };
}

function compile(ajv: ReturnType<typeof newAjv>, doc: Json, params: Parameter[]): ValidateFunction | null {
  if (params.length === 0) return null;
  return ajv.compile({
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [p.name, toJsonSchema(p.schema ?? {}, doc)])),
    required: params.filter((p) => p.required).map((p) => p.name),
  });
}

/** One problem per bad value: an enumerated parameter says which values it takes, as the CLI does. */
function run(validate: ValidateFunction | null, values: Json, info: Map<string, ParamInfo>): FieldProblem[] {
  if (!validate || validate(values)) return [];
  const out = new Map<string, FieldProblem>();
  for (const e of validate.errors ?? []) {
    const [field, index] = e.instancePath
      ? e.instancePath.slice(1).split('/')
      : [String((e.params as { missingProperty?: string }).missingProperty ?? '')];
    const given = values[field];
    const value = index !== undefined && Array.isArray(given) ? given[Number(index)] : given;
    const shown = `"${String(value).slice(0, 60)}"`;
    const { description, allowed, isList } = info.get(field) ?? { isList: false };
    const message =
      e.keyword === 'required'
        ? 'is required'
        : Array.isArray(given) && !isList
          ? 'give it once'
          : allowed && index === undefined && e.keyword === 'minItems'
            ? `give at least one of ${allowed.join(', ')}`
            : allowed
              ? `${shown} is not one of ${allowed.join(', ')}`
              : e.keyword === 'pattern'
                ? `${shown} is not valid${description ? ` (${description})` : ''}`
                : (e.message ?? 'is not valid');
    const key = `${field}|${message}`;
    if (!out.has(key)) out.set(key, { field, message });
  }
  return [...out.values()];
}
