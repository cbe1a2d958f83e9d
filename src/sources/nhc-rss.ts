/**
 * NHC RSS feeds (https://www.nhc.noaa.gov/aboutrss.shtml): the basin feeds index-at.xml, index-ep.xml,
 * index-cp.xml and the Graphical Tropical Weather Outlook gtwo.xml. Per active storm a basin feed carries a
 * "Summary for <Type> <Name> (<wallet>/<ATCF id>)" item whose nhc:Cyclone element (namespace
 * https://www.nhc.noaa.gov) holds center, type, name, wallet, atcf, datetime, movement, pressure, wind and
 * headline; that item becomes one record, keyed by the ATCF id like CurrentStorms.json and the b-deck.
 * Every other item (outlooks, the "no tropical cyclones" notice, advisory texts and graphics) is skipped
 * with a reason naming it, so records + skipped = items. Rules: docs/sources/nhc.md.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { ParseResult, SkippedRecord, SourceRecord } from '../domain/event.js';
import { CatintelError } from '../errors.js';
import type { ParseContext } from './types.js';
import { WINDING_TYPES, saffirSimpsonLabel, stormTitle, titleCase, typeName, fixObservations } from './nhc-common.js';
import { compassDeg, nhcLocalTime } from './nhc-time.js';

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false, // "08" and "978 mb" stay strings; we read numbers ourselves
  isArray: (_name, jpath) => jpath === 'rss.channel.item',
});

/** Text of an element (plain, CDATA or with attributes: {'#text': ...}); null when absent or empty. */
function text(v: unknown): string | null {
  const s = isNode(v) ? v['#text'] : v;
  if (typeof s !== 'string' && typeof s !== 'number') return null;
  const t = String(s).trim().replace(/\s+/g, ' ');
  return t === '' ? null : t;
}

/** A child by its local name, whatever namespace prefix the feed bound (nhc:Cyclone, Cyclone). */
function child(node: Node, local: string): unknown {
  const key = Object.keys(node).find((k) => k === local || k.endsWith(`:${local}`));
  return key === undefined ? undefined : node[key];
}

export function parseNhcRss(body: string, ctx: ParseContext, expected: string): ParseResult {
  const valid = XMLValidator.validate(body);
  if (valid !== true)
    throw new CatintelError(
      'invalid_input',
      `${expected}; got XML that does not parse (line ${valid.err.line}: ${valid.err.msg})`,
    );
  const doc = parser.parse(body) as Node;
  const rss = doc.rss;
  const channel = isNode(rss) ? rss.channel : undefined;
  if (!isNode(rss) || !isNode(channel)) {
    const root = Object.keys(doc).find((k) => !k.startsWith('?')) ?? 'nothing';
    throw new CatintelError('invalid_input', `${expected}; got XML with root <${root}>, not an RSS feed`);
  }
  const link = text(channel.link) ?? '';
  // NHC's feeds link to www.nhc.noaa.gov and the basin feeds bind the nhc: namespace; another RSS feed is not ours.
  if (!/^https?:\/\/(www\.)?nhc\.noaa\.gov/i.test(link) && rss['@_xmlns:nhc'] === undefined) {
    throw new CatintelError(
      'invalid_input',
      `${expected}; got an RSS feed from ${link || 'an unnamed channel'}, not from NHC`,
    );
  }
  const pubDate = Date.parse(text(channel.pubDate) ?? '');
  const records: SourceRecord[] = [];
  const skipped: SkippedRecord[] = [];
  const items = Array.isArray(channel.item) ? channel.item : [];
  for (const item of items) {
    const r = itemRecord(isNode(item) ? item : {}, ctx, Number.isFinite(pubDate) ? new Date(pubDate) : ctx.now);
    if ('reason' in r) skipped.push(r);
    else records.push(r);
  }
  return { records, skipped };
}

function itemRecord(item: Node, ctx: ParseContext, feedTime: Date): SourceRecord | SkippedRecord {
  const title = text(item.title) ?? text(item.guid) ?? '(untitled item)';
  const cyclone = child(item, 'Cyclone');
  if (isNode(cyclone)) return stormRecord(cyclone, item, ctx, feedTime);
  const link = text(item.link) ?? '';
  if (/outlook/i.test(title) || /gtwo|\/two_/i.test(link))
    return { sourceId: null, reason: `tropical weather outlook, not a storm ("${title}")` };
  if (/no tropical cyclones/i.test(title))
    return { sourceId: null, reason: `no-storm notice, not a storm ("${title}")` };
  return {
    sourceId: null,
    reason: `item without nhc:Cyclone (advisory text or graphics), not a storm summary ("${title}")`,
  };
}

/** NHC type words -> ATCF-style codes (the ones CurrentStorms.json uses), for names and lifecycle. */
const TYPE_CODES: Record<string, string> = {
  HURRICANE: 'HU',
  'MAJOR HURRICANE': 'HU',
  TYPHOON: 'TY',
  'TROPICAL STORM': 'TS',
  'TROPICAL DEPRESSION': 'TD',
  'SUBTROPICAL STORM': 'SS',
  'SUBTROPICAL DEPRESSION': 'SD',
  'POST-TROPICAL CYCLONE': 'PTC',
  'POTENTIAL TROPICAL CYCLONE': 'PC',
};

