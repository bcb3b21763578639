import { bearerCredential, errorText } from '@tessera/contract';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

/** Methods that only read: a page of any origin may send them (images, links, downloads). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether the browser says a request came from a page of another origin. The session cookie is
 * SameSite=Strict, but a site is not an origin: another port of the same host, or a sibling
 * subdomain, is the same site and gets the cookie sent. Either mark refuses: Sec-Fetch-Site
 * other than same-origin or none (the browser's own verdict; 'none': a typed address), or an
 * Origin other than the server's own. That is `publicOrigin` (PUBLIC_URL) when set, as a proxy
 * in front may change Host; else the Host the request was sent to (the Vite dev proxy keeps it).
 * A request with neither header comes from no browser (curl, scripts), which has no cookie of a
 * victim to ride on.
 */
export function isFromAnotherOrigin(
  headers: { host?: string; origin?: string; 'sec-fetch-site'?: string },
  publicOrigin?: string,
): boolean {
  const fetchSite = headers['sec-fetch-site'];
  if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') return true;
  const origin = headers.origin;
  if (origin === undefined) return false;
  const sent = parsed(origin);
  if (!sent) return true;
  if (publicOrigin !== undefined) return sent.origin !== publicOrigin;
  return sent.host !== headers.host?.toLowerCase();
}

/** 'https://tiles.example:8443' → its URL; undefined for 'null' (sandboxed pages) or garbage. */
function parsed(origin: string): URL | undefined {
  try {
    return new URL(origin);
  } catch {
    return undefined;
  }
}

export interface SameOriginOptions {
  /** The origin browsers reach the server at (PUBLIC_URL's); unset: the request's Host. */
  publicOrigin?: string;
}

/**
 * Refuses every state-changing request (not GET, HEAD or OPTIONS) from a page of another origin
 * with 403, before its body is read (issue 22, part 1); but a Bearer request (issue 30, part 1).
 */
const plugin: FastifyPluginAsync<SameOriginOptions> = async (app, { publicOrigin }) => {
  app.addHook('onRequest', async (request, reply) => {
    if (SAFE_METHODS.has(request.method)) return;
    // A Bearer request is judged by its token alone, never by a cookie (http/session.ts): it
    // carries no ambient credential a page of another origin could ride on.
    if (bearerCredential(request.headers.authorization) !== undefined) return;
    if (!isFromAnotherOrigin(request.headers, publicOrigin)) return;
    request.log.warn(
      { origin: request.headers.origin, fetchSite: request.headers['sec-fetch-site'] },
      'refused a request from another origin',
    );
    return reply.status(403).send({ error: errorText('CROSS_ORIGIN_REQUEST') });
  });
};

export const sameOriginGuard = fp(plugin, { name: 'tessera-same-origin' });
