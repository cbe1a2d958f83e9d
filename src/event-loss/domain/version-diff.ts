/**
 * What changed between two stored product versions of a hurricane or an earthquake (docs/event-diff.md):
 * the position (a storm's latest fix, a quake's epicentre) and how far it moved, the intensity (a storm's
 * latest wind and pressure, a quake's magnitude), the fixes added, and the rings added, removed, redrawn.
 * Pure: the caller reads the versions (src/store/event-history.ts) and adds the loss and the triggers.
 */
import { haversineKm } from '../../lib/geo.js';

export interface VersionSide {
  version: number;
  stored_at: string;
  product_version: string;
  event: { event_type: string; lat: number; lng: number; severity: number; severity_label: string; status: string };
  observations: { kind: string; observed_at: string; value: number; lat: number | null; lng: number | null }[];
  rings: { kind: string; label: string; threshold: number | null; radius_km: number | null; geometry_md5: string }[];
}

export interface PositionOf {
  lat: number;
  lng: number;
  at: string | null;
}

export interface IntensityOf {
  severity: number;
  severity_label: string;
  wind_kt: number | null;
  pressure_mb: number | null;
}

const latestOf = (s: VersionSide, kind: string) => {
  const xs = s.observations.filter((o) => o.kind === kind);
  return xs.length ? xs[xs.length - 1] : null;
};

function positionOf(s: VersionSide): PositionOf {
  const fix = s.event.event_type === 'hurricane' ? latestOf(s, 'wind_speed_kt') : null;
  return fix && fix.lat !== null && fix.lng !== null
    ? { lat: fix.lat, lng: fix.lng, at: fix.observed_at }
    : { lat: s.event.lat, lng: s.event.lng, at: null };
}

function intensityOf(s: VersionSide): IntensityOf {
  return {
    severity: s.event.severity,
    severity_label: s.event.severity_label,
    wind_kt: latestOf(s, 'wind_speed_kt')?.value ?? null,
    pressure_mb: latestOf(s, 'central_pressure_mb')?.value ?? null,
  };
}

const fixTimes = (s: VersionSide) =>
  new Set(s.observations.filter((o) => o.kind === 'wind_speed_kt').map((o) => o.observed_at));
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const minus = (a: number | null, b: number | null) => (a === null || b === null ? null : round(a - b, 2));

export function versionDiff(from: VersionSide, to: VersionSide) {
  const [pf, pt] = [positionOf(from), positionOf(to)];
  const [inf, int] = [intensityOf(from), intensityOf(to)];
  const before = fixTimes(from);
  const added = [...fixTimes(to)].filter((t) => !before.has(t)).sort();
  const key = (r: VersionSide['rings'][number]) => `${r.kind}|${r.label}`;
  const ringsFrom = new Map(from.rings.map((r) => [key(r), r]));
  const ringsTo = new Map(to.rings.map((r) => [key(r), r]));
  return {
    position: { from: pf, to: pt, moved_km: round(haversineKm(pf.lat, pf.lng, pt.lat, pt.lng)) },
    intensity: {
      from: inf,
      to: int,
      severity_change: round(int.severity - inf.severity, 2),
      wind_kt_change: minus(int.wind_kt, inf.wind_kt),
      pressure_mb_change: minus(int.pressure_mb, inf.pressure_mb),
    },
    status: { from: from.event.status, to: to.event.status },
    fixes: { from: before.size, to: fixTimes(to).size, added },
    rings: {
      added: [...ringsTo.values()].filter((r) => !ringsFrom.has(key(r))).map(ringOf),
      removed: [...ringsFrom.values()].filter((r) => !ringsTo.has(key(r))).map(ringOf),
      redrawn: [...ringsTo.values()]
        .filter((r) => ringsFrom.has(key(r)) && ringsFrom.get(key(r))!.geometry_md5 !== r.geometry_md5)
        .map((r) => ({
          ...ringOf(r),
          radius_km_from: ringsFrom.get(key(r))!.radius_km,
        })),
    },
  };
}

const ringOf = (r: VersionSide['rings'][number]) => ({
  kind: r.kind,
  label: r.label,
  threshold: r.threshold,
  radius_km: r.radius_km,
});

/** A loss band's change, to the cent: `to` minus `from` of each figure. */
export function bandDelta<K extends string>(from: Record<K, number>, to: Record<K, number>): Record<K, number> {
  const out = {} as Record<K, number>;
  for (const k of Object.keys(to) as K[])
    if (typeof to[k] === 'number' && typeof from[k] === 'number') out[k] = Math.round((to[k] - from[k]) * 100) / 100;
  return out;
}
