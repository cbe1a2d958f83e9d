/**
 * ATCF best-track "b-deck" files (bal092022.dat): comma-separated lines
 *   BASIN, CY, YYYYMMDDHH, MIN, TECH, TAU, LatN/S, LonE/W, VMAX, MSLP, TY, RAD, WINDCODE, RAD1..RAD4,
 *   POUTER, ROUTER, RMW, GUSTS, EYE, SUBREGION, MAXSEAS, INITIALS, DIR, SPEED, STORMNAME, ...
 * one line per (fix time, wind-radius threshold). For BEST lines the 4th field holds the minutes of a
 * special (off-synoptic) fix such as a landfall: "2022092819, 05" is 19:05 UTC. Rules: docs/sources/nhc.md.
 */
import type { ParseResult, QuadrantRadiiNm, RingInput, SkippedRecord, SourceRecord } from '../domain/event.js';
import type { ParseContext } from './types.js';
import { notYetPublished, partsAsOf } from './as-of.js';
import {
  CYCLONE_TYPES_BY_RANK,
  WINDING_TYPES,
  saffirSimpsonLabel,
  stormTitle,
  typeName,
  fixObservations,
  fixSizeObservations,
  atcfIdDetails,
} from './nhc-common.js';

interface Fix {
  timeMs: number;
  lat: number;
  lng: number;
  windKt: number;
  pressureMb: number | null;
  type: string;
  name: string;
  rmwNm: number | null;
  radii: Partial<Record<34 | 50 | 64, QuadrantRadiiNm>>;
}

/** True when the first non-blank line looks like an ATCF deck line ("AL, 09, 2022092218,"). */
export function looksLikeAtcf(body: string): boolean {
  const first = body.trimStart().slice(0, 40);
  return /^[A-Z]{2}, *\d{1,2}, *\d{10},/.test(first);
}

const int = (s: string | undefined): number | null => {
  const n = s === undefined || s === '' ? NaN : Number(s);
  return Number.isInteger(n) ? n : null;
};

/** "123N" -> 12.3, "663W" -> -66.3 (tenths of a degree with hemisphere letter). */
function tenthsDeg(s: string, positive: string, negative: string): number | null {
  const hemi = s.slice(-1);
  const v = int(s.slice(0, -1));
  if (v === null || (hemi !== positive && hemi !== negative)) return null;
  return (hemi === negative ? -v : v) / 10;
}

function parseLine(f: string[]): { key: string; fix: Fix; rad: number; radii: QuadrantRadiiNm | null } | string {
  const [basin, cy, ymdh, minutes] = f;
  if (!/^[A-Z]{2}$/.test(basin) || !/^\d{1,2}$/.test(cy) || !/^\d{10}$/.test(ymdh)) return 'not an ATCF line';
  const timeMs = Date.UTC(
    +ymdh.slice(0, 4),
    +ymdh.slice(4, 6) - 1,
    +ymdh.slice(6, 8),
    +ymdh.slice(8, 10),
    int(minutes) ?? 0,
  );
  const lat = tenthsDeg(f[6] ?? '', 'N', 'S');
  const lng = tenthsDeg(f[7] ?? '', 'E', 'W');
  const windKt = int(f[8]);
  if (lat === null || lng === null || Math.abs(lat) > 90 || Math.abs(lng) > 180)
    return `bad position "${f[6]}, ${f[7]}"`;
  if (windKt === null) return `bad VMAX "${f[8]}"`;
  const mslp = int(f[9]);
  const rad = int(f[11]) ?? 0;
  const r = [int(f[13]) ?? 0, int(f[14]) ?? 0, int(f[15]) ?? 0, int(f[16]) ?? 0];
  // NEQ = four quadrants from north-east clockwise; AAA = one radius all round. Other (old) codes are ignored.
  const radii =
    f[12] === 'NEQ'
      ? { ne: r[0], se: r[1], sw: r[2], nw: r[3] }
      : f[12] === 'AAA'
        ? { ne: r[0], se: r[0], sw: r[0], nw: r[0] }
        : null;
  const fix: Fix = {
    timeMs,
    lat,
    lng,
    windKt,
    pressureMb: mslp !== null && mslp > 0 ? mslp : null,
    type: f[10] ?? '',
    name: f[27] ?? '',
    rmwNm: int(f[19]) || null,
    radii: {},
  };
  return { key: `${basin.toLowerCase()}${cy.padStart(2, '0')}${ymdh.slice(0, 4)}`, fix, rad, radii };
}

