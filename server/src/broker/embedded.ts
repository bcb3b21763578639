import type { IncomingMessage, Server } from 'node:http';
import { duplexPair, type Duplex } from 'node:stream';
import { errorText } from '@tessera/contract';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import type { Logger } from 'pino';
import { WebSocketServer, createWebSocketStream, type WebSocket } from 'ws';
import type { AuthService } from '../services/auth.js';
import { refusalOf } from '../messaging/replies.js';
import { mayPublish, maySubscribe, type Principal } from './access.js';
import { ConnectionGuard, type ClaimResult, type GuardedConnection } from './connection-guard.js';
import { DEFAULT_BROKER_LIMITS, type BrokerLimits } from './limits.js';
import { PublishBudget } from './publish-budget.js';
import { MAX_UNSENT_BYTES, STREAM_OPTIONS, unsentBytes } from './slow-readers.js';
import { isServiceLogin, type ServiceCredentials } from './service-principal.js';

export const BROKER_PATH = '/mqtt';
/** Aedes speaks MQTT 3.1.1 (mqtt.js's protocolVersion 4) and refuses MQTT 5 clients. */
export const EMBEDDED_BROKER_PROTOCOL_VERSION = 4;
/** No command or response comes near this; a larger frame is hostile. */
const MAX_FRAME_BYTES = 1024 * 1024;

// Aedes' AuthErrorCode is a const enum, which isolated modules cannot read.
const IDENTIFIER_REJECTED = 2;
const SERVER_UNAVAILABLE = 3;
const BAD_USERNAME_OR_PASSWORD = 4;

export interface EmbeddedBroker {
  /** Serves MQTT over WebSocket at /mqtt on the given HTTP server. */
  attach(server: Server): void;
  /**
   * Closes this user's connections whose password was checked before `changedAt` (when their
   * password changed or they were removed); later logins, with the new password, stay.
   */
  disconnectUser(username: string, changedAt: Date): void;
  /**
   * A connection inside this process, for the messaging service: MQTT over an in-memory stream
   * pair, with no WebSocket framing, masking or loopback socket under it. It logs in and is
   * checked like any other; each call opens a new one (the client's reconnects call it again).
   */
  openInProcess(): Duplex;
  /** MQTT connections open now, the messaging service's own included (a gauge's reading). */
  connectionCount(): number;
  close(): Promise<void>;
}

interface Options {
  auth: AuthService;
  service: ServiceCredentials;
  log: Logger;
  limits?: BrokerLimits;
  /**
   * The client's address of a WebSocket upgrade (its login limits, its unauthenticated
   * connections): behind a trusted proxy, the forwarded one. Unset: the socket's peer.
   */
  clientAddress?: (req: IncomingMessage) => string;
}

