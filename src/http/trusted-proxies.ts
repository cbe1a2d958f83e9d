/**
 * Who the client is behind a reverse proxy (docs/contract.md#client-address). X-Forwarded-For is a list each proxy appends
 * the address it was called from to, so only its right end is written by proxies we know: its left end
 * is whatever the client sent. `--trust-proxy` names the proxies in front of the server, as a hop count
 * (`1`: the socket's peer is our proxy) or as addresses and CIDR blocks (`10.0.0.0/8,::1`); the client
 * is the first address from the right that is not one of them. A bare `--trust-proxy` trusts a proxy on
 * the same machine (loopback), the safe reading of "there is a proxy in front of me".
 */
import { BlockList, isIP } from 'node:net';
import { CatintelError } from '../errors.js';

/** The proxies in front of the server; none: X-Forwarded-* are never read. */
export type TrustedProxies =
  | { kind: 'none' }
  | { kind: 'hops'; hops: number }
  | { kind: 'addresses'; list: BlockList; spec: string; seen: Map<string, boolean> };

/** What `--trust-proxy` means without a value: a proxy on this machine. */
export const LOOPBACK = 'loopback';
const LOOPBACK_BLOCKS = ['127.0.0.0/8', '::1/128'];
const MAX_HOPS = 32;

/**
 * The `--trust-proxy` value: absent or false (no proxy), true or '' (loopback), a hop count, or a
 * comma list of addresses, CIDR blocks and `loopback`. Throws `invalid_parameter` naming the bad part.
 */
export function trustedProxiesOf(spec: string | number | boolean | undefined): TrustedProxies {
  if (spec === undefined || spec === false) return { kind: 'none' };
  if (spec === true) spec = LOOPBACK;
  const text = String(spec).trim();
  if (text === '') return trustedProxiesOf(true);
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops < 1 || hops > MAX_HOPS)
      throw badSpec(text, `a hop count is 1 to ${MAX_HOPS} (the proxies in front of the server)`);
    return { kind: 'hops', hops };
  }
  const list = new BlockList();
  for (const part of text.split(',').map((p) => p.trim())) {
    if (part === LOOPBACK) {
      for (const block of LOOPBACK_BLOCKS) addBlock(list, block, text);
      continue;
    }
    addBlock(list, part, text);
  }
  return { kind: 'addresses', list, spec: text, seen: new Map() };
}

function addBlock(list: BlockList, part: string, spec: string): void {
  const [address, prefix, extra] = part.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) throw badSpec(spec, `"${part}" is not an IP address or CIDR block`);
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (prefix === undefined) return list.addAddress(address, type);
  const bits = Number(prefix);
  if (!/^\d{1,3}$/.test(prefix) || bits > (family === 4 ? 32 : 128))
    throw badSpec(spec, `"${part}" has a bad prefix length (IPv4 0-32, IPv6 0-128)`);
  list.addSubnet(address, bits, type);
}

function badSpec(spec: string, why: string): CatintelError {
  return new CatintelError(
    'invalid_parameter',
    `--trust-proxy "${spec}": ${why}; give a hop count (1), or a comma list of proxy addresses and CIDR blocks (10.0.0.0/8,::1, loopback)`,
  );
}

/** Addresses whose answer is remembered: BlockList.check builds a SocketAddress a call, a few percent of a small request's CPU. */
const SEEN_MAX = 4096;

function isTrusted(address: string | undefined, t: TrustedProxies): boolean {
  if (t.kind !== 'addresses' || address === undefined) return false;
  let trusted = t.seen.get(address);
  if (trusted === undefined) {
    const family = isIP(address);
    trusted = family !== 0 && t.list.check(address, family === 4 ? 'ipv4' : 'ipv6');
    if (t.seen.size >= SEEN_MAX) t.seen.clear(); // the list never changes: forgetting costs only the lookups
    t.seen.set(address, trusted);
  }
  return trusted;
}

/** The socket's peer is one of our proxies: its X-Forwarded-* headers may be believed. */
export function peerIsTrustedProxy(peer: string | undefined, t: TrustedProxies): boolean {
  return t.kind === 'hops' || isTrusted(peer, t);
}

/**
 * The client's address: the socket's peer, or walking X-Forwarded-For from the right past the trusted
 * proxies, the first address that is not one. A chain made only of trusted proxies ends at its leftmost
 * address (a request that began on a proxy); an entry that is not an address stops the walk at the hop
 * that passed it on, since no trusted proxy writes one.
 */
export function clientAddressOf(
  peer: string | undefined,
  forwardedFor: string | null,
  t: TrustedProxies,
): string | undefined {
  if (t.kind === 'none' || !forwardedFor || !peerIsTrustedProxy(peer, t)) return peer;
  // The chain from the client to us: the forwarded entries, then the peer that connected.
  const chain = forwardedFor.split(',').map((e) => e.trim());
  let client = peer;
  for (let i = chain.length - 1, hop = 1; i >= 0; i--, hop++) {
    const address = unbracketed(chain[i]);
    if (isIP(address) === 0) return client;
    client = address;
    const trusted = t.kind === 'hops' ? hop < t.hops : isTrusted(address, t);
    if (!trusted) return client;
  }
  return client;
}

/** "[2001:db8::1]" -> "2001:db8::1" (some proxies bracket IPv6 entries). */
function unbracketed(entry: string): string {
  return entry.startsWith('[') && entry.endsWith(']') ? entry.slice(1, -1) : entry;
}
