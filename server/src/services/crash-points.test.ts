import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { buildHdCommand, IMAGE_PAGE_SIZE } from '@tessera/contract';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalFileStore } from '../files/local-file-store.js';
import { openDatabase } from '../store/database.js';
import { createUserRepository } from '../store/users.js';
import { passwordOf, tempDir } from '../testing/fixtures.js';
import { bricksPng, postPreview, previewFields, signIn } from '../testing/http.js';
import { JOB_END_LINE, startServerProcess, type ServerProcess } from '../testing/processes.js';
import { TestClient } from '../testing/test-client.js';
import { UserService } from './users.js';

// The crash-point suite (docs/reliability.md): the server, a real process, kills itself with
// SIGKILL at one named step of the commit protocol (TESSERA_FAULT_POINT); after a restart every
// job has finished exactly once, every image is listed once (also after a refresh), every file
// has its row and every row its files, and no temporary or half-removed file is left.

const USER = 'alice';
let data: ReturnType<typeof tempDir>;

beforeEach(async () => {
  data = tempDir();
  const db = await openDatabase({ dataDir: data.dir });
  await new UserService(createUserRepository(db)).add(USER, passwordOf(USER));
  await db.destroy();
});
afterEach(() => data.remove());

/** The server, a real process; with a fault point, it kills itself there. */
const start = (faultPoint?: string) =>
  startServerProcess(data.dir, faultPoint ? { TESSERA_FAULT_POINT: faultPoint } : {});

async function connect(server: ServerProcess): Promise<TestClient> {
  return TestClient.connect(
    `${server.url.replace('http://', 'ws://')}/mqtt`,
    USER,
    passwordOf(USER),
  );
}

/** Waits for the process to have killed itself at its fault point. */
async function crashed(server: ServerProcess): Promise<void> {
  const result = await server.done;
  expect(result.code).toBeNull();
}

async function stop(server: ServerProcess): Promise<void> {
  server.server.kill('SIGTERM');
  await server.done;
}

/**
 * Waits until every job is finished: at once if so, else on the runner's line once a job's row
 * says it ended (each case leaves one job at most), and then the rows must say so.
 */
async function allJobsFinished(server: ServerProcess): Promise<void> {
  if ((await jobs()).every((job) => job.status === 'finished')) return;
  await server.output.waitFor(JOB_END_LINE, 60_000);
  expect((await jobs()).map((job) => job.status)).toEqual(['finished']);
}

async function jobs(): Promise<{ kind: string; status: string }[]> {
  const db = await openDatabase({ dataDir: data.dir });
  try {
    return await db.selectFrom('jobs').select(['kind', 'status']).execute();
  } finally {
    await db.destroy();
  }
}

async function rows(kind: 'ld' | 'hd'): Promise<string[]> {
  const db = await openDatabase({ dataDir: data.dir });
  try {
    const found = await db
      .selectFrom('images')
      .select('filename')
      .where('kind', '=', kind)
      .execute();
    return found.map((row) => row.filename).sort();
  } finally {
    await db.destroy();
  }
}

const folder = (area: string) => path.join(data.dir, 'files', USER, area);
const namesIn = (area: string) => (fs.existsSync(folder(area)) ? fs.readdirSync(folder(area)) : []);

/** Every file has its row and every row its files; nothing temporary or half-removed is left. */
async function expectConsistentStore(): Promise<void> {
  for (const area of ['input', 'ld', 'hd', 'ld-thumbnails', 'hd-thumbnails']) {
    expect(
      namesIn(area).filter((name) => name.startsWith('.')),
      area,
    ).toEqual([]);
  }
  expect(
    fs.existsSync(path.join(data.dir, 'tmp')) ? fs.readdirSync(path.join(data.dir, 'tmp')) : [],
  ).toEqual([]);
  for (const kind of ['ld', 'hd'] as const) {
    const recorded = await rows(kind);
    expect(namesIn(kind).sort(), `${kind} files`).toEqual(recorded);
    expect(namesIn(`${kind}-thumbnails`).sort(), `${kind} thumbnails`).toEqual(
      recorded.map((name) => `${name}.webp`),
    );
  }
}

/** What the web client does after a generation: refresh, then list; each image once. */
async function listedAfterRefresh(client: TestClient): Promise<string[]> {
  expect((await client.call('refresh-low-definition')).success).toBe(true);
  const answer = await client.call('list-low-definition', {
    page: 1,
    size: IMAGE_PAGE_SIZE,
    filters: { tags: [] },
  });
  return (answer.images as { filename: string }[]).map((image) => image.filename);
}

async function placeSquare(name: string): Promise<void> {
  const files = new LocalFileStore(path.join(data.dir, 'files'));
  const png = await sharp(await bricksPng(1024, 1024, 64))
    .png()
    .toBuffer();
  await files.write(USER, 'ld', name, png);
}

