import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { buildHdCommand, type HdStatusMessage } from '@tessera/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3Client } from '../../files/s3-file-store.js';
import {
  bricksPng,
  postPreview,
  previewFields,
  signIn,
  waitForPreview,
} from '../../testing/http.js';
import { startS3rver, type RunningS3rver } from '../../testing/s3rver.js';
import { startTestServer, type TestServer } from '../../testing/test-server.js';

// The whole server with FILES_URL=s3://<bucket>/tessera against s3rver: a preview is made,
// stored in the bucket and served from it, ranges included; nothing lands in DATA_DIR/files.

let s3: RunningS3rver;
let t: TestServer;
let base: string;
let alice: string;

beforeAll(async () => {
  s3 = await startS3rver();
  t = await startTestServer(['alice', 'bob'], 'embedded', {}, {}, { s3: s3.settings('tessera') });
  base = `http://127.0.0.1:${t.server.port}`;
  alice = await signIn(base, 'alice');
}, 60_000);
afterAll(async () => {
  await t?.stop();
  await s3?.stop();
});

async function bucketKeys(): Promise<string[]> {
  const client = s3Client(s3.settings());
  try {
    const page = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
    return (page.Contents ?? []).map((o) => o.Key ?? '').sort();
  } finally {
    client.destroy();
  }
}

describe('the server on an object store (FILES_URL=s3://…)', () => {
  it('generates a preview into the bucket and serves it, its thumbnail and byte ranges', async () => {
    const posted = await postPreview(base, alice, {
      file: { name: 'bricks.png', data: await bricksPng() },
      fields: previewFields('alice', { latent_width: '1448', latent_height: '724' }),
    });
    expect(posted.status).toBe(202);
    const done = await waitForPreview(base, alice, 60_000, () => t.nextJobChange('alice'));
    expect(done.status).toBe('finished');
    const filename = done.output_image ?? '';
    expect(filename).toMatch(/^bricks-[0-9a-f]{6}\.png$/);

    // The LD file, its thumbnail and the uploaded reference are objects under the prefix.
    const keys = await bucketKeys();
    expect(keys).toContain(`tessera/alice/ld/${filename}`);
    expect(keys).toContain(`tessera/alice/ld-thumbnails/${filename}.webp`);
    expect(keys.filter((k) => k.startsWith('tessera/alice/input/'))).toHaveLength(1);
    expect(keys.every((k) => k.startsWith('tessera/alice/'))).toBe(true);
    expect(fs.existsSync(path.join(t.dataDir, 'files'))).toBe(false);

    const stored = await t.files.readBuffer('alice', 'ld', filename);
    const image = await fetch(`${base}/api/images/ld/${filename}`, { headers: { cookie: alice } });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    const served = Buffer.from(await image.arrayBuffer());
    expect(served.equals(stored)).toBe(true);
    const pixels = await sharp(served).metadata();
    expect([pixels.width, pixels.height]).toEqual([1448, 724]);

    const thumbnail = await fetch(`${base}/api/images/ld/thumbnail/${filename}`, {
      headers: { cookie: alice },
    });
    expect(thumbnail.status).toBe(200);
    const thumbnailBytes = Buffer.from(await thumbnail.arrayBuffer());
    expect((await sharp(thumbnailBytes).metadata()).format).toBe('webp');
    expect(
      thumbnailBytes.equals(await t.files.readBuffer('alice', 'ld-thumbnails', `${filename}.webp`)),
    ).toBe(true);

    const middle = await fetch(`${base}/api/images/ld/${filename}`, {
      headers: { cookie: alice, range: 'bytes=100-1099' },
    });
    expect(middle.status).toBe(206);
    expect(middle.headers.get('content-range')).toBe(`bytes 100-1099/${stored.length}`);
    expect(Buffer.from(await middle.arrayBuffer()).equals(stored.subarray(100, 1100))).toBe(true);
    const tail = await fetch(`${base}/api/images/ld/${filename}`, {
      headers: { cookie: alice, range: 'bytes=-16' },
    });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(stored.subarray(-16))).toBe(true);
    const beyond = await fetch(`${base}/api/images/ld/${filename}`, {
      headers: { cookie: alice, range: `bytes=${stored.length}-` },
    });
    expect(beyond.status).toBe(416);

    // Another user's session reaches nothing of it.
    const bob = await signIn(base, 'bob');
    const other = await fetch(`${base}/api/images/ld/${filename}`, { headers: { cookie: bob } });
    expect(other.status).toBe(404);
  });

  it('makes an HD image from an LD object (downloaded for the engine) into the bucket', async () => {
    const client = await t.connect('alice');
    const square = await sharp({
      create: { width: 1024, height: 1024, channels: 3, background: '#a0522d' },
    })
      .png()
      .toBuffer();
    await t.files.write('alice', 'ld', 'square.png', square);
    expect((await client.call('refresh-low-definition')).success).toBe(true);

    const command = buildHdCommand({
      id: randomUUID(),
      user: 'alice',
      image: 'square.png',
      metadata: {},
      sizeLabel: '30x30',
    });
    await client.send(client.commandTopic('generate-image'), command);
    const statusTopic = 'query/status-generate-image/user/alice';
    // Each status message is the event to look again on.
    await client.waitFor(
      'the HD order finished',
      () =>
        client.received
          .filter((m) => m.topic === statusTopic)
          .map((m) => m.body as unknown as HdStatusMessage)
          .filter((m) => m.id === command.id)
          .at(-1)?.status === 'finished' || undefined,
      60_000,
    );
    const hd = await t.files.list('alice', 'hd');
    expect(hd.map((f) => f.name)).toEqual([expect.stringMatching(/^square_30x30(-\d+)?\.png$/)]);
    const output = hd[0]?.name ?? '';
    expect((await bucketKeys()).filter((k) => k.startsWith('tessera/alice/hd'))).toEqual([
      `tessera/alice/hd-thumbnails/${output}.webp`,
      `tessera/alice/hd/${output}`,
    ]);
    const served = await fetch(`${base}/api/images/hd/${output}`, { headers: { cookie: alice } });
    expect(served.status).toBe(200);
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(bytes.equals(await t.files.readBuffer('alice', 'hd', output))).toBe(true);
    expect((await sharp(bytes).metadata()).format).toBe('png');
    // The engine's scratch folders are gone once the job is done.
    expect(fs.readdirSync(path.join(t.dataDir, 'tmp'))).toEqual([]);
  }, 90_000);
});
