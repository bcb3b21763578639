import path from 'node:path';
import sharp from 'sharp';
import { DEFAULT_BROKER_LIMITS, type BrokerLimits } from '../broker/limits.js';
import { DEFAULT_MAX_QUEUED_PER_USER, type Config } from '../config.js';
import { DEFAULT_HTTP_DEADLINES } from '../http/deadlines.js';
import { DEFAULT_JOB_LEASE_MS } from '../jobs/lease.js';
import { DEFAULT_STORE_RETRY } from '../jobs/store-backoff.js';
import { DEFAULT_FILES_RETRY } from '../files/s3-retry.js';
import type { FileArea, FileStore } from '../files/file-store.js';
import { createFileStore } from '../files/index.js';
import { withPngText } from '../imaging/png-text.js';
import { userProvisioning } from '../container.js';
import { startServer, type RunningServer, type ServerOverrides } from '../server.js';
import { FIRST_ADMIN, UserService } from '../services/users.js';
import { openDatabase, type Db } from '../store/database.js';
import { createUserRepository } from '../store/users.js';
import { passwordOf, tempDir } from './fixtures.js';
import { externalBrokerOf, startMosquitto, type RunningMosquitto } from './mosquitto.js';
import { TestClient } from './test-client.js';

export type BrokerKind = 'embedded' | 'mosquitto';

export const SERVICE_USERNAME = 'tessera-service';

/** For suites that send commands faster than any person would. */
export const UNLIMITED_PUBLISHING: Partial<BrokerLimits> = {
  publishPerSecond: 10_000,
  publishBurst: 100_000,
};

