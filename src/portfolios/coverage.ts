/**
 * How many of a portfolio's locations lie outside the hazard baseline's coverage (US states, DC and
 * territories). A book wholly abroad imports fine (OED is worldwide), but no score, exposure or EP curve
 * can say anything about those locations: the import says so with the count, rather than letting a later
 * EP curve read 0.
 */
import { loadBaselineGrid } from '../reference-data/load-baseline.js';
import { cellAt } from '../domain/scoring/grid.js';
import type { Store } from '../store/db.js';

export const COVERAGE = 'US states, DC and territories';

/** Locations read at once: a book of millions is counted a page at a time, in bounded memory. */
const PAGE = 250_000;

export async function locationsOutsideCoverage(db: Store, portfolioId: string): Promise<number> {
  const grid = loadBaselineGrid();
  let outside = 0;
  const last = Number(
    (
      await db.one<{ n: number | null }>('SELECT max(seq) AS n FROM portfolio_locations WHERE portfolio_id = $id', {
        id: portfolioId,
      })
    )?.n ?? 0,
  );
  for (let from = 0; from < last; from += PAGE) {
    const [c] = await db.all<{ lat: number[] | null; lng: number[] | null }>(
      'SELECT list(lat) AS lat, list(lng) AS lng FROM portfolio_locations WHERE portfolio_id = $id AND seq > $from AND seq <= $to',
      { id: portfolioId, from, to: from + PAGE },
    );
    const lat = c?.lat ?? [];
    const lng = c?.lng ?? [];
    for (let i = 0; i < lat.length; i++) if (cellAt(grid, lat[i], lng[i]) < 0) outside++;
  }
  return outside;
}

/** The import's warning, or undefined when every location is covered. */
export function outsideCoverageNote(outside: number, total: number): string | undefined {
  if (outside === 0) return undefined;
  const all = outside === total;
  return (
    `${all ? `all ${total}` : `${outside} of ${total}`} locations are outside the covered area (${COVERAGE}): ` +
    `scores, exposure and EP curves ${all ? 'cannot use this portfolio' : 'leave them out'}`
  );
}
