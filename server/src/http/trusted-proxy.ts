import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

/**
 * Which proxies' X-Forwarded-* headers to believe (TRUST_PROXY), in Fastify's `trustProxy`
 * forms: every peer, the nearest `hops` peers, or peers at these addresses or ranges.
 */
export type TrustedProxies = { all: true } | { hops: number } | { addresses: string[] };

/** Whether the peer at `address`, `hop` steps from this server (0: the socket's), is trusted. */
export type TrustFunction = (address: string, hop: number) => boolean;

/**
 * TRUST_PROXY's text as TrustedProxies; undefined for `false` (believe no forwarded header).
 * Throws an Error saying what is wrong with the value.
 */
export function parseTrustedProxies(text: string): TrustedProxies | undefined {
  const value = text.trim();
  if (value === 'false') return undefined;
  if (value === 'true') return { all: true };
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops < 1 || hops > 100) throw new Error('a number of proxies must be from 1 to 100');
    return { hops };
  }
  const addresses = value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (addresses.length === 0) throw new Error('names no proxy');
  // proxy-addr names the first address or range it cannot read.
  proxyAddr.compile(addresses);
  return { addresses };
}

/**
 * The trust function Fastify and the embedded broker share. A hop count is built here: Fastify
 * 5.12 trusts no peer for a number (it cannot check the nearest peer), so TRUST_PROXY=1 would
 * silently do nothing; Express' meaning is kept instead (the nearest `hops` peers are proxies).
 */
export function trustFunction(trusted: TrustedProxies): TrustFunction {
  if ('all' in trusted) return () => true;
  if ('hops' in trusted) return (_address, hop) => hop < trusted.hops;
  return proxyAddr.compile(trusted.addresses);
}

/**
 * The client's address of a request: the nearest address in X-Forwarded-For that no trusted
 * proxy added, or the socket's peer when it is not a trusted proxy. Without trust: the peer.
 */
export function clientAddressOf(request: IncomingMessage, trust?: TrustFunction): string {
  if (!trust) return request.socket.remoteAddress ?? 'unknown';
  return proxyAddr(request, trust);
}
