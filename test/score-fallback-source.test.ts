/**
 * A score the NRI fallback computed names the data it was made from (issue 28, item 2): at Anchorage,
 * Honolulu, San Juan and Guam the earthquake score comes from the FEMA NRI state table (method
 * `nri_state_fallback`; our NSHM catalogs cover only the conterminous states) and Guam's hurricane score too
 * (outside HURDAT2's basins), so their `source` and `source_url` are FEMA NRI's, not the catalog's; a score
 * from the catalog still names the catalog. Answers come from GET /risk/score, checked against openapi.yaml.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../src/store/db.js';
import { platform, token, type Platform } from './http/helpers/harness.js';

const NRI_URL = 'https://hazards.fema.gov/nri/data-resources';
const PLACES = {
  Anchorage: { lat: 61.2181, lng: -149.9003, fallback: ['earthquake'] },
  Honolulu: { lat: 21.3069, lng: -157.8583, fallback: ['earthquake'] },
  'San Juan': { lat: 18.4655, lng: -66.1057, fallback: ['earthquake'] },
  Guam: { lat: 13.4443, lng: 144.7937, fallback: ['earthquake', 'hurricane_wind'] },
};
/** What a catalog score names. */
const CATALOG = {
  earthquake: { source: /^USGS NSHM 2023/, url: 'https://code.usgs.gov/ghsc/nshmp/nshms/nshm-conus' },
  hurricane_wind: { source: /^NOAA NHC HURDAT2/, url: 'https://www.nhc.noaa.gov/data/#hurdat' },
};

let db: Store;
let p: Platform;
let tok: string;
beforeAll(async () => {
  db = await Store.open(':memory:');
  p = await platform(db, { rateLimit: 'off' });
  tok = await token('analyst', { sub: 'fallback@example.com' });
});
afterAll(() => db?.close());

describe('the source of a fallback score is the FEMA NRI state table', () => {
  for (const [name, place] of Object.entries(PLACES)) {
    it(`${name}: earthquake and hurricane_wind name what they were made from`, async () => {
      const r = await p.call(`/api/v1/risk/score?lat=${place.lat}&lng=${place.lng}&perils=earthquake,hurricane_wind`, {
        token: tok,
      });
      expect(r.status).toBe(200);
      for (const s of r.body.perils) {
        const method = s.score_components.frequency.method;
        expect(method, `${name} ${s.peril}`).toBe(place.fallback.includes(s.peril) ? 'nri_state_fallback' : 'catalog');
        if (method === 'nri_state_fallback') {
          expect(s.source, `${name} ${s.peril}`).toMatch(
            /^FEMA National Risk Index v1\.20 \(December 2025\), state table, (Earthquake \(ERQK_ALRB\)|Hurricane \(HRCN_ALRB\))/,
          );
          expect(s.source_url).toBe(NRI_URL);
        } else {
          const c = CATALOG[s.peril as keyof typeof CATALOG];
          expect(s.source, `${name} ${s.peril}`).toMatch(c.source);
          expect(s.source_url).toBe(c.url);
        }
        // The data build the score was read from, besides the model.
        expect(s).toMatchObject({
          model_version: expect.stringMatching(/^catintel-hazard-/),
          data_version: expect.stringMatching(/^\d{4}\.\d{2}$/),
          ingested_at: expect.stringMatching(/Z$/),
        });
      }
    });
  }
});
