/**
 * A request's query parameters as a handler's raw input: values as strings, a repeated key as an array (which
 * parse*() refuses by name), exactly as URLSearchParams reads them.
 */
import type { RawInput } from '../handlers/types.js';

export function queryOf(url: URL): RawInput {
  const q: RawInput = {};
  const add = (k: string, v: string) => {
    const prev = q[k];
    q[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  };
  const search = url.search;
  // Nothing to decode (no percent-escape, no '+' for a space): the pairs are the text itself, as URLSearchParams
  // gives them, without building one (most requests; URLSearchParams was a per-request cost worth avoiding).
  if (!ESCAPED_RE.test(search)) {
    for (const pair of search.slice(1).split('&')) {
      if (pair === '') continue;
      const eq = pair.indexOf('=');
      if (eq < 0) add(pair, '');
      else add(pair.slice(0, eq), pair.slice(eq + 1));
    }
    return q;
  }
  for (const [k, v] of url.searchParams) add(k, v);
  return q;
}

const ESCAPED_RE = /[%+]/;
