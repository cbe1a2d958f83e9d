/**
 * Request bodies of planned endpoints, checked against the OpenAPI document. A planned endpoint has no
 * handler to check its body, and a client building against it should learn now that its body is
 * wrong, not when the endpoint ships: no body where one is required is 400, a body that breaks the
 * schema is 422 with each bad field, and only a valid body gets the 501.
 */
import { CatintelError, type FieldProblem } from '../errors.js';
import { newAjv, toJsonSchema, type ValidateFunction } from './oas-schema.js';
import { API_PREFIX, type Route } from './routes.js';

type Json = Record<string, unknown>;

export type BodyCheck = (body: unknown, mediaType: string) => void;

/** Compiled once per document and route for the life of the process, as the parameter checks are. */
const compiled = new WeakMap<Json, { ajv: ReturnType<typeof newAjv>; byRoute: Map<string, BodyCheck | null> }>();

export function bodyChecks(doc: Json, routes: Route[]): Map<Route, BodyCheck> {
  let memo = compiled.get(doc);
  // verbose: an unknown field's message lists the known ones
  if (!memo) compiled.set(doc, (memo = { ajv: newAjv({ allErrors: true, verbose: true }), byRoute: new Map() }));
  const checks = new Map<Route, BodyCheck>();
  for (const route of routes) {
    if (!route.planned || route.method !== 'POST') continue;
    const key = `${route.method} ${route.fullPath}`;
    if (!memo.byRoute.has(key)) memo.byRoute.set(key, compileRoute(memo.ajv, doc, route));
    const check = memo.byRoute.get(key);
    if (check) checks.set(route, check);
  }
  return checks;
}

/** The body check of one planned POST route, or null when the document gives it no body. */
function compileRoute(ajv: ReturnType<typeof newAjv>, doc: Json, route: Route): BodyCheck | null {
  const op = ((doc.paths ?? {}) as Record<string, Json>)[route.path]?.post as Json | undefined;
  const requestBody = op?.requestBody as
    { required?: boolean; content?: Record<string, { schema?: unknown }> } | undefined;
  if (!requestBody?.content) return null;
  const json = requestBody.content['application/json']?.schema;
  const validate = json ? ajv.compile(toJsonSchema(json, doc) as object) : null;
  return (body, mediaType) => {
    if (body === undefined) {
      const types = Object.keys(requestBody.content!).join(' or ');
      if (requestBody.required)
        throw new CatintelError(
          'invalid_request',
          `${route.method} ${route.fullPath} needs a ${types} body; its schema is in ${API_PREFIX}/openapi.json`,
        );
      return;
    }
    const problems =
      mediaType === 'text/csv' ? csvProblems(String(body)) : validate ? jsonProblems(validate, body) : [];
    if (problems.length) {
      throw new CatintelError('validation_failed', problems.map((e) => `${e.field}: ${e.message}`).join('; '), {
        errors: problems,
      });
    }
  };
}

function jsonProblems(validate: ValidateFunction, body: unknown): FieldProblem[] {
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => {
    const p = e.params as { missingProperty?: string; additionalProperty?: string; allowedValues?: unknown[] };
    const at = fieldOf(e.instancePath);
    if (e.keyword === 'required') return { field: join(at, p.missingProperty!), message: 'is required' };
    if (e.keyword === 'additionalProperty' || e.keyword === 'additionalProperties') {
      const allowed = Object.keys((e.parentSchema as { properties?: Json } | undefined)?.properties ?? {});
      return { field: join(at, p.additionalProperty!), message: `unknown field; allowed: ${allowed.join(', ')}` };
    }
    if (e.keyword === 'enum')
      return { field: at || 'body', message: `must be one of ${(p.allowedValues ?? []).join(', ')}` };
    if (e.keyword === 'type' && at === '')
      return { field: 'body', message: `${e.message} (a JSON ${String((e.params as { type?: string }).type)})` };
    return { field: at || 'body', message: e.message ?? 'is not valid' };
  });
}

/** '/locations/3/Latitude' -> 'locations[3].Latitude'. */
function fieldOf(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, s) => (/^\d+$/.test(s) ? `${acc}[${s}]` : join(acc, s)), '');
}

const join = (a: string, b: string) => (a ? `${a}.${b}` : b);

/** An OED location file must at least say where its locations are; rows are the importer's to check. */
function csvProblems(text: string): FieldProblem[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const header = (lines[0] ?? '')
    .replace(/^\uFEFF/, '')
    .split(',')
    .map((h) => h.trim().replace(/^"|"$/g, '').toLowerCase());
  const problems: FieldProblem[] = [];
  for (const col of ['Latitude', 'Longitude']) {
    if (!header.includes(col.toLowerCase()))
      problems.push({ field: col, message: `the header row has no ${col} column (OED location file)` });
  }
  if (lines.length < 2) problems.push({ field: 'body', message: 'no location rows after the header' });
  return problems;
}
