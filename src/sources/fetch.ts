/**
 * Online reads of the official feeds: conditional GET (If-None-Match / If-Modified-Since), a timeout per
 * attempt, bounded retries with exponential backoff on network errors, 429 and 5xx, and a User-Agent
 * (api.weather.gov refuses requests without one). An HTML page answered with 200 (a CDN's or proxy's
 * error page) is a failed attempt too, retried like a 5xx: no feed we read is HTML, and parsing it would
 * only report "not the expected format". A 429's Retry-After is honoured up to MAX_RETRY_AFTER_MS.
 */
import { CatintelError } from '../errors.js';

export interface FetchOptions {
  accept: string;
  userAgent: string;
  timeoutMs: number;
  attempts: number;
  backoffMs: number;
  etag?: string | null;
  lastModified?: string | null;
  signal?: AbortSignal;
}

export type FetchOutcome =
  { kind: 'body'; body: string; etag: string | null; lastModified: string | null } | { kind: 'not_modified' };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A feed asking us to wait longer than this is not waited for within one run: the next run asks again. */
const MAX_RETRY_AFTER_MS = 30_000;

/** Retry-After in ms (delta-seconds or an HTTP date), or null. */
function retryAfterMs(v: string | null, nowMs: number): number | null {
  if (!v) return null;
  const ms = /^\d+$/.test(v.trim()) ? Number(v.trim()) * 1000 : Date.parse(v) - nowMs;
  return Number.isFinite(ms) && ms >= 0 ? ms : null;
}

export async function fetchFeed(url: string, o: FetchOptions): Promise<FetchOutcome> {
  const headers: Record<string, string> = {
    accept: o.accept,
    'user-agent': o.userAgent,
    'accept-encoding': 'gzip, br',
  };
  if (o.etag) headers['if-none-match'] = o.etag;
  if (o.lastModified) headers['if-modified-since'] = o.lastModified;
  let lastProblem = '';
  for (let attempt = 1; attempt <= o.attempts; attempt++) {
    const timeout = AbortSignal.timeout(o.timeoutMs);
    const signal = o.signal ? AbortSignal.any([o.signal, timeout]) : timeout;
    try {
      const res = await fetch(url, { headers, signal, redirect: 'follow' });
      if (res.status === 304) return { kind: 'not_modified' };
      const type = (res.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
      if (res.ok && type !== 'text/html') {
        return {
          kind: 'body',
          body: await res.text(),
          etag: res.headers.get('etag'),
          lastModified: res.headers.get('last-modified'),
        };
      }
      lastProblem = res.ok ? `HTTP ${res.status} with an HTML page instead of the feed` : `HTTP ${res.status}`;
      await res.body?.cancel();
      if (res.ok) {
        // an error page served as 200: retried below like a 5xx
      } else if (res.status !== 429 && res.status < 500) break; // a 4xx will not get better by asking again
      const asked = res.status === 429 ? retryAfterMs(res.headers.get('retry-after'), Date.now()) : null;
      if (asked !== null && asked > MAX_RETRY_AFTER_MS) {
        lastProblem += `, Retry-After ${Math.round(asked / 1000)} s`;
        break;
      }
      if (asked !== null && attempt < o.attempts) {
        await sleep(asked);
        continue;
      }
    } catch (err) {
      if (o.signal?.aborted) throw new CatintelError('unavailable', `fetch of ${url} was cancelled`);
      lastProblem = timeout.aborted ? `no answer within ${o.timeoutMs} ms` : (err as Error).message;
    }
    if (attempt < o.attempts) await sleep(o.backoffMs * 2 ** (attempt - 1));
  }
  throw new CatintelError(
    'upstream_failed',
    `could not read ${url} (${lastProblem}) after ${o.attempts} attempt(s); retry later or pass --from FILE`,
  );
}
