import fs from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { errorText, TEXTS } from '@tessera/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bricksPng,
  postPreview,
  previewFields,
  signIn,
  waitForPreview,
} from '../../testing/http.js';
import { startTestServer, type TestServer } from '../../testing/test-server.js';

let t: TestServer;
let base: string;
let alice: string;
let bob: string;
let reference: Buffer;

beforeAll(async () => {
  t = await startTestServer(['alice', 'bob'], 'embedded');
  base = `http://127.0.0.1:${t.server.port}`;
  [alice, bob] = await Promise.all([signIn(base, 'alice'), signIn(base, 'bob')]);
  reference = await bricksPng();
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

const userFiles = (user: string, area: string) => {
  const dir = path.join(t.dataDir, 'files', user, area);
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
};

describe('preview generation over HTTP', () => {
  it('[P1][P2][P4][G14] post → status → finished → files served → listed with its metadata', async () => {
    const fields = previewFields('alice', {
      latent_width: '1448',
      latent_height: '724',
      Kseed: '1234',
    });
    const posted = await postPreview(base, alice, {
      file: { name: 'bricks.png', data: reference },
      fields,
    });
    expect(posted.status).toBe(202);
    expect(await posted.json()).toEqual({ id: fields.id, status: 'queued' });

    const done = await waitForPreview(base, alice, 60_000, () => t.nextJobChange('alice'));
    expect(done.status).toBe('finished');
    expect(done.percent).toBe(100);
    const filename = done.output_image ?? '';
    expect(filename).toMatch(/^bricks-[0-9a-f]{6}\.png$/);

    const image = await fetch(`${base}/api/images/ld/${filename}`, { headers: { cookie: alice } });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    const pixels = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
    expect([pixels.width, pixels.height]).toEqual([1448, 724]);
    const thumbnail = await fetch(`${base}/api/images/ld/thumbnail/${filename}`, {
      headers: { cookie: alice },
    });
    expect(thumbnail.status).toBe(200);
    expect(
      Math.max(
        ...[(await sharp(Buffer.from(await thumbnail.arrayBuffer())).metadata()).width ?? 0],
      ),
    ).toBe(384);
    // Another user cannot load it.
    expect(
      (await fetch(`${base}/api/images/ld/${filename}`, { headers: { cookie: bob } })).status,
    ).toBe(404);

    const client = await t.connect('alice');
    const item = await client.listedImage('ld', filename);
    expect(item?.metadata).toMatchObject({
      cliptextencode_585: 'weathered red brick wall',
      cliptextencode_716: 'blurry, text',
      ksampler_cfg: 3.5,
      ksampler_denoise: 1,
      ipadapter_weight: 0.9,
      style: 0,
      kseed: 1234,
      latent_width: 1448,
      latent_height: 724,
      seamless: false,
      mask: false,
    });
    const input = String(item?.metadata.input_image_path);
    expect(userFiles('alice', 'input')).toContain(input);
    const reference_ = await fetch(`${base}/api/images/input/${input}`, {
      headers: { cookie: alice },
    });
    expect(reference_.status).toBe(200);
    expect(typeof item?.metadata.created_at).toBe('string');
  });

  it('[P3] answers 404 for the HD status while the user has ordered none', async () => {
    const res = await fetch(`${base}/api/query/status-generate-image`, {
      headers: { cookie: bob },
    });
    expect(res.status).toBe(404);
  });
});

describe('[U6] preview validation on the server', () => {
  async function refused(
    form: Parameters<typeof postPreview>[2],
    status: number,
    error: string | RegExp,
  ) {
    const before = { input: userFiles('bob', 'input'), ld: userFiles('bob', 'ld') };
    const res = await postPreview(base, bob, form);
    expect(res.status).toBe(status);
    const body = (await res.json()) as { error: string };
    if (typeof error === 'string') expect(body.error).toBe(error);
    else expect(body.error).toMatch(error);
    expect({ input: userFiles('bob', 'input'), ld: userFiles('bob', 'ld') }).toEqual(before);
    const jobs = await t.db
      .selectFrom('jobs')
      .innerJoin('users', 'users.id', 'jobs.owner_id')
      .select('jobs.id')
      .where('users.username', '=', 'bob')
      .execute();
    expect(jobs).toEqual([]);
  }

  it('answers an upload on a full disk with a readable text, never a path (issue 22, part 5)', async () => {
    process.env.TESSERA_FAULT_DISK_FULL = 'upload:write';
    try {
      await refused(
        { file: { name: 'bricks.png', data: reference }, fields: previewFields('bob') },
        507,
        errorText('DISK_FULL'),
      );
    } finally {
      delete process.env.TESSERA_FAULT_DISK_FULL;
    }
  });

  it('[U1][U4] refuses a text file renamed .png as unreadable: the extension is fine, the content is not', async () => {
    await refused(
      {
        file: { name: 'notes.png', data: Buffer.from('just some text, not a picture') },
        fields: previewFields('bob'),
      },
      400,
      TEXTS.uploadUnreadable,
    );
  });

  for (const name of ['x.exe', 'x.svg', 'x.png.html', 'x']) {
    it(`[U1] refuses a real PNG named ${name}: the extension is checked on the server too`, async () => {
      await refused(
        { file: { name, data: reference }, fields: previewFields('bob') },
        400,
        TEXTS.uploadFormat,
      );
    });
  }

  it('accepts an upper-case extension as the browser does (PHOTO.PNG)', async () => {
    // Alice: the refusals around this test check that Bob has no job at all.
    const res = await postPreview(base, alice, {
      file: { name: 'PHOTO.PNG', data: reference },
      fields: previewFields('alice'),
    });
    expect(res.status).toBe(202);
    expect((await waitForPreview(base, alice, 60_000, () => t.nextJobChange('alice'))).status).toBe(
      'finished',
    );
  });

  it('[U2] refuses 25 MB + 1 byte while it streams', async () => {
    const big = Buffer.alloc(26_214_401, 0);
    reference.copy(big);
    await refused(
      { file: { name: 'big.png', data: big }, fields: previewFields('bob') },
      413,
      TEXTS.uploadTooLarge,
    );
  });

  it('[U3] refuses a PNG whose header claims 20000x20000, from the header', async () => {
    const header = Buffer.from(reference.subarray(0, 33));
    header.writeUInt32BE(20000, 16);
    header.writeUInt32BE(20000, 20);
    header.writeUInt32BE(crc32(header.subarray(12, 29)), 29);
    const fake = Buffer.concat([header, Buffer.alloc(1000)]);
    await refused(
      { file: { name: 'huge.png', data: fake }, fields: previewFields('bob') },
      400,
      TEXTS.uploadPixels(20000, 20000),
    );
  });

  it('[U4] refuses a truncated file', async () => {
    await refused(
      { file: { name: 'cut.png', data: reference.subarray(0, 20) }, fields: previewFields('bob') },
      400,
      TEXTS.uploadUnreadable,
    );
  });

  it('[G9] refuses missing prompts', async () => {
    await refused(
      {
        file: { name: 'b.png', data: reference },
        fields: previewFields('bob', { cliptextencode_585: '' }),
      },
      400,
      TEXTS.positivePromptRequired,
    );
    await refused(
      {
        file: { name: 'b.png', data: reference },
        fields: previewFields('bob', { cliptextencode_716: '   ' }),
      },
      400,
      TEXTS.negativePromptRequired,
    );
  });

  it('[G8] refuses out-of-range numbers and unknown output sizes', async () => {
    const outOfRange: Record<string, string>[] = [
      { ksampler_cfg: '20.5' },
      { ksampler_denoise: '-0.1' },
      { ipadapter_weight: '3' },
      { style: '1.5' },
      { Kseed: '4294967296' },
      { Kseed: '1e400' },
      { latent_width: '1000', latent_height: '1000' },
      { seamless: 'maybe' },
    ];
    for (const overrides of outOfRange) {
      await refused(
        { file: { name: 'b.png', data: reference }, fields: previewFields('bob', overrides) },
        400,
        /./,
      );
    }
  });

  it("refuses another user's name in `user`, and a post without a file", async () => {
    await refused(
      { file: { name: 'b.png', data: reference }, fields: previewFields('alice') },
      403,
      "The form's user is not the signed-in user",
    );
    await refused({ fields: previewFields('bob') }, 400, 'No image was uploaded');
  });

  it('refuses a post without a session', async () => {
    const res = await postPreview(base, '', {
      file: { name: 'b.png', data: reference },
      fields: previewFields('bob'),
    });
    expect(res.status).toBe(401);
  });
});

describe('malformed multipart bodies', () => {
  const url = () => `${base}/api/command/generate-image/preview`;

  async function expectReadable400(res: Response) {
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string };
    expect(body.error).toMatch(/multipart/);
  }

  it('answers 400 with a readable error for a multipart body without a boundary', async () => {
    const res = await fetch(url(), {
      method: 'POST',
      headers: { cookie: bob, 'content-type': 'multipart/form-data' },
      body: 'not a form at all',
    });
    await expectReadable400(res);
  });

  it('answers 400 with a readable error for a body cut short in the middle of the file', async () => {
    const boundary = 'tessera-test-boundary';
    const head = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="user"',
      '',
      'bob',
      `--${boundary}`,
      'Content-Disposition: form-data; name="image"; filename="b.png"',
      'Content-Type: image/png',
      '',
      '',
    ].join('\r\n');
    // No closing boundary: the body ends in the middle of the file part.
    const body = Buffer.concat([Buffer.from(head), reference.subarray(0, 500)]);
    const res = await fetch(url(), {
      method: 'POST',
      headers: { cookie: bob, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    await expectReadable400(res);
    expect(
      fs.readdirSync(path.join(t.dataDir, 'tmp')).filter((f) => f.startsWith('upload-')),
    ).toEqual([]);
  });
});
