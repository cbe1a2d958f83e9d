/**
 * What the leadership briefing says, decided from the endpoint bodies (pure): the title and status line,
 * three to five key figures with their sources, the sections in order, and for every section either its
 * content or the one line saying why there is none for this event. The PDF edge (../pdf.ts) only draws it.
 */
import { boundedTitle, fmtMoney, fmtNumber, fmtTime } from './text.js';
import { feedSource } from './feed-source.js';
import { detailNum, detailStr, perilName, series, type EventProps, type ReportInputs, type Section } from './inputs.js';
import type { Series } from './chart.js';
import { exposureRings, hospitalsIn, populationIn, ringName, tivIn, type ExposureRing } from './exposure.js';

export const SITUATIONAL_AWARENESS_NOTICE =
  'For situational awareness only - not for emergency response. Follow the instructions of the authorities having jurisdiction.';

export interface KeyFigure {
  value: string;
  caption: string;
  source: string;
}

export interface Table {
  columns: string[];
  rows: string[][];
  /** Shares of the width, when content lengths would mislead. */ widths?: number[];
}

export type Block =
  | { kind: 'paragraph'; text: string }
  | { kind: 'table'; table: Table }
  | { kind: 'chart'; series: Series }
  | { kind: 'unavailable'; text: string };

export interface BriefingSection {
  heading: string;
  blocks: Block[];
}

