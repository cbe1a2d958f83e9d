/**
 * One NDJSON line per request. It names the credential by its id (`key:key_...`, `jwt:<iss>|<sub>`, `admin`),
 * never the credential itself: no Authorization header, no token, no key. Query parameters whose name
 * suggests a secret are masked in case a client puts one in the URL.
 */
export interface AccessLogEntry {
  time: string;
  request_id: string;
  method: string;
  path: string;
  query?: string;
  status: number;
  duration_ms: number;
  bytes?: number;
  client_ip: string;
  tier: string;
  credential?: string;
  user_agent?: string;
  code?: string;
}

const SECRET_NAME = /token|key|secret|password|auth|signature/i;

export function maskedQuery(search: URLSearchParams): string | undefined {
  const parts: string[] = [];
  for (const [k, v] of search)
    parts.push(`${encodeURIComponent(k)}=${SECRET_NAME.test(k) ? '***' : encodeURIComponent(v)}`);
  return parts.length ? parts.join('&').slice(0, 2000) : undefined;
}

export function ndjsonAccessLog(write: (line: string) => void): (e: AccessLogEntry) => void {
  return (e) => write(JSON.stringify(e) + '\n');
}
