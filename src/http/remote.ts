/**
 * Operator commands while `catintel serve` holds the store. DuckDB lets one process open a store
 * read-write and then refuses everyone else (readers included), so `catintel keys revoke ID` cannot
 * touch the file while the server runs. Instead, when the store is locked and `<db>.serve.json` names
 * a live server, the CLI sends the same handler's request to that server's admin endpoint with the
 * run's admin token; the server revokes through its own store connection, and the key stops working
 * on its very next request. Only handlers bound to an admin route go this way.
 */
import { CatintelError, type ErrorCode, httpStatusOf } from '../errors.js';
import type { Caller, Handler, RawInput } from '../handlers/types.js';
import { processAlive, readServeInfo } from './serve-info.js';

/** The server's answer, or undefined when no running server can take the command. */
export async function runViaServer(h: Handler, raw: RawInput, caller: Caller, dbPath: string, lockError: unknown): Promise<unknown | undefined> {
  if (!h.http?.admin || !(lockError instanceof CatintelError) || lockError.code !== 'store_locked') return undefined;
  const info = readServeInfo(dbPath);
  if (!info || !processAlive(info.pid)) return undefined;

  const params = new Set<string>();
  const path = h.http.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    params.add(name);
    return encodeURIComponent(String(raw[name] ?? ''));
  });
  const rest = Object.fromEntries(Object.entries(raw).filter(([k, v]) => !params.has(k) && v !== undefined));
  // The CLI's --account is not an option of the command itself; a new key is made for it explicitly.
  if (h.name === 'keys.create') rest.account ??= caller.account;
  const url = new URL(`api/v1${path}`, info.url.endsWith('/') ? info.url : `${info.url}/`);
  const init: RequestInit = { method: h.http.method, headers: { authorization: `Bearer ${info.admin_token}`, accept: 'application/json' } };
  if (h.http.method === 'GET') {
    for (const [k, v] of Object.entries(rest)) url.searchParams.set(k, String(v));
  } else if (Object.keys(rest).length > 0) {
    init.body = JSON.stringify(rest);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) });
  } catch (err) {
    throw new CatintelError('unavailable', `the store is held by \`catintel serve\` at ${info.url}, which did not answer (${(err as Error).message})`, { cause: err });
  }
  const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (!res.ok) {
    const code = (body?.code as ErrorCode | undefined) ?? 'internal_error';
    const known = code in httpStatusOf ? code : 'internal_error';
    throw new CatintelError(known, String(body?.detail ?? `the server answered ${res.status}`), { errors: body?.errors as never });
  }
  return body;
}
