/**
 * How each peril's frequencies respond to a climate case (docs/scoring.md "Climate adjustment").
 * Tropical cyclones follow CLIMADA's frequency-only method (docs/methods.md#climate-adjustment, `apply_climate_scenario_knu`):
 * Cat 4–5 storms scale by the Cat 4–5 factor and all other storms by the factor that keeps the all-TC
 * total at its projected value, so the change at a site depends on the share of its hurricane-force
 * (and major-hurricane-force) hits that came from Cat 4–5 storms, which the build measured per cell.
 */
import { wildfireEastFactor, type ClimateCase } from '../climate.js';
import type { HazardGrid } from './grid.js';
import type { Peril } from './perils.js';

export interface Multipliers {
  damaging: number; // on λ_damaging (and on the relative metric)
  severe: number; // on λ_severe
  intensity: number; // on the 100-year intensity
  basis: string;
}

const ONE: Multipliers = { damaging: 1, severe: 1, intensity: 1, basis: 'no climate adjustment (baseline)' };

export function perilMultipliers(grid: HazardGrid, cell: number, peril: Peril, c: ClimateCase): Multipliers {
  if (c.scenario === 'baseline') return ONE;
  switch (peril) {
    case 'hurricane_wind':
    case 'storm_surge': {
      if (peril === 'storm_surge') {
        const m = c.factor('surge_frequency');
        return {
          damaging: m,
          severe: m,
          intensity: 1,
          basis:
            'fixed-level coastal flood frequency exp(dSLR/0.15 m), Sweet et al. 2022 SLR (docs/methods.md#climate-adjustment)',
        };
      }
      const m45 = c.factor('tc_frequency_cat45');
      const mAll = c.factor('tc_frequency_all');
      const p45 = grid.header.params['hurricane_wind.cat45_share_of_tcs'];
      const mRest = (mAll - p45 * m45) / (1 - p45);
      const share = (name: string, fallback: number) => {
        const v = grid.channels.get(`hurricane_wind.${name}`)?.[cell];
        return v === undefined || Number.isNaN(v) ? fallback : v;
      };
      // Without storm-level data (NRI fallback cells) damaging follows all storms, severe the Cat 4–5 factor.
      const fd = share('cat45_share_damaging', p45);
      const fs = share('cat45_share_severe', 1);
      return {
        damaging: fd * m45 + (1 - fd) * mRest,
        severe: fs * m45 + (1 - fs) * mRest,
        intensity: c.factor('tc_vmax'),
        basis:
          'Knutson et al. 2020 North Atlantic medians via Jewson 2021, CLIMADA frequency-only split by Cat 4-5 share (docs/methods.md#climate-adjustment)',
      };
    }
    case 'wildfire': {
      const west = c.factor('wildfire_west');
      const isWest = grid.channels.get('wildfire.western')?.[cell] === 1;
      const m = isWest ? west : wildfireEastFactor(west);
      return {
        damaging: m,
        severe: m,
        intensity: 1,
        basis: isWest
          ? 'western forest area burned 2^(GWL-1), capped at 4 (NRC 2011 range; docs/methods.md#climate-adjustment)'
          : 'eastern/grassland fire 1.0-1.2 (docs/methods.md#climate-adjustment), interpolated with the western factor [judgement]',
      };
    }
    case 'riverine_flood': {
      const m = c.factor('precip_frequency');
      return {
        damaging: m,
        severe: m,
        intensity: 1,
        basis:
          'extreme 1-day precipitation frequency as an upper bound, AR6 SPM.6 (docs/methods.md#climate-adjustment)',
      };
    }
    case 'extreme_heat': {
      const m = c.factor('heat_frequency');
      return {
        damaging: m,
        severe: m,
        intensity: 1,
        basis: '10-yr hot extreme frequency, AR6 SPM.6 relative to 1 C (docs/methods.md#climate-adjustment)',
      };
    }
    case 'drought': {
      const m = c.factor('drought_frequency');
      return {
        damaging: m,
        severe: m,
        intensity: 1,
        basis: 'agricultural/ecological drought frequency, AR6 SPM.6 (docs/methods.md#climate-adjustment)',
      };
    }
    case 'winter_storm': {
      const m = c.factor('winter_frequency');
      return {
        damaging: m,
        severe: m,
        intensity: 1,
        basis: 'fewer snow days; low confidence [judgement in docs/methods.md#climate-adjustment]',
      };
    }
    case 'earthquake':
      return { ...ONE, basis: 'earthquakes do not change with climate' };
    case 'tornado':
      return {
        ...ONE,
        basis: 'AR6: low confidence in tornado trends; held at 1.0 (docs/methods.md#climate-adjustment)',
      };
  }
}
