import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import type { Logger } from 'pino';
import { WebSocketServer, createWebSocketStream } from 'ws';
import type { AuthService } from '../services/auth.js';
import { mayPublish, maySubscribe, type Principal } from './access.js';
import { isServiceLogin, type ServiceCredentials } from './service-principal.js';

export const BROKER_PATH = '/mqtt';
/** No command or response comes near this; a larger frame is hostile. */
const MAX_FRAME_BYTES = 1024 * 1024;

// Aedes' AuthErrorCode is a const enum, which isolated modules cannot read.
const BAD_USERNAME_OR_PASSWORD = 4;
const SERVER_UNAVAILABLE = 3;

export interface EmbeddedBroker {
  /** Serves MQTT over WebSocket at /mqtt on the given HTTP server. */
  attach(server: Server): void;
  /**
   * Closes this user's connections whose password was checked before `changedAt` (when their
   * password changed or they were removed); later logins, with the new password, stay.
   */
  disconnectUser(username: string, changedAt: Date): void;
  close(): Promise<void>;
}

interface Options {
  auth: AuthService;
  service: ServiceCredentials;
  log: Logger;
}

/** Aedes inside the server process: authenticates with the users' passwords, enforces access.ts. */
export async function createEmbeddedBroker({
  auth,
  service,
  log,
}: Options): Promise<EmbeddedBroker> {
  const principals = new WeakMap<Client, Principal>();
  const passwordCheckedAt = new WeakMap<Client, number>();
  const aedes = await Aedes.createBroker({
    authenticate(client, username, password, done) {
      if (username === undefined || password === undefined)
        return done(authError('Missing credentials', BAD_USERNAME_OR_PASSWORD), false);
      if (isServiceLogin(service, username, password)) {
        principals.set(client, { kind: 'service' });
        return done(null, true);
      }
      const address = client.req?.socket.remoteAddress ?? 'unknown';
      const checkedAt = Date.now();
      auth
        .checkCredentials(username, password.toString('utf8'), address, 'mqtt')
        .then((result) => {
          if (!result.ok) {
            log.info({ username, address, reason: result.reason }, 'broker login refused');
            return done(authError(result.error, BAD_USERNAME_OR_PASSWORD), false);
          }
          principals.set(client, { kind: 'user', username: result.username });
          passwordCheckedAt.set(client, checkedAt);
          done(null, true);
        })
        .catch((err: unknown) => {
          log.error({ err }, 'broker authentication failed');
          done(authError('Authentication unavailable', SERVER_UNAVAILABLE), false);
        });
    },
    authorizeSubscribe(client, subscription, done) {
      const principal = principals.get(client);
      const allowed = principal !== undefined && maySubscribe(principal, subscription.topic);
      if (!allowed)
        log.warn({ client: client.id, topic: subscription.topic }, 'subscription refused');
      // null refuses this one subscription (SUBACK 128) and keeps the connection.
      done(null, allowed ? subscription : null);
    },
    authorizePublish(client, packet, done) {
      // client is null only for a will published after its client left; wills are not used here.
      const principal = client ? principals.get(client) : undefined;
      if (principal && mayPublish(principal, packet.topic, packet.retain)) return done(null);
      log.warn({ client: client?.id, topic: packet.topic }, 'publication refused');
      // MQTT 3.1.1 gives a broker no way to refuse a PUBLISH but closing the connection.
      done(new Error(`Not allowed to publish to ${packet.topic}`));
    },
  });
  const connected = new Set<Client>();
  aedes.on('client', (client) => connected.add(client));
  aedes.on('clientDisconnect', (client) => connected.delete(client));
  aedes.on('clientError', (client, err) =>
    log.debug({ client: client.id, err: err.message }, 'broker client error'),
  );

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_FRAME_BYTES,
    handleProtocols: (protocols) =>
      protocols.has('mqtt') ? 'mqtt' : protocols.has('mqttv3.1') ? 'mqttv3.1' : false,
  });

  function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    if (pathname !== BROKER_PATH) {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const stream = createWebSocketStream(ws);
      stream.on('error', (err) => log.debug({ err: err.message }, 'broker websocket error'));
      aedes.handle(stream, req);
    });
  }

  let server: Server | undefined;
  return {
    attach(httpServer) {
      server = httpServer;
      httpServer.on('upgrade', onUpgrade);
    },
    disconnectUser(username, changedAt) {
      for (const client of connected) {
        const principal = principals.get(client);
        const checkedAt = passwordCheckedAt.get(client) ?? 0;
        if (
          principal?.kind === 'user' &&
          principal.username === username &&
          checkedAt <= changedAt.getTime()
        ) {
          log.info({ client: client.id, username }, 'connection closed: credentials changed');
          client.close();
        }
      }
    },
    async close() {
      server?.off('upgrade', onUpgrade);
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

function authError(message: string, returnCode: number): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}
