/**
 * Aftershock probabilities of Reasenberg & Jones (1989, Science 243:1173), the USGS operational aftershock
 * forecast's equation 1 (docs/methods.md#severity-prediction):
 *
 *   rate(t, >=M) = 10^(a + b(Mm - M)) (t + c)^(-p)                         per day, t days after the main shock
 *   N(t1, t2)    = 10^(a + b(Mm - M)) [(t1 + c)^(1-p) - (t2 + c)^(1-p)] / (p - 1)
 *   P(>=1)       = 1 - exp(-N)                                            (a Poisson count)
 *
 * with the generic California parameters a = -1.67, b = 0.91, p = 1.08, c = 0.05 d (Reasenberg & Jones 1989;
 * the defaults of opensha-oaf's RJ model). Pure: the caller gives the elapsed time.
 */

export interface RjParams {
  a: number;
  b: number;
  p: number;
  cDays: number;
}

/** Reasenberg & Jones (1989) generic California sequence parameters. */
export const RJ_GENERIC_CALIFORNIA: Readonly<RjParams> = { a: -1.67, b: 0.91, p: 1.08, cDays: 0.05 };

/** Expected number of aftershocks of magnitude >= m between t1 and t2 days after a main shock of mainMag. */
export function expectedAftershocks(
  mainMag: number,
  m: number,
  t1Days: number,
  t2Days: number,
  k: RjParams = RJ_GENERIC_CALIFORNIA,
): number {
  if (!(t2Days > t1Days) || t1Days < 0) return 0;
  const productivity = 10 ** (k.a + k.b * (mainMag - m));
  const integral =
    k.p === 1
      ? Math.log((t2Days + k.cDays) / (t1Days + k.cDays))
      : ((t1Days + k.cDays) ** (1 - k.p) - (t2Days + k.cDays) ** (1 - k.p)) / (k.p - 1);
  return productivity * integral;
}

/** Probability of at least one aftershock of magnitude >= m in [t1, t2] days. */
export function probabilityAtLeastOne(
  mainMag: number,
  m: number,
  t1Days: number,
  t2Days: number,
  k: RjParams = RJ_GENERIC_CALIFORNIA,
): number {
  return 1 - Math.exp(-expectedAftershocks(mainMag, m, t1Days, t2Days, k));
}

export interface AftershockWindow {
  window: 'day' | 'week' | 'month';
  from: string;
  to: string;
  /** Probability (0..1) and expected count of at least one aftershock of M >= 5 in the window. */
  p_m5: number;
  expected_m5: number;
  /** Probability (0..1) of an aftershock at least as large as the main shock (the main shock may be a foreshock). */
  p_larger: number;
}

const WINDOW_DAYS = { day: 1, week: 7, month: 30 } as const;
const DAY_MS = 86_400_000;

/**
 * The day, week and month windows that start at `validAt`, for a main shock at `originAt`. Elapsed time is
 * counted from the origin, so a forecast issued days later gives the (smaller) probabilities left.
 */
export function aftershockWindows(
  mainMag: number,
  originAt: string,
  validAt: string,
  k: RjParams = RJ_GENERIC_CALIFORNIA,
): AftershockWindow[] {
  const start = Date.parse(validAt);
  const t1 = Math.max(0, (start - Date.parse(originAt)) / DAY_MS);
  return (Object.keys(WINDOW_DAYS) as (keyof typeof WINDOW_DAYS)[]).map((w) => {
    const t2 = t1 + WINDOW_DAYS[w];
    return {
      window: w,
      from: new Date(start).toISOString(),
      to: new Date(start + WINDOW_DAYS[w] * DAY_MS).toISOString(),
      p_m5: round4(probabilityAtLeastOne(mainMag, 5, t1, t2, k)),
      expected_m5: round4(expectedAftershocks(mainMag, 5, t1, t2, k)),
      p_larger: round4(probabilityAtLeastOne(mainMag, mainMag, t1, t2, k)),
    };
  });
}

/** Båth's law: the largest aftershock is on average about 1.2 magnitude units below the main shock (docs/methods.md#severity-prediction, unverified constant). */
export const BATH_DELTA_M = 1.2;

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;
