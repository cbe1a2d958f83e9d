/**
 * POST bodies (docs/contract.md#errors): the media type must be one the route accepts (415 otherwise), the size at
 * most 1 MiB for JSON and 50 MiB for CSV (413, checked against Content-Length before reading and
 * counted while reading, so a lying or chunked client cannot get past it), the bytes must be UTF-8 (400
 * naming the first bad byte: a lenient decoder would store U+FFFD in place of what was sent), JSON must
 * parse (400).
 */
import { CatintelError } from '../errors.js';
import { invalidUtf8At } from '../lib/utf8.js';

export interface BodyLimits {
  maxJsonBytes: number;
  maxCsvBytes: number;
}

export type Accepted = 'application/json' | 'text/csv';

/** undefined when the request carries no body (none, or zero bytes). */
export async function readBody(req: Request, accepts: Accepted[], limits: BodyLimits): Promise<unknown> {
  if (!req.body) return undefined;
  const length = req.headers.get('content-length');
  if (length === '0') {
    await req.body.cancel().catch(() => undefined);
    return undefined;
  }
  const mediaType = (req.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  const accepted = (accepts as string[]).includes(mediaType);
  const limit = accepted && mediaType === 'text/csv' ? limits.maxCsvBytes : limits.maxJsonBytes;
  const refuse = () => (accepted ? tooLarge(mediaType, limit) : unsupported(mediaType, accepts));
  if (length !== null && Number(length) > limit) {
    await req.body.cancel().catch(() => undefined);
    throw refuse();
  }
  const bytes = await readLimited(req.body, limit, refuse);
  // An empty body is no body, whatever Content-Type says; a non-empty one must be of an accepted type.
  if (bytes.length === 0) return undefined;
  if (!accepted) throw unsupported(mediaType, accepts);
  const text = utf8Text(bytes, mediaType);
  if (mediaType === 'text/csv') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new CatintelError(
      'invalid_request',
      `the body is not valid JSON (${(err as Error).message.replace(/\s+/g, ' ').slice(0, 120)})`,
      {
        errors: [{ field: 'body', message: 'malformed JSON' }],
      },
    );
  }
}

function unsupported(mediaType: string, accepts: Accepted[]): CatintelError {
  return new CatintelError(
    'unsupported_media_type',
    `Content-Type "${mediaType || '(none)'}" is not accepted here; send ${accepts.join(' or ')}`,
    {
      headers: { 'accept-post': accepts.join(', ') },
    },
  );
}

function tooLarge(mediaType: string, limit: number): CatintelError {
  const mib = limit / (1024 * 1024);
  return new CatintelError('payload_too_large', `the ${mediaType} body is larger than ${mib} MiB`, {
    headers: { connection: 'close' },
  });
}

async function readLimited(
  stream: ReadableStream<Uint8Array>,
  limit: number,
  onTooLarge: () => Error,
): Promise<Buffer> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw onTooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** The body as text; bytes that are not UTF-8 are refused, never replaced. */
function utf8Text(bytes: Buffer, mediaType: string): string {
  const bad = invalidUtf8At(bytes);
  if (bad >= 0) {
    const byte = bytes[bad].toString(16).padStart(2, '0');
    throw new CatintelError(
      'invalid_request',
      `the ${mediaType} body is not valid UTF-8 at byte offset ${bad} (0x${byte}); send it encoded as UTF-8`,
      {
        errors: [{ field: 'body', message: `invalid UTF-8 at byte offset ${bad}` }],
      },
    );
  }
  return bytes.toString('utf8');
}
