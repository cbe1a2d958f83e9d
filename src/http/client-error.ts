/**
 * Requests Node's HTTP parser refuses before the app sees them: a request line and headers over the
 * header limit (431), a request that is not valid HTTP/1.1 (400), headers or a request that did not
 * arrive in time (408). Node would answer these with a bare status line; the contract says every
 * response is problem+json with X-Request-Id and the X-RateLimit-* headers, so this writes that
 * response on the socket itself (the 'clientError' event), then closes the connection, as Node does.
 *
 * The request is charged to its client address's window like any other: the headers were not parsed,
 * so the address is the socket's peer (X-Forwarded-For cannot be read), and a flood of malformed
 * requests meets the same limit as a flood of good ones.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { titleOf, type ErrorCode } from '../errors.js';
import type { AccessLogEntry } from './access-log.js';
import type { RequestsPerMinute } from './limits.js';
import { PROBLEM_TYPE_BASE, type Problem } from './problem.js';
import { unmetered, type RateLimiter } from './rate-limit.js';

export interface ClientErrorDeps {
  limiter?: RateLimiter;
  limits: RequestsPerMinute;
  accessLog?: (e: AccessLogEntry) => void;
  /** The server's limits, named in the messages. */
  maxHeaderBytes: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
}

type ParserError = Error & { code?: string; reason?: string };

/** The status, code and words for a parser error (Node's own mapping, lib/_http_server.js socketOnError). */
export function classify(
  err: ParserError,
  d: Pick<ClientErrorDeps, 'maxHeaderBytes' | 'headersTimeoutMs' | 'requestTimeoutMs'>,
): { status: number; code: string; detail: string } {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        code: 'headers_too_large',
        detail: `the request line and headers are larger than ${Math.round(d.maxHeaderBytes / 1024)} KB; shorten the URL (fewer or shorter query values) or the headers`,
      };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return {
        status: 413,
        code: 'payload_too_large',
        detail: 'the chunk extensions of the request body are too large',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        code: 'request_timeout',
        detail: `the request did not arrive in time (headers within ${d.headersTimeoutMs / 1000} s, the whole request within ${d.requestTimeoutMs / 1000} s)`,
      };
    default: {
      // Node's reason ("Invalid header value char") is about the bytes the client sent, never our internals.
      const reason = (err.reason ?? '').replace(/[^\x20-\x7e]/g, '').slice(0, 120);
      return {
        status: 400,
        code: 'invalid_request',
        detail: `the request is not valid HTTP/1.1${reason ? ` (${reason})` : ''}; check its request line, headers and framing`,
      };
    }
  }
}

export function clientErrorHandler(d: ClientErrorDeps): (err: ParserError, socket: Duplex) => void {
  return (err, socket) => {
    // Nothing to answer: the peer went away, or a response has already started on this connection.
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    void answer(socket, err, d);
  };
}

/** The problem+json answer to a request that never parsed, counted against the client's address. */
async function answer(socket: Duplex, err: ParserError, d: ClientErrorDeps): Promise<void> {
  const started = performance.now();
  const clientIp = (socket as Duplex & { remoteAddress?: string }).remoteAddress ?? 'unknown';
  const requestId = randomUUID();
  const headers: Record<string, string> = {
    'content-type': 'application/problem+json',
    'x-request-id': requestId,
    connection: 'close',
  };
  let { status, code, detail } = classify(err, d);
  const rate = d.limiter
    ? await Promise.resolve(d.limiter.hit(`ip:${clientIp}`, d.limits.free)).catch(() => unmetered(d.limits.free))
    : unmetered(d.limits.free);
  headers['x-ratelimit-limit'] = String(rate.limit);
  headers['x-ratelimit-remaining'] = String(rate.remaining);
  headers['x-ratelimit-reset'] = String(rate.resetSeconds);
  if (!rate.allowed) {
    ({ status, code } = { status: 429, code: 'rate_limited' });
    detail = `this client address may make ${rate.limit} requests per minute; retry in ${rate.resetSeconds} s`;
    headers['retry-after'] = String(rate.resetSeconds);
  }
  const problem: Problem = {
    type: `${PROBLEM_TYPE_BASE}${code.replace(/_/g, '-')}`,
    title: titleOf[code as ErrorCode] ?? STATUS_CODES[status] ?? 'Bad Request',
    status,
    detail,
    code,
  };
  const body = Buffer.from(JSON.stringify(problem));
  headers['content-length'] = String(body.length);
  const head = `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;
  socket.end(Buffer.concat([Buffer.from(head, 'latin1'), body]));
  // A client that keeps sending never lets the connection finish closing: cut it after a moment.
  const cut = setTimeout(() => socket.destroy(), 1000);
  cut.unref();
  socket.once('close', () => clearTimeout(cut));
  d.accessLog?.({
    time: new Date().toISOString(),
    request_id: requestId,
    method: '-',
    path: '-',
    status,
    duration_ms: Math.round((performance.now() - started) * 100) / 100,
    bytes: body.length,
    client_ip: clientIp,
    tier: 'free',
    code,
  });
}
