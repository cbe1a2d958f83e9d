/**
 * Human output of the intelligence commands (docs/intelligence.md): infrastructure as a nearest-first table,
 * exposure as one row per ring, now and so far (the swath), the prediction's method and forecast, the timeline as a table, and a
 * scenario's rings with what is inside them. `--json` prints the handler's JSON instead.
 */
import { keyValues, table } from './text.js';
import type { UntypedJson } from '../../lib/untyped-json.js';

const n0 = (x: unknown) => (typeof x === 'number' ? Math.round(x).toLocaleString('en-US') : '-');
const pct = (x: unknown) => (typeof x === 'number' ? `${(x * 100).toFixed(1)} %` : '-');

export function infrastructureText(b: UntypedJson): string {
  const rows = (b.features ?? []).map((f: UntypedJson) => [
    f.properties.distance_km,
    f.properties.kind,
    f.properties.name,
    f.properties.city,
    f.properties.state,
  ]);
  const lines = table(['km', 'kind', 'name', 'city', 'state'], rows, ['right']);
  lines.push(
    '',
    `${b.numberReturned} of ${b.numberMatched} within ${b.query?.radius_km} km (${Object.entries(b.counts_by_kind ?? {})
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')})`,
  );
  const next = (b.links ?? []).find((l: UntypedJson) => l.rel === 'next');
  if (next) lines.push(`next page: --cursor ${new URL(next.href, 'http://x').searchParams.get('cursor')}`);
  // Coverage gaps are printed as hints (the handler's notes), under this table.
  return lines.join('\n') + '\n';
}

/** A facility count; null is a kind with no data in the ring's states, which is not 0. */
const infraCount = (x: unknown) => (x === null ? 'not covered' : n0(x));

function ringRows(rings: UntypedJson[]): string[] {
  return table(
    ['ring', 'population', 'counties', 'hospitals', 'urgent care', 'schools', 'fire stations', 'portfolio TIV'],
    rings.map((r) => [
      r.label,
      n0(r.population.population),
      r.population.counties.length,
      infraCount(r.infrastructure.counts.hospital),
      infraCount(r.infrastructure.counts.urgent_care),
      infraCount(r.infrastructure.counts.school),
      infraCount(r.infrastructure.counts.fire_station),
      (r.portfolio_tiv ?? []).map((t: UntypedJson) => `${n0(t.TotalInsuranceAmt)} ${t.CurCd}`).join(', '),
    ]),
    [undefined, 'right', 'right', 'right', 'right', 'right', 'right'],
  );
}

function hospitalsOf(rings: UntypedJson[]): string[] {
  const out: string[] = [];
  for (const r of rings) {
    const h = r.infrastructure.hospitals;
    if (!h || h.length === 0) continue;
    out.push(
      '',
      `hospitals inside ${r.label}:`,
      ...h.map((x: UntypedJson) => `  ${x.name}, ${x.city} ${x.state}${x.beds ? ` (${x.beds} beds)` : ''}`),
    );
  }
  return out;
}

export function exposureText(b: UntypedJson): string {
  const lines = [
    `${b.event.title} (${b.event.event_type}, ${b.event.status}) as of ${b.as_of}`,
    '',
    'now (the rings at the clock):',
    ...ringRows(b.rings),
    ...hospitalsOf(b.rings),
  ];
  const soFar = b.so_far?.rings ?? [];
  if (soFar.length > 0) {
    const from = soFar.map((r: UntypedJson) => r.from).sort()[0];
    const to = soFar
      .map((r: UntypedJson) => r.to)
      .sort()
      .at(-1);
    lines.push(
      '',
      `so far (the swath: the rings at every fix from ${from} to ${to}):`,
      ...ringRows(
        soFar.map((r: UntypedJson) => ({ ...r, label: `${r.label}${r.fixes > 1 ? ` (${r.fixes} fixes)` : ''}` })),
      ),
    );
  }
  if (b.impact)
    lines.push(
      '',
      `PAGER-style fatalities, lower bound: ${n0(b.impact.fatalities_lower_bound)} (${b.impact.alert_level})`,
    );
  lines.push(
    '',
    `population: ${b.method.population}`,
    `sources: ${b.sources.map((s: UntypedJson) => s.name).join('; ')}`,
  );
  return lines.join('\n') + '\n';
}

