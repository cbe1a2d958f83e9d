/**
 * Online reads of the official feeds: conditional GET (If-None-Match / If-Modified-Since), a timeout per
 * attempt, bounded retries with exponential backoff on network errors, 429 and 5xx, and a User-Agent
 * (api.weather.gov refuses requests without one).
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
  | { kind: 'body'; body: string; etag: string | null; lastModified: string | null }
  | { kind: 'not_modified' };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function fetchFeed(url: string, o: FetchOptions): Promise<FetchOutcome> {
  const headers: Record<string, string> = { accept: o.accept, 'user-agent': o.userAgent, 'accept-encoding': 'gzip, br' };
  if (o.etag) headers['if-none-match'] = o.etag;
  if (o.lastModified) headers['if-modified-since'] = o.lastModified;
  let lastProblem = '';
  for (let attempt = 1; attempt <= o.attempts; attempt++) {
    const timeout = AbortSignal.timeout(o.timeoutMs);
    const signal = o.signal ? AbortSignal.any([o.signal, timeout]) : timeout;
    try {
      const res = await fetch(url, { headers, signal, redirect: 'follow' });
      if (res.status === 304) return { kind: 'not_modified' };
      if (res.ok) {
        return { kind: 'body', body: await res.text(), etag: res.headers.get('etag'), lastModified: res.headers.get('last-modified') };
      }
      lastProblem = `HTTP ${res.status}`;
      await res.body?.cancel();
      if (res.status !== 429 && res.status < 500) break; // a 4xx will not get better by asking again
    } catch (err) {
      if (o.signal?.aborted) throw new CatintelError('unavailable', `fetch of ${url} was cancelled`);
      lastProblem = timeout.aborted ? `no answer within ${o.timeoutMs} ms` : (err as Error).message;
    }
    if (attempt < o.attempts) await sleep(o.backoffMs * 2 ** (attempt - 1));
  }
  throw new CatintelError('upstream_failed', `could not read ${url} (${lastProblem}) after ${o.attempts} attempt(s); retry later or pass --from FILE`);
}
