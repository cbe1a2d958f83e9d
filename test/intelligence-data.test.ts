/**
 * The embedded infrastructure (data/infrastructure/) is rebuilt byte for byte from the HIFLD files in
 * ../shared/data by scripts/build-infrastructure.ts, and reads back to the facilities those files hold.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildInfrastructure } from '../scripts/build-infrastructure.js';
import { loadInfrastructure } from '../src/intelligence/infrastructure/store.js';
import { haversineKm } from '../src/lib/geo.js';
import { tempDir } from './helpers/cli.js';
import { REPO_ROOT, sharedData } from './helpers/paths.js';

const DIR = path.join(REPO_ROOT, 'data/infrastructure');

describe('embedded infrastructure', () => {
  it('rebuilds byte for byte from the shared HIFLD files and stays small', () => {
    const out = tempDir();
    const r = buildInfrastructure(sharedData(), out);
    expect(r.kinds).toEqual({ hospital: 7608, fire_station: 731, school: 4329, urgent_care: 4810, ems: 0 });
    const committed = fs.readdirSync(DIR).sort();
    expect(fs.readdirSync(out).sort()).toEqual(committed);
    let bytes = 0;
    for (const f of committed) {
      const mine = fs.readFileSync(path.join(DIR, f));
      bytes += mine.length;
      expect(fs.readFileSync(path.join(out, f)).equals(mine), `${f} differs from a rebuild: run \`make data\``).toBe(true);
    }
    expect(bytes).toBeLessThan(1_000_000);
  });

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
    expect(wauchula[0]).toMatchObject({ id: '0196784563', extra: { merged_ids: '0013433873', source_date: '2021-11-16' } });
    // The same school under two NCES ids at one point.
    expect(s.facilities.filter((f) => f.kind === 'school' && f.name === 'IDEA BASSETT')).toHaveLength(1);
    expect(kinds.hospital.duplicates_merged).toBe(26);
    expect(kinds.school.duplicates_merged).toBe(8);
    // No two records of a kind share a name within 50 m any more.
    const byName = new Map<string, typeof s.facilities>();
    for (const f of s.facilities) byName.set(`${f.kind}|${f.state}|${f.name.toUpperCase()}`, [...(byName.get(`${f.kind}|${f.state}|${f.name.toUpperCase()}`) ?? []), f]);
    const close = [...byName.values()].flatMap((g) => g.flatMap((a, i) => g.slice(i + 1).filter((b) => haversineKm(a.lat, a.lng, b.lat, b.lng) <= 0.05).map((b) => `${a.name} ${a.id}/${b.id}`)));
    expect(close).toEqual([]);
  });
});
