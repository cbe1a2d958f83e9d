/**
 * USGS NSHMP earthquake catalogs and the regional Gutenberg–Richter rates they imply.
 * Files (whitespace columns, SOURCES.md §2 and §6): the 2023 CEUS full catalog emm_pn.c2
 * (Mw lon lat depth yr mo dy hr mi sec σM Mwe N* comment) and the 2014 WUS declustered catalog wmm.c3
 * (emw lon lat depth yr mo dy hr mn sec mwsig nstar comment). N* is NSHM's counting factor for
 * magnitude uncertainty (Mueller 2019); rates sum N*, as NSHM does.
 */

export interface CatalogEvent {
  magnitude: number;
  lat: number;
  lng: number;
  year: number;
  nStar: number;
}

/** nStarColumn: 12 for the 2023 CEUS file, 11 for the 2014 WUS file (0-based). */
export function parseNshmCatalog(text: string, nStarColumn: number): CatalogEvent[] {
  const out: CatalogEvent[] = [];
  for (const line of text.split(/\r?\n/)) {
    const p = line.trim().split(/\s+/);
    if (p.length <= nStarColumn) continue;
    const magnitude = Number(p[0]);
    const lng = Number(p[1]);
    const lat = Number(p[2]);
    const year = Number(p[4]);
    const nStar = Number(p[nStarColumn]);
    if (![magnitude, lng, lat, year, nStar].every(Number.isFinite)) continue; // header lines
    out.push({ magnitude, lat, lng, year, nStar });
  }
  return out;
}

export interface RegionalRate {
  /** Completeness magnitude and start year used (judgement, docs/scoring.md). */
  mc: number;
  fromYear: number;
  toYear: number;
  events: number; // Σ N* above Mc in the window
  rateAboveMc: number; // per year
  b: number; // Aki–Utsu maximum-likelihood b-value
}

/**
 * Aki (1965) maximum-likelihood b with Utsu's binning correction, as in docs/methods.md#score-mappings:
 * b = log10(e) / (M̄ − (Mc − ΔM/2)), M̄ the N*-weighted mean magnitude of events with M ≥ Mc.
 */
export function regionalRate(events: CatalogEvent[], mc: number, fromYear: number, binWidth = 0.1): RegionalRate {
  const sel = events.filter((e) => e.magnitude >= mc && e.year >= fromYear);
  const toYear = events.reduce((m, e) => Math.max(m, e.year), fromYear);
  let w = 0;
  let wm = 0;
  for (const e of sel) {
    w += e.nStar;
    wm += e.nStar * e.magnitude;
  }
  const mean = wm / w;
  return {
    mc,
    fromYear,
    toYear,
    events: w,
    rateAboveMc: w / (toYear - fromYear + 1),
    b: Math.LOG10E / (mean - (mc - binWidth / 2)),
  };
}
