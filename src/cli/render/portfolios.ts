/**
 * Portfolios and saved locations as text: the portfolio card and its locations, the list, exposure by event and
 * ring band, saved locations, their exposure and the unread alerts. `--json` prints the handlers' JSON instead.
 */
import { table, type Cell } from './text.js';
import type { UntypedRecord } from '../../lib/untyped-json.js';

type T = UntypedRecord;
const R = 'right' as const;
const L = 'left' as const;

/** 1234567.5 -> "1,234,567.50"; whole amounts without decimals. */
const amount = (x: number): string =>
  Number.isInteger(x)
    ? x.toLocaleString('en-US')
    : x.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

function portfolioLine(p: T): string {
  return `${p.name} (${p.id}): ${amount(p.NumLocations)} location(s), TIV ${amount(p.TotalInsuranceAmt)} ${p.CurCd} (building ${amount(p.BldgInsuranceAmt)}, contents ${amount(p.ContentsInsuranceAmt)}, BI ${amount(p.BIInsuranceAmt)}, other ${amount(p.OtherInsuranceAmt)}), ${p.source}, ${p.created_at}`;
}

function locationsTable(locations: T[]): string[] {
  return table(
    [
      'row',
      'LocNumber',
      'lat',
      'lng',
      'occupancy',
      'construction',
      'perils',
      'building',
      'contents',
      'BI',
      'other',
      'cur',
    ],
    locations.map(
      (l) =>
        [
          l.row,
          l.LocNumber,
          l.Latitude,
          l.Longitude,
          l.OccupancyCode,
          l.ConstructionCode,
          l.LocPerilsCovered,
          amount(l.BuildingTIV),
          amount(l.ContentsTIV),
          amount(l.BITIV),
          amount(l.OtherTIV),
          l.LocCurrency,
        ] as Cell[],
    ),
    [R, L, R, R, R, R, L, R, R, R, R],
  );
}

const cursorOf = (href: string | undefined | null) =>
  href ? new URL(href, 'http://x').searchParams.get('cursor') : null;

export function portfolioCreated(p: T): string {
  return `${p.created ? 'Imported' : 'Already imported (nothing added)'}: ${portfolioLine(p)}\n`;
}

export function portfolioDeleted(p: T): string {
  return `Deleted: ${portfolioLine(p)}\n`;
}

export function portfolioPage(p: T): string {
  const next = cursorOf(p.links.find((l: T) => l.rel === 'next')?.href);
  return (
    [
      portfolioLine(p),
      '',
      `locations ${p.numberReturned} of ${p.numberMatched}, file order`,
      ...locationsTable(p.locations),
      ...(next ? ['', `more: --cursor ${next}`] : []),
    ].join('\n') + '\n'
  );
}

export function portfoliosList(b: T): string {
  if (b.numberMatched === 0) return `No portfolios in account ${b.account}.\n`;
  const lines = [`${b.numberMatched} portfolio(s) in account ${b.account}`];
  for (const p of b.portfolios) {
    lines.push('', portfolioLine(p));
    if (p.locations.length) lines.push(...locationsTable(p.locations).map((l) => `  ${l}`));
    if (p.locations_next)
      lines.push(`  more: catintel portfolio show ${p.id} --cursor ${cursorOf(p.locations_next) ?? ''}`.trimEnd());
  }
  const next = cursorOf(b.links.find((l: T) => l.rel === 'next')?.href);
  if (next) lines.push('', `more portfolios: --cursor ${next}`);
  return lines.join('\n') + '\n';
}