export function parseBdeck(body: string, ctx: ParseContext): ParseResult {
  const storms = new Map<string, Map<number, Fix>>();
  const skipped: SkippedRecord[] = [];
  const lines = body.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '') continue;
    const f = line.split(',').map((s) => s.trim());
    if (f[4] !== 'BEST') continue; // a-deck forecasts (OFCL, CARQ, models) are not best-track fixes
    const parsed = parseLine(f);
    if (typeof parsed === 'string') {
      skipped.push({ sourceId: null, reason: `line ${i + 1}: ${parsed}` });
      continue;
    }
    const fixes = storms.get(parsed.key) ?? new Map<number, Fix>();
    storms.set(parsed.key, fixes);
    const fix = fixes.get(parsed.fix.timeMs) ?? parsed.fix;
    fixes.set(fix.timeMs, fix);
    const rad = parsed.rad;
    if ((rad === 34 || rad === 50 || rad === 64) && parsed.radii) fix.radii[rad] = parsed.radii;
  }
  const records: SourceRecord[] = [];
  for (const [id, byTime] of storms) {
    // As of the clock: the track NHC had written by then (src/sources/as-of.ts), not the whole deck.
    const fixes = partsAsOf(
      [...byTime.values()].sort((a, b) => a.timeMs - b.timeMs),
      (f) => f.timeMs,
      ctx.now,
    );
    if (fixes.length === 0) {
      skipped.push(notYetPublished(id, ctx.now));
      continue;
    }
    const r = stormRecord(id, fixes, ctx);
    if ('reason' in r) skipped.push(r);
    else records.push(r);
  }
  return { records, skipped };
}

/** The fix's published wind radii (quadrants with some extent). */
function radiiOf(f: Fix): Partial<Record<34 | 50 | 64, QuadrantRadiiNm>> {
  const out: Partial<Record<34 | 50 | 64, QuadrantRadiiNm>> = {};
  for (const kt of [34, 50, 64] as const) {
    const q = f.radii[kt];
    if (q && (q.ne > 0 || q.se > 0 || q.sw > 0 || q.nw > 0)) out[kt] = q;
  }
  return out;
}

function ringInputOf(f: Fix): RingInput {
  return {
    kind: 'hurricane',
    windRadiiNm: radiiOf(f),
    maxWindKt: f.windKt,
    ...(f.pressureMb !== null ? { pressureMb: f.pressureMb } : {}),
  };
}

function stormRecord(id: string, fixes: Fix[], ctx: ParseContext): SourceRecord | SkippedRecord {
  const types = new Set(fixes.map((f) => f.type));
  const peakType = CYCLONE_TYPES_BY_RANK.find((t) => types.has(t));
  if (!peakType)
    return { sourceId: id, reason: `never a tropical or subtropical cyclone (types ${[...types].join('/')})` };
  const first = fixes[0];
  const latest = fixes[fixes.length - 1];
  const name = [...fixes].reverse().find((f) => f.name !== '' && f.name !== 'INVEST')?.name ?? null;
  const windRadiiNm = radiiOf(latest);
  const pressures = fixes.map((f) => f.pressureMb).filter((p): p is number => p !== null);
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    source: 'nhc',
    sourceId: id,
    sourceUrl: /^https?:/.test(ctx.sourceUrl) ? ctx.sourceUrl : `https://ftp.nhc.noaa.gov/atcf/btk/b${id}.dat`,
    title: stormTitle(typeName(peakType), name, id),
    eventType: 'hurricane',
    severity: latest.windKt,
    severityLabel: saffirSimpsonLabel(latest.windKt),
    startedAt: iso(first.timeMs),
    sourceUpdatedAt: iso(latest.timeMs),
    lat: latest.lat,
    lng: latest.lng,
    // The analysts' best track: NHC's own reviewed record of the storm.
    confidence: 1.0,
    signals: { winding: WINDING_TYPES.has(latest.type) },
    ringInput: {
      kind: 'hurricane',
      windRadiiNm,
      maxWindKt: latest.windKt,
      ...(latest.pressureMb !== null ? { pressureMb: latest.pressureMb } : {}),
    },
    observations: fixes.flatMap((f) => [
      ...fixObservations(iso(f.timeMs), f.windKt, f.pressureMb, f.lat, f.lng),
      ...fixSizeObservations(iso(f.timeMs), f.rmwNm, f.radii, f.lat, f.lng),
    ]),
    // Every earlier fix's wind field, so the store keeps the swath (the rings over the track so far).
    track: fixes.slice(0, -1).map((f) => ({ at: iso(f.timeMs), lat: f.lat, lng: f.lng, ringInput: ringInputOf(f) })),
    details: {
      feed: 'atcf_bdeck',
      ...atcfIdDetails(id),
      name,
      classification: latest.type,
      peak_classification: peakType,
      max_wind_kt: latest.windKt,
      pressure_mb: latest.pressureMb,
      peak_wind_kt: Math.max(...fixes.map((f) => f.windKt)),
      min_pressure_mb: pressures.length > 0 ? Math.min(...pressures) : null,
      rmw_nm: latest.rmwNm,
      fix_count: fixes.length,
    },
  };
}