export interface TestServer {
  server: RunningServer;
  /** The configuration it started with, for another process beside it (a worker). */
  config: Config;
  dataDir: string;
  /** A second connection to the server's database, to look at what commands changed. */
  db: Db;
  /** The server's file store (a second instance): the local folder, or the bucket of `s3`. */
  files: FileStore;
  /**
   * Where the local store keeps a file, for tests that look at the disk (or write it) directly;
   * nothing is there on a server with `s3` set.
   */
  storedPath(username: string, area: FileArea, name: string): string;
  /** The Mosquitto process started for the test (broker 'mosquitto'), to kill and start again. */
  mosquitto?: RunningMosquitto;
  /** The WebSocket address browsers connect to (the embedded broker's or Mosquitto's). */
  brokerUrl: string;
  /** Connects as a user (password `<name>-password`) over the browsers' WebSocket address. */
  connect(username: string): Promise<TestClient>;
  /** Puts a real PNG in a user's folder, as another pipeline would, with metadata in a text chunk. */
  placeImage(
    username: string,
    area: 'ld' | 'hd',
    filename: string,
    metadata?: Record<string, unknown>,
  ): Promise<void>;
  /**
   * Resolves at the next state change (claimed, progress, finished, failed…) of a job of this
   * user, heard from the server's job runner: what `waitForPreview` waits on between reads.
   */
  nextJobChange(username: string): Promise<void>;
  /**
   * Resolves when the server has read and acted on the next change to this user's account that
   * another process made (the users CLI): its credentials watcher's turn, heard, not waited out.
   */
  nextAccountChange(username: string): Promise<void>;
  /**
   * The first value `read` gives: at once, or after a later change of one of the user's jobs
   * (each change is the event to look again on). Rejects after `timeoutMs`, naming `what`.
   */
  waitForJobs<T>(
    username: string,
    what: string,
    read: () => Promise<T | undefined>,
    timeoutMs?: number,
  ): Promise<T>;
  /** Stops the server process's parts and starts them again on the same port, data and config. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The whole server (store, broker, messaging, HTTP) on a free port with a fresh data folder, on
 * the embedded broker or on a Mosquitto process started for the test with deploy/mosquitto.
 */
export async function startTestServer(
  usernames: string[],
  broker: BrokerKind,
  overrides: ServerOverrides = {},
  brokerLimits: Partial<BrokerLimits> = {},
  settings: Partial<
    Pick<
      Config,
      | 'maxQueuedPerUser'
      | 'databaseUrl'
      | 's3'
      | 'httpDeadlines'
      | 'publicOrigin'
      | 'httpsOnly'
      | 'trustedProxies'
      | 'embeddedBrokerPublicUrl'
      | 'metricsToken'
      | 'metricsPort'
      | 'shutdownGraceMs'
      | 'hdRetentionDays'
    >
  > = {},
): Promise<TestServer> {
  const data = tempDir();
  const servicePassword = passwordOf(SERVICE_USERNAME);
  const mosquitto =
    broker === 'mosquitto'
      ? await startMosquitto({ username: SERVICE_USERNAME, password: servicePassword })
      : undefined;
  const externalBroker =
    mosquitto &&
    externalBrokerOf(mosquitto, { username: SERVICE_USERNAME, password: servicePassword });

  // As `npm run users add` does: into Tessera's database and, on Mosquitto, its logins.
  // The server's own database: the SQLite file in the data folder, or settings.databaseUrl.
  const location = {
    dataDir: data.dir,
    ...(settings.databaseUrl ? { url: settings.databaseUrl } : {}),
  };
  const setup = await openDatabase(location);
  const provisioning = userProvisioning({ externalBroker } as Config);
  const users = new UserService(createUserRepository(setup), provisioning);
  // As on a real first start, `admin` comes first: the test's users are members, whom the
  // last-admin rule (issue 29) lets a test remove or disable.
  if (!usernames.includes(FIRST_ADMIN)) await users.add(FIRST_ADMIN, passwordOf(FIRST_ADMIN));
  for (const name of usernames) await users.add(name, passwordOf(name));
  await provisioning.close();
  await setup.destroy();
  const config: Config = {
    port: 0,
    host: '127.0.0.1',
    dataDir: data.dir,
    title: 'Tessera',
    theme: 'default',
    logLevel: 'silent',
    role: 'server',
    instanceName: 'test-server',
    sharedLimits: { store: 'memory' },
    engine: 'builtin',
    builtinUpscaler: 'lanczos',
    jobConcurrency: 1,
    jobLeaseMs: DEFAULT_JOB_LEASE_MS,
    jobStoreRetryMaxMs: DEFAULT_STORE_RETRY.maxMs,
    filesRetryWindowMs: DEFAULT_FILES_RETRY.windowMs,
    databasePoolSize: 4,
    brokerLimits: { ...DEFAULT_BROKER_LIMITS, ...brokerLimits },
    maxQueuedPerUser: DEFAULT_MAX_QUEUED_PER_USER,
    hdRetentionDays: 0,
    httpDeadlines: DEFAULT_HTTP_DEADLINES,
    shutdownDrainMs: 0,
    shutdownGraceMs: 3000,
    auditRetentionDays: 365,
    webhookDeliveryRetentionDays: 30,
    printProfilesDir: path.join(data.dir, 'profiles'),
    ...settings,
    ...(externalBroker && { externalBroker }),
  };
  // Who waits for a job change of which user; the runner's listener wakes them (each once).
  const jobWaiters = new Set<{ username: string; wake: () => void }>();
  const accountWaiters = new Set<{ username: string; wake: () => void }>();
  const wakeWaiters = (waiters: typeof jobWaiters, username: string) => {
    for (const waiter of waiters) {
      if (waiter.username !== username) continue;
      waiters.delete(waiter);
      waiter.wake();
    }
  };
  const withListeners: ServerOverrides = {
    ...overrides,
    onJobChange: (job) => {
      overrides.onJobChange?.(job);
      wakeWaiters(jobWaiters, job.params.owner.username);
    },
    onAccountChanged: (username) => {
      overrides.onAccountChanged?.(username);
      wakeWaiters(accountWaiters, username);
    },
  };
  const server = await startServer(config, withListeners);
  const clientUrl = mosquitto?.wsUrl ?? `ws://127.0.0.1:${server.port}/mqtt`;
  const db = await openDatabase(location);
  const files = await createFileStore(config);
  const clients: TestClient[] = [];

  const handle: TestServer = {
    server,
    config,
    dataDir: data.dir,
    db,
    files,
    storedPath: (username, area, name) => path.join(data.dir, 'files', username, area, name),
    brokerUrl: clientUrl,
    ...(mosquitto && { mosquitto }),
    async connect(username) {
      const client = await TestClient.connect(clientUrl, username, passwordOf(username));
      clients.push(client);
      return client;
    },
    async placeImage(username, area, filename, metadata) {
      const png = await sharp({
        create: { width: 96, height: 48, channels: 3, background: '#b5651d' },
      })
        .png()
        .toBuffer();
      await files.write(
        username,
        area,
        filename,
        metadata ? withPngText(png, 'metadata', JSON.stringify(metadata)) : png,
      );
    },
    nextJobChange(username) {
      return new Promise((resolve) => jobWaiters.add({ username, wake: resolve }));
    },
    nextAccountChange(username) {
      return new Promise((resolve) => accountWaiters.add({ username, wake: resolve }));
    },
    async waitForJobs(username, what, read, timeoutMs = 60_000) {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timed out'>((resolve) => {
        timer = setTimeout(() => resolve('timed out'), timeoutMs);
      });
      try {
        for (;;) {
          // Asked for before the read, so a change during the read is not missed.
          const changed = handle.nextJobChange(username);
          const value = await read();
          if (value !== undefined) return value;
          if ((await Promise.race([changed, timedOut])) === 'timed out') break;
        }
      } finally {
        clearTimeout(timer);
      }
      throw new Error(`no ${what} in ${timeoutMs} ms`);
    },
    async restart() {
      const port = handle.server.port;
      await handle.server.stop();
      handle.server = await startServer({ ...config, port }, withListeners);
    },
    async stop() {
      await Promise.all(clients.map((c) => c.close()));
      await handle.server.stop();
      await db.destroy();
      await mosquitto?.stop();
      data.remove();
    },
  };
  return handle;
}