export function portfolioExposureText(b: T): string {
  const head = `${b.PortfolioName} (${b.PortfolioId}) at ${b.as_of}: ${amount(b.NumLocationsExposed)} of ${amount(b.NumLocations)} location(s) inside a live ring of an event they are insured for now, ${amount(b.so_far.NumLocationsExposed)} so far (inside its rings at any fix up to now)`;
  if (b.events.length === 0) return `${head}\nNo live event reaches this portfolio.\n`;
  const lines = [head];
  for (const e of b.events) {
    lines.push(
      '',
      `${e.title} (${e.event_type}, ${e.status}, ${e.severity_label}; OED ${e.PerilCds.join(', ')}): ${amount(e.NumLocations)} location(s), TIV ${amount(e.TotalInsuranceAmt)} ${b.CurCd}${e.NumLocationsNotCovered ? `; ${e.NumLocationsNotCovered} more inside but not insured for it` : ''}`,
      `  source ${e.provenance.source}, updated ${e.provenance.updated_at}, ${e.provenance.source_url}`,
    );
    lines.push(
      ...table(
        ['ring (innermost first)', 'locations', 'building', 'contents', 'BI', 'total', 'inside ring', 'largest'],
        e.rings.map(
          (r: T) =>
            [
              r.label,
              r.NumLocations,
              amount(r.BldgInsuranceAmt),
              amount(r.ContentsInsuranceAmt),
              amount(r.BIInsuranceAmt),
              amount(r.TotalInsuranceAmt),
              amount(r.Cumulative.TotalInsuranceAmt),
              r.Locations.slice(0, 3)
                .map((l: T) => l.LocationId)
                .join(' ') + (r.NumLocations > 3 ? ' ...' : ''),
            ] as Cell[],
        ),
        [L, R, R, R, R, R, R],
      ).map((l) => `  ${l}`),
    );
    const s = e.so_far;
    lines.push(
      `  so far (the swath: its rings at every fix up to now): ${amount(s.NumLocations)} location(s), TIV ${amount(s.TotalInsuranceAmt)} ${b.CurCd}`,
    );
    lines.push(
      ...table(
        ['swath ring (innermost first)', 'locations', 'total', 'inside ring', 'fixes'],
        s.rings.map(
          (r: T) =>
            [
              r.label,
              r.NumLocations,
              amount(r.TotalInsuranceAmt),
              amount(r.Cumulative.TotalInsuranceAmt),
              r.fixes ?? 1,
            ] as Cell[],
        ),
        [L, R, R, R, R],
      ).map((l) => `  ${l}`),
    );
  }
  return lines.join('\n') + '\n';
}

function savedLine(l: T): string {
  return `${l.name} (${l.id}): ${l.lat}, ${l.lng}, within ${l.radius_km} km${l.perils.length ? `, ${l.perils.join(', ')}` : ''}${l.notes ? ` (${l.notes})` : ''}`;
}

export function savedLocationCard(l: T): string {
  return `${l.deleted ? 'Removed: ' : ''}${savedLine(l)}\n`;
}

export function savedLocationsList(b: T): string {
  if (b.count === 0) return 'No saved locations.\n';
  return (
    [
      `${b.count} saved location(s) of at most ${b.max}`,
      '',
      ...table(
        ['id', 'name', 'lat', 'lng', 'km', 'perils', 'saved (UTC)'],
        b.locations.map(
          (l: T) => [l.id, l.name, l.lat, l.lng, l.radius_km, l.perils.join(',') || 'all', l.created_at] as Cell[],
        ),
        [L, L, R, R, R],
      ),
    ].join('\n') + '\n'
  );
}

export function locationsExposureText(b: T): string {
  if (b.count === 0) return 'No saved locations.\n';
  const lines = [
    `${b.reached} of ${b.count} saved location(s) reached by a live event at ${b.as_of}, ${b.reached_so_far} so far (by its rings at any fix up to now)`,
  ];
  for (const x of b.locations) {
    lines.push('', savedLine(x.location));
    if (x.events.length === 0) lines.push('  no live event within its radius');
    for (const e of x.events) {
      const r = e.rings[0];
      const s = e.so_far.rings[0];
      const now = r
        ? `${r.inside ? 'inside' : `${r.distance_km} km from`} ${r.label}${e.rings.length > 1 ? ` (+${e.rings.length - 1} ring(s) further out)` : ''}`
        : 'no ring now';
      const soFar = s ? `; so far ${s.inside ? 'inside' : `${s.distance_km} km from`} ${s.label}` : '';
      lines.push(`  ${e.title} (${e.event_type}, ${e.status}): ${now}${soFar}`);
    }
  }
  return lines.join('\n') + '\n';
}

export function locationAlertsText(b: T): string {
  if (b.count === 0) return 'No unread alerts.\n';
  const lines = [`${b.count} unread alert(s)${b.marked_read ? ', now marked read' : ''}`];
  if (b.alerts.length) {
    lines.push(
      '',
      ...table(
        ['raised (UTC)', 'location', 'event', 'ring', 'km'],
        b.alerts.map((a: T) => [a.raised_at, a.location_name, a.event_title, a.ring_label, a.distance_km] as Cell[]),
        [L, L, L, L, R],
      ),
    );
  }
  if (b.portfolio_alerts.length) {
    lines.push(
      '',
      ...table(
        ['raised (UTC)', 'portfolio', 'event', 'ring', 'locations', 'TIV inside'],
        b.portfolio_alerts.map(
          (a: T) =>
            [
              a.raised_at,
              a.portfolio_name,
              a.event_title,
              a.ring_label,
              a.NumLocations,
              `${amount(a.TotalInsuranceAmt)} ${a.CurCd}`,
            ] as Cell[],
        ),
        [L, L, L, L, R, R],
      ),
    );
  }
  return lines.join('\n') + '\n';
}