describe('crash points of a preview', () => {
  it.each([
    'input:temp-written',
    'ld-thumbnails:temp-written',
    'preview:thumbnail-written',
    'ld:temp-written',
    'preview:file-written',
    'preview:recorded',
  ])(
    'killed at %s: after a restart the preview is made once and listed once',
    async (step) => {
      const first = await start(step);
      const cookie = await signIn(first.url, USER);
      const posted = postPreview(first.url, cookie, {
        file: { name: 'bricks.png', data: await bricksPng(256, 256) },
        fields: previewFields(USER),
      }).catch(() => undefined);
      await crashed(first);
      await posted;

      const second = await start();
      const client = await connect(second);
      const expected = step === 'input:temp-written' ? 0 : 1;
      await allJobsFinished(second);
      const listed = await listedAfterRefresh(client);
      await client.close();
      await stop(second);

      expect(await jobs()).toEqual(expected ? [{ kind: 'preview', status: 'finished' }] : []);
      expect(listed).toHaveLength(expected);
      expect(new Set(listed).size).toBe(listed.length);
      await expectConsistentStore();
    },
    120_000,
  );
});

describe('crash points of a series (issue 25)', () => {
  it.each([
    'preview:thumbnail-written:f1',
    'preview:recorded',
    'preview:recorded:f2',
    'preview:file-written:f3',
  ])(
    'killed at %s: after a restart each face is made once and listed once',
    async (step) => {
      const first = await start(step);
      const cookie = await signIn(first.url, USER);
      const posted = postPreview(first.url, cookie, {
        file: { name: 'bricks.png', data: await bricksPng(256, 256) },
        fields: previewFields(USER, { faces: '4', seamless: 'enable', circularVAE: 'enable' }),
      }).catch(() => undefined);
      await crashed(first);
      await posted;
      const second = await start();
      const client = await connect(second);
      await allJobsFinished(second);
      const listed = await listedAfterRefresh(client);
      await client.close();
      await stop(second);
      expect(await jobs()).toEqual([{ kind: 'preview', status: 'finished' }]);
      expect(listed).toHaveLength(4);
      expect(new Set(listed).size).toBe(4);
      await expectConsistentStore();
    },
    300_000,
  );
});

describe('crash points of an HD order', () => {
  it.each([
    'hd-thumbnails:temp-written',
    'hd:thumbnail-written',
    'hd:temp-written',
    'hd:file-written',
    'hd:recorded',
  ])(
    'killed at %s: after a restart the HD image is made once, under its own name',
    async (step) => {
      await placeSquare('square.png');
      const first = await start(step);
      const client = await connect(first);
      expect((await client.call('refresh-low-definition')).success).toBe(true);
      const command = buildHdCommand({
        id: randomUUID(),
        user: USER,
        image: 'square.png',
        metadata: {},
        sizeLabel: '30x30',
      });
      await client.send(client.commandTopic('generate-image'), command);
      await crashed(first);
      await client.close().catch(() => undefined);

      const second = await start();
      await allJobsFinished(second);
      const again = await connect(second);
      const listed = await listedAfterRefresh(again);
      await again.close();
      await stop(second);

      expect(await jobs()).toEqual([{ kind: 'hd', status: 'finished' }]);
      expect(await rows('hd')).toEqual(['square_30x30.png']);
      expect(listed).toEqual(['square.png']);
      await expectConsistentStore();
    },
    120_000,
  );
});

describe('crash points of a delete', () => {
  it.each([
    ['delete:moved-aside', ['square.png']],
    ['delete:row-removed', []],
  ] as const)(
    'killed at %s: the image is either wholly there or wholly gone',
    async (step, remaining) => {
      await placeSquare('square.png');
      const first = await start(step);
      const client = await connect(first);
      expect((await client.call('refresh-low-definition')).success).toBe(true);
      await client.send(client.commandTopic('delete-low-definition'), {
        transactionid: randomUUID(),
        user: USER,
        filename: 'square.png',
      });
      await crashed(first);
      await client.close().catch(() => undefined);

      const second = await start();
      const again = await connect(second);
      const listed = await listedAfterRefresh(again);
      await again.close();
      await stop(second);

      expect(listed).toEqual([...remaining]);
      await expectConsistentStore();
    },
    120_000,
  );
});

describe('crash points of a refresh', () => {
  it.each(['ld-thumbnails:temp-written', 'refresh:thumbnail-written'])(
    'killed at %s: the placed image is indexed once after a restart',
    async (step) => {
      const first = await start(step);
      // Placed once the server runs: the start-up reconciliation would index it otherwise.
      await placeSquare('placed.png');
      const client = await connect(first);
      await client.send(client.commandTopic('refresh-low-definition'), {
        transactionid: randomUUID(),
        user: USER,
      });
      await crashed(first);
      await client.close().catch(() => undefined);

      const second = await start();
      const again = await connect(second);
      const listed = await listedAfterRefresh(again);
      await again.close();
      await stop(second);

      expect(listed).toEqual(['placed.png']);
      await expectConsistentStore();
    },
    120_000,
  );
});
