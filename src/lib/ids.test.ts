import { describe, expect, it } from 'vitest';
import { eventIdOf, slugCandidates, slugOf, UUID_RE } from './ids.js';

describe('ids', () => {
  it('gives the same UUID for the same (source, source id), a different one otherwise', () => {
    expect(eventIdOf('usgs-earthquakes', 'ci38457511')).toBe(eventIdOf('usgs-earthquakes', 'ci38457511'));
    expect(eventIdOf('usgs-earthquakes', 'ci38457511')).not.toBe(eventIdOf('nhc', 'ci38457511'));
    expect(eventIdOf('nhc', 'al092022')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('derives URL-safe slugs from title and date, unique through the id suffix', () => {
    const id = eventIdOf('usgs-earthquakes', 'ci38457511');
    const slug = slugOf('M 7.1 - 2km SSE of Ridgecrest, CA', '2019-07-06T03:19:53Z', id);
    expect(slug).toMatch(/^m-7-1-2km-sse-of-ridgecrest-ca-2019-07-06-[0-9a-f]{6}$/);
    expect(slugOf('Tropical Storm Émilie — Pacífico', '2024-01-01T00:00:00Z', id)).toMatch(
      /^tropical-storm-emilie-pacifico-2024-01-01-/,
    );
    expect(
      slugOf('M 7.1 - 2km SSE of Ridgecrest, CA', '2019-07-06T03:19:53Z', eventIdOf('usgs-earthquakes', 'other')),
    ).not.toBe(slug);
  });

  it('offers a longer slug, then the bare UUID, for an event whose six-digit slug is taken', () => {
    const id = eventIdOf('usgs-earthquakes', 'ci90005281');
    const [short, long, bare] = slugCandidates('M 0.6 - 6km NW of The Geysers, CA', '2020-07-08T20:25:25Z', id);
    expect(short).toBe('m-0-6-6km-nw-of-the-geysers-ca-2020-07-08-fe744f');
    expect(long).toBe(`m-0-6-6km-nw-of-the-geysers-ca-2020-07-08-${id.replace(/-/g, '')}`);
    expect(bare).toMatch(UUID_RE);
  });
});