export interface Briefing {
  title: string;
  statusLine: string;
  asOf: string;
  keyFigures: KeyFigure[];
  sections: BriefingSection[];
  sources: { what: string; source: string; url?: string; ingested_at?: string }[];
  notice: string;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

const tivText = (t: { currency: string; tiv: number }[]) => t.map((x) => fmtMoney(x.tiv, x.currency)).join(' + ');
function severityFigure(e: EventProps): KeyFigure {
  const src = feedSource(e).name;
  switch (e.event_type) {
    case 'earthquake': {
      const depth = detailNum(e, 'depth_km');
      return {
        value: `M ${e.severity.toFixed(1)}`,
        caption: `magnitude${detailStr(e, 'mag_type') ? ` (${detailStr(e, 'mag_type')})` : ''}${depth !== null ? `, depth ${fmtNumber(depth, 1)} km` : ''}`,
        source: src,
      };
    }
    case 'hurricane':
      return {
        value: e.severity_label,
        caption: `${fmtNumber(detailNum(e, 'max_wind_kt') ?? e.severity)} kt sustained wind at ${fmtTime(e.updated_at)}`,
        source: src,
      };
    case 'wildfire':
      return {
        value: `${fmtNumber(detailNum(e, 'acres') ?? e.severity)} acres`,
        caption: `${e.severity_label}; ${detailNum(e, 'percent_contained') !== null ? `${detailNum(e, 'percent_contained')} % contained` : 'containment not reported'}`,
        source: src,
      };
    default:
      if (e.source === 'usgs-gauges') {
        const stage = detailNum(e, 'latest_stage_ft');
        return {
          value: stage !== null ? `${fmtNumber(stage, 2)} ft` : e.severity_label,
          caption: `gauge stage; flood category ${detailStr(e, 'flood_category') ?? 'unknown'}`,
          source: src,
        };
      }
      return {
        value: e.severity_label,
        caption: `${detailStr(e, 'nws_event') ?? perilName(e.event_type)} severity${detailStr(e, 'expires') ? `, until ${fmtTime(detailStr(e, 'expires'))}` : ''}`,
        source: src,
      };
  }
}

export function keyFigures(inputs: ReportInputs): KeyFigure[] {
  const e = inputs.event.props;
  const figures: KeyFigure[] = [severityFigure(e)];
  const ex = inputs.exposure;
  const rows = ex.ok ? exposureRings(ex.body) : [];
  const inner = rows[0];
  const exSrc = `catintel ${ex.path}`;
  if (!ex.ok) {
    figures.push({
      value: 'n/a',
      caption: 'people in the innermost ring: exposure not available',
      source: `${ex.path}: ${ex.reason}`,
    });
    figures.push({
      value: 'n/a',
      caption: 'hospitals in the innermost ring: exposure not available',
      source: `${ex.path}: ${ex.reason}`,
    });
  } else if (!inner) {
    figures.push({ value: 'none', caption: 'no consequence ring, so no exposure figure', source: exSrc });
  } else {
    const pop = populationIn(inner);
    const hosp = hospitalsIn(inner);
    const outside = inputs.place.state === null && !pop;
    figures.push(
      outside
        ? { value: 'n/a', caption: 'people: outside the US Census county data the exposure uses', source: exSrc }
        : {
            value: pop === null ? 'n/a' : fmtNumber(pop),
            caption: `people inside ${ringName(inner, 0)} (county-apportioned estimate)`,
            source: exSrc,
          },
    );
    figures.push(
      outside
        ? { value: 'n/a', caption: 'hospitals: outside the US facility data the exposure uses', source: exSrc }
        : {
            value: hosp === null ? 'n/a' : fmtNumber(hosp),
            caption: `hospitals inside ${ringName(inner, 0)}`,
            source: exSrc,
          },
    );
    // Rings are whole polygons: the outermost holds everything inside any ring.
    const outer = rows[rows.length - 1];
    const tiv = inputs.authenticated ? tivIn(outer) : [];
    if (tiv.length) {
      const locations = tiv.reduce((a, t) => a + t.locations, 0);
      figures.push({
        value: tivText(tiv.slice(0, 1)),
        caption: `insured TIV of your portfolios inside ${ringName(outer, rows.length - 1)} (${fmtNumber(locations)} locations${tiv.length > 1 ? `; also ${tivText(tiv.slice(1))}` : ''})`,
        source: exSrc,
      });
    }
  }
  figures.push({
    value: String(inputs.rings.length),
    caption: inputs.rings.length === 1 ? 'consequence ring' : 'consequence rings',
    source: 'catintel GET /events/{id}/rings',
  });
  return figures.slice(0, 5);
}

/** The measured quantity to chart for this peril, from the timeline endpoint or the event's own observations. */
export function timelineSeries(inputs: ReportInputs): Series | null {
  const e = inputs.event.props;
  const t = inputs.timeline;
  const kinds: [string, string][] = [
    ['wind_speed_kt', 'Maximum sustained wind'],
    ['containment_pct', 'Containment'],
    ['fire_size_acres', 'Fire size'],
    ['gauge_stage_ft', 'Gauge stage'],
    ['magnitude', 'Magnitude'],
  ];
  if (t.ok && isObj(t.body)) {
    const pts = (['points', 'timeline', 'entries', 'items']
      .map((k) => (t.body as Record<string, unknown>)[k])
      .find(Array.isArray) ?? []) as unknown[];
    for (const [kind, name] of kinds) {
      const sel = pts.filter(
        (p): p is Record<string, unknown> =>
          isObj(p) && p.kind === kind && num(p.value) !== null && typeof (p.observed_at ?? p.time ?? p.at) === 'string',
      );
      if (sel.length >= 1) {
        return {
          name,
          unit: String(sel[0].unit ?? ''),
          points: sel.map((p) => ({ time: String(p.observed_at ?? p.time ?? p.at), value: p.value as number })),
          source: `catintel ${t.path}`,
        };
      }
    }
  }
  for (const [kind, name] of kinds) {
    const obs = series(e, kind).filter((o) => o.observed_at <= inputs.now);
    if (obs.length)
      return {
        name,
        unit: obs[0].unit,
        points: obs.map((o) => ({ time: o.observed_at, value: o.value })),
        source: `${feedSource(e).name} observations (GET /events/{id})`,
      };
  }
  return null;
}

/** A flat table of an array of records: the scalar members as columns, in first-seen order. */
export function genericTable(rows: Record<string, unknown>[], maxColumns = 7): Table {
  const columns: string[] = [];
  for (const r of rows)
    for (const [k, v] of Object.entries(r))
      if (!columns.includes(k) && (typeof v !== 'object' || v === null || isObj(v))) columns.push(k);
  const cols = columns.slice(0, maxColumns);
  const cell = (v: unknown): string => {
    if (v === null || v === undefined) return '';
    if (typeof v === 'number') return fmtNumber(v, Number.isInteger(v) ? 0 : 2);
    if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v)) return fmtTime(v);
    if (isObj(v)) {
      const c = ['count', 'total', 'value', 'estimate'].find((k) => num(v[k]) !== null);
      return c
        ? fmtNumber(v[c] as number)
        : Object.entries(v)
            .filter(([, x]) => typeof x !== 'object')
            .map(([k, x]) => `${k} ${x}`)
            .join(', ');
    }
    return String(v);
  };
  return { columns: cols.map((c) => c.replace(/_/g, ' ')), rows: rows.map((r) => cols.map((c) => cell(r[c]))) };
}

