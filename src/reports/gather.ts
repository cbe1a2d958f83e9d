/**
 * The reports' inputs, got by running the existing endpoints' handlers (handed in by the report handlers as
 * ReportSources) with the input a caller would send (GET /events/{id}, /rings, /exposure, /prediction,
 * /timeline, /infrastructure): the briefing and the ICS-209 show what those endpoints answer and never
 * compute a figure of their own. An endpoint that the caller's tier may not call, or that refuses the event,
 * becomes a section saying so in one line. Hospitals for the map come from GET /infrastructure
 * (kind=hospital) around the map's area.
 */
import type { FeatureCollection, MultiPolygon, Point, Polygon } from 'geojson';
import type { Context } from '../context.js';
import { asCatintelError } from '../errors.js';
import { tierAtLeast, type Caller } from '../caller.js';
import { haversineKm } from '../lib/geo.js';
import { placeOf } from './atlas.js';
import { portfolioLossesOf } from './portfolio-losses.js';
import { mapExtent } from './domain/map.js';
import type { EventProps, Hospital, ReportInputs, RingInput, Section } from './domain/inputs.js';
import type { EndpointCall, ReportSources } from './sources.js';

function asJson(body: unknown): unknown {
  if (Buffer.isBuffer(body)) return JSON.parse(body.toString('utf8'));
  if (typeof body === 'string') return JSON.parse(body);
  return body;
}

/** Runs a handler the way its endpoint would for this caller. */
export async function section(
  ctx: Context,
  caller: Caller,
  source: EndpointCall,
  path: string,
  raw: Record<string, unknown>,
): Promise<Section> {
  const name = source.handler;
  if (!tierAtLeast(caller.tier, source.access))
    return { ok: false, handler: name, path, reason: `needs the ${source.access} tier` };
  try {
    const result = await source.call(raw);
    if ((result.status ?? 200) >= 400) return { ok: false, handler: name, path, reason: `answered ${result.status}` };
    return { ok: true, handler: name, path, body: asJson(result.body) };
  } catch (err) {
    const e = asCatintelError(err);
    if (e.code === 'internal_error')
      ctx.log('error', 'report section failed', {
        handler: name,
        error: err instanceof Error ? err.stack : String(err),
      });
    return {
      ok: false,
      handler: name,
      path,
      reason: e.code === 'internal_error' ? 'failed (internal error, logged)' : `${e.code}: ${e.message}`,
    };
  }
}

/** The event and its rings must exist: their errors (404, 409) are the report's. */
async function required(source: EndpointCall, raw: Record<string, unknown>): Promise<unknown> {
  const result = await source.call(raw);
  return asJson(result.body);
}

export async function gatherInputs(
  ctx: Context,
  id: string,
  caller: Caller,
  sources: ReportSources,
  o: { portfolioLosses?: boolean } = {},
): Promise<ReportInputs> {
  const shown = (await required(sources.event, { id })) as { geometry: Point; properties: EventProps };
  const props = shown.properties;
  const uuid = props.id;
  const ringsBody = (await required(sources.rings, { id: uuid })) as FeatureCollection<Polygon | MultiPolygon>;
  const rings: RingInput[] = ringsBody.features.map((f) => ({
    geometry: f.geometry,
    props: f.properties as RingInput['props'],
  }));
  const [lng, lat] = shown.geometry.coordinates;
  const [exposure, prediction, timeline] = await Promise.all([
    section(ctx, caller, sources.exposure, 'GET /events/{id}/exposure', { id: uuid }),
    section(ctx, caller, sources.prediction, 'GET /events/{id}/prediction', { id: uuid }),
    section(ctx, caller, sources.timeline, 'GET /events/{id}/timeline', { id: uuid }),
  ]);
  const track = props.observations
    .filter((o) => o.kind === 'wind_speed_kt' && o.lat !== null && o.lng !== null)
    .map((o) => ({ lng: o.lng!, lat: o.lat!, time: o.observed_at }));
  const [w, s, e, n] = mapExtent({
    event: { lng, lat },
    rings: rings.map((r) => ({ label: r.props.label, geometry: r.geometry })),
    track,
  });
  const radiusKm = Math.min(500, Math.ceil(Math.max(haversineKm(lat, lng, s, w), haversineKm(lat, lng, n, e))));
  const hospitals = await hospitalsNear(ctx, caller, sources.infrastructure, lat, lng, radiusKm);
  // The briefing's live-loss section runs the loss engine; the ICS-209 has no place for it.
  const portfolioLosses = o.portfolioLosses
    ? await portfolioLossesOf(ctx, caller, uuid)
    : { rows: [] as [], reason: 'not part of this report' };
  return {
    event: { lng, lat, props },
    rings,
    exposure,
    prediction,
    timeline,
    hospitals,
    place: placeOf(lat, lng),
    now: ctx
      .clock()
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z'),
    authenticated: caller.account !== undefined && !caller.account.startsWith('ip:'),
    portfolioLosses,
  };
}

async function hospitalsNear(
  ctx: Context,
  caller: Caller,
  infrastructure: EndpointCall,
  lat: number,
  lng: number,
  radiusKm: number,
): Promise<ReportInputs['hospitals']> {
  const infra = await section(ctx, caller, infrastructure, 'GET /infrastructure', {
    lat: String(lat),
    lng: String(lng),
    radius_km: String(radiusKm),
    kind: 'hospital',
    limit: '1000',
  });
  if (!infra.ok)
    return {
      list: [],
      source: `not available (${infra.path}: ${infra.reason})`,
      fromEndpoint: false,
      reason: infra.reason,
    };
  const fc = infra.body as FeatureCollection<Point, Record<string, unknown>>;
  const list: Hospital[] = (fc.features ?? [])
    .filter((f) => f.geometry?.type === 'Point')
    .map((f) => ({
      name: String(f.properties?.name ?? 'hospital'),
      lng: f.geometry.coordinates[0],
      lat: f.geometry.coordinates[1],
    }));
  const first = fc.features?.[0]?.properties;
  const origin = first
    ? `${String(first.source ?? 'HIFLD')}${first.ingested_at ? `, ingested ${String(first.ingested_at)}` : ''}`
    : 'HIFLD';
  return { list, source: `catintel GET /infrastructure within ${radiusKm} km (${origin})`, fromEndpoint: true };
}
