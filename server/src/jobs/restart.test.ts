import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { buildHdCommand, type HdStatusMessage } from '@tessera/contract';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalFileStore } from '../files/local-file-store.js';
import { TestClient } from '../testing/test-client.js';
import { UserService } from '../services/users.js';
import { openDatabase } from '../store/database.js';
import { createUserRepository } from '../store/users.js';
import { passwordOf, tempDir } from '../testing/fixtures.js';
import { bricksPng, postPreview, previewFields, signIn, waitForPreview } from '../testing/http.js';
import { startServerProcess } from '../testing/processes.js';

let data: ReturnType<typeof tempDir>;
beforeEach(async () => {
  data = tempDir();
  const db = await openDatabase({ dataDir: data.dir });
  await new UserService(createUserRepository(db)).add('alice', passwordOf('alice'));
  await db.destroy();
});
afterEach(() => data.remove());

const start = () => startServerProcess(data.dir);

describe('a restart in the middle of a job', () => {
  it('ends with the job finished once and no partial file', async () => {
    const first = await start();
    const cookie = await signIn(first.url, 'alice');
    const fields = previewFields('alice', { latent_width: '2506', latent_height: '418' });
    const posted = await postPreview(first.url, cookie, {
      file: { name: 'bricks.png', data: await bricksPng(512, 512) },
      fields,
    });
    expect(posted.status).toBe(202);

    // Kill the process the moment the job runs (its runner's line): no chance to clean up.
    await first.output.waitFor(new RegExp(`"publicId":"${fields.id}","msg":"job started"`));
    first.server.kill('SIGKILL');
    await first.done;
    const ldDir = path.join(data.dir, 'files', 'alice', 'ld');
    expect(fs.existsSync(ldDir) ? fs.readdirSync(ldDir) : []).toEqual([]);

    const second = await start();
    const again = await signIn(second.url, 'alice');
    const result = await waitForPreview(second.url, again, 60_000, second.nextJobEnd);
    expect(result.status).toBe('finished');
    second.server.kill('SIGTERM');
    await second.done;

    expect(fs.readdirSync(ldDir)).toEqual([result.output_image]);
    const db = await openDatabase({ dataDir: data.dir });
    try {
      const jobs = await db
        .selectFrom('jobs')
        .select(['status', 'attempts', 'public_id'])
        .execute();
      expect(jobs).toEqual([{ status: 'finished', attempts: 2, public_id: fields.id }]);
      const images = await db.selectFrom('images').select('filename').execute();
      expect(images).toEqual([{ filename: result.output_image }]);
    } finally {
      await db.destroy();
    }
  }, 120_000);
});

describe('a restart in the middle of an HD job', () => {
  it('ends with the HD image made once, and no partial file', async () => {
    // A Slab LD image, as the engine would have left it; its 160x70 HD is 52 MP: seconds of work.
    const files = new LocalFileStore(path.join(data.dir, 'files'));
    const ld = await sharp({
      create: { width: 677, height: 1548, channels: 3, background: '#7a5230' },
    })
      .png()
      .toBuffer();
    await files.write('alice', 'ld', 'slab.png', ld);

    const connect = async (url: string) => {
      const client = await TestClient.connect(
        url.replace('http://', 'ws://') + '/mqtt',
        'alice',
        passwordOf('alice'),
      );
      expect((await client.call('refresh-low-definition')).success).toBe(true);
      return client;
    };
    const statuses = (client: TestClient) =>
      client.received
        .filter((m) => m.topic === 'query/status-generate-image/user/alice')
        .map((m) => m.body as unknown as HdStatusMessage);
    const statusOf = (client: TestClient, status: string) =>
      // A 52 MP upscale on a loaded machine: a generous bound.
      client.waitFor(
        `an HD status ${status}`,
        () => statuses(client).find((s) => s.status === status),
        120_000,
      );

    const first = await start();
    const client = await connect(first.url);
    const command = buildHdCommand({
      id: randomUUID(),
      user: 'alice',
      image: 'slab.png',
      metadata: {},
      sizeLabel: '160x70',
    });
    await client.send(client.commandTopic('generate-image'), command);
    await statusOf(client, 'in_progress');
    first.server.kill('SIGKILL');
    await first.done;
    await client.close();
    const hdDir = path.join(data.dir, 'files', 'alice', 'hd');
    expect(fs.existsSync(hdDir) ? fs.readdirSync(hdDir) : []).toEqual([]);

    const second = await start();
    const again = await connect(second.url);
    const finished = await statusOf(again, 'finished');
    second.server.kill('SIGTERM');
    await second.done;
    await again.close();

    expect(finished).toMatchObject({ id: command.id, image: 'slab.png' });
    expect(fs.readdirSync(hdDir)).toEqual(['slab_160x70.jpg']);
    const db = await openDatabase({ dataDir: data.dir });
    try {
      const jobs = await db.selectFrom('jobs').select(['status', 'attempts']).execute();
      expect(jobs).toEqual([{ status: 'finished', attempts: 2 }]);
      const images = await db
        .selectFrom('images')
        .select('filename')
        .where('kind', '=', 'hd')
        .execute();
      expect(images).toEqual([{ filename: 'slab_160x70.jpg' }]);
    } finally {
      await db.destroy();
    }
  }, 300_000);
});
