/**
 * HURDAT2 best-track parser (NHC format: a header line "AL092022, IAN, 40," then that many data lines
 * "YYYYMMDD, HHMM, record id, status, lat, lon, Vmax kt, pmin mb, 34/50/64-kt radii x4, RMW nm").
 * -999 marks a missing value. Storm blocks may come in any order within a year (SOURCES.md §2 on the
 * reassembled Atlantic file), so callers must not rely on it; we sort by storm id.
 */

export interface TrackFix {
  hours: number; // hours since 1970-01-01T00Z
  lat: number;
  lng: number; // east positive
  windKt: number;
  /** HURDAT2 record identifier: '' for a synoptic fix, 'L' landfall, 'I' intensity peak, 'P' pressure minimum, ... */
  record?: string;
  /** HURDAT2 system status: TD, TS, HU (tropical), SD, SS (subtropical), EX, LO, WV, DB. */
  status: string;
  pressureMb: number | null;
  rmwNm: number | null;
  /** Mean of the four 64-kt quadrant radii (nm), when all four are reported (2004+). */
  r64Nm: number | null;
  /** The same for the 34- and 50-kt radii. */
  r34Nm: number | null;
  r50Nm: number | null;
}

export interface Storm {
  id: string; // e.g. AL092022
  year: number;
  fixes: TrackFix[];
}

function coord(s: string): number {
  const v = Number(s.slice(0, -1));
  const h = s.slice(-1);
  return h === 'S' || h === 'W' ? -v : v;
}

export function parseHurdat2(text: string): Storm[] {
  const lines = text.split(/\r?\n/);
  const storms: Storm[] = [];
  let i = 0;
  while (i < lines.length) {
    const head = lines[i].split(',').map((s) => s.trim());
    i++;
    if (head.length < 3 || !/^[A-Z]{2}\d{6}$/.test(head[0])) continue;
    const n = Number(head[2]);
    const fixes: TrackFix[] = [];
    for (let k = 0; k < n && i < lines.length; k++, i++) {
      const f = lines[i].split(',').map((s) => s.trim());
      const date = f[0];
      const hhmm = f[1].padStart(4, '0');
      const ms = Date.UTC(
        Number(date.slice(0, 4)),
        Number(date.slice(4, 6)) - 1,
        Number(date.slice(6, 8)),
        Number(hhmm.slice(0, 2)),
        Number(hhmm.slice(2, 4)),
      );
      const wind = Number(f[6]);
      const p = Number(f[7]);
      const rmw = f.length > 20 ? Number(f[20]) : -999;
      const meanRadius = (from: number): number | null => {
        const r = f.slice(from, from + 4).map(Number);
        return r.length === 4 && r.every((x) => x >= 0) && r.some((x) => x > 0)
          ? (r[0] + r[1] + r[2] + r[3]) / 4
          : null;
      };
      if (!(wind >= 0)) continue; // -99 / -999: no intensity estimate
      fixes.push({
        hours: ms / 3_600_000,
        lat: coord(f[4]),
        lng: coord(f[5]),
        windKt: wind,
        record: f[2],
        status: f[3],
        pressureMb: p > 0 ? p : null,
        rmwNm: rmw > 0 ? rmw : null,
        r64Nm: meanRadius(16),
        r34Nm: meanRadius(8),
        r50Nm: meanRadius(12),
      });
    }
    fixes.sort((a, b) => a.hours - b.hours);
    storms.push({ id: head[0], year: Number(head[0].slice(4)), fixes });
  }
  return storms.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