/**
 * Advisory intensities are whole multiples of 5 kt and the RSS states them in mph rounded to 5 mph, so
 * mph / 1.15078 rounded to 5 kt gives back the advisory's kt exactly (the rounding error is < 2.2 kt).
 */
function windKtOf(s: string | null): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*(mph|kt|kts|knots|km\/h|kph)$/i.exec(s ?? '');
  if (!m) return null;
  const v = Number(m[1]);
  const unit = m[2].toLowerCase();
  if (unit.startsWith('k') && unit !== 'km/h' && unit !== 'kph') return v;
  const kt = unit === 'mph' ? v / 1.15078 : v / 1.852;
  return Math.round(kt / 5) * 5;
}

function stormRecord(c: Node, item: Node, ctx: ParseContext, feedTime: Date): SourceRecord | SkippedRecord {
  const atcf = text(child(c, 'atcf'))?.toLowerCase() ?? null;
  if (atcf === null || !/^[a-z]{2}\d{6}$/.test(atcf))
    return { sourceId: atcf, reason: `bad storm id ${JSON.stringify(atcf)} in nhc:atcf` };
  const [lat, lng] = (text(child(c, 'center')) ?? '').split(',').map((x) => (x.trim() === '' ? NaN : Number(x)));
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180)
    return { sourceId: atcf, reason: 'bad or missing nhc:center' };
  const windText = text(child(c, 'wind'));
  const windKt = windKtOf(windText);
  if (windKt === null) return { sourceId: atcf, reason: `no readable nhc:wind (${JSON.stringify(windText)})` };
  const localTime = text(child(c, 'datetime'));
  const pub = Date.parse(text(item.pubDate) ?? '');
  const advisoryAt =
    nhcLocalTime(localTime ?? '', Number.isFinite(pub) ? new Date(pub) : feedTime) ??
    (Number.isFinite(pub) ? new Date(pub).toISOString() : null);
  if (advisoryAt === null) return { sourceId: atcf, reason: 'no readable nhc:datetime or pubDate' };
  const pm = /^(\d+(?:\.\d+)?)\s*mb$/i.exec(text(child(c, 'pressure')) ?? '');
  const pressureMb = pm ? Number(pm[1]) : null;
  const typeText = text(child(c, 'type')) ?? 'Tropical Cyclone';
  const code = TYPE_CODES[typeText.toUpperCase()] ?? null;
  const name = text(child(c, 'name'));
  const headline = text(child(c, 'headline'));
  const movement = text(child(c, 'movement'));
  const mv = /^([NESW]{1,3})\s+at\s+(\d+)\s*mph$/i.exec(movement ?? '');
  // "...THIS IS THE LAST ADVISORY...": NHC stops advising; the storm ends with this advisory.
  const final = /LAST (PUBLIC )?ADVISORY/i.test(headline ?? '');
  const winding = (code !== null && WINDING_TYPES.has(code)) || /remnant|extratropical|dissipat/i.test(typeText);
  const link = text(item.link);
  const observations = fixObservations(advisoryAt, windKt, pressureMb, lat, lng);
  return {
    source: 'nhc',
    sourceId: atcf,
    sourceUrl: link && /^https?:/.test(link) ? link : ctx.sourceUrl,
    title: stormTitle(code && code !== 'PC' ? typeName(code) : titleCase(typeText), name, atcf),
    eventType: 'hurricane',
    severity: windKt,
    severityLabel: saffirSimpsonLabel(windKt),
    // The feed gives no genesis time: the advisory time stands in, as for CurrentStorms.json.
    startedAt: advisoryAt,
    sourceUpdatedAt: advisoryAt,
    lat,
    lng,
    confidence: 0.9, // operational advisory values, as CurrentStorms.json
    signals: final ? { winding: true, endedAt: advisoryAt } : { winding },
    ringInput: {
      kind: 'hurricane',
      windRadiiNm: {},
      maxWindKt: windKt,
      ...(pressureMb !== null ? { pressureMb } : {}),
    },
    observations,
    details: {
      feed: 'nhc_rss',
      atcf_id: atcf,
      basin: atcf.slice(0, 2).toUpperCase(),
      bin_number: text(child(c, 'wallet')),
      name,
      classification: code,
      type: typeText,
      max_wind_kt: windKt,
      wind_as_published: windText,
      pressure_mb: pressureMb,
      movement,
      movement_dir_deg: mv ? compassDeg(mv[1]) : null,
      movement_speed_mph: mv ? Number(mv[2]) : /stationary/i.test(movement ?? '') ? 0 : null,
      headline,
      final_advisory: final,
      advisory_time_local: localTime,
      public_advisory_url: link,
    },
  };
}