/** Scalar members of a body, as "key: value" lines (for a prediction's method, uncertainty, validity). */
export function scalarLines(body: unknown, depth = 0): string[] {
  if (!isObj(body)) return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(body)) {
    if (k === 'links' || k === 'type') continue;
    if (v === null || typeof v !== 'object')
      out.push(
        `${'  '.repeat(depth)}${k.replace(/_/g, ' ')}: ${typeof v === 'number' ? fmtNumber(v, Number.isInteger(v) ? 0 : 3) : String(v)}`,
      );
    else if (isObj(v) && depth < 2) {
      out.push(`${'  '.repeat(depth)}${k.replace(/_/g, ' ')}:`);
      out.push(...scalarLines(v, depth + 1));
    } else if (Array.isArray(v) && v.length && v.every((x) => x === null || typeof x !== 'object'))
      out.push(`${'  '.repeat(depth)}${k.replace(/_/g, ' ')}: ${v.join(', ')}`);
  }
  return out;
}

const INFRA_COLUMNS: [string, string][] = [
  ['hospital', 'hospitals'],
  ['urgent_care', 'urgent care'],
  ['fire_station', 'fire stations'],
  ['school', 'schools'],
  ['ems', 'EMS'],
];

/**
 * The exposure body as a table (one row per ring: people, facilities by kind), the hospitals it names inside
 * the innermost rings, where a kind has no data, and its method in one line. Outer rings include the inner
 * ones (whole polygons), as the endpoint's method says.
 */
export function exposureBlocks(body: unknown, inputs: Pick<ReportInputs, 'place'>): Block[] {
  const rows = exposureRings(body);
  if (!rows.length)
    return [{ kind: 'unavailable', text: 'Exposure: no ring to count people or facilities in for this event.' }];
  const b = body as Record<string, unknown>;
  const counts = (r: ExposureRing): Record<string, unknown> =>
    isObj(r.infrastructure) && isObj(r.infrastructure.counts) ? r.infrastructure.counts : {};
  // A kind with data in some ring is a column; in a ring whose states it does not cover it reads "not covered"
  // (null in the body), never 0. A kind with no data in any ring is said once, in the coverage line below.
  const kinds = INFRA_COLUMNS.filter(([k]) => rows.some((r) => num(counts(r)[k]) !== null));
  const infraCell = (r: ExposureRing, k: string) =>
    counts(r)[k] === null ? 'not covered' : fmtNumber(num(counts(r)[k]) ?? NaN);
  const outside = inputs.place.state === null && rows.every((r) => !populationIn(r));
  const withTiv = rows.some((r) => tivIn(r).length);
  const table: Table = {
    columns: ['ring', 'people (estimate)', ...kinds.map(([, name]) => name), ...(withTiv ? ['your insured TIV'] : [])],
    rows: rows.map((r, i) => [
      ringName(r, i),
      outside ? 'n/a (outside US data)' : fmtNumber(populationIn(r) ?? NaN),
      ...kinds.map(([k]) => infraCell(r, k)),
      ...(withTiv ? [tivText(tivIn(r)) || '0'] : []),
    ]),
  };
  const out: Block[] = [{ kind: 'table', table }];
  rows.forEach((r, i) => {
    const infra: Partial<ExposureRing['infrastructure']> = isObj(r.infrastructure) ? r.infrastructure : {};
    const named = Array.isArray(infra.hospitals) ? (infra.hospitals as unknown[]).filter(isObj) : [];
    if (named.length) {
      const list = named
        .slice(0, 12)
        .map((h) => `${String(h.name)}${h.city ? ` (${String(h.city)})` : ''}`)
        .join('; ');
      out.push({
        kind: 'paragraph',
        text: `Hospitals inside ${ringName(r, i)}: ${list}${named.length > 12 || infra.hospitals_truncated ? '; and more' : ''}.`,
      });
    }
  });
  const coverage = rows.flatMap((r) =>
    isObj(r.infrastructure) && Array.isArray(r.infrastructure.coverage)
      ? (r.infrastructure.coverage as unknown[]).filter(isObj)
      : [],
  );
  const gaps = [
    ...new Map(
      coverage
        .filter((c) => c.covered !== 'yes')
        .map((c) => [String(c.kind), `${String(c.kind).replace(/_/g, ' ')}: ${String(c.note ?? c.covered)}`]),
    ).values(),
  ];
  if (gaps.length) out.push({ kind: 'unavailable', text: `Not covered everywhere: ${gaps.join('; ')}.` });
  const method = isObj(b.method) ? b.method : {};
  if (typeof method.population === 'string') out.push({ kind: 'paragraph', text: `Method: ${method.population}.` });
  return out;
}

/**
 * A prediction body as a reader needs it: the method and its reference, the forecast (its lists as tables,
 * its single values as lines), the stated uncertainty and the validity time. Labelled indicative.
 */
