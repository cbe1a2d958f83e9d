/**
 * The prediction body of an event (GET /events/{id}/prediction): one indicative forecast per peril with the
 * method named and cited, the uncertainty stated and `valid_at` (docs/intelligence.md "Prediction").
 */
import type { EventRow, ObservationRow } from '../store/events-read.js';
import type { FloodStages } from '../domain/event.js';
import { aftershockWindows, BATH_DELTA_M, RJ_GENERIC_CALIFORNIA } from './domain/aftershocks.js';
import { hurricaneOutlook, KD95_METHOD } from './domain/hurricane-outlook.js';
import { KD95 } from './domain/inland-decay.js';
import { fireOutlook, stageOutlook, STAGE_TREND_HOURS, type TimedValue } from './domain/trends.js';
import { provenanceOf, type Provenance } from '../domain/provenance.js';
import { DISCLAIMER, detailsOf, eventRef, eventSource, type SourceRef } from './event-ref.js';

/** The prediction is made from the event record: it carries that record's provenance; `method` names the model. */
export interface PredictionBody extends Provenance {
  event: ReturnType<typeof eventRef>;
  peril: string;
  indicative: true;
  valid_at: string;
  method: { name: string; reference: string; formula?: string; parameters?: Record<string, number>; rule?: string };
  forecast: Record<string, unknown>;
  uncertainty: string;
  sources: SourceRef[];
  disclaimer: string;
}

