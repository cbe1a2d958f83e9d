/**
 * OED peril codes as LocPerilsCovered holds them (OED 5.0.0 PerilValues / PerilsCovered, ods-tools 5.0.9;
 * github.com/OasisLMF/ODS_OpenExposureData): single codes and the groups that stand for several. A location covers
 * the codes its LocPerilsCovered names, groups expanded. An event reaches a location's cover when one of the
 * OED codes of its event type is among them (EVENT_TYPE_CODES, docs/portfolios.md#live-exposure).
 */
import { EVENT_TYPES, type EventType } from '../../domain/event.js';

export const OED_PERIL_CODES = [
  'QEQ',
  'QFF',
  'QTS',
  'QSL',
  'QLS',
  'QLF',
  'WTC',
  'WEC',
  'WSS',
  'ORF',
  'OSF',
  'XSL',
  'XTD',
  'XHL',
  'XLT',
  'XCH',
  'ZSN',
  'ZIC',
  'ZFZ',
  'ZST',
  'BFR',
  'BBF',
  'BSK',
  'MNT',
  'MTR',
  'SSD',
  'SBU',
  'CSB',
  'CPD',
  'PNF',
  'VVA',
  'VVE',
  'VVL',
] as const;
export type OedPerilCode = (typeof OED_PERIL_CODES)[number];

const XX1: OedPerilCode[] = ['XSL', 'XTD', 'XHL', 'XLT'];
const ZZ1: OedPerilCode[] = ['ZSN', 'ZIC', 'ZFZ', 'ZST'];

/** OED peril groups (OED PerilValues). AA1 is every peril. */
export const OED_PERIL_GROUPS: Record<string, readonly OedPerilCode[]> = {
  QQ1: ['QEQ', 'QFF', 'QTS', 'QSL', 'QLS', 'QLF'],
  WW1: ['WTC', 'WEC', 'WSS'],
  WW2: ['WTC', 'WEC'],
  OO1: ['ORF', 'OSF'],
  XX1,
  ZZ1,
  XZ1: [...XX1, ...ZZ1],
  BB1: ['BBF', 'BSK'],
  MM1: ['MNT', 'MTR'],
  CC1: ['CSB', 'CPD'],
  PP1: ['PNF'],
  GG1: ['XCH'],
  VV1: ['VVA', 'VVE', 'VVL'],
  AA1: OED_PERIL_CODES,
};

/**
 * The OED codes an event of each type acts through (docs/portfolios.md#live-exposure). extreme_heat
 * has no OED peril code, so no insured location covers it and its exposure is always empty.
 */
export const EVENT_TYPE_CODES: Record<EventType, readonly OedPerilCode[]> = {
  hurricane: ['WTC', 'WSS'],
  earthquake: ['QEQ'],
  wildfire: ['BBF'],
  flood: ['ORF', 'OSF'],
  tornado: ['XTD'],
  severe_storm: ['XSL', 'XHL'],
  winter_storm: ['ZST', 'ZSN', 'ZIC'],
  extreme_heat: [],
  tsunami: ['QTS'],
  volcano: ['VVE'],
};

const SINGLE = new Set<string>(OED_PERIL_CODES);

export interface ParsedCover {
  /** The value as normalised: codes trimmed, upper-cased and ';'-joined. */
  readonly normalised: string;
  /** Every single code covered, groups expanded, in OED_PERIL_CODES order. */
  readonly codes: readonly OedPerilCode[];
  /** codes, ';'-joined. */
  readonly codesText: string;
  /** The codes that are neither a peril nor a group. */
  readonly unknown: readonly string[];
}

/** A file repeats few distinct LocPerilsCovered values: each is parsed once (results are frozen, shared). */
const parsed = new Map<string, ParsedCover>();

/** Reads a LocPerilsCovered value ('WW1;QQ1', 'wtc; wss'). */
export function parseCover(value: string): ParsedCover {
  const hit = parsed.get(value);
  if (hit) return hit;
  const cover = Object.freeze(parseCoverOnce(value));
  if (parsed.size < 10_000) parsed.set(value, cover);
  return cover;
}

function parseCoverOnce(value: string): ParsedCover {
  const parts = value
    .split(';')
    .map((c) => c.trim().toUpperCase())
    .filter((c) => c !== '');
  const covered = new Set<string>();
  const unknown: string[] = [];
  for (const p of parts) {
    if (SINGLE.has(p)) covered.add(p);
    else if (OED_PERIL_GROUPS[p]) for (const c of OED_PERIL_GROUPS[p]) covered.add(c);
    else unknown.push(p);
  }
  const codes = OED_PERIL_CODES.filter((c) => covered.has(c));
  return { normalised: parts.join(';'), codes, codesText: codes.join(';'), unknown };
}

/** An event type's bit in an event-type mask: its index in EVENT_TYPES. */
export const eventTypeBit = (t: EventType): number => 1 << EVENT_TYPES.indexOf(t);

/** The mask of the event types whose OED codes meet these covered codes (what a location is insured against). */
export function eventTypeMask(codes: readonly string[]): number {
  const have = new Set(codes);
  let m = 0;
  for (const t of EVENT_TYPES) if (EVENT_TYPE_CODES[t].some((c) => have.has(c))) m |= eventTypeBit(t);
  return m;
}
