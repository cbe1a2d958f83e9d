/** Events as text: the live/nearby table, one event's card, its rings. */
import { keyValues, table } from './text.js';

type Props = Record<string, unknown>;
interface FeatureLike {
  id?: unknown;
  properties: Props;
}
export interface CollectionLike {
  features: FeatureLike[];
  numberMatched: number;
  numberReturned: number;
  links: { rel: string; href: string }[];
}

const minute = (t: unknown) => (typeof t === 'string' ? t.slice(0, 16).replace('T', ' ') : '-');

/**
 * One line per event, columns padded to fit (the distance column only from `events nearby`), the id on
 * the line below so it can be copied into `events show`. A weather alert whose onset is still ahead is
 * shown as upcoming rather than by its status.
 */
export function eventsTable(c: CollectionLike): string {
  const nearby = c.features.some((f) => f.properties.distance_km !== undefined);
  const headers = ['started (UTC)', 'status', 'type', 'severity', ...(nearby ? ['distance'] : []), 'title'];
  const rows = c.features.map((f) => {
    const p = f.properties;
    const status = p.upcoming === true ? 'upcoming' : String(p.status);
    return [
      minute(p.started_at),
      status,
      String(p.event_type),
      String(p.severity_label ?? p.severity),
      ...(nearby ? [`${Number(p.distance_km).toFixed(1)} km`] : []),
      String(p.title),
    ];
  });
  const lines = table(headers, rows, nearby ? ['left', 'left', 'left', 'left', 'right'] : []);
  const body = [lines[0], ...lines.slice(1).flatMap((l, i) => [l, `    ${c.features[i].properties.id}`])];
  const next = c.links.find((l) => l.rel === 'next');
  const more = next ? ` (more: --cursor ${new URL(next.href, 'http://x').searchParams.get('cursor')})` : '';
  const foot = `${c.numberReturned} of ${c.numberMatched} events${more}`;
  return [...(c.features.length ? body : []), foot].join('\n') + '\n';
}

/** `events show`: the headline fields first, then details, then the latest observations as a table. */
export function eventCard(f: FeatureLike & { geometry?: { coordinates?: unknown } }): string {
  const p = f.properties;
  const { observations, details, links, ...rest } = p as Props & {
    observations?: Props[];
    details?: unknown;
    links?: unknown;
  };
  const coords = Array.isArray(f.geometry?.coordinates) ? (f.geometry!.coordinates as number[]) : undefined;
  const head: Props = { ...rest, ...(coords ? { location: `${coords[1]}, ${coords[0]} (lat, lng)` } : {}) };
  delete head.title;
  const lines = [
    String(p.title),
    ...keyValues(head, 2, [
      'id',
      'slug',
      'event_type',
      'severity_label',
      'severity',
      'status',
      'upcoming',
      'started_at',
      'updated_at',
      'monitoring_from',
      'ended_at',
      'location',
      'source',
      'source_id',
      'source_url',
      'confidence_score',
      'ring_count',
    ]),
  ];
  if (details && typeof details === 'object' && Object.keys(details).length)
    lines.push('details:', ...keyValues(details as Props, 2));
  const obs = observations ?? [];
  if (obs.length) {
    const shown = obs.slice(-OBSERVATIONS_SHOWN);
    lines.push(
      `observations (${obs.length > shown.length ? `latest ${shown.length} of ${obs.length}; --json for all` : obs.length}):`,
    );
    lines.push(
      ...table(
        ['observed (UTC)', 'kind', 'value', 'unit', 'lat', 'lng'],
        shown.map((o) => [
          minute(o.observed_at),
          String(o.kind),
          o.value as number,
          String(o.unit),
          o.lat as number,
          o.lng as number,
        ]),
        ['left', 'left', 'right', 'left', 'right', 'right'],
      ).map((l) => `  ${l}`),
    );
  }
  if (Number(p.ring_count) > 0) lines.push(`rings: catintel events rings ${p.id}`);
  return lines.join('\n') + '\n';
}

const OBSERVATIONS_SHOWN = 12;

/** `events rings`: innermost first as stored, outermost last, with the threshold and radius. */
export function ringsTable(c: CollectionLike): string {
  if (!c.features.length) return 'No rings for this event.\n';
  const rows = c.features.map((f) => {
    const p = f.properties;
    return [
      String(p.kind),
      p.threshold === null ? '-' : `${p.threshold} ${p.unit ?? ''}`.trim(),
      p.radius_km === null ? '-' : `${p.radius_km} km`,
      String(p.label),
      String(p.ring_id),
    ];
  });
  const lines = table(['kind', 'threshold', 'radius', 'label', 'ring id'], rows, ['left', 'right', 'right']);
  return [...lines, `${c.features.length} rings, outermost last; --json for the polygons (GeoJSON)`].join('\n') + '\n';
}
