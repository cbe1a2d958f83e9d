/**
 * Minimum and maximum deductibles applied on top of the deductibles already taken below. `ded`,
 * `over` and `under` are the running amounts of a node, per sample: the deductible taken so far, the
 * loss cut by limits so far, and the loss that could still be given back without breaching a limit
 * below. Raising the deductible to a minimum takes loss back from `over` first, then from the loss;
 * lowering it to a maximum gives loss back, up to `under`.
 */

/** The deductible so far exceeds the maximum: give back the excess, as far as the limits below allow. */
export function deductibleOverMax(
  i: number,
  out: Float64Array,
  inp: Float64Array,
  ded: Float64Array,
  over: Float64Array,
  under: Float64Array,
  maxDeductible: number,
): void {
  const delta = ded[i] - maxDeductible;
  if (delta > under[i]) {
    out[i] = inp[i] + under[i];
    over[i] += delta - under[i];
    ded[i] = maxDeductible;
    under[i] = 0;
  } else if (inp[i] >= -delta) {
    out[i] = inp[i] + delta;
    under[i] -= delta;
    ded[i] = maxDeductible;
  } else {
    out[i] = 0;
    ded[i] += inp[i];
    under[i] += inp[i];
  }
}

/** The deductible so far (plus this level's `deductible`) is below the minimum: take the shortfall from over-limit loss, then from the loss. */
export function deductibleUnderMin(
  i: number,
  out: Float64Array,
  inp: Float64Array,
  ded: Float64Array,
  over: Float64Array,
  under: Float64Array,
  minDeductible: number,
  deductible: number,
): void {
  const delta = minDeductible - deductible - ded[i];
  if (delta <= over[i]) {
    if (inp[i] > deductible) {
      out[i] = inp[i];
      over[i] -= delta;
      ded[i] = minDeductible;
    } else if (over[i] - delta + inp[i] > deductible) {
      out[i] = 0;
      over[i] -= delta + deductible;
      ded[i] = minDeductible;
      under[i] += inp[i];
    } else {
      ded[i] += inp[i] + over[i];
      out[i] = 0;
      over[i] = 0;
      under[i] += inp[i];
    }
  } else {
    const fromLoss = delta - over[i];
    if (inp[i] > fromLoss + deductible) {
      out[i] = inp[i] - fromLoss - deductible;
      over[i] = 0;
      ded[i] = minDeductible;
      under[i] += fromLoss;
    } else {
      out[i] = 0;
      ded[i] += inp[i] + over[i];
      under[i] += inp[i];
      over[i] = 0;
    }
  }
}
