/**
 * Turning a handler's result into bytes on the wire: strong ETag (a hash of the body, or of what determines it), 304 on If-None-Match,
 * gzip or brotli for bodies above a size when the client accepts it (docs/contract.md#events).
 */
import { hash } from 'node:crypto';
import { FastResponse } from 'srvx';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, gzip, gzipSync, constants as z } from 'node:zlib';
import { defaults } from '../config/defaults.js';
import { isCarved } from '../live-index/slabs.js';

export interface Encoded {
  status: number;
  body: Buffer;
  mediaType: string;
  etag: string;
  /** Compressed variants, made on first request and kept with the cached response. */
  variants: Partial<Record<'br' | 'gzip', Buffer>>;
  /** Variants being made off the event loop (compressAhead), so that requests arriving meanwhile wait for the same one. */
  pending?: Partial<Record<'br' | 'gzip', Promise<unknown>>>;
  headers: Record<string, string>;
  /** The sources of the events in the body (X-Data-Freshness), once known: kept with a cached response. */
  sources?: string[];
}

/**
 * `known`: what the handler already knows of the body, its strong ETag (the live index tags the bodies it
 * assembles without hashing them, src/live-index/render.ts) and the sources of its events.
 */
export function encode(
  status: number,
  body: unknown,
  mediaType: string,
  headers: Record<string, string> = {},
  known: { etag?: string; sources?: string[] } = {},
): Encoded {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
  const etag = known.etag ?? `"${hash('sha1', bytes, 'base64url')}"`; // one-shot: no Hash object per response
  return { status, body: bytes, mediaType, etag, variants: {}, headers, sources: known.sources };
}

export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/** Picks br over gzip when both are accepted (q=0 excluded); returns null for identity. */
export function chooseEncoding(acceptEncoding: string | null): 'br' | 'gzip' | null {
  if (!acceptEncoding) return null;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.find((p) => p.trim().startsWith('q='));
    accepted.set(name.trim(), q ? Number(q.trim().slice(2)) : 1);
  }
  if ((accepted.get('br') ?? 0) > 0) return 'br';
  if ((accepted.get('gzip') ?? 0) > 0) return 'gzip';
  return null;
}

/** Brotli quality 5: most of the ratio of 11 at a small fraction of the CPU. */
const brotliOptions = (body: Buffer) => ({
  params: { [z.BROTLI_PARAM_QUALITY]: 5, [z.BROTLI_PARAM_SIZE_HINT]: body.length },
});
const GZIP_OPTIONS = { level: 6 };
const gzipOffThread = promisify(gzip);
const brotliOffThread = promisify(brotliCompress);

export function compressed(e: Encoded, encoding: 'br' | 'gzip'): Buffer {
  let v = e.variants[encoding];
  if (!v) {
    v = encoding === 'br' ? brotliCompressSync(e.body, brotliOptions(e.body)) : gzipSync(e.body, GZIP_OPTIONS);
    e.variants[encoding] = v;
  }
  return v;
}

/**
 * Makes the compressed variant that toResponse() will send to this request, on libuv's thread pool instead
 * of the event loop (same options, so the same bytes). Compressing a page of events took a fifth of the
 * server's main thread under `npm run load` (docs/performance.md, "Readers beside writers"); meanwhile
 * the loop answers other requests. A failure here leaves toResponse() to compress as before.
 */
export async function compressAhead(e: Encoded, req: Request): Promise<void> {
  if (e.body.length < defaults.compressMinBytes) return;
  if (e.status === 200 && etagMatches(req.headers.get('if-none-match'), e.etag)) return;
  const encoding = chooseEncoding(req.headers.get('accept-encoding'));
  if (!encoding || e.variants[encoding]) return;
  const pending = (e.pending ??= {});
  pending[encoding] ??= (
    encoding === 'br' ? brotliOffThread(e.body, brotliOptions(e.body)) : gzipOffThread(e.body, GZIP_OPTIONS)
  ).then(
    (v) => (e.variants[encoding] ??= v),
    () => undefined,
  );
  await pending[encoding];
  delete pending[encoding];
}

/**
 * srvx's Response for Node: the Node adapter writes its bytes to the socket as they are, where a global
 * (undici) Response would first be wrapped in a ReadableStream and streamed chunk by chunk. Its headers
 * are a plain object, complete here (`platform`: the headers every response carries, src/http/pipeline.ts),
 * so that no Headers object is built or read on the way out.
 */
export function toResponse(
  e: Encoded,
  req: Request,
  extra: Record<string, string>,
  platform: Record<string, string> = {},
): Response {
  // An answer that also varies by Accept (the event collections' Arrow form) says so before Accept-Encoding.
  const headers: Record<string, string> = {
    ...e.headers,
    ...extra,
    'content-type': e.mediaType,
    vary: e.headers.vary ? `${e.headers.vary}, Accept-Encoding` : 'Accept-Encoding',
  };
  if (e.status === 200) headers.etag = e.etag;
  for (const k in platform) headers[k] = k === 'vary' ? `${headers.vary}, ${platform.vary}` : platform[k];
  if (e.status === 200 && etagMatches(req.headers.get('if-none-match'), e.etag))
    return withCarved(sized(new FastResponse(null, { status: 304, headers }), 0), e);
  const encoding =
    e.body.length >= defaults.compressMinBytes ? chooseEncoding(req.headers.get('accept-encoding')) : null;
  const bytes = encoding ? compressed(e, encoding) : e.body;
  if (encoding) headers['content-encoding'] = encoding;
  // HEAD: the GET's headers, no body.
  const head = req.method === 'HEAD';
  return withCarved(
    sized(new FastResponse(head ? null : bytesOf(bytes), { status: e.status, headers }), head ? 0 : bytes.length),
    e,
  );
}

/** Sent as it is, compressed or not at all (HEAD, 304), a carved body is read no more once the response is out. */
function withCarved(res: Response, e: Encoded): Response {
  if (isCarved(e.body)) (res as Response & { [CARVED]?: Buffer })[CARVED] = e.body;
  return res;
}

/**
 * The body of a response when the live index carved it from a slab (src/live-index/slabs.ts): the server
 * releases it once the response has been written out, so that its memory is reused.
 */
const CARVED = Symbol('catintel.carvedBody');
export const carvedBodyOf = (r: Response): Buffer | undefined => (r as Response & { [CARVED]?: Buffer })[CARVED];

/**
 * The body size of the responses made here (the access log's `bytes`; srvx adds Content-Length only when
 * sending), kept on the response itself: a WeakMap entry per request made the collector's work grow.
 */
const SIZE = Symbol('catintel.bodySize');
const sized = (r: Response, n: number): Response => Object.assign(r, { [SIZE]: n });
export const bodySizeOf = (r: Response): number | undefined => (r as Response & { [SIZE]?: number })[SIZE];

// Buffers share a pool ArrayBuffer; the view covers exactly our bytes.
const bytesOf = (b: Buffer) => new Uint8Array(b.buffer, b.byteOffset, b.length) as Uint8Array<ArrayBuffer>;
