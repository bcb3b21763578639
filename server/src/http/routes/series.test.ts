import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  API_ROUTES,
  buildHdCommand,
  IMAGE_PAGE_SIZE,
  readSeriesFace,
  zipDownloadTicketSchema,
  zipFileUrl,
} from '@tessera/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bricksPng,
  finishedPreview,
  postPreview,
  previewFields,
  signIn,
} from '../../testing/http.js';
import { seriesTestEngine } from '../../testing/series-engine.js';
import type { TestClient } from '../../testing/test-client.js';
import { startTestServer, type TestServer } from '../../testing/test-server.js';

// Issue 25 over real HTTP, MQTT, SQLite and files, with a stand-in engine that writes every face
// of `seriesPaths`: Faces 4 posted gives four LD images of one series in the list answers; HD of
// a face works and stays a face; a ZIP names a series' faces by face.

interface Listed {
  filename: string;
  metadata: Record<string, unknown>;
}

let t: TestServer;
let base: string;
let alice: string;
let client: TestClient;
let reference: Buffer;

beforeAll(async () => {
  t = await startTestServer(['alice'], 'embedded', { engine: seriesTestEngine() });
  base = `http://127.0.0.1:${t.server.port}`;
  alice = await signIn(base, 'alice');
  client = await t.connect('alice');
  reference = await bricksPng();
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

/** Posts a preview and waits for it to finish; its output_image. */
async function generate(fields: Record<string, string> = {}): Promise<string> {
  const form = {
    file: { name: 'bricks.png', data: reference },
    fields: previewFields('alice', { Kseed: '4242', ...fields }),
  };
  const done = await finishedPreview(base, alice, form, () => t.nextJobChange('alice'), 90_000);
  return done.output_image ?? '';
}

async function listed(kind: 'ld' | 'hd'): Promise<Listed[]> {
  const answer = await client.call(kind === 'ld' ? 'list-low-definition' : 'list-high-definition', {
    page: 1,
    size: IMAGE_PAGE_SIZE,
    filters: { tags: [] },
  });
  return answer.images as Listed[];
}

/** The entry names of a ZIP of `files` of one gallery, as Info-ZIP's `unzip` reads them. */
async function zipEntries(kind: 'ld' | 'hd', files: string[]): Promise<string[]> {
  const res = await fetch(`${base}${API_ROUTES.zipCreate}`, {
    method: 'POST',
    headers: { cookie: alice, 'content-type': 'application/json' },
    body: JSON.stringify({ kind, files }),
  });
  expect(res.status).toBe(200);
  const ticket = zipDownloadTicketSchema.parse(await res.json());
  const zip = await fetch(`${base}${zipFileUrl(ticket.token)}`, { headers: { cookie: alice } });
  expect(zip.status).toBe(200);
  const file = path.join(t.dataDir, `${randomUUID()}.zip`);
  fs.writeFileSync(file, Buffer.from(await zip.arrayBuffer()));
  execFileSync('unzip', ['-tq', file]);
  return execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).split('\n').filter(Boolean);
}

/** The series (Faces 4) and the single image (no Faces) every test looks at, made once. */
let seriesOutput = '';
let seriesId = '';
let single = '';

beforeAll(async () => {
  seriesOutput = await generate({ faces: '4' });
  seriesId = seriesOutput.replace(/-f1\.png$/, '');
  single = await generate();
}, 240_000);

describe('a series over HTTP (issue 25)', { timeout: 90_000 }, () => {
  it('Faces 4 posted: four LD images of one series, each with series_id, face and faces in the list answer', async () => {
    expect(seriesOutput).toMatch(/^bricks-[0-9a-f]{6}-f1\.png$/);

    const faces = (await listed('ld')).filter((image) => image.filename.startsWith(seriesId));
    expect(faces.map((image) => image.filename).sort()).toEqual(
      [1, 2, 3, 4].map((face) => `${seriesId}-f${face}.png`),
    );
    for (const image of faces) {
      const face = Number(/-f(\d+)\.png$/.exec(image.filename)?.[1]);
      expect(image.metadata).toMatchObject({ series_id: seriesId, face, faces: 4, kseed: 4242 });
      expect(readSeriesFace(image.metadata)).toEqual({ seriesId, face, faces: 4 });
    }
    // Each face is its own image: four different files.
    const bytes = faces.map((image) =>
      fs.readFileSync(t.storedPath('alice', 'ld', image.filename)).toString('base64'),
    );
    expect(new Set(bytes).size).toBe(4);
  }, 120_000);

  it('without Faces: one image, named and listed as before series', async () => {
    expect(single).toMatch(/^bricks-[0-9a-f]{6}\.png$/);
    const image = (await listed('ld')).find((listedImage) => listedImage.filename === single);
    expect(image?.metadata).not.toHaveProperty('series_id');
    expect(image?.metadata).not.toHaveProperty('face');
    expect(image?.metadata).not.toHaveProperty('faces');
  }, 120_000);

  it.each(['0', '13', 'four'])('refuses Faces %s (1 to 12 only) with 400', async (faces) => {
    const posted = await postPreview(base, alice, {
      file: { name: 'bricks.png', data: reference },
      fields: previewFields('alice', { faces }),
    });
    expect(posted.status).toBe(400);
  });

  it('HD of a face: ordered with its kseed, made from its LD file, and still a face of the series', async () => {
    const face = (await listed('ld')).find((image) => image.filename === `${seriesId}-f2.png`);
    const command = buildHdCommand({
      id: randomUUID(),
      user: 'alice',
      image: face?.filename ?? '',
      metadata: face?.metadata ?? {},
      sizeLabel: '30x30',
    });
    expect(command.seed).toBe('4242');
    await client.send(client.commandTopic('generate-image'), command);
    const last = await client.waitFor(
      `HD order ${command.id} finished`,
      () =>
        client
          .hdStatuses()
          .filter((status) => status.id === command.id)
          .find((status) => status.status === 'finished' || status.status === 'error'),
      120_000,
    );
    expect(last.status).toBe('finished');
    const hd = await listed('hd');
    expect(hd.map((image) => image.filename)).toEqual([`${seriesId}-f2_30x30.png`]);
    expect(hd[0]?.metadata).toMatchObject({
      source_image: `${seriesId}-f2.png`,
      seed: 4242,
      series_id: seriesId,
      face: 2,
      faces: 4,
    });
    // Its ZIP entry is named by face too.
    expect(await zipEntries('hd', [`${seriesId}-f2_30x30.png`])).toEqual([
      `${seriesId}/face-02_30x30.png`,
    ]);
  }, 150_000);

  it('a ZIP of LD images names the faces by face in their series folder, and a single image as before', async () => {
    expect(await zipEntries('ld', [`${seriesId}-f1.png`, single, `${seriesId}-f3.png`])).toEqual([
      `${seriesId}/face-01.png`,
      single,
      `${seriesId}/face-03.png`,
    ]);
  }, 60_000);
});
