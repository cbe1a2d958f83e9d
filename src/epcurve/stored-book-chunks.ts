/**
 * A stored portfolio as consecutive chunks of its locations in file order (runBook's `chunks`): each read
 * from the store when its turn comes and written as its own OED location file, so that no more than one
 * chunk's locations are held at a time. A run may pass over the chunks more than once.
 */
import type { Store } from '../store/db.js';
import { locationsBetween, type PortfolioSummary } from '../portfolios/read.js';
import { writePortfolioLocations } from './book-files.js';
import type { BookChunks } from './run-book.js';

export function storedBookChunks(
  db: Store,
  portfolio: Pick<PortfolioSummary, 'id' | 'currency' | 'location_count'>,
  perChunk: number,
): BookChunks {
  const total = portfolio.location_count;
  let next = 0;
  return {
    count: Math.ceil(total / perChunk),
    async write(index, dir) {
      // In order, from the first again when a run passes over the book twice.
      if (index !== next && index !== 0) throw new Error(`chunk ${index + 1} asked for before chunk ${next + 1}`);
      next = index + 1;
      // Locations are numbered 1, 2, ... in file order (seq): chunk k holds k * perChunk + 1 ... (k + 1) * perChunk.
      const after = index * perChunk;
      return writePortfolioLocations(dir, await locationsBetween(db, portfolio, after, after + perChunk));
    },
  };
}

/** A LocNumber the portfolio holds more than once (the first in text order), or undefined when each is given once. */
export async function repeatedLocNumber(db: Store, portfolioId: string): Promise<string | undefined> {
  const [row] = await db.all<{ loc_number: string }>(
    `SELECT loc_number FROM portfolio_locations WHERE portfolio_id = $id
      GROUP BY loc_number HAVING count(*) > 1 ORDER BY loc_number LIMIT 1`,
    { id: portfolioId },
  );
  return row?.loc_number;
}
