/**
 * NWS alert timestamps. Live api.weather.gov sends ISO 8601 with a local offset
 * ("2026-07-15T14:00:00-06:00"); we store UTC. Recorded weather.gov bundles (the weather.gov team's
 * test-bundler, ../shared/data/SOURCES.md §1 nws_alerts) replace every time with a relative
 * placeholder such as "date:now -44 seconds"; those resolve against the ingest clock (ctx.now), so a
 * replay with CATINTEL_NOW pinned is reproducible and the alerts look as fresh as when recorded.
 */

const PLACEHOLDER = /^date:now(?:\s*([+-])\s*(\d+(?:\.\d+)?)\s*(second|minute|hour|day)s?)?$/i;
const UNIT_MS: Record<string, number> = { second: 1_000, minute: 60_000, hour: 3_600_000, day: 86_400_000 };

/** ISO 8601 UTC for an NWS time value; null when absent or unreadable. */
export function nwsTime(value: unknown, now: Date): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const s = value.trim();
  const m = PLACEHOLDER.exec(s);
  if (m) {
    const offsetMs = m[1] ? Number(m[2]) * UNIT_MS[m[3].toLowerCase()] * (m[1] === '-' ? -1 : 1) : 0;
    return new Date(now.getTime() + offsetMs).toISOString();
  }
  // Only full date-times count: Date.parse would also accept "7/15" and other loose forms.
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(s)) return null;
  const t = Date.parse(s);
  return Number.isFinite(t) ? new Date(t).toISOString() : null;
}
