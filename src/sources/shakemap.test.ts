import { readFileSync } from 'node:fs';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { describe, expect, it } from 'vitest';
import { sharedData } from '../../test/helpers/paths.js';
import { invalidInput } from '../../test/helpers/errors.js';
import { parseShakeMap } from './shakemap.js';
import { gridAlreadyStored, shakemapProductOf } from './usgs-shakemap.js';

const read = (f: string) => readFileSync(sharedData('hazard_history/earthquakes/shakemap', f), 'utf8');

describe('parseShakeMap', () => {
  it('Loma Prieta grid.xml: event, version, and MMI VIII / VI / IV areas from the grid', () => {
    const m = parseShakeMap(read('lomaprieta1989_grid.xml'), 'grid.xml');
    expect(m).toMatchObject({
      eventId: '19891018000415',
      epicentre: { lat: 37.04, lng: -121.88 },
      originMs: Date.parse('1989-10-18T00:04:15Z'),
    });
    expect(m.areas).toMatchObject({ version: '1', product: 'grid.xml' });
    expect(m.areas.levels.map((l) => l.mmi)).toEqual([8, 6, 4]);
    const vi = m.areas.levels[1].geometry;
    expect(booleanPointInPolygon([-122.42, 37.77], vi)).toBe(true); // San Francisco, MMI ~6.7
    expect(booleanPointInPolygon([-121.49, 38.58], vi)).toBe(false); // Sacramento, MMI ~5
  });

  it('Hebgen Lake cont_mmi.json: the contours at 8, 6 and 4 as areas; the event from metadata', () => {
    const m = parseShakeMap(read('hebgenlake1959_iscgem882673_cont_mmi.json'), 'cont_mmi.json', '2');
    expect(m).toMatchObject({ eventId: 'iscgem882673', epicentre: { lat: 44.63, lng: -110.891 }, originMs: null });
    expect(m.areas).toMatchObject({ version: '2', product: 'cont_mmi.json' });
    const [viii, vi, iv] = m.areas.levels.map((l) => l.geometry);
    const epicentre: [number, number] = [-110.891, 44.63];
    for (const g of [viii, vi, iv]) expect(booleanPointInPolygon(epicentre, g)).toBe(true);
    expect(booleanPointInPolygon([-111.04, 45.68], iv)).toBe(true); // Bozeman, ~120 km
    expect(booleanPointInPolygon([-111.04, 45.68], viii)).toBe(false);
  });

  it('anything else is invalid input naming the file and what was expected', () => {
    expect(invalidInput(() => parseShakeMap('lon,lat,mmi\n', 'x.csv')).message).toMatch(
      /--shakemap x\.csv: expected a USGS ShakeMap cont_mmi\.json .* or grid\.xml; got neither JSON nor XML/,
    );
    expect(invalidInput(() => parseShakeMap('{"type":"FeatureCollection","features":[]}', 'a.json')).message).toMatch(
      /got a FeatureCollection without MMI contour lines/,
    );
    expect(invalidInput(() => parseShakeMap('<rss></rss>', 'b.xml')).message).toMatch(
      /got XML without <shakemap_grid>/,
    );
  });
});

describe('shakemapProductOf (ComCat event detail GeoJSON)', () => {
  it('the preferred ShakeMap contours URL and version, or null when the event has none', () => {
    const detail = {
      properties: {
        products: {
          shakemap: [
            {
              properties: { version: '5' },
              updateTime: 1414243728000,
              contents: {
                'download/cont_mmi.json': { url: 'https://earthquake.usgs.gov/a/cont_mmi.json' },
                'download/grid.xml': { url: 'https://earthquake.usgs.gov/a/grid.xml' },
              },
            },
            {
              properties: { version: '1' },
              contents: { 'download/cont_mmi.json': { url: 'https://earthquake.usgs.gov/b/cont_mmi.json' } },
            },
          ],
        },
      },
    };
    expect(shakemapProductOf(detail)).toEqual({
      url: 'https://earthquake.usgs.gov/a/cont_mmi.json',
      gridUrl: 'https://earthquake.usgs.gov/a/grid.xml',
      version: '5',
      updatedMs: 1414243728000,
    });
    // A product without a grid.xml still gives its contours.
    expect(
      shakemapProductOf({ properties: { products: { shakemap: [detail.properties.products.shakemap[1]] } } }),
    ).toEqual({ url: 'https://earthquake.usgs.gov/b/cont_mmi.json', gridUrl: null, version: '1', updatedMs: null });
    expect(shakemapProductOf({ properties: { products: { origin: [{}] } } })).toBeNull();
    expect(shakemapProductOf({ properties: { products: { shakemap: [{ contents: {} }] } } })).toBeNull();
    expect(shakemapProductOf('nonsense')).toBeNull();
  });
});

describe('gridAlreadyStored: a grid.xml is fetched once per ShakeMap product', () => {
  const product = {
    url: 'https://earthquake.usgs.gov/product/shakemap/nc216859/nc/1414243728000/download/cont_mmi.json',
    gridUrl: 'https://earthquake.usgs.gov/product/shakemap/nc216859/nc/1414243728000/download/grid.xml',
    version: '5',
    updatedMs: 1414243728000,
  };
  it('stored when the last grid has the same URL (its updateTime) and version; otherwise fetched', () => {
    expect(gridAlreadyStored(product, { version: '5', from: product.gridUrl })).toBe(true);
    expect(gridAlreadyStored(product, null)).toBe(false);
    expect(gridAlreadyStored(product, { version: '4', from: product.gridUrl })).toBe(false);
    // A re-release under the same version has a new updateTime in its URL.
    expect(
      gridAlreadyStored(product, { version: '5', from: product.gridUrl.replace('1414243728000', '1414250000000') }),
    ).toBe(false);
    // A grid given with --shakemap FILE is not the product's.
    expect(gridAlreadyStored(product, { version: '5', from: 'grid.xml' })).toBe(false);
  });
});
