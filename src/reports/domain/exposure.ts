/**
 * What the reports read of GET /events/{id}/exposure (src/handlers/events-exposure.ts; each ring is
 * src/intelligence/exposure.ts RingExposureBody with the caller's portfolio TIV): its rings, innermost first,
 * by the members that endpoint writes. Both the briefing and the ICS-209 read the exposure through here.
 */
import { fmtNumber } from './text.js';
import type { ReportInputs } from './inputs.js';

/** The members of an exposure ring the reports show. */
export interface ExposureRing {
  label: string;
  /** County-apportioned population inside the ring. */
  population: { population: number };
  infrastructure: {
    /** Facilities inside the ring by kind; null where the kind has no data in the ring's states. */
    counts: Record<string, number | null>;
    /** Hospitals named inside the innermost rings, null beyond. */
    hospitals: { name: string; city: string }[] | null;
    hospitals_truncated: boolean;
    coverage: { kind: string; covered: string; note?: string }[];
  };
  /** The caller's insured TIV inside the ring, per currency. */
  portfolio_tiv: { CurCd: string; TotalInsuranceAmt: number; NumLocations: number }[];
}

/** The exposure body's members the reports read. */
interface ExposureBody {
  rings: ExposureRing[];
  method: { population: string };
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The rings of an exposure body, innermost first (the endpoint lists them in the rings' order). */
export function exposureRings(body: unknown): ExposureRing[] {
  const rings = (body as ExposureBody | null)?.rings;
  return Array.isArray(rings) ? rings : [];
}

export const populationIn = (r: ExposureRing): number | null => num(r.population?.population);

export const hospitalsIn = (r: ExposureRing): number | null => num(r.infrastructure?.counts?.hospital);

/** The caller's portfolio TIV inside a ring, per currency, largest first. */
export function tivIn(r: ExposureRing): { currency: string; tiv: number; locations: number }[] {
  const list = Array.isArray(r.portfolio_tiv) ? r.portfolio_tiv : [];
  return list
    .map((t) => ({
      currency: String(t.CurCd ?? ''),
      tiv: num(t.TotalInsuranceAmt) ?? 0,
      locations: num(t.NumLocations) ?? 0,
    }))
    .filter((t) => t.tiv > 0)
    .sort((a, b) => b.tiv - a.tiv || a.currency.localeCompare(b.currency));
}

export const ringName = (r: ExposureRing, i: number): string => r.label ?? `ring ${i + 1}`;

/** One line for ICS-209 blocks 30 and 38: people and hospitals inside the innermost and outermost rings. */
export function exposureSummary(body: unknown, inputs: Pick<ReportInputs, 'place'>): string | null {
  const rows = exposureRings(body);
  if (!rows.length) return null;
  if (inputs.place.state === null && rows.every((r) => !populationIn(r))) return null;
  const line = (r: ExposureRing, i: number) =>
    `${ringName(r, i)}: about ${fmtNumber(populationIn(r) ?? NaN)} people (county-apportioned), ${fmtNumber(hospitalsIn(r) ?? NaN)} hospitals`;
  const parts = [line(rows[0], 0)];
  if (rows.length > 1) parts.push(line(rows[rows.length - 1], rows.length - 1));
  return parts.join('; ');
}