export function predictionOf(
  row: EventRow,
  obs: ObservationRow[],
  validAt: string,
  isLand: (lat: number, lng: number) => boolean,
): PredictionBody {
  const base = {
    event: eventRef(row),
    peril: row.event_type,
    indicative: true as const,
    valid_at: validAt,
    disclaimer: DISCLAIMER,
    ...provenanceOf(row),
  };
  const series = (kind: string): TimedValue[] =>
    obs.filter((o) => o.kind === kind).map((o) => ({ at: o.observed_at, value: o.value }));
  const details = detailsOf(row);
  switch (row.event_type) {
    case 'earthquake': {
      const k = RJ_GENERIC_CALIFORNIA;
      const elapsedDays = Math.max(0, (Date.parse(validAt) - Date.parse(row.started_at)) / 86_400_000);
      return {
        ...base,
        method: {
          name: 'Reasenberg & Jones (1989) aftershock probabilities, generic California parameters',
          formula: 'N(t1,t2) = 10^(a + b(Mm - M)) [(t1+c)^(1-p) - (t2+c)^(1-p)]/(p-1); P = 1 - exp(-N)',
          parameters: { a: k.a, b: k.b, p: k.p, c_days: k.cDays },
          reference:
            'Reasenberg, P. A. and Jones, L. M. (1989): Earthquake hazard after a mainshock in California. Science 243, 1173-1176; USGS aftershock forecast equation 1',
        },
        forecast: {
          main_shock_magnitude: row.severity,
          origin_at: row.started_at,
          elapsed_days: Math.round(elapsedDays * 1000) / 1000,
          windows: aftershockWindows(row.severity, row.started_at, validAt, k),
          typical_largest_aftershock_magnitude: Math.round((row.severity - BATH_DELTA_M) * 10) / 10,
        },
        uncertainty:
          "Generic California sequence parameters applied to this sequence: real sequences differ in productivity (the a-value) by about an order of magnitude either way, and outside California the generic values are a rough guide only; the USGS now fits Hardebeck et al. (2018) and Page et al. (2016) parameters per sequence. The largest-aftershock magnitude is Bath's law (main shock minus 1.2), an average with about half a unit of scatter.",
        sources: [eventSource(row, 'main shock magnitude and origin time')],
      };
    }
    case 'hurricane': {
      const fixes = obs
        .filter((o) => o.kind === 'wind_speed_kt' && o.lat !== null && o.lng !== null)
        .map((o) => ({ at: o.observed_at, lat: o.lat!, lng: o.lng!, windKt: o.value }));
      const out = hurricaneOutlook(fixes, isLand, validAt);
      const sourceForecast =
        Array.isArray(details.forecast) && details.forecast.length > 0
          ? (details.forecast as Record<string, unknown>[])
          : null;
      if (sourceForecast) {
        // The source gives the official forecast (NHC GIS forecast advisory): served as published.
        return {
          ...base,
          method: {
            name: 'NHC official forecast (from the source)',
            reference:
              'National Hurricane Center forecast advisory: the 5-day forecast points of its GIS advisory (docs/sources/nhc.md)',
            rule: 'forecast track and intensity as published; points valid before valid_at are marked past',
          },
          forecast: {
            source_forecast: {
              advisory_number: details.advisory_number ?? null,
              issued_at: details.advisory_issued_at ?? null,
              points: sourceForecast.map((p) => ({
                ...p,
                past: typeof p.valid_at === 'string' && Date.parse(p.valid_at) < Date.parse(validAt),
              })),
            },
            ...out,
            peak_wind_kt: numOr(details.peak_wind_kt),
            latest_pressure_mb: numOr(details.pressure_mb),
          },
          uncertainty:
            "NHC's own forecast: track and intensity errors grow with lead time; the forecast cone (the storm's forecast_cone ring) is drawn so that the centre stays inside it about two thirds of the time, and the storm's effects reach well outside it.",
          sources: [eventSource(row, 'the forecast advisory (track and intensity forecast)')],
        };
      }
      const overWater = out.state !== 'inland_decay';
      return {
        ...base,
        method: overWater
          ? {
              name: 'persistence (no forecast in the source)',
              reference:
                'The source record is a best track (ATCF b-deck), which carries no forecast; the NHC forecast advisory is the authority while the storm is over water',
              rule: 'latest best-track intensity held; inland decay starts at the next landfall',
            }
          : {
              ...KD95_METHOD,
              rule: 'landfall = first best-track fix over US land (Census county polygons) after a fix over water; V0 = wind of the last fix over water; the track ahead = the motion of the last 6 h carried forward, and the wind decays only while that projected centre is over land (held over water)',
            },
        forecast: {
          source_forecast: null,
          ...out,
          peak_wind_kt: numOr(details.peak_wind_kt),
          latest_pressure_mb: numOr(details.pressure_mb),
        },
        uncertainty: overWater
          ? 'No intensity forecast: over water intensity can change by tens of knots in a day (rapid intensification); use the NHC forecast advisory.'
          : `Kaplan & DeMaria is an empirical fit to past US landfalls (valid south of ${KD95.validSouthOfLat} N); single storms depart from it, which the forecast's check (model against this storm's latest fix) shows. The track ahead is the latest motion carried forward, so a turn moves the land and water along it; over water the wind is held, neither re-intensified nor weakened. The distance-inland correction is left out; terrain is ignored.`,
        sources: [
          eventSource(row, 'best-track fixes (wind, position)'),
          {
            name: 'US Census cartographic county boundaries (us-atlas)',
            url: 'https://github.com/topojson/us-atlas',
            ingested_at: null,
            role: 'land/water test of each fix and of the projected track',
          },
        ],
      };
    }
    case 'wildfire': {
      const out = fireOutlook(series('fire_size_acres'), series('containment_pct'), validAt);
      return {
        ...base,
        method: {
          name: 'linear growth persistence',
          reference: 'docs/intelligence.md: documented rule, no fire-spread model',
          rule: 'growth rate = acres added per day between the two most recent size reports; projected acres = latest + rate x (1 - containment/100) x days ahead',
        },
        forecast: { ...out },
        uncertainty:
          'Fire growth is driven by wind, fuel and weather the rule does not see: a wind event can multiply daily growth, and suppression can stop it; treat the projection as the trend of the latest reports carried forward, not a fire-behaviour forecast.',
        sources: [eventSource(row, 'fire size and containment reports')],
      };
    }
    case 'flood': {
      const stages = (details.flood_stages_ft ?? null) as FloodStages | null;
      const readings = series('gauge_stage_ft');
      if (readings.length === 0) {
        return {
          ...base,
          method: {
            name: 'alert validity',
            reference: 'NWS alert (CAP) onset and expiry',
            rule: 'the flood is expected to last as the alert says; no gauge readings are attached to this event',
          },
          forecast: { alert_severity: row.severity_label, expires_at: alertEnd(details), stage: null },
          uncertainty:
            "No stage readings: the outlook is the issuing office's, and alerts are extended or cancelled as conditions change.",
          sources: [eventSource(row, 'the alert')],
        };
      }
      const out = stageOutlook(readings, stages, validAt);
      return {
        ...base,
        method: {
          name: 'gauge trend against NWS flood stages',
          reference:
            'docs/intelligence.md: least-squares stage trend; categories per NWS Manual 10-950 (action, minor, moderate, major)',
          rule: `slope of the readings in the ${STAGE_TREND_HOURS} h before the latest one (at least 3), carried forward 6 h and 24 h; category of each projected stage`,
        },
        forecast: { ...out, flood_stages_ft: stages },
        uncertainty:
          'A straight-line stage trend misses the crest: rivers rise, crest and fall, so the 24 h projection overshoots a rising river near its crest and undershoots a fresh rise from upstream rain. The NWS river forecast (NWPS), where issued, is the authority.',
        sources: [
          eventSource(row, 'gauge readings'),
          {
            name: 'NWS NWPS flood categories (data/flood-stages.csv)',
            url: 'https://water.noaa.gov/',
            ingested_at: null,
            role: 'flood stages',
          },
        ],
      };
    }
    default:
      return {
        ...base,
        method: {
          name: 'none',
          reference: 'docs/intelligence.md',
          rule: `no indicative forecast method for ${row.event_type}; the source's own alert text and expiry stand`,
        },
        forecast: { expires_at: alertEnd(details) },
        uncertainty: 'No forecast is made for this peril.',
        sources: [eventSource(row, 'the event record')],
      };
  }
}

const numOr = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** An NWS alert's end of the hazard (`ends`), else the message's expiry. */
const alertEnd = (d: Record<string, unknown>): string | null =>
  typeof d.ends === 'string' ? d.ends : typeof d.expires === 'string' ? d.expires : null;
