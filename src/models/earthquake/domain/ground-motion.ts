/**
 * Ground motion by tectonic setting: the median ln PGA (g) and the total σ (ln) a rupture gives at a site.
 * This pair is what an event footprint carries per site; a hazard curve integrates over it.
 *  - active crust (western US): BSSA14, with its own site term;
 *  - stable crust (central and eastern US): AB06 and Toro et al. (1997) on B/C rock, equal weights, folded
 *    into one lognormal (STABLE_CRUST_WEIGHTS);
 *  - subduction interface (Cascadia): AM09.
 * Site: Vs30 760 m/s unless the caller gives one (an OED soil field can override it). The stable-crust and
 * interface models are defined on 760 m/s rock; away from 760 the BSSA14 site amplification is applied to
 * them too [judgement: one site model for all settings, so a soil override acts the same everywhere; NSHM
 * 2023 uses setting-specific site terms].
 */
import { ab06LnPgaRock, AB06_SIGMA_LN } from './gmm-ab06.js';
import { am09LnPgaRock, AM09_SIGMA_LN } from './gmm-am09.js';
import { toro97LnPgaRock, TORO97_SIGMA_LN } from './gmm-toro97.js';
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

/**
 * Weights of the stable-crust models [judgement: NSHM 2008 and 2014 used both among their central and
 * eastern US models; AB06 with 140 bar sits at the low end of that set and Toro et al. 1997 near its middle].
 */
export const STABLE_CRUST_WEIGHTS = { ab06: 0.5, toro97: 0.5 } as const;

/**
 * Two lognormal models as one: the weighted mean of the ln medians, and a σ that adds the spread of the
 * medians to the weighted variances, so a footprint keeps one median and σ and the hazard keeps both
 * models' range (the law of total variance).
 */
function mixture(a: GroundMotion, wa: number, b: GroundMotion, wb: number): GroundMotion {
  const mu = wa * a.lnMedian + wb * b.lnMedian;
  const v = wa * (a.sigma ** 2 + (a.lnMedian - mu) ** 2) + wb * (b.sigma ** 2 + (b.lnMedian - mu) ** 2);
  return { lnMedian: mu, sigma: Math.sqrt(v) };
}

export function groundMotion(tectonic: Tectonic, m: number, d: RuptureDistances, vs30 = REFERENCE_VS30, style: FaultStyle = 'unspecified'): GroundMotion {
  if (tectonic === 'active') return bssa14(m, d.rjbKm, vs30, style);
  const rock =
    tectonic === 'stable'
      ? mixture(
          { lnMedian: ab06LnPgaRock(m, d.rrupKm), sigma: AB06_SIGMA_LN },
          STABLE_CRUST_WEIGHTS.ab06,
          { lnMedian: toro97LnPgaRock(m, d.rjbKm), sigma: TORO97_SIGMA_LN },
          STABLE_CRUST_WEIGHTS.toro97,
        )
      : { lnMedian: am09LnPgaRock(m, d.rrupKm), sigma: AM09_SIGMA_LN };
  const site = vs30 === REFERENCE_VS30 ? 0 : bssa14SiteTerm(vs30, Math.exp(rock.lnMedian));
  return { lnMedian: rock.lnMedian + site, sigma: rock.sigma };
}
