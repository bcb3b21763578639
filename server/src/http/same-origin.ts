import { errorText } from '@tessera/contract';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

/** Methods that only read: a page of any origin may send them (images, links, downloads). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether the browser says a request came from a page of another origin. The session cookie is
 * SameSite=Strict, but a site is not an origin: another port of the same host, or a sibling
 * subdomain, is the same site and gets the cookie sent. Sec-Fetch-Site is the browser's own
 * verdict and survives a proxy that rewrites Host; browsers without it still send Origin on
 * every POST, compared with the Host the request was sent to. A request with neither comes from
 * no browser (curl, scripts), which has no cookie of a victim to ride on.
 */
export function isFromAnotherOrigin(headers: {
  host?: string;
  origin?: string;
  'sec-fetch-site'?: string;
}): boolean {
  const fetchSite = headers['sec-fetch-site'];
  // 'none': the user typed the address or used a bookmark.
  if (fetchSite !== undefined) return fetchSite !== 'same-origin' && fetchSite !== 'none';
  const origin = headers.origin;
  if (origin === undefined) return false;
  return hostOf(origin) !== headers.host?.toLowerCase();
}

/** 'https://tiles.example:8443' → 'tiles.example:8443'; undefined for 'null' or garbage. */
function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

/**
 * Refuses every state-changing request (not GET, HEAD or OPTIONS) from a page of another origin
 * with 403, before its body is read (issue 22, part 1).
 */
const plugin: FastifyPluginAsync = async (app) => {
  app.addHook('onRequest', async (request, reply) => {
    if (SAFE_METHODS.has(request.method) || !isFromAnotherOrigin(request.headers)) return;
    request.log.warn(
      { origin: request.headers.origin, fetchSite: request.headers['sec-fetch-site'] },
      'refused a request from another origin',
    );
    return reply.status(403).send({ error: errorText('CROSS_ORIGIN_REQUEST') });
  });
};

export const sameOriginGuard = fp(plugin, { name: 'tessera-same-origin' });
