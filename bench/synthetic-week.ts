/**
 * A synthetic week of earthquakes in the real USGS GeoJSON summary format (all_week.geojson), seeded, for
 * the load run: clustered where the real week feed has its events (California, Nevada, Alaska, Hawaii,
 * Puerto Rico, Oklahoma/Texas, the Pacific Northwest), Gutenberg-Richter magnitudes (b = 1 above M 0.5),
 * origin times spread over the 7 days before `now`, each revised once within an hour (`updated`).
 */
import fs from 'node:fs';
import { mulberry32 } from '../src/lib/random.js';

interface Zone {
  lat: number;
  lng: number;
  spreadDeg: number;
  weight: number;
  net: string;
  place: string;
}

// Rough shares of the real week feed (all_week.geojson, 2020-07-08) by region.
const ZONES: Zone[] = [
  { lat: 36.5, lng: -119.5, spreadDeg: 3, weight: 40, net: 'ci', place: 'CA' },
  { lat: 38.8, lng: -122.8, spreadDeg: 0.6, weight: 8, net: 'nc', place: 'CA' },
  { lat: 38.2, lng: -117.9, spreadDeg: 1.2, weight: 10, net: 'nn', place: 'NV' },
  { lat: 61.5, lng: -150.5, spreadDeg: 4, weight: 20, net: 'ak', place: 'Alaska' },
  { lat: 19.4, lng: -155.4, spreadDeg: 0.5, weight: 8, net: 'hv', place: 'Hawaii' },
  { lat: 18.0, lng: -66.8, spreadDeg: 0.6, weight: 6, net: 'pr', place: 'Puerto Rico' },
  { lat: 35.8, lng: -97.5, spreadDeg: 1.5, weight: 4, net: 'ok', place: 'Oklahoma' },
  { lat: 46.5, lng: -121.5, spreadDeg: 1.5, weight: 4, net: 'uw', place: 'Washington' },
];

/** Seeded test data: the same week every run. */
export const seeded = mulberry32;

export function syntheticWeek(o: { now: string; events: number; seed: number }): unknown {
  const r = seeded(o.seed);
  const total = ZONES.reduce((s, z) => s + z.weight, 0);
  const nowMs = Date.parse(o.now);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
  const features = Array.from({ length: o.events }, (_, i) => {
    let pickW = r() * total;
    const z = ZONES.find((zone) => (pickW -= zone.weight) < 0) ?? ZONES[0];
    const mag = Math.round((0.5 - Math.log10(1 - r())) * 100) / 100; // G-R with b = 1
    const time = Math.round(nowMs - 3_600_000 - r() * 7 * 86_400_000 + 3_600_000 * r());
    const updated = Math.min(nowMs, time + Math.round(r() * 3_600_000));
    const code = `syn${String(o.seed).slice(-3)}${String(i).padStart(6, '0')}`;
    const id = `${z.net}${code}`;
    const lat = Math.round((z.lat + gauss() * z.spreadDeg * 0.5) * 1e4) / 1e4;
    const lng = Math.round((z.lng + gauss() * z.spreadDeg * 0.5) * 1e4) / 1e4;
    const place = `${Math.round(r() * 30) + 1}km ${['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'][Math.floor(r() * 8)]} of Synthetic, ${z.place}`;
    return {
      type: 'Feature',
      properties: {
        mag,
        place,
        time,
        updated,
        tz: null,
        url: `https://earthquake.usgs.gov/earthquakes/eventpage/${id}`,
        detail: `https://earthquake.usgs.gov/earthquakes/feed/v1.0/detail/${id}.geojson`,
        felt: null,
        cdi: null,
        mmi: null,
        alert: null,
        status: 'automatic',
        tsunami: 0,
        sig: Math.round(mag * mag * 10),
        net: z.net,
        code,
        ids: `,${id},`,
        sources: `,${z.net},`,
        types: ',origin,phase-data,',
        nst: 10,
        dmin: 0.05,
        rms: 0.1,
        gap: 80,
        magType: mag >= 3 ? 'ml' : 'md',
        type: 'earthquake',
        title: `M ${mag.toFixed(1)} - ${place}`,
      },
      geometry: { type: 'Point', coordinates: [lng, lat, Math.round(r() * 2000) / 100] },
      id,
    };
  });
  return {
    type: 'FeatureCollection',
    metadata: {
      generated: nowMs,
      url: 'https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/all_week.geojson',
      title: 'USGS All Earthquakes, Past Week',
      status: 200,
      api: '1.10.3',
      count: features.length,
    },
    features,
  };
}

export function writeSyntheticWeek(file: string, o: { now: string; events: number; seed: number }): void {
  fs.writeFileSync(file, JSON.stringify(syntheticWeek(o)));
}
