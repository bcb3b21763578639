import fs from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import {
  API_ROUTES,
  errorText,
  REFERENCE_WARNING_TEXTS,
  referenceAnalysisSchema,
  TEXTS,
} from '@tessera/contract';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkerReferenceAnalyzer } from '../../engines/builtin/reference/worker-analyzer.js';
import { terrazzo } from '../../engines/builtin/test-references-surfaces.js';
import type { RawImage } from '../../imaging/raw-image.js';
import { ReferenceAnalysisService } from '../../services/reference-analysis.js';
import {
  createTestStore,
  passwordOf,
  silentLogger,
  type TestStore,
} from '../../testing/fixtures.js';
import { httpTestDependencies } from '../../testing/http-app.js';
import {
  floorFromAbove,
  floorPhoto,
  tileFloor,
  withSideLight,
} from '../../testing/perspective-floor.js';
import { buildHttpApp } from '../app.js';
import { SESSION_COOKIE } from '../session.js';

// The reference check and the lighting removal (issue 27, part 5) over HTTP, on the real service
// and the builtin engine's worker: who may ask, what is refused with which text, what comes back.

let store: TestStore;
let app: FastifyInstance;
let cookie: string;
let angled: Buffer;
let above: Buffer;

const png = (image: RawImage) =>
  sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } })
    .png()
    .toBuffer();

beforeAll(async () => {
  store = await createTestStore(['alice']);
  app = await buildHttpApp(
    httpTestDependencies(store, {
      referenceAnalysis: new ReferenceAnalysisService(new WorkerReferenceAnalyzer(), silentLogger),
    }),
  );
  const res = await app.inject({
    method: 'POST',
    url: API_ROUTES.login,
    payload: { username: 'alice', password: passwordOf('alice') },
  });
  cookie = `${SESSION_COOKIE}=${res.cookies.find((c) => c.name === SESSION_COOKIE)?.value ?? ''}`;
  const view = { width: 512, height: 384, pitchDegrees: 50, fovDegrees: 45, cameraHeight: 5 };
  angled = await png(floorPhoto(tileFloor(), view));
  above = await png(floorFromAbove(tileFloor(), 512, 384, 5));
}, 60_000);

afterAll(async () => {
  await app.close();
  await store.close();
});

/** POSTs a multipart form with the file part `image` (if any), as the browser does. */
async function post(
  url: string,
  file: { name: string; data: Buffer } | undefined,
  headers: Record<string, string> = { cookie },
) {
  const form = new FormData();
  if (file) form.append('image', new Blob([new Uint8Array(file.data)]), file.name);
  const encoded = new Response(form);
  return app.inject({
    method: 'POST',
    url,
    payload: Buffer.from(await encoded.arrayBuffer()),
    headers: { ...headers, 'content-type': encoded.headers.get('content-type') ?? '' },
  });
}

/** What the server keeps of alice: her files, and what the scratch folders still hold. */
function leftovers(): string[] {
  const list = (dir: string) =>
    fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }) : [];
  return [
    ...list(path.join(store.dataDir, 'files', 'alice')),
    ...list(path.join(store.dataDir, 'tmp')).filter((entry) => !String(entry).endsWith('/')),
  ].map(String);
}

