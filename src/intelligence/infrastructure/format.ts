/**
 * The embedded infrastructure file (data/infrastructure/, built by scripts/build-infrastructure.ts from the
 * HIFLD files in ../shared/data/infrastructure). One facility a line, as a JSON array:
 *   [kind, id, name, city, state, lat, lng, extra]
 * ordered by kind then id; `meta.json` holds per kind the source file, its URL, the newest date in the
 * file (served as `ingested_at`: the build writes no clock), the row count and the states it covers.
 */
export const FACILITIES_FILE = 'facilities.ndjson.gz';
export const META_FILE = 'meta.json';

/** `ems` is a kind the API names (docs/intelligence.md) but no EMS station data is in the shared data: its coverage is empty. */
export const INFRA_KINDS = ['hospital', 'fire_station', 'school', 'urgent_care', 'ems'] as const;
export type InfraKind = (typeof INFRA_KINDS)[number];

export type FacilityLine = [
  InfraKind,
  string,
  string,
  string,
  string,
  number,
  number,
  Record<string, string | number | null>,
];

export interface Facility {
  kind: InfraKind;
  id: string;
  name: string;
  city: string;
  state: string;
  lat: number;
  lng: number;
  extra: Record<string, string | number | null>;
}

export interface KindMeta {
  kind: InfraKind;
  source: string;
  source_url: string;
  file: string | null;
  /** The newest record date in the file (ISO 8601 UTC), or null when there is no file. */
  ingested_at: string | null;
  rows: number;
  /** Records merged into another as the same facility (duplicates.ts); rows counts what is left. */
  duplicates_merged: number;
  /** USPS codes of the states and territories with at least one facility of this kind. */
  states: string[];
  /** Where the data is known to be complete: 'national' or the states named. */
  scope: 'national' | 'states' | 'none';
  note: string;
}

export interface InfraMeta {
  kinds: KindMeta[];
  inputs: { path: string; bytes: number; sha256: string }[];
}

export function facilityOf(line: FacilityLine): Facility {
  const [kind, id, name, city, state, lat, lng, extra] = line;
  return { kind, id, name, city, state, lat, lng, extra };
}
