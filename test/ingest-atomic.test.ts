/** An ingest run is one transaction: a failure half-way leaves the store exactly as it was. */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Store } from '../src/store/db.js';
import { writeEvents } from '../src/store/events-write.js';
import { prepareEvent } from '../src/ingest/normalise.js';
import { usgsEarthquakes } from '../src/sources/usgs-earthquakes.js';
import { sharedData } from './helpers/paths.js';

async function counts(db: Store) {
  const row = await db.one<{ e: bigint; r: bigint; o: bigint }>(
    'SELECT (SELECT count(*) FROM events) AS e, (SELECT count(*) FROM rings) AS r, (SELECT count(*) FROM observations) AS o',
  );
  return { events: Number(row!.e), rings: Number(row!.r), observations: Number(row!.o) };
}

describe('ingest atomicity', () => {
  it('rolls back every row written before a failure', async () => {
    const db = await Store.open(':memory:');
    const now = new Date('2022-09-29T04:00:00Z');
    const day = await usgsEarthquakes.parse(
      fs.readFileSync(sharedData('feeds/usgs_earthquakes/all_day.geojson'), 'utf8'),
      { now, sourceUrl: 'file' },
    );
    await db.transaction((tx) =>
      writeEvents(tx, 'usgs-earthquakes', day.records.slice(0, 10).map(prepareEvent), now.toISOString()),
    );
    const before = await counts(db);
    expect(before.events).toBe(10);

    await expect(
      db.transaction(async (tx) => {
        await writeEvents(tx, 'usgs-earthquakes', day.records.map(prepareEvent), now.toISOString());
        throw new Error('feed connection dropped half-way');
      }),
    ).rejects.toThrow('half-way');
    expect(await counts(db)).toEqual(before);
    await db.close();
  });
});
