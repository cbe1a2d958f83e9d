/**
 * Ground motion by tectonic setting: the median ln PGA (g) and the total σ (ln) a rupture gives at a site.
 * This pair is what an event footprint carries per site; a hazard curve integrates over it.
 *  - active crust (western US): BSSA14, with its own site term;
 *  - stable crust (central and eastern US): AB06 on B/C rock;
 *  - subduction interface (Cascadia): AM09.
 * Site: Vs30 760 m/s unless the caller gives one (an OED soil field can override it). The stable-crust and
 * interface models are defined on 760 m/s rock; away from 760 the BSSA14 site amplification is applied to
 * them too [judgement: one site model for all settings, so a soil override acts the same everywhere; NSHM
 * 2023 uses setting-specific site terms].
 */
import { ab06LnPgaRock, AB06_SIGMA_LN } from './gmm-ab06.js';
import { am09LnPgaRock, AM09_SIGMA_LN } from './gmm-am09.js';
import { bssa14, bssa14SiteTerm, type FaultStyle } from './gmm-bssa14.js';

export type Tectonic = 'active' | 'stable' | 'interface';

/** Site condition of the reference hazard: the B/C boundary, as in NSHM's published maps. */
export const REFERENCE_VS30 = 760;

export interface RuptureDistances {
  /** Joyner–Boore distance (km): to the surface projection of the rupture. */
  rjbKm: number;
  /** Rupture distance (km): to the rupture plane. */
  rrupKm: number;
}

export interface GroundMotion {
  lnMedian: number; // ln PGA (g)
  sigma: number; // total σ, ln units
}

export function groundMotion(tectonic: Tectonic, m: number, d: RuptureDistances, vs30 = REFERENCE_VS30, style: FaultStyle = 'unspecified'): GroundMotion {
  if (tectonic === 'active') return bssa14(m, d.rjbKm, vs30, style);
  const lnRock = tectonic === 'stable' ? ab06LnPgaRock(m, d.rrupKm) : am09LnPgaRock(m, d.rrupKm);
  const site = vs30 === REFERENCE_VS30 ? 0 : bssa14SiteTerm(vs30, Math.exp(lnRock));
  return { lnMedian: lnRock + site, sigma: tectonic === 'stable' ? AB06_SIGMA_LN : AM09_SIGMA_LN };
}
