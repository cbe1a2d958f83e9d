// scripts/conformance-gdal.sh, step 4: what GDAL read through OGC API - Features against the contract paths.
// Usage: node scripts/conformance-gdal-compare.mjs BASE_URL DIR (DIR holds events.geojson, rings.geojson and
// their ogrinfo Feature Count in events.count, rings.count). Exits 1 on any mismatch.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const [base, dir] = process.argv.slice(2);
const api = `${base}/api/v1`;
let failed = false;
const fail = (msg) => {
  console.error(`conformance-gdal: ${msg}`);
  failed = true;
};
const log = (msg) => console.error(`conformance-gdal: ${msg}`);

async function get(url) {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Every live event through the contract path, following links.next. */
async function liveEvents() {
  const out = [];
  let url = `${api}/events/live?limit=1000`;
  let matched;
  while (url) {
    const page = await get(url);
    matched ??= page.numberMatched;
    out.push(...page.features);
    const next = page.links.find((l) => l.rel === 'next');
    url = next ? new URL(next.href, api).href : undefined;
  }
  if (out.length !== matched) fail(`/events/live pages gave ${out.length} events, numberMatched says ${matched}`);
  return out;
}

const read = (layer) => JSON.parse(readFileSync(path.join(dir, `${layer}.geojson`), 'utf8')).features;
const count = (layer) => Number(readFileSync(path.join(dir, `${layer}.count`), 'utf8').trim());

const events = await liveEvents();
const ringIds = [];
for (const e of events) {
  const rings = await get(`${api}/events/${e.id}/rings`);
  ringIds.push(...rings.features.map((f) => f.id));
}

for (const [layer, expected] of [
  ['events', events.map((e) => e.id)],
  ['rings', ringIds],
]) {
  // GDAL keeps the feature's `id` member as the field `id` (its own FID is a counter).
  const got = read(layer).map((f) => f.properties.id);
  const want = new Set(expected);
  const missing = expected.filter((id) => !got.includes(id));
  const extra = got.filter((id) => !want.has(id));
  if (got.length !== expected.length || missing.length || extra.length) {
    fail(
      `${layer}: GDAL read ${got.length} features, the contract paths give ${expected.length} (missing ${missing.slice(0, 3).join(', ') || 'none'}; unexpected ${extra.slice(0, 3).join(', ') || 'none'})`,
    );
  }
  if (count(layer) !== expected.length)
    fail(`${layer}: ogrinfo Feature Count ${count(layer)}, expected ${expected.length}`);
  log(
    `${layer}: GDAL read ${got.length} features (Feature Count ${count(layer)}); the contract paths give ${expected.length}`,
  );
}
process.exit(failed ? 1 : 0);
