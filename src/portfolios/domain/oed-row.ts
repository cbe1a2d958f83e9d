/**
 * One OED location row, checked and normalised the same way whether it came from a CSV line or a JSON object
 * (docs/contract.md#portfolios; docs/portfolios.md#reading-oed). Values arrive raw: CSV text, or JSON values. Rules:
 *   LocNumber          required, 1-20 characters (OED nvarchar(20))
 *   Latitude/Longitude required, decimal degrees in [-90, 90] / [-180, 180]
 *   OccupancyCode, ConstructionCode  optional whole numbers >= 0 (blank: unknown, null)
 *   BuildingTIV, ContentsTIV, BITIV, OtherTIV  optional amounts in [0, 10^15] (blank: 0)
 *   LocPerilsCovered   OED peril codes and groups separated by ';' (blank: AA1, every peril; documented)
 *   LocCurrency        ISO 4217 three letters (blank: USD; documented)
 */
import { PERILS, type Peril } from '../../domain/scoring/perils.js';
import { coveredMask, perilBit } from '../../oed/perils.js';
import { parseCover } from './perils.js';

/** The OED fields the importer reads (spelled as the OED spec spells them). */
export const IMPORTED_FIELDS = [
  'LocNumber',
  'Latitude',
  'Longitude',
  'OccupancyCode',
  'ConstructionCode',
  'BuildingTIV',
  'ContentsTIV',
  'BITIV',
  'OtherTIV',
  'LocPerilsCovered',
  'LocCurrency',
] as const;
export type ImportedField = (typeof IMPORTED_FIELDS)[number];

export const DEFAULT_PERILS_COVERED = 'AA1';
export const DEFAULT_CURRENCY = 'USD';
export const MAX_LOC_NUMBER = 20;
/** A TIV above this (10^15, a thousand trillion) is taken for a unit or typing error; sums of a million such stay exact enough and finite. */
export const MAX_TIV = 1e15;

export interface LocationRow {
  locNumber: string;
  lat: number;
  lng: number;
  occupancyCode: number | null;
  constructionCode: number | null;
  buildingTiv: number;
  contentsTiv: number;
  biTiv: number;
  otherTiv: number;
  /** LocPerilsCovered normalised. */
  perilsCovered: string;
  /** The single OED codes covered, groups expanded, ';'-joined. */
  perilCodes: string;
  currency: string;
}

export interface RowProblem {
  field: string;
  message: string;
}

type Raw = unknown;

const blank = (v: Raw) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

function textOfAny(v: Raw): string | null {
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

const NUMBER_RE = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A number from JSON or CSV text ('1,000' and '$5' are refused: OED amounts are plain decimals). */
function numberOfAny(v: Raw): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && NUMBER_RE.test(v.trim())) return Number(v.trim());
  return NaN;
}

const shown = (v: Raw) => JSON.stringify(typeof v === 'string' ? v.trim().slice(0, 40) : v);

/**
 * Checks one row. `get` answers the raw value of a field (undefined when the column is absent); coordinates
 * from a CSV line may come already parsed (the bulk scorer's byte parser).
 */
