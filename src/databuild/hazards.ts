/**
 * Run every peril's hazard model over the covered cells and collect the channels the grid file stores
 * (names '<peril>.<field>', fields documented in docs/data-baseline.md), plus the measured constants
 * (params) and a few statistics for the manifest.
 */
import { LOG_CODEC, type Codec } from '../domain/scoring/grid-format.js';
import type { Peril } from '../domain/scoring/perils.js';
import { CellQuery } from '../reference-data/cell-query.js';
import { coastDistanceKm, coastVertices, surgeTaper } from '../reference-data/coast.js';
import type { Coverage } from './coverage.js';
import { earthquakeHazard } from './earthquake.js';
import { SMOOTHING_SIGMA_KM, parseNshmMmax, parseNshmPdf, smoothCatalogSources } from '../reference-data/eq-sources.js';
import { CHARACTERISTIC_SOURCES, nshmFaultRuptures } from '../reference-data/eq-faults.js';
import { CORRECTED_IPE } from '../domain/rings/earthquake.js';
import { parseNshmCatalog, regionalRate } from '../reference-data/eq-catalog.js';
import type { ChannelData } from './encode.js';
import { WIND_LADDER_KT, hurricaneHazard } from './hurricane.js';
import { parseHurdat2 } from '../reference-data/hurdat2.js';
import type { Inputs } from '../reference-data/inputs.js';
import { NearbyCounter } from './kernel.js';
import { parseNriRecordYears, parseNriStates } from '../reference-data/nri.js';
import { applyNriFallback, nriRelativeChannels } from './nri-channels.js';
import { REGIONS } from '../reference-data/regions.js';
import { TORNADO_FIRST_YEAR, TORNADO_LAST_YEAR, parseSpcTornadoes, tornadoHazard } from './tornado.js';
import {
  URBAN_DENSITY_PER_KM2,
  WILDFIRE_FIRST_YEAR,
  WILDFIRE_LAST_YEAR,
  readIcs209Reports,
  wildfireHazard,
} from './wildfire.js';
import { EMBER_REACH_KM, parseFacilityPoints, urbanBurnProbability } from './wildfire-urban.js';
import { ORIGIN_TOLERANCE_KM, cleanIcs209, type CleaningReport } from './wildfire-clean.js';
import { parseCenPop } from '../reference-data/census.js';
import { localPerilFactors } from './local-channels.js';

/** [judgement] catalog completeness: M ≥ 4.5 since 1930 gives stable rates in both regions (docs/scoring.md). */
const EQ_MC = 4.5;
const EQ_FROM_YEAR = 1930;

const linear = (scale: number): Codec => ({ kind: 'linear', scale });

export interface HazardOutput {
  channels: ChannelData[];
  params: Record<string, number>;
  stats: Record<string, number>;
  /** What the wildfire cleaning removed, for docs/validation.md (scripts/validate-scores.ts prints it). */
  wildfireCleaning: CleaningReport;
}

