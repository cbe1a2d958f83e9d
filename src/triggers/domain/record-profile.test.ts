import { describe, expect, it } from 'vitest';
import { hollandRadiusKm } from '../../domain/rings/hurricane.js';
import { fitHollandB, fittedBBetween } from './record-profile.js';

// Ian's 19:05Z landfall fix in the real b-deck: 130 kt, RMW 20 nm, mean radii 34 kt 132.5, 50 kt 65, 64 kt 36.25 nm.
const IAN = { windKt: 130, rmwNm: 20, radiiNm: { 34: 132.5, 50: 65, 64: 36.25 } };

describe("Holland B fitted to the record's wind radii (docs/triggers.md)", () => {
  it("gives Ian's landfall fix B 2.31, and the radii the docs quote", () => {
    const b = fitHollandB(130, 20 * 1.852, IAN.radiiNm)!;
    expect(b).toBeCloseTo(2.31, 2);
    expect([64, 50, 34].map((kt) => Math.round(hollandRadiusKm(130, kt, 37.04, b)!))).toEqual([101, 128, 181]);
  });

  it("keeps to Holland's 1.0-2.5 and needs a radius beyond Rm", () => {
    expect(fitHollandB(130, 37.04, { 64: 21 })).toBe(2.5); // 64-kt radius just outside Rm: steeper than 2.5 allows
    expect(fitHollandB(130, 37.04, { 64: 10 })).toBeNull(); // inside Rm: says nothing about the outer shape
    expect(fitHollandB(60, 37.04, { 64: 50 })).toBeNull(); // threshold above Vmax
    expect(fitHollandB(130, 37.04, null)).toBeNull();
  });

  it('between fixes: linear where both are fitted, the one fitted value otherwise, each fix its own at the ends', () => {
    const bare = { windKt: 130, rmwNm: 20 };
    const ian = fitHollandB(130, 37.04, IAN.radiiNm)!;
    expect(fittedBBetween(IAN, IAN, 0.5)).toBeCloseTo(ian, 10);
    expect(fittedBBetween(IAN, bare, 0.5)).toBeCloseTo(ian, 10);
    expect(fittedBBetween(bare, IAN, 0)).toBeNull();
  });
});
