/**
 * gulmc's random numbers (pytools gul/random.py): one generator per seed, seeded by a hash of
 * (group id, event id) so a group draws the same numbers in every run and every process.
 */
import { philoxLatinHypercube } from './philox.js';

const MOD = 2147483648n;
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

/** generate_hash(group_id, event_id): the seed of a damage group's draws. */
export function damageSeed(groupId: number, eventId: number): number {
  if (plain(groupId) && plain(eventId)) return (mulMod31(groupId, 1543270363) + mulMod31(eventId, 1943272559)) % 2147483648;
  return Number(((BigInt(groupId) * 1543270363n) % MOD + (BigInt(eventId) * 1943272559n) % MOD) % MOD);
}

/** generate_hash_hazard(hazard_group_id, event_id): the seed of a hazard group's draws (oasislmf 2.5). */
export function hazardSeed(groupId: number, eventId: number): number {
  const m = 1957483729;
  if (plain(groupId) && plain(eventId)) return (mulMod(groupId, 1143271949, m) + mulMod(eventId, 1243274353, m)) % m;
  const mod = 1957483729n;
  return Number(((BigInt(groupId) * 1143271949n) % mod + (BigInt(eventId) * 1243274353n) % mod) % mod);
}

/** generate_correlated_hash_vector: the seed of a peril correlation group's shared draw for an event. */
export function correlationSeed(perilCorrelationGroup: number, eventId: number): number {
  if (plain(perilCorrelationGroup) && plain(eventId)) return (mulMod31(perilCorrelationGroup, 1836311903) + mulMod31(eventId, 1943272559)) % 2147483648;
  return Number(((BigInt(perilCorrelationGroup) * 1836311903n) % MOD + (BigInt(eventId) * 1943272559n) % MOD) % MOD);
}

/**
 * n draws for one seed (into out[offset .. offset + n - 1]) with the Latin hypercube on Philox4x32-7: gulmc's default generator in
 * oasislmf 2.5 (random_generator 2), the one PiWind's expected outputs were made with.
 */
export function draws(seed: number, n: number, out: Float64Array, offset = 0): void {
  philoxLatinHypercube(seed, n, out, offset);
}
