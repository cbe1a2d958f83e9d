/**
 * Intensity uncertainty: the gust a parametric wind field gives a cell is not the gust the cell sees.
 * We take the true peak gust as lognormal around the modelled one (the modelled gust is the median) with
 * σ_ln = 0.10 [judgement: of the order of the scatter that comparisons of parametric wind fields with
 * surface observations report, e.g. Vickery et al. 2009, JAMC 48:381; not fitted here].
 * Each cell's probability mass is spread over the intensity bins it falls in (within ±4σ, the outermost
 * bins taking the tails); bins at either end holding less than MIN_PROBABILITY are dropped and the rest
 * renormalised, so the probabilities of a cell sum to 1 and a cell takes about 8 rows rather than 46.
 */
import { normalCdfAs26217 } from '../../../../lib/numerics/normal.js';
import { binOfGust, intensityBins } from '../intensity-bins.js';

export const GUST_SIGMA_LN = 0.1;
export const MIN_PROBABILITY = 1e-3;

const BINS = intensityBins();

export interface BinProbability {
  bin: number;
  probability: number;
}

/** The bins a modelled gust (mph) spreads over and their probabilities (summing to 1), by ascending bin. */
export function gustBinProbabilities(gustMph: number, sigmaLn = GUST_SIGMA_LN): BinProbability[] {
  if (!(gustMph > 0) || !(sigmaLn > 0)) return [{ bin: binOfGust(gustMph), probability: 1 }];
  const mu = Math.log(gustMph);
  const cdf = (mph: number) => (mph === Infinity ? 1 : mph <= 0 ? 0 : normalCdfAs26217((Math.log(mph) - mu) / sigmaLn));
  const lo = Math.max(1, binOfGust(gustMph * Math.exp(-4 * sigmaLn)));
  const hi = binOfGust(gustMph * Math.exp(4 * sigmaLn));
  const out: BinProbability[] = [];
  let total = 0;
  for (let id = lo; id <= hi; id++) {
    const b = BINS[id - 1];
    const from = id === lo ? 0 : b.fromMph;
    const to = id === hi ? Infinity : b.toMph;
    out.push({ bin: id, probability: cdf(to) - cdf(from) });
  }
  // Trim the faint tails from both ends (never from the middle: the bins of a cell stay contiguous).
  while (out.length > 1 && out[0].probability < MIN_PROBABILITY) out.shift();
  while (out.length > 1 && out[out.length - 1].probability < MIN_PROBABILITY) out.pop();
  for (const o of out) total += o.probability;
  for (const o of out) o.probability /= total;
  return out;
}
