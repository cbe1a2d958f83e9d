/**
 * gulmc's random numbers (pytools gul/random.py): one generator per seed, seeded by a hash of
 * (group id, event id) so a group draws the same numbers in every run and every process.
 */
import { philoxLatinHypercube } from './philox.js';

const MAX_EXACT = 2 ** 53;

/** Non-negative integers a double holds exactly: the ids the fast paths below take. */
const plain = (x: number) => x >= 0 && x < MAX_EXACT && Number.isInteger(x);

/** (a * b) mod 2^31 for a non-negative integer a (below 2^53) and b < 2^31: the low 31 bits of the low word. */
const mulMod31 = (a: number, b: number) => Math.imul(a, b) & 0x7fffffff;

/** (a * b) mod m for a non-negative integer a (below 2^53) and b, m < 2^31, with every step exact in a double. */
function mulMod(a: number, b: number, m: number): number {
  const r = a % m;
  const hi = Math.floor(r / 65536);
  const lo = r - hi * 65536;
  return (((hi * b) % m) * 65536 + lo * b) % m;
}

/**
 * One of gulmc's seed hashes: seed = (group term + event term) mod m, each term (id * multiplier) mod m,
 * with m at most 2^31 (a seed fits 31 bits). The terms are computed apart, so that a kernel computes a
 * group's once and an event's once. A class, so that every hash shares its methods (one call target in
 * the kernel's loops).
 */
export class SeedHash {
  constructor(
    private readonly groupMultiplier: number,
    private readonly eventMultiplier: number,
    private readonly m: number,
  ) {}

  group(key: number): number {
    return this.term(key, this.groupMultiplier);
  }

  event(eventId: number): number {
    return this.term(eventId, this.eventMultiplier);
  }

  /** The seed of a group term and an event term: both are below m, so one subtraction reduces their sum. */
  seed(groupTerm: number, eventTerm: number): number {
    const sum = groupTerm + eventTerm;
    return sum >= this.m ? sum - this.m : sum;
  }

  private term(id: number, multiplier: number): number {
    if (!plain(id)) return Number((BigInt(id) * BigInt(multiplier)) % BigInt(this.m));
    return this.m === 2147483648 ? mulMod31(id, multiplier) : mulMod(id, multiplier, this.m);
  }
}

/** generate_hash(group_id, event_id): the seeds of damage groups' draws. */
export const damageHash = new SeedHash(1543270363, 1943272559, 2147483648);
/** generate_hash_hazard(hazard_group_id, event_id): the seeds of hazard groups' draws (oasislmf 2.5). */
export const hazardHash = new SeedHash(1143271949, 1243274353, 1957483729);
/** generate_correlated_hash_vector: the seeds of peril correlation groups' shared draws. */
export const correlationHash = new SeedHash(1836311903, 1943272559, 2147483648);

/** The seed of `hash` for a group and an event. */
export function seedOf(hash: SeedHash, key: number, eventId: number): number {
  return hash.seed(hash.group(key), hash.event(eventId));
}

/**
 * n draws for one seed (into out[offset .. offset + n - 1]) with the Latin hypercube on Philox4x32-7: gulmc's default generator in
 * oasislmf 2.5 (random_generator 2), the one PiWind's expected outputs were made with.
 */
export function draws(seed: number, n: number, out: Float64Array, offset = 0): void {
  philoxLatinHypercube(seed, n, out, offset);
}