/** Aedes inside the server process: authenticates with the users' passwords, enforces access.ts. */
export async function createEmbeddedBroker({
  auth,
  service,
  log,
  limits = DEFAULT_BROKER_LIMITS,
  clientAddress = (req) => req.socket.remoteAddress ?? 'unknown',
}: Options): Promise<EmbeddedBroker> {
  const principals = new WeakMap<Client, Principal>();
  const passwordCheckedAt = new WeakMap<Client, number>();
  const guard = new ConnectionGuard(limits);
  const guarded = new WeakMap<Client, GuardedConnection>();
  const publishing = new PublishBudget(limits);
  const sockets = new WeakMap<Client, { socket: WebSocket; stream: Duplex }>();
  /** Payloads of commands over their user's budget: answered here or not, delivered to nobody. */
  const dropped = new WeakSet<Buffer>();

  /** Admits a logged-in principal under its client id, or says why not (CONNACK 2 or 3). */
  function admit(client: Client, principal: Principal): AuthenticateError | undefined {
    const connection = guarded.get(client);
    const owner = principal.kind === 'service' ? '$service' : `user:${principal.username}`;
    const result: ClaimResult = connection
      ? guard.claim(connection, client.id, owner, principal.kind === 'user')
      : 'ok';
    if (result === 'ok') {
      principals.set(client, principal);
      return undefined;
    }
    log.warn({ client: client.id, owner, result }, 'broker connection refused');
    return result === 'identifier-taken'
      ? authError('Client id in use by another user', IDENTIFIER_REJECTED)
      : authError('Too many connections for this user', SERVER_UNAVAILABLE);
  }

  const aedes = await Aedes.createBroker({
    connectTimeout: limits.connectTimeoutMs,
    authenticate(client, username, password, done) {
      if (username === undefined || password === undefined)
        return done(authError('Missing credentials', BAD_USERNAME_OR_PASSWORD), false);
      if (isServiceLogin(service, username, password)) {
        const refused = admit(client, { kind: 'service' });
        return refused ? done(refused, false) : done(null, true);
      }
      const address = client.req ? clientAddress(client.req) : 'unknown';
      const checkedAt = Date.now();
      auth
        .checkMessagingLogin(username, password.toString('utf8'), address)
        .then((result) => {
          if (!result.ok) {
            log.info({ username, address, reason: result.reason }, 'broker login refused');
            // MQTT 3.1.1 carries no text: a throttled login says "try later" (3), not that
            // the password was wrong (4), which the browser would show as such.
            const code =
              result.reason === 'rate-limited' ? SERVER_UNAVAILABLE : BAD_USERNAME_OR_PASSWORD;
            return done(authError(result.error, code), false);
          }
          const refused = admit(client, { kind: 'user', username: result.username });
          if (refused) return done(refused, false);
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
      if (principal && mayPublish(principal, packet.topic, packet.retain)) {
        const verdict =
          client && principal.kind === 'user'
            ? publishing.check(
                client,
                principal.username,
                byteLength(packet.payload),
                guard.connectionsOf(`user:${principal.username}`),
              )
            : 'pass';
        if (verdict === 'pass') return done(null);
        if (verdict !== 'disconnect') {
          refuseForRate(packet.topic, packet.payload, verdict === 'refuse');
          return done(null);
        }
        log.warn({ client: client?.id }, 'connection flooding over its user budget closed');
        return done(new Error('Publishing far over the rate limit'));
      }
      log.warn({ client: client?.id, topic: packet.topic }, 'publication refused');
      // MQTT 3.1.1 gives a broker no way to refuse a PUBLISH but closing the connection.
      done(new Error(`Not allowed to publish to ${packet.topic}`));
    },
    authorizeForward(client, packet) {
      if (dropped.has(packet.payload as Buffer)) return null;
      const connection = client && sockets.get(client);
      if (connection && principals.get(client)?.kind === 'user') {
        if (unsentBytes(connection.socket, connection.stream) > MAX_UNSENT_BYTES) {
          log.warn({ client: client.id }, 'connection not reading what it is sent closed');
          connection.socket.terminate();
          return null;
        }
      }
      return packet;
    },
  });
  const connected = new Set<Client>();
  aedes.on('client', (client) => connected.add(client));
  aedes.on('clientDisconnect', (client) => connected.delete(client));

  /**
   * Drops a command over its user's budget and, when `answer`, answers it as the service would
   * refuse it; only then is the payload read.
   */
  function refuseForRate(topic: string, payload: string | Buffer, answered: boolean): void {
    if (Buffer.isBuffer(payload)) dropped.add(payload);
    if (!answered) return log.debug({ topic }, 'command over the user budget dropped');
    const bytes = Buffer.isBuffer(payload) ? payload : Buffer.from(payload);
    const answer = refusalOf(topic, bytes, errorText('COMMANDS_TOO_FAST'));
    log.info({ topic, answered: answer !== undefined }, 'command over the user budget refused');
    if (!answer) return;
    aedes.publish(
      {
        cmd: 'publish',
        topic: answer.topic,
        payload: Buffer.from(answer.payload),
        qos: 0,
        retain: false,
        dup: false,
      },
      (err) => {
        if (err) log.warn({ err: err.message, topic: answer.topic }, 'rate refusal not sent');
      },
    );
  }
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
    const address = clientAddress(req);
    const connection = guard.open(address);
    if (!connection) {
      log.warn({ address }, 'too many connections not logged in from one address');
      socket.end(
        'HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n',
      );
      return;
    }
    socket.once('close', () => guard.close(connection));
    wss.handleUpgrade(req, socket, head, (ws) => {
      const stream = createWebSocketStream(ws, STREAM_OPTIONS);
      stream.on('error', (err) => log.debug({ err: err.message }, 'broker websocket error'));
      const client = aedes.handle(stream, req);
      guarded.set(client, connection);
      sockets.set(client, { socket: ws, stream });
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
    openInProcess() {
      const [clientEnd, brokerEnd] = duplexPair();
      // A pair's sides do not tell each other of a destroy: Aedes destroys its side when it
      // drops a client, and the service's client must see its connection close then.
      brokerEnd.once('close', () => clientEnd.destroy());
      clientEnd.once('close', () => brokerEnd.destroy());
      brokerEnd.on('error', (err) => log.debug({ err: err.message }, 'in-process link error'));
      if (aedes.closed) brokerEnd.destroy();
      else aedes.handle(brokerEnd);
      return clientEnd;
    },
    connectionCount: () => connected.size,
    async close() {
      server?.off('upgrade', onUpgrade);
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

function byteLength(payload: string | Buffer): number {
  return Buffer.isBuffer(payload) ? payload.length : Buffer.byteLength(payload);
}

function authError(message: string, returnCode: number): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}
