import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import {
  API_ROUTES,
  buildHdCommand,
  hdJobsResponseSchema,
  zipDownloadTicketSchema,
  zipFileUrl,
  zipProgressUrl,
  type HdStatusMessage,
} from '@tessera/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userProvisioning } from './container.js';
import { LocalFileStore } from './files/local-file-store.js';
import { UserService } from './services/users.js';
import { openDatabase } from './store/database.js';
import { createUserRepository } from './store/users.js';
import { passwordOf, tempDir } from './testing/fixtures.js';
import { signIn } from './testing/http.js';
import {
  externalBrokerOf,
  mosquittoAvailable,
  startMosquitto,
  type RunningMosquitto,
} from './testing/mosquitto.js';
import { captureOutput, finished, spawnEntry, type RunResult } from './testing/processes.js';
import { TestClient } from './testing/test-client.js';

/**
 * Several Tessera processes behind one address (issue 16, part 5): two web processes (HTTP and
 * commands, no jobs) and a worker (jobs only), each its own `main.ts` process, on one Mosquitto
 * (the shipped config, dynamic security) and one SQLite file and data folder.
 */

const SERVICE = { username: 'tessera-service', password: passwordOf('tessera-service') };

interface Running {
  child: ChildProcess;
  url: string;
  done: Promise<RunResult>;
  output: () => string;
}

