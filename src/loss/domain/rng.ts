/**
 * gulmc's random numbers (pytools gul/random.py): one generator per seed, seeded by a hash of
 * (group id, event id) so a group draws the same numbers in every run and every process.
 */
import { philoxLatinHypercube } from './philox.js';

const MOD = 2147483648n;

/** generate_hash(group_id, event_id): the seed of a damage group's draws. */
export function damageSeed(groupId: number, eventId: number): number {
  return Number(((BigInt(groupId) * 1543270363n) % MOD + (BigInt(eventId) * 1943272559n) % MOD) % MOD);
}

/** generate_hash_hazard(hazard_group_id, event_id): the seed of a hazard group's draws (oasislmf 2.5). */
export function hazardSeed(groupId: number, eventId: number): number {
  const mod = 1957483729n;
  return Number(((BigInt(groupId) * 1143271949n) % mod + (BigInt(eventId) * 1243274353n) % mod) % mod);
}

/** generate_correlated_hash_vector: the seed of a peril correlation group's shared draw for an event. */
export function correlationSeed(perilCorrelationGroup: number, eventId: number): number {
  return Number(((BigInt(perilCorrelationGroup) * 1836311903n) % MOD + (BigInt(eventId) * 1943272559n) % MOD) % MOD);
}

/**
 * n draws for one seed with the Latin hypercube on Philox4x32-7: gulmc's default generator in
 * oasislmf 2.5 (random_generator 2), the one PiWind's expected outputs were made with.
 */
export function draws(seed: number, n: number, out: Float64Array): void {
  philoxLatinHypercube(seed, n, out);
}
