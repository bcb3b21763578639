import path from 'node:path';
import {
  API_ROUTES,
  errorText,
  generationStatusResponseSchema,
  ldImageUrl,
} from '@tessera/contract';
import type { GenerationStatusResponse } from '@tessera/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userProvisioning } from './container.js';
import { UserService } from './services/users.js';
import { openDatabase } from './store/database.js';
import { createUserRepository } from './store/users.js';
import { passwordOf, tempDir } from './testing/fixtures.js';
import { bricksPng, postPreview, previewFields, signIn } from './testing/http.js';
import {
  externalBrokerOf,
  mosquittoAvailable,
  startMosquitto,
  type RunningMosquitto,
} from './testing/mosquitto.js';
import { captureOutput, finished, spawnEntry, type RunResult } from './testing/processes.js';
import { startS3Process, type S3Process } from './testing/s3rver-process.js';

/**
 * Issue 23, part 11, for previews: their status is read over HTTP (SPEC §7), here from a web
 * process (ROLE=web) while a worker (ROLE=worker) runs the job, so the waiting notice must
 * travel through the job's row, not the worker's memory. The object store (s3rver, its own
 * process) is SIGKILLed while the job is held at its start (`job-started`), so the job's first
 * call to the store meets the outage; it is started again on the same port and folder.
 */

const BUCKET = 'tessera';
const USER = 'erin';
const SERVICE = { username: 'tessera-service', password: passwordOf('tessera-service') };

interface Running {
  child: ReturnType<typeof spawnEntry>;
  done: Promise<RunResult>;
  output: ReturnType<typeof captureOutput>;
  url: string;
}

describe.skipIf(!mosquittoAvailable)('[#23] a preview through an object-store outage', () => {
  const data = tempDir();
  const s3Dir = path.join(data.dir, 's3');
  let s3: S3Process;
  let broker: RunningMosquitto;
  let web: Running;
  let worker: Running;

  async function start(role: 'web' | 'worker', extra: Record<string, string> = {}) {
    const child = spawnEntry('main.ts', [], {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: data.dir,
      MQTT_URL: broker.tcpUrl,
      MQTT_USERNAME: SERVICE.username,
      MQTT_PASSWORD: SERVICE.password,
      PUBLIC_MQTT_URL: broker.wsUrl,
      FILES_URL: `s3://${BUCKET}`,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      FILES_RETRY_WINDOW_MS: '300000',
      ROLE: role,
      INSTANCE_NAME: role,
      ...extra,
    });
    const output = captureOutput(child);
    const done = finished(child);
    const url =
      role === 'worker'
        ? (await output.waitFor(/Tessera worker is running jobs/, 60_000), '')
        : ((await output.waitFor(/is running at (http:\/\/\S+)/, 60_000))[1] ?? '');
    return { child, done, output, url };
  }

  beforeAll(async () => {
    s3 = await startS3Process(s3Dir, BUCKET);
    broker = await startMosquitto(SERVICE);
    const db = await openDatabase({ dataDir: data.dir });
    const provisioning = userProvisioning({ externalBroker: externalBrokerOf(broker, SERVICE) });
    await new UserService(createUserRepository(db), provisioning).add(USER, passwordOf(USER));
    await provisioning.close();
    await db.destroy();
    web = await start('web');
    worker = await start('worker', { TESSERA_FAULT_HOLD: 'job-started' });
  }, 120_000);

  afterAll(async () => {
    const codes: (number | null | undefined)[] = [];
    for (const running of [worker, web]) {
      running?.child.kill('SIGTERM');
      codes.push((await running?.done)?.code);
    }
    s3?.child.kill('SIGTERM');
    await broker?.stop();
    data.remove();
    expect(codes).toEqual([0, 0]);
  }, 60_000);

  it('shows the notice on the status the web process answers, then finishes once without it', async () => {
    const cookie = await signIn(web.url, USER);
    const seen: GenerationStatusResponse[] = [];
    const status = async () => {
      const answer = await fetch(`${web.url}${API_ROUTES.previewStatus}?t=${Date.now()}`, {
        headers: { cookie },
      });
      expect(answer.status).toBe(200);
      const body = generationStatusResponseSchema.parse(await answer.json());
      seen.push(body);
      return body;
    };
    const posted = await postPreview(web.url, cookie, {
      file: { name: 'bricks.png', data: await bricksPng() },
      fields: previewFields(USER),
    });
    expect(posted.status).toBe(202);
    await worker.output.waitFor(/fault hold: job-started/, 60_000);

    const gone = new Promise((resolve) => s3.child.once('exit', resolve));
    s3.child.kill('SIGKILL');
    await gone;
    worker.child.kill('SIGUSR2');

    // The browser's way: polling the status call (nothing tells an HTTP client of a change).
    const retrying = errorText('FILE_STORE_RETRYING');
    await expect
      .poll(async () => (await status()).notice, { timeout: 60_000, interval: 100 })
      .toBe(retrying);
    expect(seen.at(-1)?.status).toBe('in_progress');

    s3 = await startS3Process(s3Dir, BUCKET, s3.port);
    await expect
      .poll(async () => (await status()).status, { timeout: 120_000, interval: 100 })
      .toBe('finished');
    const last = seen.at(-1);
    expect(last?.notice).toBeUndefined();
    expect(last?.output_image).toMatch(/^bricks-.*\.png$/);
    expect(seen.map((s) => s.status)).not.toContain('error');
    // The notice only ever came with the job running, and only this one.
    const noticed = seen.filter((s) => s.notice !== undefined);
    expect(noticed.map((s) => [s.status, s.notice])).toEqual(
      noticed.map(() => ['in_progress', retrying]),
    );
    expect(JSON.stringify(seen)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);

    // Once: one attempt, never put back in the queue, and nothing left waiting on the row.
    const db = await openDatabase({ dataDir: data.dir });
    try {
      const jobs = await db.selectFrom('jobs').select(['status', 'attempts', 'notice']).execute();
      expect(jobs).toEqual([{ status: 'finished', attempts: 1, notice: null }]);
    } finally {
      await db.destroy();
    }
    const image = await fetch(`${web.url}${ldImageUrl(last?.output_image ?? '')}`, {
      headers: { cookie },
    });
    expect(image.status).toBe(200);
    expect(worker.child.exitCode).toBeNull();
  }, 240_000);
});
