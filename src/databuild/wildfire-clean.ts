/**
 * Cleaning of the ICS-209 incident reports before they become burn probabilities (docs/scoring.md §6,
 * docs/validation.md "Wildfire inputs"). Pure: the reports in, the fires and what was removed (with reasons)
 * out, in a fixed order so the build stays byte-identical.
 *  1. Not a wildfire: the all-hazard archive's hurricane, flood, storm, shuttle-recovery, animal-disease
 *     responses, and storm "blowdown" complexes (fuel clean-up after a windstorm), by name: the archive has no
 *     incident-type column [judgement].
 *  2. A point of origin outside the report's own state (a Florida fire placed in Virginia): relocated when
 *     swapping latitude and longitude or restoring the longitude's minus sign puts it in that state; dropped
 *     otherwise (not moved to the named county's population centre: that would put wildland fires in towns).
 *     "Outside" means no covered cell of that state within ORIGIN_TOLERANCE_KM of the point's cell [judgement:
 *     the 0.25° cells straddle borders].
 *  3. Several reports of one incident (zones, daily or agency reports): one fire per (state, ignition date,
 *     name with its " - North Zone"-style suffix removed), and, as before, per (state, ignition date, area to
 *     0.1 km²); the largest area and the most structures destroyed of the group are kept.
 */
export interface Ics209Report {
  id: string;
  name: string;
  state: string | null;
  county: string | null;
  date: string; // ISO date of ignition
  areaKm2: number;
  lat: number;
  lng: number;
  structuresDestroyed: number | null;
}

export interface CleanFire {
  lat: number;
  lng: number;
  areaKm2: number;
  structuresDestroyed: number;
}

export interface CleaningContext {
  /** FIPS codes of the states with a covered cell within `km` of the point. */
  statesNear: (lat: number, lng: number, km: number) => Set<string>;
  /** State postal code → FIPS. */
  stateFips: Map<string, string>;
}

export interface CleaningReport {
  reports: number;
  not_wildfire: number;
  relocated_fixed_coordinates: number;
  dropped_origin_outside_state: number;
  merged_duplicates: number;
  fires: number;
  /** Examples of each action, for docs/validation.md (first few by id). */
  examples: { relocated: string[]; dropped: string[]; not_wildfire: string[]; merged: string[] };
}

export const NOT_WILDFIRE =
  /(hurricane|tropical|katrina|shuttle|columbia (response|disaster)|\bflood|flooding|ice storm|winter storm|windstorm|snowstorm|blizzard|blowdown|earthquake|tornado|\beoc\b|incident support|recovery|rescue|msfc|covid|pandemic|avian|^end[ -])/i;
export const ORIGIN_TOLERANCE_KM = 15;
const EXAMPLES = 5;

/** The incident's base name: " - North Zone", " (Zone 2)", "Complex" and punctuation removed, lower case. */
export function baseName(name: string): string {
  return name
    .toLowerCase()
    .replace(/\s+-\s+.*$/, '')
    .replace(/\(.*?\)/g, '')
    .replace(/\b(north|south|east|west|northeast|northwest|southeast|southwest|central)?\s*zone\b.*$/, '')
    .replace(/\bcomplex\b|\bcomp\b/g, '')
    .replace(/[^a-z0-9]/g, '');
}

/**
 * The usual transcription errors of a point of origin: latitude and longitude swapped, a longitude written
 * without its minus sign. A fix counts only if it lands in the report's state.
 */
function recoverOrigin(
  x: Ics209Report,
  fips: string,
  ctx: CleaningContext,
): { lat: number; lng: number; how: string } | null {
  const tries = [
    { lat: Math.abs(x.lng), lng: -Math.abs(x.lat), how: 'latitude and longitude swapped' },
    { lat: x.lat, lng: -Math.abs(x.lng), how: 'longitude sign' },
  ];
  for (const t of tries) {
    if (t.lat === x.lat && t.lng === x.lng) continue;
    if (t.lat >= -90 && t.lat <= 90 && ctx.statesNear(t.lat, t.lng, ORIGIN_TOLERANCE_KM).has(fips)) return t;
  }
  return null;
}

export function cleanIcs209(
  reports: readonly Ics209Report[],
  ctx: CleaningContext,
): { fires: CleanFire[]; report: CleaningReport } {
  const r: CleaningReport = {
    reports: reports.length,
    not_wildfire: 0,
    relocated_fixed_coordinates: 0,
    dropped_origin_outside_state: 0,
    merged_duplicates: 0,
    fires: 0,
    examples: { relocated: [], dropped: [], not_wildfire: [], merged: [] },
  };
  const note = (list: string[], s: string) => {
    if (list.length < EXAMPLES) list.push(s);
  };
  const sorted = [...reports].sort(
    (a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) || a.lat - b.lat || a.lng - b.lng || a.areaKm2 - b.areaKm2,
  );
  const kept: Ics209Report[] = [];
  for (const x of sorted) {
    if (NOT_WILDFIRE.test(x.name)) {
      r.not_wildfire++;
      note(r.examples.not_wildfire, `${x.id} (${x.state})`);
      continue;
    }
    const fips = x.state ? ctx.stateFips.get(x.state.toUpperCase()) : undefined;
    if (fips === undefined || ctx.statesNear(x.lat, x.lng, ORIGIN_TOLERANCE_KM).has(fips)) {
      kept.push(x);
      continue;
    }
    const fixed = recoverOrigin(x, fips, ctx);
    if (fixed) {
      r.relocated_fixed_coordinates++;
      note(
        r.examples.relocated,
        `${x.id}: ${x.lat}, ${x.lng} -> ${fixed.lat}, ${fixed.lng} (${fixed.how}, in ${x.state})`,
      );
      kept.push({ ...x, lat: fixed.lat, lng: fixed.lng });
    } else {
      r.dropped_origin_outside_state++;
      note(
        r.examples.dropped,
        `${x.id}: ${x.lat}, ${x.lng} is not in ${x.state}${x.county ? ` (${x.county} County)` : ''}`,
      );
    }
  }

  // Union of the two duplicate keys: one incident = a connected group of reports.
  const parent = kept.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  const byKey = new Map<string, number>();
  kept.forEach((x, i) => {
    for (const key of [
      `n|${x.state}|${x.date}|${baseName(x.name)}`,
      `a|${x.state}|${x.date}|${Math.round(x.areaKm2 * 10)}`,
    ]) {
      const j = byKey.get(key);
      if (j === undefined) byKey.set(key, i);
      else parent[find(i)] = find(j);
    }
  });
  const groups = new Map<number, Ics209Report[]>();
  kept.forEach((x, i) => {
    const root = find(i);
    const g = groups.get(root);
    if (g) g.push(x);
    else groups.set(root, [x]);
  });
  const fires: CleanFire[] = [];
  for (const root of [...groups.keys()].sort((a, b) => a - b)) {
    const g = groups.get(root)!;
    // The report with the largest area stands for the incident (ties: the first by id, as sorted).
    const best = g.reduce((a, b) => (b.areaKm2 > a.areaKm2 ? b : a));
    const destroyed = g.reduce((m, x) => Math.max(m, x.structuresDestroyed ?? 0), 0);
    if (g.length > 1) {
      r.merged_duplicates += g.length - 1;
      note(
        r.examples.merged,
        `${best.name} (${best.state}, ${best.date}): ${g.length} reports -> one of ${best.areaKm2.toFixed(0)} km²`,
      );
    }
    fires.push({ lat: best.lat, lng: best.lng, areaKm2: best.areaKm2, structuresDestroyed: destroyed });
  }
  r.fires = fires.length;
  return { fires, report: r };
}
