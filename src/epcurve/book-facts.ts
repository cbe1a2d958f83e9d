/**
 * What an EP curve's answer says of the book itself, beside its losses: how many locations, how many
 * outside the covered area, the perils they cover, their currencies and total insured value. Taken over
 * the book's locations in file order, a part at a time (a book too large to hold is read in parts), with
 * the same sums in the same order whatever the parts.
 */
import type { Peril } from '../domain/scoring/perils.js';
import type { PortfolioLocation } from '../portfolios/read.js';

export interface BookFacts {
  count: number;
  outside: number;
  covered: Set<Peril>;
  currencies: Set<string>;
  tiv: number;
}

export function emptyFacts(): BookFacts {
  return { count: 0, outside: 0, covered: new Set(), currencies: new Set(), tiv: 0 };
}

/** Adds the next locations of the book (`isOutside`: whether a location lies outside the covered area). */
export function addFacts(
  facts: BookFacts,
  locations: readonly PortfolioLocation[],
  isOutside: (l: PortfolioLocation) => boolean,
): BookFacts {
  for (const l of locations) {
    facts.count++;
    if (isOutside(l)) facts.outside++;
    for (const p of l.perils) facts.covered.add(p as Peril);
    facts.currencies.add(l.currency);
    facts.tiv += (l.tiv.building || 0) + (l.tiv.contents || 0) + (l.tiv.bi || 0) + (l.tiv.other || 0);
  }
  return facts;
}
