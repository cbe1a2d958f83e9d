/**
 * Reads the USGS NWIS Water Services WaterML-JSON (`ns1:timeSeriesResponseType`) of the instantaneous-
 * values service (`/nwis/iv/?format=json`) and of the daily-values service (`/nwis/dv/?format=json`)
 * into one entry per site with its gage-height (00065, ft) and discharge (00060, ft3/s) readings.
 * IV series carry statistic 00000 (instantaneous); DV series carry a daily statistic, of which only the
 * daily mean (00003) is read (the daily max/min of a parameter would otherwise pose as readings).
 * Values equal to the series' noDataValue (-999999) or not numeric ("Ice", "Eqp", "Ssn" come that way)
 * are dropped; a time repeated across methods keeps the first. A time without a UTC offset (DV dates:
 * "2020-02-12T00:00:00.000", the start of the local day) takes the site's standard-time offset.
 */
import { CatintelError } from '../errors.js';
import { describeNwpsReport, describeRdb } from './gauge-rdb.js';

export interface Reading {
  at: string;
  value: number;
  qualifiers: string[];
}
export interface SiteSeries {
  site: string;
  name: string;
  lat: number | null;
  lng: number | null;
  properties: Record<string, string>;
  stage: Reading[];
  discharge: Reading[];
  /** The site's series are daily values (DV service): readings are daily means. */
  daily: boolean;
}

type Obj = Record<string, unknown>;
const PARAM = { '00065': 'stage', '00060': 'discharge' } as const;
const INSTANTANEOUS = '00000';
const DAILY_MEAN = '00003';

export function readWaterMl(body: string, where: string): SiteSeries[] {
  let doc: Obj;
  try {
    doc = JSON.parse(body) as Obj;
  } catch {
    const rdb = describeRdb(body) ?? describeNwpsReport(body);
    if (rdb)
      throw new CatintelError(
        'invalid_input',
        `${where}: ${rdb}; usgs-gauges reads NWIS instantaneous values as WaterML-JSON (waterservices.usgs.gov/nwis/iv/?format=json)`,
      );
    throw new CatintelError('invalid_input', `${where}: not JSON; expected USGS NWIS IV WaterML-JSON (format=json)`);
  }
  const series = (doc?.value as Obj | undefined)?.timeSeries;
  if (!Array.isArray(series)) {
    throw new CatintelError(
      'invalid_input',
      `${where}: no value.timeSeries; expected USGS NWIS IV WaterML-JSON (waterservices.usgs.gov/nwis/iv/?format=json)`,
    );
  }
  const sites = new Map<string, SiteSeries>();
  for (const ts of series as Obj[]) {
    const info = (ts?.sourceInfo ?? {}) as Obj;
    const site = String((info.siteCode as Obj[] | undefined)?.[0]?.value ?? '').trim();
    const variable = (ts?.variable ?? {}) as Obj;
    const param = String((variable.variableCode as Obj[] | undefined)?.[0]?.value ?? '') as keyof typeof PARAM;
    if (!site) continue;
    let entry = sites.get(site);
    const statistic = statisticOf(variable);
    if (!entry) {
      const geo = ((info.geoLocation as Obj | undefined)?.geogLocation ?? {}) as Obj;
      const props: Record<string, string> = {};
      for (const p of (info.siteProperty as Obj[] | undefined) ?? [])
        if (typeof p?.name === 'string') props[p.name] = String(p.value);
      entry = {
        site,
        name: String(info.siteName ?? site),
        lat: num(geo.latitude),
        lng: num(geo.longitude),
        properties: props,
        stage: [],
        discharge: [],
        daily: false,
      };
      sites.set(site, entry);
    }
    if (statistic !== INSTANTANEOUS) entry.daily = true;
    const kind = PARAM[param];
    if (kind && (statistic === INSTANTANEOUS || statistic === DAILY_MEAN)) {
      entry[kind] = merge(entry[kind], readings(ts, num(variable.noDataValue), standardOffset(info)));
    }
  }
  return [...sites.values()];
}

/** The series' statistic code: 00000 instantaneous (IV), 00001 max, 00002 min, 00003 mean (DV). */
function statisticOf(variable: Obj): string {
  const options = ((variable.options as Obj | undefined)?.option as Obj[] | undefined) ?? [];
  const stat = options.find((o) => o?.name === 'Statistic');
  return typeof stat?.optionCode === 'string' ? stat.optionCode : INSTANTANEOUS;
}

/** The site's standard-time UTC offset ("-05:00"), for times written without one; UTC when not given. */
function standardOffset(info: Obj): string {
  const tz = ((info.timeZoneInfo as Obj | undefined)?.defaultTimeZone ?? {}) as Obj;
  return typeof tz.zoneOffset === 'string' && /^[+-]\d{2}:\d{2}$/.test(tz.zoneOffset) ? tz.zoneOffset : 'Z';
}

function readings(ts: Obj, noData: number | null, offset: string): Reading[] {
  const out: Reading[] = [];
  for (const block of (ts.values as Obj[] | undefined) ?? []) {
    for (const v of (block?.value as Obj[] | undefined) ?? []) {
      const value = typeof v.value === 'string' && v.value.trim() !== '' ? Number(v.value) : NaN;
      // Date.parse would read an offset-less time in the machine's zone: give it the site's instead.
      let dt = typeof v.dateTime === 'string' ? v.dateTime.trim() : '';
      if (/^\d{4}-\d{2}-\d{2}$/.test(dt)) dt += 'T00:00:00';
      const t = Date.parse(/(Z|[+-]\d{2}:?\d{2})$/.test(dt) || dt === '' ? dt : dt + offset);
      if (!Number.isFinite(value) || value === noData || !Number.isFinite(t)) continue;
      out.push({
        at: new Date(t).toISOString(),
        value,
        qualifiers: Array.isArray(v.qualifiers) ? v.qualifiers.map(String) : [],
      });
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
