import net from 'node:net';
import { API_ROUTES } from '@tessera/contract';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../server.js';
import { mosquittoAvailable, type RunningMosquitto } from '../testing/mosquitto.js';
import {
  createScratchPostgres,
  postgresMissing,
  TEST_POSTGRES_URL,
  type ScratchPostgres,
} from '../testing/postgres.js';
import { parsePrometheusText, sampleValue } from '../testing/prometheus.js';
import { startS3rver, type RunningS3rver } from '../testing/s3rver.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';

// GET /api/ready on a web process and on a worker's health port, while the real dependencies
// go away and come back: PostgreSQL refusing connections, Mosquitto killed, the object store's
// port closed. /api/health stays the liveness check.

const TOKEN = 'readiness-test-metrics-token-0123456789';
const missing = (await postgresMissing()) || !mosquittoAvailable;

describe.skipIf(missing)('readiness while dependencies fail (PostgreSQL, Mosquitto, S3)', () => {
  let database: ScratchPostgres;
  let s3: RunningS3rver;
  let gate: TcpGate;
  let t: TestServer;
  let worker: RunningServer;
  let mosquitto: RunningMosquitto;

  beforeAll(async () => {
    database = await createScratchPostgres();
    s3 = await startS3rver();
    gate = await tcpGate(Number(new URL(s3.endpoint).port));
    const s3Settings = { ...s3.settings('tessera'), endpoint: gate.url };
    t = await startTestServer(
      ['alice'],
      'mosquitto',
      {},
      {},
      {
        databaseUrl: database.url,
        s3: s3Settings,
      },
    );
    mosquitto = t.mosquitto as RunningMosquitto;
    // A worker beside it (ROLE=worker has no HTTP port): its health port is all it serves.
    worker = await startServer({
      ...t.config,
      role: 'worker',
      instanceName: 'test-worker',
      healthPort: 0,
      metricsToken: TOKEN,
    });
  }, 90_000);
  afterAll(async () => {
    await worker?.stop();
    await t?.stop();
    await gate?.close();
    await s3?.stop();
    await database?.drop();
  });

  const web = () => t.server.url;
  const healthOf = () => worker.healthUrl ?? '';
  const readiness = async (base: string) => {
    const res = await fetch(`${base}${API_ROUTES.ready}`);
    return { status: res.status, body: (await res.json()) as unknown };
  };
  /** Waits (probing as a load balancer would) until both processes answer `expected`. */
  const bothAnswer = async (expected: { status: number; body: unknown }) => {
    for (const base of [web(), healthOf()]) {
      await expect
        .poll(() => readiness(base), { timeout: 30_000, interval: 200 })
        .toEqual(expected);
    }
  };
  const READY = { status: 200, body: { status: 'ready' } };
  const failing = (dependency: string) => ({
    status: 503,
    body: { status: 'unavailable', failing: [dependency] },
  });

  it("a worker's health port answers health, readiness and (with the token) metrics", async () => {
    expect(worker.url).toBe('');
    expect(healthOf()).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${healthOf()}${API_ROUTES.health}`)).status).toBe(200);
    await bothAnswer(READY);
    expect((await fetch(`${healthOf()}/metrics`)).status).toBe(401);
    const scraped = await fetch(`${healthOf()}/metrics`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(scraped.status).toBe(200);
    const samples = parsePrometheusText(await scraped.text());
    expect(sampleValue(samples, 'tessera_jobs', { kind: 'hd', state: 'running' })).toBe(0);
    expect(sampleValue(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    // Mosquitto counts its own connections: no made-up 0 here.
    expect(samples.some((s) => s.name === 'tessera_mqtt_connections')).toBe(false);
  });

  it('says 503 naming the database while PostgreSQL refuses connections, and 200 once back', async () => {
    await setConnectionsAllowed(database, false);
    try {
      await bothAnswer(failing('database'));
      // Liveness: the web process's /api/health also says its database is gone.
      expect((await fetch(`${web()}${API_ROUTES.health}`)).status).toBe(503);
    } finally {
      await setConnectionsAllowed(database, true);
    }
    await bothAnswer(READY);
  }, 90_000);

  it('says 503 naming the broker while Mosquitto is down, and 200 once it is back', async () => {
    await mosquitto.kill();
    try {
      await bothAnswer(failing('broker'));
      // Still alive: a load balancer takes it out of rotation, a supervisor does not restart it.
      expect((await fetch(`${web()}${API_ROUTES.health}`)).status).toBe(200);
    } finally {
      await mosquitto.start();
    }
    await bothAnswer(READY);
  }, 90_000);

  it('says 503 naming the file store while the object store cannot be reached, and 200 after', async () => {
    await gate.close();
    try {
      await bothAnswer(failing('files'));
    } finally {
      await gate.open();
    }
    await bothAnswer(READY);
  }, 90_000);
});

/** Refuses (and cuts) every connection to the database, as an outage would, or allows them again. */
async function setConnectionsAllowed(database: ScratchPostgres, allowed: boolean): Promise<void> {
  const name = new URL(database.url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  try {
    await admin.query(`alter database ${name} allow_connections ${allowed ? 'true' : 'false'}`);
    if (!allowed) {
      await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1',
        [name],
      );
    }
  } finally {
    await admin.end();
  }
}

interface TcpGate {
  /** The address to use instead of the target's. */
  url: string;
  /** Stops listening and cuts every connection through it: the target is unreachable. */
  close(): Promise<void>;
  /** Listens again on the same port. */
  open(): Promise<void>;
}

/** A TCP relay to a port on 127.0.0.1 that a test closes and opens, as a network outage. */
async function tcpGate(targetPort: number): Promise<TcpGate> {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const open = async () => {
    const relay = net.createServer((client) => {
      const upstream = net.connect(targetPort, '127.0.0.1');
      track(client);
      track(upstream);
      client.once('close', () => upstream.destroy());
      upstream.once('close', () => client.destroy());
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      relay.once('error', reject);
      relay.listen(port, '127.0.0.1', resolve);
    });
    port = (relay.address() as net.AddressInfo).port;
    server = relay;
  };
  await open();
  return {
    url: `http://127.0.0.1:${port}`,
    open,
    async close() {
      const closing = server;
      server = undefined;
      if (!closing) return;
      const closed = new Promise((resolve) => closing.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
