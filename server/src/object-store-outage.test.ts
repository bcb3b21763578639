import path from 'node:path';
import { buildHdCommand, errorText, imageUrl, type HdStatusMessage } from '@tessera/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3Client, S3FileStore } from './files/s3-file-store.js';
import { UserService } from './services/users.js';
import { openDatabase } from './store/database.js';
import { createUserRepository } from './store/users.js';
import { passwordOf, tempDir } from './testing/fixtures.js';
import { signIn } from './testing/http.js';
import { captureOutput, finished, spawnEntry, type RunResult } from './testing/processes.js';
import { startS3Process, type S3Process } from './testing/s3rver-process.js';
import { TestClient } from './testing/test-client.js';

/**
 * Issue 23, part 11: the object store (s3rver, its own process as the local cluster runs it)
 * SIGKILLed under a running HD job and started again. The job is held at its start (the fault
 * hold `job-started`) while the store is killed, so its first read of the source meets the
 * outage. Before the fix the job failed at once with `connect ECONNREFUSED …` as its text, and
 * downloads answered 500.
 */

const BUCKET = 'tessera';
const USER = 'erin';
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

describe('[#23] a job through an object-store outage', () => {
  const data = tempDir();
  const s3Dir = path.join(data.dir, 's3');
  let s3: S3Process;
  let server: { child: ReturnType<typeof spawnEntry>; done: Promise<RunResult>; url: string };
  let output: ReturnType<typeof captureOutput>;

  /** The store on `port` (0: one the OS picks) over the same folder each time. */
  const startStore = (port = 0) => startS3Process(s3Dir, BUCKET, port);

  beforeAll(async () => {
    s3 = await startStore();
    const db = await openDatabase({ dataDir: data.dir });
    await new UserService(createUserRepository(db)).add(USER, passwordOf(USER));
    await db.destroy();
    const settings = {
      bucket: BUCKET,
      prefix: '',
      endpoint: s3.endpoint,
      region: 'us-east-1',
      credentials: CREDENTIALS,
      forcePathStyle: true,
    };
    const client = s3Client(settings);
    const png = await sharp({
      create: { width: 1024, height: 1024, channels: 3, background: '#5a6b7c' },
    })
      .png()
      .toBuffer();
    await new S3FileStore(client, BUCKET, '', path.join(data.dir, 'tmp-test')).write(
      USER,
      'ld',
      'tile.png',
      png,
    );
    client.destroy();

    const child = spawnEntry('main.ts', [], {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: data.dir,
      FILES_URL: `s3://${BUCKET}`,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      BUILTIN_UPSCALER: 'lanczos',
      TESSERA_FAULT_HOLD: 'job-started',
      FILES_RETRY_WINDOW_MS: '300000',
    });
    output = captureOutput(child);
    const done = finished(child);
    const url = (await output.waitFor(/is running at (http:\/\/\S+)/, 60_000))[1] ?? '';
    server = { child, done, url };
  }, 120_000);

  afterAll(async () => {
    server?.child.kill('SIGTERM');
    const code = (await server?.done)?.code;
    s3?.child.kill('SIGTERM');
    data.remove();
    expect(code).toBe(0);
  }, 60_000);

  it('waits for the store with a readable status, finishes once after it returns; downloads say 503 meanwhile', async () => {
    const client = await TestClient.connect(
      `${server.url.replace(/^http/, 'ws')}/mqtt`,
      USER,
      passwordOf(USER),
    );
    const cookie = await signIn(server.url, USER);
    const download = (area: 'ld' | 'hd', name: string) =>
      fetch(`${server.url}${imageUrl(area, name)}`, { headers: { cookie } });
    try {
      expect((await client.call('refresh-low-definition')).success).toBe(true);
      const id = 'outage-hd';
      const command = buildHdCommand({
        id,
        user: USER,
        image: 'tile.png',
        metadata: {},
        sizeLabel: '30x30',
      });
      await client.send(client.commandTopic('generate-image'), command);
      await output.waitFor(/fault hold: job-started/, 60_000);

      const gone = new Promise((resolve) => s3.child.once('exit', resolve));
      s3.child.kill('SIGKILL');
      await gone;
      server.child.kill('SIGUSR2');

      const statuses = () =>
        client.received
          .filter((m) => m.topic === `query/status-generate-image/user/${USER}`)
          .map((m) => m.body as unknown as HdStatusMessage)
          .filter((s) => s.id === id);
      const retrying = errorText('FILE_STORE_RETRYING');
      // Each status message is the event to look again on.
      await client.waitFor(
        'the retrying notice',
        () => statuses().some((s) => s.notice === retrying) || undefined,
        60_000,
      );
      expect(statuses().find((s) => s.notice === retrying)?.status).toBe('in_progress');

      const during = await download('ld', 'tile.png');
      expect(during.status).toBe(503);
      expect(await during.json()).toEqual({ error: errorText('FILE_STORE_UNREACHABLE') });

      s3 = await startStore(s3.port);
      await client.waitFor(
        'the finished status',
        () => statuses().some((s) => s.status === 'finished') || undefined,
        120_000,
      );
      const seen = statuses();
      expect(seen.map((s) => s.status)).not.toContain('error');
      expect(seen.filter((s) => s.status === 'finished')).toHaveLength(1);
      // Never put back in the queue: the one attempt waited through the outage.
      expect(
        seen.slice(seen.findIndex((s) => s.status === 'in_progress')).map((s) => s.status),
      ).not.toContain('queued');
      expect(JSON.stringify(seen)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);

      const output_image = seen.find((s) => s.status === 'finished')?.output_image ?? '';
      const hd = await download('hd', output_image);
      expect(hd.status).toBe(200);
      expect((await sharp(Buffer.from(await hd.arrayBuffer())).metadata()).format).toBe('png');
      expect((await download('ld', 'tile.png')).status).toBe(200);
      expect(server.child.exitCode).toBeNull();
    } finally {
      await client.close();
    }
  }, 240_000);
});