describe('POST reference-analysis', () => {
  it('answers 401 to a visitor who is not signed in, for both routes', async () => {
    for (const url of [API_ROUTES.referenceAnalysis, API_ROUTES.referenceDelight]) {
      const res = await post(url, { name: 'floor.png', data: angled }, {});
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: errorText('NOT_SIGNED_IN') });
    }
  });

  it("refuses bad files with the contract's texts, keeping nothing", async () => {
    const refusals: [{ name: string; data: Buffer } | undefined, number, string][] = [
      [undefined, 400, errorText('UPLOAD_MISSING')],
      [{ name: 'floor.tiff', data: angled }, 400, TEXTS.uploadFormat],
      [
        { name: 'floor.png', data: Buffer.from('not an image at all') },
        400,
        TEXTS.uploadUnreadable,
      ],
    ];
    for (const url of [API_ROUTES.referenceAnalysis, API_ROUTES.referenceDelight]) {
      for (const [file, status, error] of refusals) {
        const res = await post(url, file);
        expect({ status: res.statusCode, body: res.json() as unknown }).toEqual({
          status,
          body: { error },
        });
      }
      const broken = await app.inject({
        method: 'POST',
        url,
        payload: 'no boundary here',
        headers: { cookie, 'content-type': 'multipart/form-data' },
      });
      expect(broken.statusCode).toBe(400);
      expect(broken.json()).toEqual({ error: errorText('FORM_MALFORMED') });
    }
    expect(leftovers()).toEqual([]);
  });

  it('a floor photographed at an angle gets the perspective warning; seen from above, none', async () => {
    const res = await post(API_ROUTES.referenceAnalysis, { name: 'floor.png', data: angled });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const analysis = referenceAnalysisSchema.parse(res.json());
    expect(analysis).toMatchObject({
      width: 512,
      height: 384,
      warnings: [{ code: 'perspective', message: REFERENCE_WARNING_TEXTS.perspective }],
    });
    expect(analysis.figures.convergingLines).toBeGreaterThanOrEqual(4);

    const flat = await post(API_ROUTES.referenceAnalysis, { name: 'floor.jpg', data: above });
    expect(flat.statusCode).toBe(200);
    expect(referenceAnalysisSchema.parse(flat.json()).warnings).toEqual([]);
    expect(leftovers()).toEqual([]);
  });
});

describe('a reference whose header reads but whose pixels do not', () => {
  it("is answered with the contract's text for a damaged image, the detail kept to the log", async () => {
    const whole = await png(floorFromAbove(tileFloor(), 64, 64, 2));
    const chunk = (type: string, data: Buffer) => {
      const length = Buffer.alloc(4);
      length.writeUInt32BE(data.length);
      const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(crc32(body) >>> 0);
      return Buffer.concat([length, body, crc]);
    };
    // The signature and IHDR as they are, then pixel data that is no zlib stream.
    const broken = Buffer.concat([
      whole.subarray(0, 8 + 25),
      chunk('IDAT', Buffer.from('these bytes are not a zlib stream')),
      chunk('IEND', Buffer.alloc(0)),
    ]);
    for (const url of [API_ROUTES.referenceAnalysis, API_ROUTES.referenceDelight]) {
      const res = await post(url, { name: 'broken.png', data: broken });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ error: errorText('IMAGE_UNREADABLE') });
    }
    expect(leftovers()).toEqual([]);
  });
});

describe('POST reference-delight', () => {
  it("answers the picture as a PNG of the same size, the light's drift taken out", async () => {
    const lit = withSideLight(terrazzo(256, 192), 110);
    const res = await post(API_ROUTES.referenceDelight, { name: 'lit.png', data: await png(lit) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    const out = await sharp(res.rawPayload).raw().toBuffer({ resolveWithObject: true });
    expect([out.info.width, out.info.height, out.info.channels]).toEqual([256, 192, 3]);
    // The left and right thirds' mean brightness: over 45 levels apart before, a few after.
    const sides = (data: Uint8Array, channels: number) => {
      const mean = (from: number, to: number) => {
        let sum = 0;
        let n = 0;
        for (let y = 0; y < 192; y++) {
          for (let x = from; x < to; x++) sum += data[(y * 256 + x) * channels] ?? 0;
          n += to - from;
        }
        return sum / n;
      };
      return mean(171, 256) - mean(0, 85);
    };
    expect(sides(lit.data, 4)).toBeGreaterThan(45);
    expect(Math.abs(sides(out.data, 3))).toBeLessThan(8);
    expect(leftovers()).toEqual([]);
  });
});
