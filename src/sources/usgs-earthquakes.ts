/**
 * USGS Earthquake Hazards Program summary feeds (../shared/data/SOURCES.md §1): the GeoJSON feed
 * (FeatureCollection + metadata, https://earthquake.usgs.gov/earthquakes/feed/v1.0/geojson.php) and its
 * CSV variant. Mapping and rules: docs/sources/usgs-earthquakes.md.
 */
import type { ParseResult, SkippedRecord, SourceRecord } from '../domain/event.js';
import { CatintelError } from '../errors.js';
import type { FetchOptions } from './fetch.js';
import type { ShakeMap } from './shakemap.js';
import type { SourceModule } from './types.js';
import { looksLikeUsgsCsv, parseUsgsCsv } from './usgs-csv.js';
import { isSkipped, quakeToRecord, type UsgsQuake } from './usgs-record.js';
import { discoverShakeMaps, matchShakeMap, withShakeMap, type ShakeMapLookup } from './usgs-shakemap.js';
import { readRecord } from './guard.js';

const EXPECTED =
  'expected a USGS earthquake summary feed: GeoJSON (a FeatureCollection with "metadata") or CSV (header time,latitude,longitude,depth,mag,...)';

export const usgsEarthquakes: SourceModule = {
  id: 'usgs-earthquakes',
  officialUrl: 'https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/all_day.geojson',
  accept: 'application/geo+json, text/csv',
  description: 'USGS earthquakes, past day (GeoJSON or CSV summary feed)',
  parse(body: string): ParseResult {
    const text = body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
    const quakes = text.trimStart().startsWith('{') ? geojsonQuakes(text) : csvQuakes(text);
    const records: SourceRecord[] = [];
    const skipped: SkippedRecord[] = [];
    for (const q of quakes) {
      const r = readRecord(
        () => quakeToRecord(q),
        () => (q as { id?: unknown }).id,
      );
      if (isSkipped(r)) skipped.push(r);
      else records.push(r);
    }
    return { records, skipped };
  },
};

export interface ShakeMapOptions {
  /** `--shakemap FILE`, parsed: attached to the feed record it belongs to. */
  file?: { map: ShakeMap; name: string };
  /** Online: how to read the ShakeMaps the feed's events list (the ingest's own fetch settings). */
  fetch?: Omit<FetchOptions, 'accept'>;
  /** Online: the grids already stored, so a ShakeMap's grid.xml is fetched once per product. */
  lookup?: ShakeMapLookup;
}

/**
 * The USGS source with ShakeMap rings: the given ShakeMap file, or online the ShakeMaps the feed's events
 * list (src/sources/usgs-shakemap.ts). Without either it parses exactly like `usgsEarthquakes`.
 */
export function usgsEarthquakesWithShakeMaps(options: ShakeMapOptions): SourceModule {
  return {
    ...usgsEarthquakes,
    async parse(body, ctx) {
      const parsed = usgsEarthquakes.parse(body, ctx) as ParseResult;
      let records = parsed.records;
      let notes: string[] = [];
      if (options.file) {
        const i = matchShakeMap(records, options.file.map, options.file.name);
        records = records.map((r, k) => (k === i ? withShakeMap(r, options.file!.map, options.file!.name) : r));
      } else if (options.fetch && /^https?:\/\//.test(ctx.sourceUrl)) {
        ({ records, notes } = await discoverShakeMaps(
          records,
          productTypesOf(body),
          ctx.sourceUrl,
          options.fetch,
          ctx.now,
          options.lookup,
        ));
      }
      return { records, skipped: parsed.skipped, ...(notes.length ? { notes } : {}) };
    },
  };
}

/** Event id -> the product types the summary feed lists for it (`types`: ",dyfi,origin,shakemap,"). */
function productTypesOf(body: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  try {
    const doc = JSON.parse(body.charCodeAt(0) === 0xfeff ? body.slice(1) : body) as {
      features?: { id?: unknown; properties?: { types?: unknown } }[];
    };
    for (const f of doc.features ?? []) {
      if (typeof f.id === 'string' && typeof f.properties?.types === 'string')
        out.set(
          f.id,
          f.properties.types.split(',').filter((t) => t !== ''),
        );
    }
  } catch {
    // The CSV feed lists no products: no ShakeMaps to look up.
  }
  return out;
}

function csvQuakes(text: string): UsgsQuake[] {
  if (!looksLikeUsgsCsv(text)) throw new CatintelError('invalid_input', `${EXPECTED}; got text that is neither`);
  return parseUsgsCsv(text);
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const numOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const strOrNull = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

function geojsonQuakes(text: string): UsgsQuake[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new CatintelError('invalid_input', `${EXPECTED}; got text that starts like JSON but does not parse`);
  }
  if (!isObject(doc) || doc.type !== 'FeatureCollection' || !Array.isArray(doc.features)) {
    throw new CatintelError('invalid_input', `${EXPECTED}; got JSON that is not a GeoJSON FeatureCollection`);
  }
  // The NWS alerts feed is a FeatureCollection too; the USGS feed alone carries `metadata` and `mag`.
  const first = doc.features[0] as Json | undefined;
  const usgsShaped =
    isObject(doc.metadata) && (first === undefined || (isObject(first.properties) && 'mag' in first.properties));
  if (!usgsShaped) {
    throw new CatintelError(
      'invalid_input',
      `${EXPECTED}; got a FeatureCollection without USGS "metadata" and "mag" properties`,
    );
  }
  return (doc.features as unknown[]).map(featureToQuake);
}

function featureToQuake(f: unknown): UsgsQuake {
  const feature = isObject(f) ? f : {};
  const p = isObject(feature.properties) ? feature.properties : {};
  const geometry = isObject(feature.geometry) ? feature.geometry : {};
  const c = Array.isArray(geometry.coordinates) ? geometry.coordinates : [];
  return {
    id: strOrNull(feature.id) ?? (strOrNull(p.net) && strOrNull(p.code) ? `${p.net}${p.code}` : ''),
    mag: numOrNull(p.mag),
    magType: strOrNull(p.magType),
    timeMs: numOrNull(p.time) ?? NaN,
    updatedMs: numOrNull(p.updated) ?? NaN,
    lat: numOrNull(c[1]) ?? NaN,
    lng: numOrNull(c[0]) ?? NaN,
    depthKm: numOrNull(c[2]),
    place: strOrNull(p.place),
    type: strOrNull(p.type),
    status: strOrNull(p.status),
    url: strOrNull(p.url),
    title: strOrNull(p.title),
    net: strOrNull(p.net),
    nst: numOrNull(p.nst),
    gapDeg: numOrNull(p.gap),
    dminDeg: numOrNull(p.dmin),
    rms: numOrNull(p.rms),
    extra: {
      tsunami: p.tsunami === 1,
      felt: numOrNull(p.felt),
      cdi: numOrNull(p.cdi),
      mmi: numOrNull(p.mmi),
      alert: strOrNull(p.alert),
      sig: numOrNull(p.sig),
      code: strOrNull(p.code),
      // ",pt22272001,at00riyb5m,us6000ip57," -> every network's id for this event (for de-duplication).
      ids: typeof p.ids === 'string' ? p.ids.split(',').filter((s) => s !== '') : [],
      detail_url: strOrNull(p.detail),
    },
  };
}
