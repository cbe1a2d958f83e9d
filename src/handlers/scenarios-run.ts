/**
 * POST /scenarios/run and `catintel scenario run` (docs/contract.md#access: analyst): a hypothetical event
 * through the same ring, exposure, scoring, trigger and portfolio code as a real one
 * (src/intelligence/scenarios/), stored with an id: 201 with the result and its Location
 * (GET /scenarios/{id}). Bad fields: 422 naming each (CLI: exit 2).
 */
import { randomUUID } from 'node:crypto';
import { CatintelError } from '../errors.js';
import {
  SCENARIO_FIELDS,
  SCENARIO_TYPES,
  validateScenario,
  type ScenarioSpec,
} from '../intelligence/scenarios/spec.js';
import { insertScenario } from '../intelligence/scenarios/store.js';
import { floodStagesOf } from '../sources/reference/flood-stages.js';
import { defineHandler, type Caller, type RawInput } from './types.js';

/**
 * `peril` is accepted for `event_type`, as every other input names the hazard (triggers, locations, scores):
 * an event type (hurricane, earthquake, wildfire, flood) or the peril it acts through (hurricane_wind,
 * riverine_flood). Both given and different: refused, naming both.
 */
const PERIL_TO_EVENT_TYPE: Readonly<Record<string, string>> = { hurricane_wind: 'hurricane', riverine_flood: 'flood' };

function withEventType(
  values: Record<string, unknown>,
  code: 'validation_failed' | 'invalid_parameter',
): Record<string, unknown> {
  if (values.peril === undefined) return values;
  const { peril, ...rest } = values;
  const asType = typeof peril === 'string' ? (PERIL_TO_EVENT_TYPE[peril] ?? peril) : peril;
  if (rest.event_type !== undefined && rest.event_type !== asType) {
    const message = `peril "${String(peril)}" and event_type "${String(rest.event_type)}" disagree: give one of them`;
    throw new CatintelError(code, `peril: ${message}`, { errors: [{ field: 'peril', message }] });
  }
  return { ...rest, event_type: asType };
}

const NUMERIC = [
  'lat',
  'lng',
  'magnitude',
  'depth_km',
  'category',
  'wind_kt',
  'pressure_mb',
  'rmw_nm',
  'heading_deg',
  'area_acres',
  'stage_ft',
];

function parseRun(raw: RawInput, caller: Caller): ScenarioSpec {
  const fromBody = caller.clientIp !== undefined;
  let values: Record<string, unknown>;
  if (fromBody) {
    if (raw.body === undefined)
      throw new CatintelError(
        'invalid_request',
        "send a JSON body with event_type, lat, lng and the peril's parameters",
      );
    if (typeof raw.body !== 'object' || raw.body === null || Array.isArray(raw.body)) {
      throw new CatintelError('validation_failed', 'the body must be a JSON object', {
        errors: [{ field: 'body', message: 'a JSON object' }],
      });
    }
    values = withEventType(raw.body as Record<string, unknown>, 'validation_failed');
  } else {
    // CLI values arrive as text: numbers and the radii object are read here, so "abc" is reported like a bad JSON value.
    values = {};
    for (const k of SCENARIO_FIELDS) {
      const v = raw[k];
      if (v === undefined) continue;
      if (NUMERIC.includes(k) && typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)))
        values[k] = Number(v);
      else if (k === 'radii_nm' && typeof v === 'string') {
        try {
          values[k] = JSON.parse(v);
        } catch {
          values[k] = v;
        }
      } else values[k] = v;
    }
    if (raw.peril !== undefined) values = withEventType({ ...values, peril: raw.peril }, 'invalid_parameter');
  }
  const { spec, errors } = validateScenario(values, (g) => floodStagesOf(g)?.stages ?? null);
  if (!spec) {
    throw new CatintelError(
      fromBody ? 'validation_failed' : 'invalid_parameter',
      errors.map((e) => `${e.field}: ${e.message}`).join('; '),
      { errors },
    );
  }
  return spec;
}

export const scenariosRun = defineHandler({
  name: 'scenarios.run',
  summary:
    'Run a hypothetical event through the real ring, exposure, scoring, trigger and portfolio code; stored with an id',
  writes: true,
  http: { method: 'POST', path: '/scenarios/run', access: 'analyst', perAccount: true },
  cli: {
    command: ['scenario', 'run'],
    options: [
      { flags: '--event-type <type>', description: `${SCENARIO_TYPES.join(', ')}` },
      {
        flags: '--peril <peril>',
        description: 'the same as --event-type (hurricane_wind and riverine_flood also name hurricane and flood)',
      },
      { flags: '--lat <deg>', description: 'latitude of the epicentre, storm centre, fire or gauge (WGS84)' },
      { flags: '--lng <deg>', description: 'longitude (WGS84)' },
      { flags: '--name <name>', description: 'a label (1-200 characters)' },
      { flags: '--notes <text>', description: 'free text, at most 2000 characters' },
      { flags: '--magnitude <m>', description: 'earthquake: moment magnitude, 3 to 9.5' },
      { flags: '--depth-km <km>', description: 'earthquake: hypocentre depth (default 10)' },
      {
        flags: '--category <n>',
        description: 'hurricane: Saffir-Simpson category 1-5 (wind_kt wins when both are given)',
      },
      { flags: '--wind-kt <kt>', description: 'hurricane: maximum sustained 1-min wind, 34 to 200 kt' },
      { flags: '--pressure-mb <mb>', description: 'hurricane: central pressure, 870 to 1020 mb' },
      { flags: '--rmw-nm <nm>', description: 'hurricane: radius of maximum wind (recorded; see docs/intelligence.md)' },
      { flags: '--heading-deg <deg>', description: 'hurricane: direction of motion, degrees from north (recorded)' },
      {
        flags: '--radii-nm <json>',
        description: 'hurricane: wind radii as NHC publishes them, e.g. {"34":{"ne":120,"se":100,"sw":60,"nw":80}}',
      },
      { flags: '--area-acres <acres>', description: 'wildfire: burned area' },
      { flags: '--gauge <site>', description: 'flood: USGS site number with NWS flood stages' },
      { flags: '--stage-ft <ft>', description: 'flood: stage at the gauge' },
    ],
    examples: [
      'catintel scenario run --event-type earthquake --lat 34.05 --lng -118.25 --magnitude 7.0 --depth-km 10',
      'catintel scenario run --event-type hurricane --lat 25.77 --lng -80.19 --category 4 --pressure-mb 940 --json',
      'catintel scenario run --event-type flood --gauge 01646500 --stage-ft 15 --lat 38.95 --lng -77.13',
    ],
  },
  parse: parseRun,
  async run(ctx, spec, caller) {
    const id = randomUUID();
    const now = ctx
      .clock()
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z');
    // The ring and exposure code (turf, contours) loads when a scenario runs, not with the CLI's every start.
    const { runScenario } = await import('../intelligence/scenarios/run.js');
    const outcome = await runScenario(ctx, spec, id, caller.account, now);
    const body = {
      id,
      account: caller.account,
      name: spec.name,
      created_at: now,
      indicative: true,
      request: spec,
      ...outcome,
    };
    await insertScenario(ctx.db, {
      id,
      account: caller.account,
      name: spec.name,
      event_type: spec.event_type,
      request: JSON.stringify(spec),
      result: JSON.stringify(body),
      created_at: now,
    });
    return { body, status: 201, headers: { location: `/api/v1/scenarios/${id}` } };
  },
});