export function checkRow(
  getRaw: (f: ImportedField) => Raw,
  o: { json?: boolean } = {},
): { row: LocationRow | null; problems: RowProblem[] } {
  const problems: RowProblem[] = [];
  // A JSON null is not a value of any OED field: reported once, then read as absent.
  const nulled = new Set<ImportedField>();
  const get = (f: ImportedField): Raw => {
    const v = getRaw(f);
    if (o.json && v === null) {
      if (!nulled.has(f)) problems.push({ field: f, message: 'is null; omit the field to take its default' });
      nulled.add(f);
      return undefined;
    }
    return v;
  };
  // JSON values keep their JSON types (openapi.yaml OedLocation): "25.7" is not a number there, 7 is not a LocNumber.
  const numberOf = (v: Raw) => (o.json && typeof v !== 'number' ? NaN : numberOfAny(v));
  const text = (v: Raw) => (o.json && typeof v !== 'string' ? null : textOfAny(v));
  // A numeric field is absent when blank in CSV text, or missing in JSON (where "" is a string, not a number).
  const absent = (v: Raw) => (o.json ? v === undefined : blank(v));
  const bad = (field: ImportedField, message: string) => {
    if (!nulled.has(field)) problems.push({ field, message });
  };

  const locRaw = get('LocNumber');
  const locNumber = text(locRaw);
  if (blank(locRaw) || locNumber === null)
    bad('LocNumber', blank(locRaw) ? 'is required' : `${shown(locRaw)} is not a text value`);
  else if (locNumber.length > MAX_LOC_NUMBER)
    bad('LocNumber', `is ${locNumber.length} characters; OED allows at most ${MAX_LOC_NUMBER}`);

  const coord = (field: 'Latitude' | 'Longitude', limit: number): number => {
    const v = get(field);
    if (absent(v)) {
      bad(field, 'is required');
      return NaN;
    }
    const n = numberOf(v);
    if (!Number.isFinite(n)) bad(field, `${shown(v)} is not a number`);
    else if (n < -limit || n > limit) bad(field, `${n} is out of range [${-limit}, ${limit}]`);
    return n;
  };
  const lat = coord('Latitude', 90);
  const lng = coord('Longitude', 180);

  const code = (field: 'OccupancyCode' | 'ConstructionCode'): number | null => {
    const v = get(field);
    if (absent(v)) return null;
    const n = numberOf(v);
    if (!Number.isInteger(n) || n < 0 || n > 2 ** 31 - 1) {
      bad(field, `${shown(v)} is not an OED code (a whole number)`);
      return null;
    }
    return n;
  };
  const occupancyCode = code('OccupancyCode');
  const constructionCode = code('ConstructionCode');

  const tiv = (field: 'BuildingTIV' | 'ContentsTIV' | 'BITIV' | 'OtherTIV'): number => {
    const v = get(field);
    if (absent(v)) return 0;
    const n = numberOf(v);
    if (!Number.isFinite(n)) bad(field, `${shown(v)} is not a number (plain decimal, no separators or currency signs)`);
    else if (n < 0) bad(field, `${n} is negative; a TIV is at least 0`);
    else if (n > MAX_TIV) bad(field, `${n} is more than ${MAX_TIV} (10^15); is the unit right?`);
    return n;
  };
  const buildingTiv = tiv('BuildingTIV');
  const contentsTiv = tiv('ContentsTIV');
  const biTiv = tiv('BITIV');
  const otherTiv = tiv('OtherTIV');

  const perilsRaw = get('LocPerilsCovered');
  let perilsCovered = DEFAULT_PERILS_COVERED;
  let perilCodes = '';
  if (!blank(perilsRaw) && typeof perilsRaw !== 'string')
    bad('LocPerilsCovered', `${shown(perilsRaw)} is not text (OED peril codes separated by ';')`);
  else {
    const cover = parseCover(blank(perilsRaw) ? DEFAULT_PERILS_COVERED : (perilsRaw as string));
    if (cover.unknown.length)
      bad(
        'LocPerilsCovered',
        `${cover.unknown.map((c) => JSON.stringify(c.slice(0, 10))).join(', ')} ${cover.unknown.length === 1 ? 'is not an OED peril code or group' : 'are not OED peril codes or groups'} (e.g. WTC, WSS, QEQ, ORF, BBF, WW1, QQ1, AA1)`,
      );
    else if (cover.codes.length === 0) bad('LocPerilsCovered', 'names no peril');
    perilsCovered = cover.normalised;
    perilCodes = cover.codesText;
  }

  const curRaw = get('LocCurrency');
  let currency = DEFAULT_CURRENCY;
  if (!blank(curRaw)) {
    const c = typeof curRaw === 'string' ? curRaw.trim().toUpperCase() : '';
    if (!/^[A-Z]{3}$/.test(c))
      bad('LocCurrency', `${shown(curRaw)} is not an ISO 4217 currency code (three letters, e.g. USD)`);
    currency = c;
  }

  if (problems.length) return { row: null, problems };
  return {
    row: {
      locNumber: locNumber!,
      lat,
      lng,
      occupancyCode,
      constructionCode,
      buildingTiv,
      contentsTiv,
      biTiv,
      otherTiv,
      perilsCovered,
      perilCodes,
      currency,
    },
    problems,
  };
}

/** The catintel score perils a LocPerilsCovered value covers (those with an OED code; oed/perils.ts). */
export function scorePerilsOf(perilsCovered: string): Peril[] {
  const mask = coveredMask(perilsCovered, PERILS);
  return PERILS.filter((p) => (mask & perilBit(p)) !== 0);
}
