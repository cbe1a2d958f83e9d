/**
 * NHC GIS forecast advisory zips (https://www.nhc.noaa.gov/gis/, "Cone of Uncertainty / Forecast Track"):
 * `{id}_5day_latest.zip` and the archive's `{id}_5day_{NNN}.zip`, shapefile sets named
 * `{id}-{NNN}_5day_pgn` (the cone), `_5day_lin` (the track line) and `_5day_pts` (one point per forecast
 * hour TAU with LAT, LON, MAXWIND and GUST kt, MSLP mb, STORMTYPE, TCDVLP, TCDIR deg, TCSPD kt, VALIDTIME
 * "dd/hhmm" UTC, ADVDATE local). One record per storm, keyed by the ATCF id so it updates the same event
 * as CurrentStorms.json, the RSS and the b-deck. Only TAU 0 is an observation; the forecast points are
 * kept in details.forecast, the cone becomes a 'forecast_cone' ring. Rules: docs/sources/nhc.md.
 */
import { unzipSync } from 'fflate';
import type { Feature, MultiPolygon, Point, Polygon } from 'geojson';
import * as shapefile from 'shapefile';
import type { ParseResult, RingInput, SkippedRecord, SourceRecord } from '../domain/event.js';
import { CatintelError } from '../errors.js';
import type { ParseContext } from './types.js';
import {
  WINDING_TYPES,
  saffirSimpsonLabel,
  stormTitle,
  typeName,
  fixObservations,
  atcfIdDetails,
} from './nhc-common.js';
import { nhcLocalTime } from './nhc-time.js';

/** "ep212018-038_5day_pts.shp": storm id, advisory (038, 038A), layer, part. */
const MEMBER = /(?:^|\/)([a-z]{2}\d{6})[-_](\d{3}[a-z]?)_5day_(pgn|pts)\.(shp|dbf)$/i;
/** "2018100818_wsp34knt120hr_5km.shp": wind speed probabilities for all storms. */
const WSP = /(?:^|\/)[^/]*wsp_?\d*(?:knt)?\d*hr[^/]*\.shp$/i;

type Props = Record<string, unknown>;
interface Layers {
  pts?: { shp?: Uint8Array; dbf?: Uint8Array };
  pgn?: { shp?: Uint8Array; dbf?: Uint8Array };
}

