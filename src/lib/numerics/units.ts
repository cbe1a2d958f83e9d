/** Unit conversions the models share. */

/**
 * Knots to metres per second. The knot is 1852/3600 m/s = 0.51444…; the models were written and their
 * outputs recorded with 0.514444, so that is the factor (it differs from the exact one by 9e-7 relative).
 */
export const KT_TO_MS = 0.514444;