export function predictionBlocks(body: unknown): Block[] {
  if (!isObj(body)) return [{ kind: 'unavailable', text: 'Prediction: no forecast for this peril.' }];
  const out: Block[] = [];
  const method = isObj(body.method) ? body.method : {};
  if (typeof method.name === 'string')
    out.push({
      kind: 'paragraph',
      text: `Method: ${method.name}${typeof method.reference === 'string' ? `. Reference: ${method.reference}` : ''}.`,
    });
  const forecast = isObj(body.forecast) ? body.forecast : {};
  const lines: string[] = [];
  const walk = (o: Record<string, unknown>, prefix: string) => {
    for (const [k, v] of Object.entries(o)) {
      const name = `${prefix}${k.replace(/_/g, ' ')}`;
      if (Array.isArray(v) && v.length && v.every(isObj))
        out.push(
          { kind: 'paragraph', text: `${name}:` },
          { kind: 'table', table: genericTable(v as Record<string, unknown>[], 8) },
        );
      else if (isObj(v)) walk(v, `${name} `);
      else if (v !== null && v !== undefined && !Array.isArray(v))
        lines.push(
          `${name}: ${typeof v === 'number' ? fmtNumber(v, Number.isInteger(v) ? 0 : 3) : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(String(v)) ? fmtTime(String(v)) : String(v)}`,
        );
    }
  };
  walk(forecast, '');
  if (lines.length) out.splice(method.name ? 1 : 0, 0, { kind: 'paragraph', text: lines.join('; ') + '.' });
  if (typeof body.uncertainty === 'string') out.push({ kind: 'paragraph', text: `Uncertainty: ${body.uncertainty}` });
  out.push({
    kind: 'paragraph',
    text: `Indicative${typeof body.valid_at === 'string' ? `, valid at ${fmtTime(body.valid_at)}` : ''}. ${typeof body.disclaimer === 'string' ? body.disclaimer : ''}`.trim(),
  });
  return out;
}

function unavailable(what: string, s: Section): Block {
  return {
    kind: 'unavailable',
    text: `${what}: not available for this event (${s.path}: ${s.ok ? 'no data' : s.reason}).`,
  };
}