export async function parseNhcGisZip(bytes: Uint8Array, ctx: ParseContext, expected: string): Promise<ParseResult> {
  const names: string[] = [];
  let files: Record<string, Uint8Array>;
  try {
    // Only the cone and point layers are decompressed; the rest is listed by name.
    files = unzipSync(bytes, { filter: (f) => (names.push(f.name), MEMBER.test(f.name)) });
  } catch {
    throw new CatintelError('invalid_input', `${expected}; got a zip archive that does not unzip`);
  }
  // Per storm, the latest advisory in the archive (a _latest zip holds one).
  const storms = new Map<string, { adv: string; layers: Layers }>();
  for (const [name, data] of Object.entries(files)) {
    const [, idRaw, advRaw, layer, part] = MEMBER.exec(name) as RegExpExecArray;
    const id = idRaw.toLowerCase();
    const adv = advRaw.toUpperCase();
    const seen = storms.get(id);
    if (seen && seen.adv > adv) continue;
    const entry = seen && seen.adv === adv ? seen : { adv, layers: {} };
    storms.set(id, entry);
    const l = (entry.layers[layer.toLowerCase() as 'pts' | 'pgn'] ??= {});
    l[part.toLowerCase() as 'shp' | 'dbf'] = data;
  }
  if (storms.size === 0) {
    const file = ctx.sourceUrl.replace(/^.*\//, '');
    const wsp = names.filter((n) => WSP.test(n)).map((n) => n.replace(/^.*\//, '').replace(/\.shp$/i, ''));
    if (wsp.length > 0) {
      const more = wsp.length > 1 ? ` and ${wsp.length - 1} more` : '';
      throw new CatintelError(
        'invalid_input',
        `${file} holds NHC wind speed probability shapefiles (${wsp[0]}${more}): probability bands for all active storms, not a storm advisory; ${expected}`,
      );
    }
    const shown = names.slice(0, 3).join(', ') + (names.length > 3 ? ', ...' : '');
    throw new CatintelError(
      'invalid_input',
      `${expected}; got ${file}, a zip without NHC 5-day forecast shapefiles ({id}-{NNN}_5day_pts, _5day_pgn): it holds ${shown || 'nothing'}`,
    );
  }
  const records: SourceRecord[] = [];
  const skipped: SkippedRecord[] = [];
  for (const [id, { adv, layers }] of storms) {
    const r = await stormRecord(id, adv, layers, ctx);
    if ('reason' in r) skipped.push(r);
    else records.push(r);
  }
  return { records, skipped };
}

const copy = (u: Uint8Array): ArrayBuffer => u.slice().buffer;
/** Shapefile numbers; NHC writes 9999 for "not forecast" (MSLP and motion after TAU 0). */
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v !== 9999 ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
const HOUR_MS = 3_600_000;

async function readLayer(l: { shp?: Uint8Array; dbf?: Uint8Array } | undefined): Promise<Feature[] | null> {
  if (!l?.shp || !l.dbf) return null;
  try {
    return (await shapefile.read(copy(l.shp), copy(l.dbf))).features;
  } catch {
    return null;
  }
}

/** VALIDTIME "08/1800" (UTC day/hhmm) -> the instant in the month nearest the advisory time. */
function validTime(v: unknown, near: number): number | null {
  const m = /^(\d{2})\/(\d{2})(\d{2})$/.exec(str(v) ?? '');
  if (!m) return null;
  const d = new Date(near);
  const candidates = [-1, 0, 1].map((k) => Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + k, +m[1], +m[2], +m[3]));
  return candidates.reduce((best, t) => (Math.abs(t - near) < Math.abs(best - near) ? t : best));
}

async function stormRecord(
  id: string,
  adv: string,
  layers: Layers,
  ctx: ParseContext,
): Promise<SourceRecord | SkippedRecord> {
  const pts = await readLayer(layers.pts);
  if (!pts) return { sourceId: id, reason: `advisory ${adv}: no readable _5day_pts layer (.shp + .dbf)` };
  const points = pts
    .filter((f) => f.geometry?.type === 'Point')
    .sort((a, b) => (num(a.properties?.TAU) ?? 0) - (num(b.properties?.TAU) ?? 0));
  const first = points.find((f) => num(f.properties?.TAU) === 0);
  if (!first) return { sourceId: id, reason: `advisory ${adv}: no TAU 0 (initial) point` };
  const p0 = first.properties as Props;
  const windKt = num(p0.MAXWIND);
  if (windKt === null) return { sourceId: id, reason: `advisory ${adv}: no initial MAXWIND (kt)` };
  const [lng, lat] = (first.geometry as Point).coordinates;
  const issuedAt = nhcLocalTime(str(p0.ADVDATE) ?? '');
  if (issuedAt === null)
    return { sourceId: id, reason: `advisory ${adv}: unreadable ADVDATE ${JSON.stringify(p0.ADVDATE)}` };
  // TAU 0 is the advisory's synoptic time (e.g. 18 UTC for the 21 UTC advisory); later points are TAU hours after it.
  const t0 = validTime(p0.VALIDTIME, Date.parse(issuedAt)) ?? Date.parse(issuedAt);
  const at0 = new Date(t0).toISOString();
  const pressureMb = num(p0.MSLP);
  const type = str(p0.STORMTYPE)?.toUpperCase() ?? '';
  const pgn = await readLayer(layers.pgn);
  const cones = (pgn ?? [])
    .map((f) => f.geometry)
    .filter((g): g is Polygon | MultiPolygon => g?.type === 'Polygon' || g?.type === 'MultiPolygon');
  const hours = num(p0.FCSTPRD) ?? 120;
  const cone: Polygon | MultiPolygon | null =
    cones.length === 0
      ? null
      : cones.length === 1
        ? cones[0]
        : {
            type: 'MultiPolygon',
            coordinates: cones.flatMap((g) => (g.type === 'Polygon' ? [g.coordinates] : g.coordinates)),
          };
  const ringInput: RingInput = cone
    ? { kind: 'polygon', geometry: cone, label: `${hours / 24}-day forecast cone`, ringKind: 'forecast_cone' }
    : { kind: 'hurricane', windRadiiNm: {}, maxWindKt: windKt, ...(pressureMb !== null ? { pressureMb } : {}) };
  const name =
    str((pgn?.[0]?.properties as Props | undefined)?.STORMNAME) ?? str(p0.STORMNAME)?.split(' ').pop() ?? null;
  const advNumber = str(p0.ADVISNUM) ?? adv;
  return {
    source: 'nhc',
    sourceId: id,
    sourceUrl: /^https?:/.test(ctx.sourceUrl)
      ? ctx.sourceUrl
      : `https://www.nhc.noaa.gov/gis/forecast/archive/${id}_5day_${adv}.zip`,
    title: stormTitle(typeName(type), name, id),
    eventType: 'hurricane',
    severity: windKt,
    severityLabel: saffirSimpsonLabel(windKt),
    startedAt: at0, // no genesis time in the file: its initial time stands in
    sourceUpdatedAt: issuedAt,
    lat,
    lng,
    confidence: 0.9, // operational advisory values, as CurrentStorms.json
    signals: {
      winding: WINDING_TYPES.has(type) || /post-tropical|extratropical|remnant/i.test(str(p0.STORMSRC) ?? ''),
    },
    ringInput,
    // Observed values only: the initial (TAU 0) analysis. Forecast points are not observations.
    observations: fixObservations(at0, windKt, pressureMb, lat, lng),
    details: {
      feed: 'nhc_gis_5day',
      ...atcfIdDetails(id),
      name,
      classification: type,
      development: str(p0.TCDVLP),
      advisory_number: advNumber,
      advisory_issued_at: issuedAt,
      advisory_time_local: str(p0.ADVDATE),
      max_wind_kt: windKt,
      gust_kt: num(p0.GUST),
      pressure_mb: pressureMb,
      movement_dir_deg: num(p0.TCDIR),
      movement_speed_kt: num(p0.TCSPD),
      forecast_hours: hours,
      forecast: points
        .filter((f) => (num(f.properties?.TAU) ?? 0) > 0)
        .map((f) => {
          const p = f.properties as Props;
          const [x, y] = (f.geometry as Point).coordinates;
          return {
            tau_h: num(p.TAU),
            valid_at: new Date(t0 + (num(p.TAU) ?? 0) * HOUR_MS).toISOString(),
            lat: y,
            lng: x,
            max_wind_kt: num(p.MAXWIND),
            gust_kt: num(p.GUST),
            pressure_mb: num(p.MSLP),
            classification: str(p.STORMTYPE),
            development: str(p.TCDVLP),
          };
        }),
    },
  };
}