export async function computeHazards(inputs: Inputs, cov: Coverage, log: (m: string) => void): Promise<HazardOutput> {
  const cells = cov.cells;
  const n = cells.length;
  const query = new CellQuery(cov.index);
  const cellLat = Float64Array.from(cells, (c) => c.lat);
  const channels: ChannelData[] = [];
  const add = (peril: Peril, field: string, codec: Codec, values: ArrayLike<number>) =>
    channels.push({ name: `${peril}.${field}`, codec, values });
  const params: Record<string, number> = {};
  const stats: Record<string, number> = {};

  log('hurricane: HURDAT2 wind footprints');
  const cellLng = Float64Array.from(cells, (c) => c.lng);
  const hurdat = {
    atlantic: parseHurdat2(inputs.text('hurdatAtlantic')),
    pacific: parseHurdat2(inputs.text('hurdatPacific')),
  };
  const hur = hurricaneHazard(hurdat.atlantic, hurdat.pacific, query, cellLat, cellLng);
  params['hurricane_wind.cat45_share_of_tcs'] = hur.cat45ShareOfTcs;
  params['hurricane_wind.radius_scale'] = hur.radiusScale;
  stats['hurricane.radius_scale_fixes'] = hur.radiusScaleFixes;
  stats['hurricane.storms_atlantic'] = hur.stormsUsed.atlantic;
  stats['hurricane.storms_pacific'] = hur.stormsUsed.pacific;

  log('earthquake: NSHM 2023 gridded seismicity and fault sources + AWW14');
  const faults = nshmFaultRuptures(
    inputs.text('nshmFaultSections'),
    inputs.text('nshmFaultSlipRates'),
    inputs.text('nshmSpecialFaults'),
  );
  const ruptures = [...faults.ruptures, ...CHARACTERISTIC_SOURCES];
  // The site term: the IPE bias measured against the western ShakeMaps (docs/validation.md); none in the CEUS.
  const siteTermMmi = { west: CORRECTED_IPE.biasMmi, east: 0 };
  const wusCat = parseNshmCatalog(inputs.text('wusCatalog'), 11);
  const ceusCat = parseNshmCatalog(inputs.text('ceusCatalog'), 12);
  const wusRate = regionalRate(wusCat, EQ_MC, EQ_FROM_YEAR);
  const ceusRate = regionalRate(ceusCat, EQ_MC, EQ_FROM_YEAR);
  const wusRecent = wusCat.filter((e) => e.magnitude >= EQ_MC && e.year >= EQ_FROM_YEAR);
  const eq = earthquakeHazard(
    cells,
    {
      sources: smoothCatalogSources(
        [
          // The M >= 6 since 1850 band that stood in for quiet faults is gone: the fault sources carry them now.
          { events: wusRecent, sigmaKm: SMOOTHING_SIGMA_KM, weight: 0.8 },
          { events: wusRecent, sigmaKm: 150, weight: 0.2 },
        ],
        'west',
        parseNshmMmax(inputs.text('nshmWusExtPdf')),
      ),
      rate: wusRate,
    },
    { sources: parseNshmPdf(inputs.text('nshmCeusPdf'), 'east'), rate: ceusRate },
    (c) => c.region === 0,
    { ruptures, siteTermMmi },
  );
  const eqNear = new NearbyCounter(query, n, 100);
  for (const e of [...wusCat, ...ceusCat]) if (e.magnitude >= EQ_MC && e.year >= EQ_FROM_YEAR) eqNear.add(e.lat, e.lng);
  Object.assign(params, {
    'earthquake.b_west': wusRate.b,
    'earthquake.b_east': ceusRate.b,
    'earthquake.rate_m45_west': wusRate.rateAboveMc,
    'earthquake.rate_m45_east': ceusRate.rateAboveMc,
    'earthquake.record_years': wusRate.toYear - wusRate.fromYear + 1,
    'earthquake.site_term_mmi_west': siteTermMmi.west,
  });
  stats['earthquake.fault_sections'] = faults.sections;
  stats['earthquake.fault_ruptures'] = ruptures.length;

  log('tornado: SPC touchdowns');
  const tor = tornadoHazard(parseSpcTornadoes(inputs.text('tornadoes')), query, cellLat);
  params['tornado.record_years'] = TORNADO_LAST_YEAR - TORNADO_FIRST_YEAR + 1;
  stats['tornado.ef1plus_used'] = tor.used;

  log('wildfire: ICS-209 via DuckDB, cleaned');
  const nriForStates = parseNriStates(inputs.text('nriStates'));
  const centres = parseCenPop(inputs.text('cenPop'));
  const cleaned = cleanIcs209(await readIcs209Reports(inputs.path('ics209')), {
    // A cell's centre is up to ~18 km from a point inside it, so the tolerance is measured from the cell's edge.
    statesNear: (lat, lng, km) => {
      const out = new Set<string>();
      query.within(lat, lng, km + 18, (cell) => out.add(cells[cell].stateFips));
      return out;
    },
    stateFips: new Map([...nriForStates.values()].map((st) => [st.STATEABBRV, st.STATEFIPS.padStart(2, '0')])),
  });
  // Urban cores of the counties denser than the urban density on average: the county's people on a disk at
  // that density around its centre of population (wildfire.ts).
  const areaByFips = new Map(cov.counties.fips.map((f, i) => [f, cov.counties.areaKm2[i]]));
  const urbanFactor = new Float64Array(n).fill(1);
  let urbanCores = 0;
  for (const c of centres) {
    if (!(c.population / (areaByFips.get(c.fips) ?? Infinity) > URBAN_DENSITY_PER_KM2)) continue;
    urbanCores++;
    query.within(
      c.lat,
      c.lng,
      Math.sqrt(c.population / (Math.PI * URBAN_DENSITY_PER_KM2)),
      (cell) => (urbanFactor[cell] = 0),
    );
  }
  stats['wildfire.urban_core_counties'] = urbanCores;
  stats['wildfire.urban_core_cells'] = urbanFactor.reduce((t, v) => t + (v === 0 ? 1 : 0), 0);
  const originCell = (lat: number, lng: number): number => {
    let best = -1;
    let bestD = Infinity;
    query.within(lat, lng, 20, (cell, d) => {
      if (d < bestD || (d === bestD && cell < best)) [best, bestD] = [cell, d];
    });
    return best;
  };
  const fire = wildfireHazard(cleaned.fires, query, cellLat, urbanFactor, originCell);
  // Built-up cells take the burn probability their buildings see (wildfire-urban.ts), not their wildland's.
  const buildings = (['hospitals', 'lawEnforcement', 'urgentCare'] as const).flatMap((k) =>
    parseFacilityPoints(inputs.text(k)),
  );
  // Dense urban fabric: an urban-core cell whose own county is denser than the urban density (a city's
  // disk reaches into the next county's foothills, San Bernardino's from Los Angeles: those keep theirs).
  const popByFips = new Map(centres.map((c) => [c.fips, c.population]));
  const denseUrban = Float64Array.from(cells, (c, i) => {
    const fips = cov.counties.fips[c.county];
    return urbanFactor[i] === 0 &&
      (popByFips.get(fips) ?? 0) / (areaByFips.get(fips) ?? Infinity) > URBAN_DENSITY_PER_KM2
      ? 0
      : 1;
  });
  const urban = urbanBurnProbability(
    cleaned.fires,
    buildings,
    query,
    denseUrban,
    originCell,
    WILDFIRE_LAST_YEAR - WILDFIRE_FIRST_YEAR + 1,
  );
  for (let c = 0; c < n; c++) {
    if (Number.isNaN(urban.lambdaDamaging[c])) continue;
    fire.lambdaDamaging[c] = urban.lambdaDamaging[c];
    fire.lambdaSevere[c] = urban.lambdaSevere[c];
  }
  stats['wildfire.building_points'] = buildings.length;
  stats['wildfire.building_weighted_cells'] = urban.cells;
  params['wildfire.ember_reach_km'] = EMBER_REACH_KM;
  params['wildfire.record_years'] = WILDFIRE_LAST_YEAR - WILDFIRE_FIRST_YEAR + 1;
  params['wildfire.urban_density_per_km2'] = URBAN_DENSITY_PER_KM2;
  params['wildfire.origin_tolerance_km'] = ORIGIN_TOLERANCE_KM;
  stats['wildfire.reports_read'] = cleaned.report.reports;
  stats['wildfire.not_wildfire'] = cleaned.report.not_wildfire;
  stats['wildfire.relocated_fixed_coordinates'] = cleaned.report.relocated_fixed_coordinates;
  stats['wildfire.dropped_origin_outside_state'] = cleaned.report.dropped_origin_outside_state;
  stats['wildfire.merged_duplicates'] = cleaned.report.merged_duplicates;
  stats['wildfire.fires_read'] = cleaned.fires.length;
  stats['wildfire.fires_used'] = fire.used;
  stats['wildfire.structures_destroyed'] = cleaned.fires.reduce((t, f) => t + f.structuresDestroyed, 0);

  log('NRI state perils and fallbacks');
  const nri = parseNriStates(inputs.text('nriStates'));
  const years = parseNriRecordYears(inputs.text('nriHazardInfo'));
  const fallback = applyNriFallback(cells, nri, {
    hurricane: { lambdaDamaging: hur.lambdaDamaging, lambdaSevere: hur.lambdaSevere },
    earthquake: { lambdaDamaging: eq.lambdaByLevel[1], lambdaSevere: eq.lambdaByLevel[3] },
  });
  Object.assign(params, fallback.params);

  log('storm surge: coastal taper');
  const coastKm = coastDistanceKm(cells, coastVertices(), 80);
  const taper = Float64Array.from(coastKm, surgeTaper);

  add('hurricane_wind', 'lambda_damaging', LOG_CODEC, hur.lambdaDamaging);
  add('hurricane_wind', 'lambda_severe', LOG_CODEC, hur.lambdaSevere);
  add('hurricane_wind', 'intensity_rp100', linear(10), hur.rp100Kt);
  // Extra rungs of the wind ladder for the reference building's damage ratio (damage-ratio.ts).
  for (const kt of [80, 113, 137] as const)
    add('hurricane_wind', `lambda_${kt}kt`, LOG_CODEC, hur.ladder[WIND_LADDER_KT.indexOf(kt)]);
  add('hurricane_wind', 'events', linear(1), hur.events);
  add('hurricane_wind', 'record_years', linear(1), hur.recordYears);
  add('hurricane_wind', 'cat45_share_damaging', linear(10000), hur.cat45ShareDamaging);
  add('hurricane_wind', 'cat45_share_severe', linear(10000), hur.cat45ShareSevere);
  add('hurricane_wind', 'origin', linear(1), fallback.hurricaneOrigin);

  add(
    'storm_surge',
    'lambda_damaging',
    LOG_CODEC,
    hur.lambdaDamaging.map((v, i) => v * taper[i]),
  );
  add(
    'storm_surge',
    'lambda_severe',
    LOG_CODEC,
    hur.lambdaSevere.map((v, i) => v * taper[i]),
  );
  add(
    'storm_surge',
    'events',
    linear(1),
    hur.events.map((v, i) => (taper[i] > 0 ? v : 0)),
  );
  add('storm_surge', 'record_years', linear(1), hur.recordYears);
  add(
    'storm_surge',
    'coast_distance_km',
    linear(10),
    coastKm.map((d) => (Number.isFinite(d) ? d : NaN)),
  );
  add('storm_surge', 'origin', linear(1), fallback.hurricaneOrigin);

  add('earthquake', 'lambda_damaging', LOG_CODEC, eq.lambdaByLevel[1]);
  add('earthquake', 'lambda_severe', LOG_CODEC, eq.lambdaByLevel[3]);
  add('earthquake', 'intensity_rp100', linear(1000), eq.rp100Mmi);
  add('earthquake', 'lambda_mmi5', LOG_CODEC, eq.lambdaByLevel[0]);
  add('earthquake', 'lambda_mmi7', LOG_CODEC, eq.lambdaByLevel[2]);
  add('earthquake', 'lambda_mmi9', LOG_CODEC, eq.lambdaByLevel[4]);
  add('earthquake', 'events', linear(1), eqNear.counts);
  add('earthquake', 'origin', linear(1), fallback.earthquakeOrigin);

  add('tornado', 'lambda_damaging', LOG_CODEC, tor.lambdaDamaging);
  add('tornado', 'lambda_severe', LOG_CODEC, tor.lambdaSevere);
  add('tornado', 'events', linear(1), tor.events);

  const alaska = REGIONS.findIndex((r) => r.name === 'alaska');
  const aleutians = REGIONS.findIndex((r) => r.name === 'aleutians_west');
  add('wildfire', 'lambda_damaging', LOG_CODEC, fire.lambdaDamaging);
  add('wildfire', 'lambda_severe', LOG_CODEC, fire.lambdaSevere);
  add('wildfire', 'events', linear(1), fire.events);
  // Western forests and Alaska's boreal forest take the western climate factor (docs/methods.md#climate-adjustment).
  add(
    'wildfire',
    'western',
    linear(1),
    Float64Array.from(cells, (c) =>
      (c.region === 0 && c.lng < -100) || c.region === alaska || c.region === aleutians ? 1 : 0,
    ),
  );

  log('flood, heat, winter: sub-state terms');
  const local = localPerilFactors({
    cells,
    query,
    nri,
    years,
    countyFips: cov.counties.fips,
    centres,
    storms: [...hurdat.atlantic, ...hurdat.pacific],
    gauges: inputs.text('nwpsGauges'),
    urbanDensity: URBAN_DENSITY_PER_KM2,
  });
  for (const ch of local.channels) channels.push(ch);
  Object.assign(params, local.params);
  Object.assign(stats, local.stats);
  const rel = nriRelativeChannels(cells, nri, years, cov.counties.fips, local.factors);
  for (const ch of rel.channels) channels.push(ch);
  Object.assign(params, rel.params);
  return { channels, params, stats, wildfireCleaning: cleaned.report };
}
