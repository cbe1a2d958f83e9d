/**
 * The contract document: `openapi.yaml` at the package root (OpenAPI 3.0.3), served as JSON at
 * /api/v1/openapi.json. Read and converted once per process.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { packageRoot } from '../lib/package-root.js';

export function openapiPath(): string {
  return path.join(packageRoot(), 'openapi.yaml');
}

let cached: Record<string, unknown> | undefined;

export function loadOpenApi(file = openapiPath()): Record<string, unknown> {
  if (cached && file === openapiPath()) return cached;
  const doc = parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  if (file === openapiPath()) cached = doc;
  return doc;
}