export function buildBriefing(inputs: ReportInputs): Briefing {
  const e = inputs.event.props;
  const src = feedSource(e);
  const sections: BriefingSection[] = [];

  // Rings: always from GET /events/{id}/rings.
  sections.push({
    heading: 'Consequence rings',
    blocks: inputs.rings.length
      ? [
          {
            kind: 'table',
            table: {
              columns: ['ring', 'kind', 'threshold', 'radius'],
              rows: inputs.rings.map((r) => [
                r.props.label,
                r.props.kind,
                r.props.threshold === null
                  ? ''
                  : `${fmtNumber(r.props.threshold, Number.isInteger(r.props.threshold) ? 0 : 1)} ${r.props.unit ?? ''}`.trim(),
                r.props.radius_km === null ? 'polygon' : `${fmtNumber(r.props.radius_km, 0)} km`,
              ]),
            },
          },
        ]
      : [
          {
            kind: 'unavailable',
            text: `Rings: none for this event (the source gave no ShakeMap, wind radii, perimeter or alert polygon).`,
          },
        ],
  });

  // Exposure by ring.
  const ex = inputs.exposure;
  sections.push({
    heading: 'Exposure by ring',
    blocks: ex.ok ? exposureBlocks(ex.body, inputs) : [unavailable('Exposure', ex)],
  });

  // Prediction with its uncertainty.
  const pr = inputs.prediction;
  sections.push({
    heading: 'Prediction (indicative)',
    blocks: !pr.ok ? [unavailable('Prediction', pr)] : predictionBlocks(pr.body),
  });

  // Live loss of the caller's portfolios the event reached (docs/event-loss.md "In the briefing"): only when
  // there are some; a reader with no book in the rings gets no empty section.
  const pl = inputs.portfolioLosses;
  if (pl.rows.length > 0)
    sections.push({
      heading: 'Portfolio loss (live)',
      blocks: [
        {
          kind: 'table',
          table: {
            columns: ['portfolio', 'version used', 'mean', 'P10', 'P50', 'P90', 'TIV in footprint'],
            rows: pl.rows.map((r) =>
              r.band
                ? [
                    r.portfolio,
                    r.version ?? '',
                    ...[r.band.mean, r.band.p10, r.band.p50, r.band.p90, r.band.tivInFootprint].map(
                      (x) => `${fmtNumber(x, 0)}${r.band!.currency ? ` ${r.band!.currency}` : ''}`,
                    ),
                  ]
                : [r.portfolio, r.version ?? '', r.reason ?? 'not computed', '', '', '', ''],
            ),
            widths: [0.14, 0.26, 0.12, 0.12, 0.12, 0.12, 0.12],
          },
        },
        {
          kind: 'paragraph',
          text: `Ground-up loss over ${pl.rows.find((r) => r.band)?.band?.members ?? 20} ensemble members and ${pl.rows.find((r) => r.band)?.band?.samples ?? 10} damage samples each, through the model package's vulnerabilities and catintel's loss kernel (docs/event-loss.md); ${[...new Set(pl.rows.flatMap((r) => (r.band ? [r.band.how] : [])))].join(', ') || 'none computed'}. A stored portfolio keeps no policy terms: insured equals ground-up.`,
        },
      ],
    });

  // Timeline chart.
  const s = timelineSeries(inputs);
  sections.push({
    heading: 'Timeline',
    blocks:
      s && s.points.length > 1
        ? [
            { kind: 'chart', series: s },
            {
              kind: 'paragraph',
              text: `${s.name} (${s.unit}), ${s.points.length} readings, ${fmtTime(s.points[0].time)} to ${fmtTime(s.points[s.points.length - 1].time)}; source: ${s.source}.`,
            },
          ]
        : s
          ? [
              {
                kind: 'unavailable',
                text: `Timeline: one reading only, so no chart: ${s.name} ${fmtNumber(s.points[0].value, Number.isInteger(s.points[0].value) ? 0 : 2)} ${s.unit} at ${fmtTime(s.points[0].time)} (source: ${s.source}).`,
              },
            ]
          : [
              {
                kind: 'unavailable',
                text: `Timeline: no measured quantity over time for this event${inputs.timeline.ok ? '' : ` (${inputs.timeline.path}: ${(inputs.timeline as { reason: string }).reason})`}.`,
              },
            ],
  });

  const sources: Briefing['sources'] = [
    { what: 'Event, status, severity, observations', source: src.name, url: src.url, ingested_at: src.ingested_at },
    {
      what: 'Consequence rings',
      source: 'catintel GET /events/{id}/rings, from the same source data',
      ingested_at: src.ingested_at,
    },
    ...[inputs.exposure, inputs.prediction, inputs.timeline].flatMap((x) => sectionSources(x, e.ingested_at)),
    { what: 'Hospitals on the map', source: inputs.hospitals.source },
    {
      what: 'County and state outlines',
      source: 'US Census Bureau cartographic boundaries, 1:10M, via us-atlas 3 (counties-10m, states-10m)',
    },
  ];
  return {
    // A feed's title can be any length (one of 105,008 characters made a 55-page briefing): bounded here.
    title: boundedTitle(e.title),
    statusLine: `${perilName(e.event_type)} - ${e.status}${e.ended_at ? ` (ended ${fmtTime(e.ended_at)})` : ''} - ${e.severity_label} - started ${fmtTime(e.started_at)} - last update ${fmtTime(e.updated_at)}`,
    asOf: inputs.now,
    keyFigures: keyFigures(inputs),
    sections,
    sources,
    notice: `${SITUATIONAL_AWARENESS_NOTICE} Unofficial: generated automatically by catintel from public feeds at ${fmtTime(inputs.now)}.`,
  };
}

/** An endpoint's own source list (name, url, ingested_at, role), or the one line saying it is not available. */
function sectionSources(x: Section, fallbackIngestedAt: string): Briefing['sources'] {
  const what = x.path.replace(/^GET /, '');
  if (!x.ok) return [{ what, source: `not available (${x.reason})` }];
  const listed = isObj(x.body) && Array.isArray(x.body.sources) ? (x.body.sources as unknown[]).filter(isObj) : [];
  if (!listed.length)
    return [{ what, source: `catintel ${x.path}`, ingested_at: bodyIngestedAt(x.body) ?? fallbackIngestedAt }];
  return listed.map((s) => ({
    what: `${what}${typeof s.role === 'string' ? `: ${s.role}` : ''}`,
    source: String(s.name ?? 'source'),
    url: typeof s.url === 'string' ? s.url : undefined,
    ingested_at: typeof s.ingested_at === 'string' ? s.ingested_at : undefined,
  }));
}

function bodyIngestedAt(body: unknown): string | undefined {
  if (!isObj(body)) return undefined;
  for (const k of ['ingested_at', 'generated_at', 'valid_at', 'computed_at'])
    if (typeof body[k] === 'string') return body[k] as string;
  return undefined;
}