export function predictionText(b: UntypedJson): string {
  const lines = [`${b.event.title}: indicative, valid at ${b.valid_at}`, `method: ${b.method.name}`];
  const f = b.forecast ?? {};
  if (Array.isArray(f.windows)) {
    lines.push(
      '',
      ...table(
        ['window', 'P(M>=5)', 'expected M>=5', `P(M>=${b.event.severity})`],
        f.windows.map((w: UntypedJson) => [w.window, pct(w.p_m5), w.expected_m5, pct(w.p_larger)]),
        [undefined, 'right', 'right', 'right'],
      ),
    );
  } else if (f.source_forecast) {
    lines.push(
      '',
      ...table(
        ['hours', 'valid at', 'lat', 'lng', 'wind kt', 'pressure mb'],
        f.source_forecast.points.map((p: UntypedJson) => [
          p.tau_h,
          p.valid_at,
          p.lat,
          p.lng,
          p.max_wind_kt,
          p.pressure_mb,
        ]),
        ['right', undefined, 'right', 'right', 'right', 'right'],
      ),
    );
  } else if (Array.isArray(f.projected) && f.projected.length) {
    lines.push(
      '',
      ...table(
        ['hours ahead', 'at', ...Object.keys(f.projected[0]).filter((k) => !['hours', 'at'].includes(k))],
        f.projected.map((p: UntypedJson) => [
          p.hours,
          p.at,
          ...Object.entries(p)
            .filter(([k]) => !['hours', 'at'].includes(k))
            .map(([, v]) => v as UntypedJson),
        ]),
        ['right'],
      ),
    );
  } else {
    lines.push(...keyValues(f, 2));
  }
  lines.push('', `uncertainty: ${b.uncertainty}`, b.disclaimer);
  return lines.join('\n') + '\n';
}

export function timelineText(b: UntypedJson): string {
  const rows = b.points.map((p: UntypedJson) =>
    p.kind === 'status'
      ? [p.at, 'status', p.status, '', p.reason]
      : [
          p.at,
          p.kind,
          `${p.value} ${p.unit}`,
          p.change === null ? '' : p.change > 0 ? `+${p.change}` : String(p.change),
          '',
        ],
  );
  return (
    [
      `${b.event.title} (${b.event.source})`,
      '',
      ...table(['at', 'kind', 'value', 'change', 'reason'], rows, [undefined, undefined, 'right', 'right']),
    ].join('\n') + '\n'
  );
}

export function scenarioText(b: UntypedJson): string {
  const e = b.hypothetical_event;
  const lines = [
    `scenario ${b.id}${b.name ? ` "${b.name}"` : ''}: ${e.title} at ${e.lat}, ${e.lng} (as if from ${e.as_if_source})`,
    '',
    ...ringRows(b.exposure.rings),
    ...hospitalsOf(b.exposure.rings),
  ];
  if (b.exposure.impact)
    lines.push(
      '',
      `PAGER-style fatalities, lower bound: ${n0(b.exposure.impact.fatalities_lower_bound)} (${b.exposure.impact.alert_level})`,
    );
  if (b.scores?.covered) lines.push('', ...b.scores.perils.map((p: UntypedJson) => `score ${p.peril}: ${p.score}`));
  if (b.triggers?.results?.length)
    lines.push(
      '',
      ...table(
        ['trigger', 'state', 'observed', 'proximity %'],
        b.triggers.results.map((t: UntypedJson) => [
          t.name,
          t.state,
          `${t.observed_value ?? '-'} ${t.unit}`,
          t.proximity_pct,
        ]),
        [undefined, undefined, 'right', 'right'],
      ),
    );
  lines.push('', `show again: catintel scenario show ${b.id}`);
  return lines.join('\n') + '\n';
}
