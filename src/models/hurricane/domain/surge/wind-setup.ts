/**
 * The peak surge at a coast point for one storm position, from two parts that add:
 *
 * 1. Inverse barometer: the sea rises 1 cm for each hPa the pressure falls (Δp/(ρ_w·g), Pugh 1987,
 *    "Tides, Surges and Mean Sea-Level"), with the pressure deficit at the point from Holland's
 *    (1980) pressure profile, p(r) = p_c + Δp·e^{−(Rm/r)^B}, so the deficit there is Δp·(1 − e^{−(Rm/r)^B}).
 * 2. Wind setup over the shelf: the steady, depth-integrated momentum balance of a wind stress τ blowing
 *    onshore over water of depth h(x),
 *        dη/dx = τ / (ρ_w·g·(h(x) + η)),
 *    integrated from the end of the fetch (η = 0) to the shoreline (Dean & Dalrymple 2002, "Coastal
 *    Processes with Engineering Applications", wind-stress setup over a sloping bottom). The total
 *    depth h + η in the denominator keeps the setup finite at the shore, and a shallow, wide shelf gives
 *    a large setup where a steep one gives little: the dependence on shelf slope Irish, Resio & Ratcliff
 *    (2008) found in their simulations. Their other finding, that a larger storm (Rmax) gives more surge
 *    on a mild slope, enters through the fetch: the stress acts over FETCH_PER_RMAX·Rmax of the shelf.
 *
 * τ = ρ_a·C_d·|U|·U_on, with U the 10-m marine 1-min wind of the wind field at the point, U_on its onshore
 * component (offshore winds give no setup here: set-down is not modelled), ρ_a = 1.15 kg/m³ (the wind
 * field's air density), C_d = 0.0025 (the saturated drag coefficient in hurricane winds the wind field
 * already uses, Powell, Vickery & Reinhold 2003), ρ_w = 1025 kg/m³.
 */
import { AIR_DENSITY } from '../wind-field/holland.js';
import { DRAG_COEFFICIENT_SEA } from '../wind-field/surface.js';
import { depthAt, type ShelfSegment } from './shelf-profiles.js';

export const SEA_WATER_DENSITY = 1025;
const G = 9.81;
/**
 * Stress acts over this many radii of maximum wind of the shelf [judgement: the Holland wind falls to about
 * 60 % of its peak at 3·Rm, a third of the stress; 2·Rm is where most of the storm's onshore stress lies].
 */
export const FETCH_PER_RMAX = 2;
/** Integration steps across the fetch (the profile is piecewise linear; 80 steps is within 1 % of 800). */
const STEPS = 80;

/** Rise of the sea (m) for a pressure deficit (hPa): 100·Δp/(ρ_w·g), about 1 cm per hPa. */
export function inverseBarometerM(deficitHpa: number): number {
  return (Math.max(0, deficitHpa) * 100) / (SEA_WATER_DENSITY * G);
}

/** Onshore wind stress (Pa) from the wind speed and its onshore component (m/s). */
export function onshoreStressPa(windMs: number, onshoreMs: number): number {
  return AIR_DENSITY * DRAG_COEFFICIENT_SEA * windMs * Math.max(0, onshoreMs);
}

/**
 * Steady wind setup (m) at the shoreline for a uniform onshore stress over fetchKm of the shelf, by the
 * midpoint method from the fetch's outer end to the shore.
 */
export function windSetupM(stressPa: number, profile: ShelfSegment['profile'], fetchKm: number): number {
  if (!(stressPa > 0) || !(fetchKm > 0)) return 0;
  const a = stressPa / (SEA_WATER_DENSITY * G); // m of setup per m of fetch over 1 m of water
  const dx = (fetchKm * 1000) / STEPS;
  let eta = 0;
  for (let i = STEPS; i > 0; i--) {
    const x0 = (i * dx) / 1000;
    const xm = ((i - 0.5) * dx) / 1000;
    const k1 = a / Math.max(depthAt(profile, x0) + eta, 0.01);
    const half = eta + (k1 * dx) / 2;
    eta += (a / Math.max(depthAt(profile, xm) + half, 0.01)) * dx;
  }
  return eta;
}
