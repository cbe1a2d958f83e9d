/**
 * Reads the USGS NWIS instantaneous-values service's WaterML-JSON (`/nwis/iv/?format=json`,
 * `ns1:timeSeriesResponseType`) into one entry per site with its gage-height (00065, ft) and
 * discharge (00060, ft3/s) readings. Values equal to the series' noDataValue (-999999) or not numeric
 * ("Ice", "Eqp", "Ssn" come that way) are dropped; a time repeated across methods keeps the first.
 */
import { CatintelError } from '../errors.js';

export interface Reading { at: string; value: number; qualifiers: string[] }
export interface SiteSeries {
  site: string;
  name: string;
  lat: number | null;
  lng: number | null;
  properties: Record<string, string>;
  stage: Reading[];
  discharge: Reading[];
}

type Obj = Record<string, unknown>;
const PARAM = { '00065': 'stage', '00060': 'discharge' } as const;

export function readWaterMl(body: string, where: string): SiteSeries[] {
  let doc: Obj;
  try {
    doc = JSON.parse(body) as Obj;
  } catch {
    throw new CatintelError('invalid_input', `${where}: not JSON; expected USGS NWIS IV WaterML-JSON (format=json)`);
  }
  const series = (doc?.value as Obj | undefined)?.timeSeries;
  if (!Array.isArray(series)) {
    throw new CatintelError('invalid_input', `${where}: no value.timeSeries; expected USGS NWIS IV WaterML-JSON (waterservices.usgs.gov/nwis/iv/?format=json)`);
  }
  const sites = new Map<string, SiteSeries>();
  for (const ts of series as Obj[]) {
    const info = (ts?.sourceInfo ?? {}) as Obj;
    const site = String(((info.siteCode as Obj[] | undefined)?.[0])?.value ?? '').trim();
    const variable = (ts?.variable ?? {}) as Obj;
    const param = String(((variable.variableCode as Obj[] | undefined)?.[0])?.value ?? '') as keyof typeof PARAM;
    if (!site) continue;
    let entry = sites.get(site);
    if (!entry) {
      const geo = ((info.geoLocation as Obj | undefined)?.geogLocation ?? {}) as Obj;
      const props: Record<string, string> = {};
      for (const p of (info.siteProperty as Obj[] | undefined) ?? []) if (typeof p?.name === 'string') props[p.name] = String(p.value);
      entry = { site, name: String(info.siteName ?? site), lat: num(geo.latitude), lng: num(geo.longitude), properties: props, stage: [], discharge: [] };
      sites.set(site, entry);
    }
    const kind = PARAM[param];
    if (kind) entry[kind] = merge(entry[kind], readings(ts, num(variable.noDataValue)));
  }
  return [...sites.values()];
}

function readings(ts: Obj, noData: number | null): Reading[] {
  const out: Reading[] = [];
  for (const block of (ts.values as Obj[] | undefined) ?? []) {
    for (const v of (block?.value as Obj[] | undefined) ?? []) {
      const value = typeof v.value === 'string' && v.value.trim() !== '' ? Number(v.value) : NaN;
      const t = typeof v.dateTime === 'string' ? Date.parse(v.dateTime) : NaN;
      if (!Number.isFinite(value) || value === noData || !Number.isFinite(t)) continue;
      out.push({ at: new Date(t).toISOString(), value, qualifiers: Array.isArray(v.qualifiers) ? v.qualifiers.map(String) : [] });
    }
  }
  return out;
}

/** Union by time, first reading of a time wins, oldest first. */
function merge(a: Reading[], b: Reading[]): Reading[] {
  const byTime = new Map<string, Reading>();
  for (const r of [...a, ...b]) if (!byTime.has(r.at)) byTime.set(r.at, r);
  return [...byTime.values()].sort((x, y) => (x.at < y.at ? -1 : x.at > y.at ? 1 : 0));
}

const num = (v: unknown): number | null => {
  const x = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(x) ? x : null;
};
