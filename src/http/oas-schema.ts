/**
 * OpenAPI 3.0 schema objects -> JSON Schema for Ajv: `$ref`s inlined, `nullable` becomes a null type,
 * boolean exclusiveMinimum/Maximum (3.0 / draft 4) become numeric bounds, annotations Ajv does not know
 * are dropped. Used by the server's parameter checks and by the tests' response validator, so both
 * read the document the same way.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import formatsPlugin from 'ajv-formats';

type Json = Record<string, unknown>;
const DROP = new Set(['example', 'examples', 'xml', 'externalDocs', 'discriminator', 'deprecated']);

export function resolveRef<T = Json>(doc: Json, ref: string): T {
  if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported: ${ref}`);
  let node: unknown = doc;
  for (const part of ref.slice(2).split('/')) node = (node as Json)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  if (node === undefined) throw new Error(`unresolved $ref ${ref}`);
  return node as T;
}

export function toJsonSchema(schema: unknown, doc: Json, seen: string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((s) => toJsonSchema(s, doc, seen));
  if (typeof schema !== 'object' || schema === null) return schema;
  const s = schema as Json;
  if (typeof s.$ref === 'string') {
    if (seen.includes(s.$ref)) throw new Error(`recursive $ref ${s.$ref} is not supported`);
    return toJsonSchema(resolveRef(doc, s.$ref), doc, [...seen, s.$ref]);
  }
  const out: Json = {};
  for (const [k, v] of Object.entries(s)) {
    if (DROP.has(k) || k.startsWith('x-')) continue;
    if (k === 'properties' || k === 'patternProperties') {
      out[k] = Object.fromEntries(Object.entries(v as Json).map(([name, sub]) => [name, toJsonSchema(sub, doc, seen)]));
    } else if (['items', 'additionalProperties', 'not', 'allOf', 'anyOf', 'oneOf'].includes(k)) {
      out[k] = typeof v === 'boolean' ? v : toJsonSchema(v, doc, seen);
    } else {
      out[k] = v;
    }
  }
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (out[flag] === true) {
      out[flag] = out[bound];
      delete out[bound];
    } else if (out[flag] === false) delete out[flag];
  }
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
  } else delete out.nullable;
  return out;
}

/** An Ajv instance reading formats (date-time, uuid, uri...) the way the document means them. */
export function newAjv(opts: { coerceTypes?: boolean; allErrors?: boolean; verbose?: boolean } = {}): Ajv {
  const ajv = new Ajv({
    strict: false,
    allErrors: opts.allErrors ?? false,
    coerceTypes: opts.coerceTypes ?? false,
    verbose: opts.verbose ?? false,
  });
  const addFormats = ((formatsPlugin as unknown as { default?: typeof formatsPlugin }).default ??
    formatsPlugin) as unknown as (a: Ajv) => Ajv;
  addFormats(ajv);
  // OpenAPI's own string formats: any string will do.
  ajv.addFormat('binary', true).addFormat('byte', true);
  return ajv;
}

export type { ValidateFunction };
