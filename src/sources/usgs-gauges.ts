/**
 * USGS river gauges (NWIS instantaneous values, WaterML-JSON; daily-value files are read too, their
 * daily mean stage standing in for a reading) rated against the NWS flood categories of
 * data/flood-stages.csv. One record per site with a gage-height reading; docs/sources/usgs-gauges.md
 * has the rules (category, lifecycle signals, confidence, the default URL).
 */
import type { FloodStages, Observation, ParseResult, SkippedRecord, SourceRecord } from '../domain/event.js';
import { FLOOD_CATEGORY_LABEL, floodCategory, type FloodCategory } from '../domain/rings/gauge.js';
import type { ParseContext, SourceModule } from './types.js';
import { readWaterMl, type SiteSeries } from './gauge-waterml.js';
import { floodStagesOf } from './reference/flood-stages.js';
import { isPlausibleUsPoint } from './reference/us-extent.js';
import { notYetPublished, partsAsOf } from './as-of.js';

const NO_STAGES: FloodStages = { actionFt: null, floodFt: null, moderateFt: null, majorFt: null };

export const usgsGauges: SourceModule = {
  id: 'usgs-gauges',
  // The IV service needs one major filter per request (sites, stateCd, huc, bBox, countyCd) and takes
  // one state at a time. Default: Maryland's active stream gauges, the state of the recorded sample;
  // pass another IV URL with --from (e.g. stateCd=tx) for other states.
  officialUrl:
    'https://waterservices.usgs.gov/nwis/iv/?format=json&stateCd=md&parameterCd=00065,00060&siteType=ST&siteStatus=active',
  accept: 'application/json',
  description: 'USGS river gauges (NWIS instantaneous stage/discharge) rated against NWS flood categories',
  parse: parseUsgsGauges,
};

export function parseUsgsGauges(body: string, ctx: ParseContext): ParseResult {
  const records: SourceRecord[] = [];
  const skipped: SkippedRecord[] = [];
  for (const site of readWaterMl(body, ctx.sourceUrl)) {
    // As of the clock: only the readings taken by then (src/sources/as-of.ts).
    const at = (r: { at: string }) => Date.parse(r.at);
    const s = { ...site, stage: partsAsOf(site.stage, at, ctx.now), discharge: partsAsOf(site.discharge, at, ctx.now) };
    if (site.stage.length > 0 && s.stage.length === 0) {
      skipped.push(notYetPublished(site.site, ctx.now));
      continue;
    }
    const out = toRecord(s);
    if ('reason' in out) skipped.push(out);
    else records.push(out);
  }
  return { records, skipped };
}

function toRecord(s: SiteSeries): SourceRecord | SkippedRecord {
  const latest = s.stage[s.stage.length - 1];
  if (!latest) return { sourceId: s.site, reason: noStageReason(s) };
  if (!isPlausibleUsPoint(s.lat, s.lng))
    return { sourceId: s.site, reason: `no usable site location (${s.lat}, ${s.lng})` };
  const lat = s.lat;
  const lng = s.lng as number;
  const ref = floodStagesOf(s.site);
  const stages = ref?.stages ?? NO_STAGES;
  const category = floodCategory(latest.value, stages);
  const all = [...s.stage, ...s.discharge].map((r) => r.at).sort();
  const observations: Observation[] = [
    ...s.stage.map((r) => ({
      observedAt: r.at,
      kind: 'gauge_stage_ft' as const,
      value: r.value,
      unit: 'ft',
      lat,
      lng,
    })),
    ...s.discharge.map((r) => ({
      observedAt: r.at,
      kind: 'discharge_cfs' as const,
      value: r.value,
      unit: 'cfs',
      lat,
      lng,
    })),
  ];
  const latestQ = s.discharge[s.discharge.length - 1];
  return {
    source: 'usgs-gauges',
    sourceId: s.site,
    sourceUrl: `https://waterdata.usgs.gov/monitoring-location/${s.site}/`,
    title: `${s.name} (USGS ${s.site})`,
    eventType: 'flood',
    severity: latest.value,
    severityLabel: FLOOD_CATEGORY_LABEL[category],
    startedAt: all[0],
    sourceUpdatedAt: all[all.length - 1],
    lat,
    lng,
    confidence: confidenceOf(latest.qualifiers, category),
    signals: signalsOf(category, latest.at),
    ringInput: { kind: 'gauge', stageFt: latest.value, stages },
    observations,
    details: {
      site_name: s.name,
      usgs_site: s.site,
      nws_lid: ref?.lid ?? null,
      flood_category: category,
      flood_stages_ft: ref ? stages : null,
      latest_stage_ft: latest.value,
      latest_stage_at: latest.at,
      latest_discharge_cfs: latestQ?.value ?? null,
      qualifiers: latest.qualifiers,
      huc: s.properties.hucCd ?? null,
      county_fips: s.properties.countyCd ?? null,
      // DV files: the stage is a daily mean, not a reading at an instant.
      ...(s.daily ? { reading: 'daily mean (nwis/dv)' } : {}),
    },
  };
}

/** Why a site gives no record: no stage at all, or (DV files) only daily discharge. */
function noStageReason(s: SiteSeries): string {
  if (!s.daily) return 'no gage height (00065) reading';
  const what = s.discharge.length > 0 ? ', only daily mean discharge (00060)' : '';
  return `no daily mean gage height (00065) in this daily-values (nwis/dv) file${what}; flood categories need stage`;
}

/**
 * Below the lowest defined category the flood is over (endedAt = reading time); at action stage it is
 * winding (or not yet a flood). Without NWS categories we cannot call the reading a flood, so the
 * record is marked winding: it can at most be monitored, never 'active' on its own say-so.
 */
function signalsOf(category: FloodCategory, at: string): SourceRecord['signals'] {
  if (category === 'below_action' || category === 'below_flood') return { endedAt: at };
  if (category === 'action' || category === 'unknown') return { winding: true };
  return {};
}

/** USGS qualifier A = approved 1.0; P (provisional) and others 0.9; halved when no NWS categories exist. */
function confidenceOf(qualifiers: string[], category: FloodCategory): number {
  const base = qualifiers.includes('A') ? 1 : 0.9;
  return category === 'unknown' ? base / 2 : base;
}