describe.skipIf(!mosquittoAvailable)('two web processes and a worker', () => {
  let broker: RunningMosquitto;
  let data: ReturnType<typeof tempDir>;
  const processes: Running[] = [];
  let webA: Running;
  let webB: Running;
  let worker: Running;

  async function start(role: 'web' | 'worker', name: string): Promise<Running> {
    const child = spawnEntry('main.ts', [], {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: data.dir,
      MQTT_URL: broker.tcpUrl,
      MQTT_USERNAME: SERVICE.username,
      MQTT_PASSWORD: SERVICE.password,
      PUBLIC_MQTT_URL: broker.wsUrl,
      BUILTIN_UPSCALER: 'lanczos',
      ROLE: role,
      INSTANCE_NAME: name,
    });
    const done = finished(child);
    const output = captureOutput(child);
    const running: Running = { child, url: '', done, output: output.text };
    processes.push(running);
    if (role === 'worker') {
      await output.waitFor(/Tessera worker is running jobs/);
    } else {
      running.url = (await output.waitFor(/is running at (http:\/\/\S+)/))[1] ?? '';
    }
    return running;
  }

  beforeAll(async () => {
    broker = await startMosquitto(SERVICE);
    data = tempDir();
    // As `npm run users add` does: into the shared database and the broker's logins.
    const db = await openDatabase({ dataDir: data.dir });
    const provisioning = userProvisioning({ externalBroker: externalBrokerOf(broker, SERVICE) });
    const users = new UserService(createUserRepository(db), provisioning);
    for (const name of ['alice', 'bob', 'carol']) await users.add(name, passwordOf(name));
    await provisioning.close();
    await db.destroy();
    // One after the other: each reconciles the broker and creates the admin at its start.
    webA = await start('web', 'web-a');
    webB = await start('web', 'web-b');
    worker = await start('worker', 'worker-1');
  }, 120_000);

  afterAll(async () => {
    const codes: (number | null)[] = [];
    for (const { child, done } of processes) {
      child.kill('SIGTERM');
      codes.push((await done).code);
    }
    await broker?.stop();
    data?.remove();
    // Each stops cleanly, the worker's jobs and broker connection first.
    expect(codes).toEqual(processes.map(() => 0));
  }, 60_000);

  it('leaves the start-up file repairs to the first process while others run', () => {
    const skipped = /start-up file repairs skipped: other instances are running/;
    expect(webA.output()).not.toMatch(skipped);
    expect(webB.output()).toMatch(skipped);
    expect(webB.output()).toMatch(/"others":\["web-a"\]/);
    expect(worker.output()).toMatch(/"others":\["web-a","web-b"\]/);
  });

  it('takes a session cookie made on one process on the other; logging out on one ends it on both', async () => {
    const cookie = await signIn(webA.url, 'alice');
    const session = (base: string) =>
      fetch(`${base}${API_ROUTES.session}`, { headers: { cookie } });

    const onB = await session(webB.url);
    expect(onB.status).toBe(200);
    // alice is the first user made, an admin (issue 29).
    expect(await onB.json()).toEqual({ username: 'alice', role: 'admin' });

    const logout = await fetch(`${webB.url}${API_ROUTES.logout}`, {
      method: 'POST',
      headers: { cookie },
    });
    expect(logout.status).toBe(204);
    expect((await session(webA.url)).status).toBe(401);
    expect((await session(webB.url)).status).toBe(401);
  });

  it('throttles 10 failed logins spread over both processes exactly as one process would', async () => {
    const login = (base: string, password: string) =>
      fetch(`${base}${API_ROUTES.login}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'bob', password }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      statuses.push((await login(i % 2 === 0 ? webA.url : webB.url, 'wrong')).status);
    }
    expect(statuses).toEqual(Array(10).fill(401));
    // The 11th is refused on either process, even with the right password.
    expect((await login(webA.url, 'wrong')).status).toBe(429);
    expect((await login(webB.url, passwordOf('bob'))).status).toBe(429);
  });

  it('tells the user the status of an HD job the worker ran; both web processes report it', async () => {
    const client = await TestClient.connect(broker.wsUrl, 'carol', passwordOf('carol'));
    try {
      const png = await sharp({
        create: { width: 1024, height: 1024, channels: 3, background: '#8b5a2b' },
      })
        .png()
        .toBuffer();
      await new LocalFileStore(path.join(data.dir, 'files')).write('carol', 'ld', 'tile.png', png);
      expect((await client.call('refresh-low-definition')).success).toBe(true);

      const id = randomUUID();
      const command = buildHdCommand({
        id,
        user: 'carol',
        image: 'tile.png',
        metadata: {},
        sizeLabel: '30x30',
      });
      await client.send(client.commandTopic('generate-image'), command);

      const statuses = () =>
        client.received
          .filter((m) => m.topic === 'query/status-generate-image/user/carol')
          .map((m) => m.body as unknown as HdStatusMessage)
          .filter((s) => s.id === id);
      // Each status message is the event to look again on.
      await client.waitFor(
        'the finished status',
        () => statuses().some((s) => s.status === 'finished' && !s.error) || undefined,
        60_000,
      );
      const seen = statuses().map((s) => s.status);
      // Queued by the web process that took the order; run and finished by the worker.
      expect(seen[0]).toBe('queued');
      expect(seen).toContain('in_progress');
      expect(seen).not.toContain('error');
      const output = statuses().find((s) => s.status === 'finished')?.output_image;
      expect(output).toMatch(/^tile.*\.png$/);

      for (const web of [webA, webB]) {
        const cookie = await signIn(web.url, 'carol');
        const res = await fetch(`${web.url}${API_ROUTES.hdJobs}`, { headers: { cookie } });
        const { jobs } = hdJobsResponseSchema.parse(await res.json());
        expect(jobs.find((job) => job.id === id)).toMatchObject({
          status: 'finished',
          output_image: output,
        });
        const latest = await fetch(`${web.url}${API_ROUTES.hdStatus}`, { headers: { cookie } });
        expect(await latest.json()).toEqual({
          status: 'finished',
          percent: 100,
          output_image: output,
        });
      }
    } finally {
      await client.close();
    }
  }, 90_000);

  it('serves a ZIP prepared on one process from the other, its progress read on the first', async () => {
    const cookieA = await signIn(webA.url, 'carol');
    const cookieB = await signIn(webB.url, 'carol');
    const prepared = await fetch(`${webA.url}${API_ROUTES.zipCreate}`, {
      method: 'POST',
      headers: { cookie: cookieA, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'ld', files: ['tile.png'] }),
    });
    expect(prepared.status).toBe(200);
    const ticket = zipDownloadTicketSchema.parse(await prepared.json());

    const zip = await fetch(`${webB.url}${zipFileUrl(ticket.token)}`, {
      headers: { cookie: cookieB },
    });
    expect(zip.status).toBe(200);
    const bytes = Buffer.from(await zip.arrayBuffer());
    expect(bytes.length).toBe(Number(zip.headers.get('content-length')));
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');

    await expect
      .poll(async () => {
        const res = await fetch(`${webA.url}${zipProgressUrl(ticket.token)}`, {
          headers: { cookie: cookieA },
        });
        return res.json();
      })
      .toEqual({ state: 'sent', sent: bytes.length, total: bytes.length });
    // One download per token, whichever process is asked.
    const again = await fetch(`${webA.url}${zipFileUrl(ticket.token)}`, {
      headers: { cookie: cookieA },
    });
    expect(again.status).toBe(404);
  });
});
