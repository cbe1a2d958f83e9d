/**
 * Where a score's expected annual damage ratio comes from, peril by peril, and the figure itself:
 *  - hurricane wind and earthquake: the model packages through the loss engine (the model damage table,
 *    model-damage.ts): the reference building's AAL / TIV in the package cell of the point, so a one-location
 *    book of that building has the same AAL / TIV in `portfolio ep-curve`, up to its sampling error;
 *  - the same perils where the table has no figure (off the package's grid: Alaska, Hawaii, the territories,
 *    hurricanes west of 106°W; or an installation without the table): the hazard baseline's rate, and
 *    `source.kind` says "baseline" with the reason; never shown as the model's;
 *  - storm surge: none. Surge damage depends on the building's first-floor elevation, which a point does not
 *    give (there is no elevation model in the data); the hurricane package gives surge losses to an OED book
 *    that has GroundElevation;
 *  - the perils without a model package: the hazard baseline's rate (damage-ratio.ts), as before.
 */
import { DAMAGE_RATIO_BASIS, damageRatioValue } from './damage-ratio.js';
import type { HazardGrid } from './grid.js';
import { MODEL_DAMAGE_PERILS, modelDamageAt, type ModelDamageTable } from './model-damage.js';
import type { Peril } from './perils.js';

/** The point and the table a score reads the model's ratio from. */
export interface ModelDamagePoint {
  table: ModelDamageTable | null;
  lat: number;
  lng: number;
}

export type DamageRatioSource =
  | {
      kind: 'model';
      /** The model package the ratio was computed with (its manifest's model, years, seed and events, and the manifest's sha256). */
      model: string;
      package_years: number;
      package_seed: number;
      package_events: number;
      package_manifest_sha256: string;
      /** The package's cell (its areaperil_id) the point falls in. */
      areaperil_id: number;
      reference_building: string;
      /** The vulnerability the reference building keyed to in this cell, with the keys lookup's message. */
      vulnerability_id: number | null;
      vulnerability: string | null;
      method: string;
    }
  | { kind: 'baseline'; reason: string }
  | { kind: 'none'; reason: string };

export interface DamageRatioAt {
  /** 1/yr, climate-adjusted; NaN where none. */
  value: number;
  basis: string;
  source: DamageRatioSource;
}

const isModelPeril = (p: Peril): boolean => (MODEL_DAMAGE_PERILS as readonly string[]).includes(p);

export const SURGE_NOT_MODELLED =
  "storm surge damage depends on the building's first-floor elevation, which a point score does not know (the data hold no elevation model); the hurricane model package gives surge losses to an OED book with GroundElevation: catintel portfolio ep-curve";

export function damageRatioAt(
  grid: HazardGrid,
  cell: number,
  peril: Peril,
  frequencyMultiplier: number,
  at?: ModelDamagePoint,
): DamageRatioAt {
  if (peril === 'storm_surge')
    return {
      value: NaN,
      basis: 'none: needs the building elevation',
      source: { kind: 'none', reason: SURGE_NOT_MODELLED },
    };
  const baseline = (reason: string): DamageRatioAt => ({
    value: damageRatioValue(grid, cell, peril, frequencyMultiplier),
    basis: DAMAGE_RATIO_BASIS[peril],
    source: { kind: 'baseline', reason },
  });
  if (!isModelPeril(peril)) return baseline(`no model package for ${peril}: the hazard baseline's rate`);
  if (!at?.table)
    return baseline(
      `this installation has no model damage table (data/model-damage/); the hazard baseline's rate, not the ${peril} model's`,
    );
  const hit = modelDamageAt(at.table, peril, at.lat, at.lng);
  const g = at.table.grids.get(peril);
  if (!g)
    return baseline(
      `the model damage table holds no ${peril} grid (node dist/scripts/build-model-damage.js --perils ${peril} adds it from a built package); the hazard baseline's rate, not the model's`,
    );
  if (!hit) {
    const where = `its grid covers ${g.south}-${g.south + g.rows * g.deg}°N, ${-g.west}-${-(g.west + g.cols * g.deg)}°W`;
    return baseline(
      `(${at.lat}, ${at.lng}) is outside the ${peril} model package (${where}); the hazard baseline's rate, not the model's`,
    );
  }
  const p = hit.grid.package;
  const method = `the loss engine's analytical mean AAL / TIV of the reference building in this package cell (keys lookup, Oasis input files, kernel), ${p.years.toLocaleString('en-US')} years`;
  return {
    value: hit.ratio * frequencyMultiplier,
    basis: `${p.model} model package (${p.years} years, seed ${p.seed}): AAL / TIV of the reference building, ${hit.grid.reference_building.description}`,
    source: {
      kind: 'model',
      model: p.model,
      package_years: p.years,
      package_seed: p.seed,
      package_events: p.events,
      package_manifest_sha256: p.manifest_sha256,
      areaperil_id: hit.areaperilId,
      reference_building: hit.grid.reference_building.description,
      vulnerability_id: hit.vulnerability?.vulnerability_id ?? null,
      vulnerability: hit.vulnerability?.message ?? null,
      method,
    },
  };
}
