import { describe, expect, it } from 'vitest';
import { CatintelError } from '../../errors.js';
import { applyCalcrule, checkCalcrule } from './calcrules.js';
import type { Profile } from './types.js';

const base: Profile = { calcrule: 2, deductible1: 0, deductible2: 0, deductible3: 0, attachment1: 500_000, limit1: 5_000_000, share1: 0.3 };

describe('FM calc rules', () => {
  it('rule 2 (PiWind layer 1): nothing below the attachment, share of the excess, capped at limit x share', () => {
    expect(applyCalcrule(base, 400_000)).toBe(0);
    expect(applyCalcrule(base, 1_331_440)).toBeCloseTo((1_331_440 - 500_000) * 0.3, 6);
    expect(applyCalcrule(base, 50_000_000)).toBeCloseTo(1_500_000, 6);
  });

  it('rule 1 deducts then limits; rule 3 is a franchise; 12, 14, 16 and 100', () => {
    const p = { ...base, deductible1: 100, limit1: 1000 };
    expect(applyCalcrule({ ...p, calcrule: 1 }, 50)).toBe(0);
    expect(applyCalcrule({ ...p, calcrule: 1 }, 600)).toBe(500);
    expect(applyCalcrule({ ...p, calcrule: 1 }, 5000)).toBe(1000);
    expect(applyCalcrule({ ...p, calcrule: 3 }, 100)).toBe(0);
    expect(applyCalcrule({ ...p, calcrule: 3 }, 101)).toBe(101);
    expect(applyCalcrule({ ...p, calcrule: 12 }, 600)).toBe(500);
    expect(applyCalcrule({ ...p, calcrule: 14 }, 5000)).toBe(1000);
    expect(applyCalcrule({ ...p, calcrule: 16, deductible1: 0.1 }, 1000)).toBeCloseTo(900, 9);
    expect(applyCalcrule({ ...p, calcrule: 100 }, 1234)).toBe(1234);
  });

  it('an unsupported rule is refused naming the profile, the rule id and the supported list', () => {
    let err: unknown;
    try {
      checkCalcrule(7, { ...base, calcrule: 34 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CatintelError);
    expect((err as CatintelError).code).toBe('invalid_input');
    expect((err as Error).message).toMatch(/profile_id 7 uses calcrule_id 34/);
    expect((err as Error).message).toMatch(/supported calc rules: 1 \(/);
  });
});
