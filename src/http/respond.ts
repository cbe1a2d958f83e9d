/**
 * Turning a handler's result into bytes on the wire: strong ETag over the body, 304 on If-None-Match,
 * gzip or brotli for bodies above a size when the client accepts it (CONTRACT §5).
 */
import { hash } from 'node:crypto';
import { FastResponse } from 'srvx';
import { brotliCompressSync, gzipSync, constants as z } from 'node:zlib';
import { defaults } from '../config/defaults.js';

export interface Encoded {
  status: number;
  body: Buffer;
  mediaType: string;
  etag: string;
  /** Compressed variants, made on first request and kept with the cached response. */
  variants: Partial<Record<'br' | 'gzip', Buffer>>;
  headers: Record<string, string>;
}

export function encode(status: number, body: unknown, mediaType: string, headers: Record<string, string> = {}): Encoded {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
  const etag = `"${hash('sha1', bytes, 'base64url')}"`; // one-shot: no Hash object per response
  return { status, body: bytes, mediaType, etag, variants: {}, headers };
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

export function compressed(e: Encoded, encoding: 'br' | 'gzip'): Buffer {
  let v = e.variants[encoding];
  if (!v) {
    // Brotli quality 5: most of the ratio of 11 at a small fraction of the CPU.
    v = encoding === 'br'
      ? brotliCompressSync(e.body, { params: { [z.BROTLI_PARAM_QUALITY]: 5, [z.BROTLI_PARAM_SIZE_HINT]: e.body.length } })
      : gzipSync(e.body, { level: 6 });
    e.variants[encoding] = v;
  }
  return v;
}

/**
 * srvx's Response for Node: the Node adapter writes its bytes to the socket as they are, where a global
 * (undici) Response would first be wrapped in a ReadableStream and streamed chunk by chunk.
 */
export function toResponse(e: Encoded, req: Request, extra: Record<string, string>): Response {
  const headers = new Headers({ ...e.headers, ...extra, 'content-type': e.mediaType, vary: 'Accept-Encoding' });
  if (e.status === 200) headers.set('etag', e.etag);
  if (e.status === 200 && etagMatches(req.headers.get('if-none-match'), e.etag)) {
    return new FastResponse(null, { status: 304, headers });
  }
  const encoding = e.body.length >= defaults.compressMinBytes ? chooseEncoding(req.headers.get('accept-encoding')) : null;
  if (encoding) {
    headers.set('content-encoding', encoding);
    return new FastResponse(bytesOf(compressed(e, encoding)), { status: e.status, headers });
  }
  return new FastResponse(bytesOf(e.body), { status: e.status, headers });
}

// Buffers share a pool ArrayBuffer; the view covers exactly our bytes.
const bytesOf = (b: Buffer) => new Uint8Array(b.buffer, b.byteOffset, b.length) as Uint8Array<ArrayBuffer>;
