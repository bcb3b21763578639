import type { Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

/**
 * Once a close began, each answered request's keep-alive connection is closed as soon as it is
 * idle: a close closes only the connections idle at that instant, so a download that finishes
 * afterwards would otherwise keep its connection (and the stop) for the whole keep-alive time.
 * Called once, when the server is made.
 */
export function closeIdleOnceAnswered(server: Server): void {
  server.on('request', (_req, res) => {
    res.once('finish', () => {
      if (!server.listening) setImmediate(() => server.closeIdleConnections());
    });
  });
}

/**
 * Closes an HTTP app: it stops accepting at once and lets the requests in flight finish, but a
 * download that a client stopped reading would hold the stop forever, so after `graceMs` the
 * connections still open are closed.
 */
export async function closeHttpWithin(
  app: FastifyInstance,
  graceMs: number,
  log: Logger,
): Promise<void> {
  const cut = setTimeout(() => {
    log.warn(
      { graceMs },
      'requests still open after the shutdown grace: closing their connections',
    );
    app.server.closeAllConnections();
  }, graceMs);
  try {
    await app.close();
  } finally {
    clearTimeout(cut);
  }
}
