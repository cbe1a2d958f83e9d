/**
 * A page of hits as the bytes of the OGC collection the SQL path would JSON.stringify: the shell from the
 * same collection() helper, the features concatenated from their prebuilt parts.
 */
import { collection } from '../domain/features.js';
import { openFeature, showJson, asOf, type Entry } from './entry.js';
import type { Hit } from './select.js';

const CLOSE = Buffer.from('}}');
/** The sources of the events in each body we made, for X-Data-Freshness (src/http/freshness.ts reads them). */
const sourcesByBody = new WeakMap<Buffer, string[]>();

export function sourcesOfBytes(body: Buffer): string[] | undefined {
  return sourcesByBody.get(body);
}

const CLOSE_NEXT = Buffer.from('}},');
const END = Buffer.from(']}');

export function collectionBytes(hits: Hit[], o: { matched: number; now: string; self: string; next?: string }): Buffer {
  const shell = JSON.stringify({ ...collection([], o), numberReturned: hits.length });
  // The shell ends with `"features":[]}`: keep it up to and including the `[`.
  const parts: Buffer[] = [Buffer.from(shell.slice(0, -2))];
  hits.forEach((h, i) => {
    parts.push(openFeature(h.entry, h.at));
    const last = i === hits.length - 1;
    if (h.distanceKm === undefined) parts.push(last ? CLOSE : CLOSE_NEXT);
    else parts.push(Buffer.from(`,"distance_km":${Math.round(h.distanceKm * 100) / 100}${last ? '}}' : '}},'}`));
  });
  parts.push(END);
  const body = Buffer.concat(parts);
  sourcesByBody.set(body, distinctSources(hits));
  return body;
}

/** The few distinct sources of a page (a handful at most: no Set). */
function distinctSources(hits: Hit[]): string[] {
  const out: string[] = [];
  for (const h of hits) if (!out.includes(h.entry.source)) out.push(h.entry.source);
  return out;
}

export function showBytes(e: Entry, nowUs: number): Buffer {
  const body = Buffer.from(showJson(e, asOf(e, nowUs)));
  sourcesByBody.set(body, [e.source]);
  return body;
}
