/**
 * An NWS Update replaces the alert it references: after ingest the replaced alert has ended and only
 * the update is live. The pair is made from a real Update in the recorded bundle plus its predecessor,
 * rebuilt from the same feature under the id the update references, sent an hour earlier.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { sharedData } from './helpers/paths.js';

describe('superseded NWS alerts', () => {
  it('end when their update arrives', async () => {
    const bundle = JSON.parse(
      fs.readFileSync(sharedData('feeds/nws_alerts/alerts_active_national_templated-times.json'), 'utf8'),
    );
    const update = bundle.features.find(
      (f: any) =>
        f.properties.messageType === 'Update' &&
        f.properties.references?.length &&
        f.properties.event === 'Flood Warning',
    );
    const ref = update.properties.references[0];
    const original = structuredClone(update);
    original.id = `https://api.weather.gov/alerts/${ref.identifier}`;
    Object.assign(original.properties, {
      id: ref.identifier,
      '@id': original.id,
      messageType: 'Alert',
      references: [],
      sent: '2026-06-30T23:00:00Z',
    });
    update.properties.sent = '2026-07-01T00:00:00Z';
    const file = path.join(tempDir(), 'pair.json');
    fs.writeFileSync(file, JSON.stringify({ ...bundle, features: [original, update] }));

    const db = path.join(tempDir(), 'store.duckdb');
    const env = { CATINTEL_NOW: '2026-07-01T00:30:00Z' };
    const r = await cli(['--db', db, '--json', 'ingest', 'nws-alerts', '--from', file], env);
    expect(r.json().runs[0].inserted).toBe(2);
    const live = (await cli(['--db', db, '--json', 'events', 'live'], env)).json();
    expect(live.features.map((f: any) => f.properties.source_url)).toEqual([update.id]);
  });
});
