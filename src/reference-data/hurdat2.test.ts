import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sharedData } from '../../test/helpers/paths.js';
import { parseHurdat2 } from './hurdat2.js';

const atlantic = sharedData('hazard_history/hurricanes/hurdat2-1851-2024-040425_reassembled.txt');

describe.skipIf(!fs.existsSync(atlantic))('HURDAT2 parser', () => {
  const storms = parseHurdat2(fs.readFileSync(atlantic, 'utf8'));

  it('reads every Atlantic storm of the 2025 release', () => {
    expect(storms).toHaveLength(1991);
    expect(storms.reduce((n, s) => n + s.fixes.length, 0)).toBeGreaterThan(55_000);
  });

  it('reads Ian (AL092022): peak 140 kt, west longitudes negative, 64-kt radii', () => {
    const ian = storms.find((s) => s.id === 'AL092022')!;
    expect(Math.max(...ian.fixes.map((f) => f.windKt))).toBe(140);
    expect(ian.fixes[0].lng).toBeCloseTo(-66.3, 6);
    expect(ian.fixes[0].lat).toBeCloseTo(12.3, 6);
    expect(ian.fixes.some((f) => f.r64Nm !== null && f.r64Nm > 0)).toBe(true);
    for (let i = 1; i < ian.fixes.length; i++) expect(ian.fixes[i].hours).toBeGreaterThan(ian.fixes[i - 1].hours);
  });

  it('treats -999 pressure as missing', () => {
    const first = storms.find((s) => s.id === 'AL011851')!;
    expect(first.fixes[0].pressureMb).toBeNull();
  });
});
