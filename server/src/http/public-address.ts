import os from 'node:os';

/**
 * The host names under which browsers may reach this server. The Host header is the client's
 * word: echoing any value would let a forged header (or a cache keyed without it) point a
 * browser's broker connection anywhere. So a Host is used only when its name is one of these.
 */
export function allowedHostNames(configured: readonly string[] | undefined): string[] {
  if (configured && configured.length > 0) return configured.map(normalise);
  // Unset: the names this machine answers to by itself (its loopback, its name, its addresses),
  // so a first start is reachable on the LAN; a domain name in front needs PUBLIC_HOSTS.
  const addresses = Object.values(os.networkInterfaces())
    .flatMap((list) => list ?? [])
    .map((entry) => (entry.family === 'IPv6' ? `[${entry.address}]` : entry.address));
  return [...new Set(['localhost', '127.0.0.1', '[::1]', os.hostname(), ...addresses])].map(
    normalise,
  );
}

/** A Host header: a DNS name, an IPv4 address or a bracketed IPv6 address, and a port. */
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9][a-z0-9.-]*)(?::\d{1,5})?$/i;

/** The host name of a Host header ('tiles.example:8080' → 'tiles.example'), or undefined. */
export function hostNameOf(hostHeader: string): string | undefined {
  return HOST_HEADER.exec(hostHeader)?.[1]?.toLowerCase();
}

/**
 * The broker's WebSocket address for a request: built from its Host when that names this
 * server, otherwise from the first allowed name and the listening port.
 */
export function brokerUrlResolver(options: {
  allowedHosts: readonly string[];
  path: string;
  port: () => number;
}): (request: { protocol: string; host: string }) => string {
  const allowed = new Set(options.allowedHosts);
  return ({ protocol, host }) => {
    const scheme = protocol === 'https' ? 'wss' : 'ws';
    const name = hostNameOf(host);
    const trusted = name !== undefined && allowed.has(name) ? host : undefined;
    return `${scheme}://${trusted ?? `${options.allowedHosts[0]}:${options.port()}`}${options.path}`;
  };
}

/**
 * The broker's WebSocket address under a public origin (PUBLIC_URL): `wss://` for an https
 * origin, as an https page may open no `ws://` socket (mixed content).
 */
export function brokerUrlAtOrigin(origin: string, path: string): string {
  const url = new URL(origin);
  return `${url.protocol === 'https:' ? 'wss' : 'ws'}://${url.host}${path}`;
}

function normalise(name: string): string {
  return name.trim().toLowerCase();
}
