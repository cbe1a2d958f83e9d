/**
 * The embedded infrastructure (data/infrastructure/) reads back to the facilities the HIFLD files in
 * ../shared/data hold. Its byte-for-byte rebuild is in test/data-check/infrastructure.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadInfrastructure } from '../src/intelligence/infrastructure/store.js';
import { haversineKm } from '../src/lib/geo.js';
import { REPO_ROOT, sharedData } from './helpers/paths.js';

const DIR = path.join(REPO_ROOT, 'data/infrastructure');

describe('embedded infrastructure', () => {
  it('reads back: every kind with its states, open hospitals only', () => {
    const s = loadInfrastructure(DIR);
    const kinds = Object.fromEntries(s.meta.kinds.map((k) => [k.kind, k]));
    expect(kinds.school.states).toEqual(['FL']);
    expect(kinds.fire_station.states).toEqual(['OR']);
    expect(kinds.hospital.states.length).toBeGreaterThan(50);
    expect(kinds.ems.scope).toBe('none');
    const hospitals = s.facilities.filter((f) => f.kind === 'hospital');
    expect(hospitals).toHaveLength(7608);
    const csv = fs.readFileSync(sharedData('infrastructure/hifld_hospitals.csv'), 'utf8');
    expect(csv).toContain('JACKSON MEMORIAL HOSPITAL');
    expect(hospitals.find((h) => h.name === 'JACKSON MEMORIAL HOSPITAL')).toMatchObject({ city: 'MIAMI', state: 'FL' });
  });

  it('holds one record per facility: HIFLD double records are merged, the merged ids kept', () => {
    const s = loadInfrastructure(DIR);
    const kinds = Object.fromEntries(s.meta.kinds.map((k) => [k.kind, k]));
    // Two ids, one hospital: its old and new address 1 km apart, same type and 25 beds; the newer record is kept.
    const wauchula = s.facilities.filter((f) => f.kind === 'hospital' && f.name === 'ADVENTHEALTH WAUCHULA');
    expect(wauchula).toHaveLength(1);
    expect(wauchula[0]).toMatchObject({
      id: '0196784563',
      extra: { merged_ids: '0013433873', source_date: '2021-11-16' },
    });
    // The same school under two NCES ids at one point.
    expect(s.facilities.filter((f) => f.kind === 'school' && f.name === 'IDEA BASSETT')).toHaveLength(1);
    expect(kinds.hospital.duplicates_merged).toBe(26);
    expect(kinds.school.duplicates_merged).toBe(8);
    // No two records of a kind share a name within 50 m any more.
    const byName = new Map<string, typeof s.facilities>();
    for (const f of s.facilities)
      byName.set(`${f.kind}|${f.state}|${f.name.toUpperCase()}`, [
        ...(byName.get(`${f.kind}|${f.state}|${f.name.toUpperCase()}`) ?? []),
        f,
      ]);
    const close = [...byName.values()].flatMap((g) =>
      g.flatMap((a, i) =>
        g
          .slice(i + 1)
          .filter((b) => haversineKm(a.lat, a.lng, b.lat, b.lng) <= 0.05)
          .map((b) => `${a.name} ${a.id}/${b.id}`),
      ),
    );
    expect(close).toEqual([]);
  });
});
