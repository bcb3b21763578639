import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { bricks, fabric, planks, stoneTiles } from '../test-references.js';
import { granite } from '../test-references-stochastic.js';
import { marble, terrazzo } from '../test-references-surfaces.js';
import type { RawImage } from '../../../imaging/raw-image.js';
import { enlargementQuality, greyOf, type EnlargementQuality } from './enlargement-quality.js';
import { resampleToFile } from './resample.js';

// Issue 28, part 3: the final enlargement after the network became bilinear from a pre-emphasised
// copy, about half the cost of libvips' bicubic at 207 MP. It must keep the quality: each
// generated reference is reduced by the Slab 320x140's factor after the network (×3.51),
// enlarged back by resample.ts and by the bicubic it replaced, and both compared with the
// original.

const SIZE = 702;
const FACTOR = 3.51;
const SMALL = Math.round(SIZE / FACTOR);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-enlargement-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const REFERENCES: Record<string, (w: number, h: number) => RawImage> = {
  bricks,
  planks,
  stoneTiles,
  fabric,
  marble,
  terrazzo,
  granite,
};

interface Compared {
  resample: EnlargementQuality;
  bicubic: EnlargementQuality;
  bilinear: EnlargementQuality;
}

async function compare(name: string, make: (w: number, h: number) => RawImage): Promise<Compared> {
  const image = make(SIZE, SIZE);
  const original = await sharp(image.data, { raw: { width: SIZE, height: SIZE, channels: 4 } })
    .removeAlpha()
    .raw()
    .toBuffer();
  const small = await sharp(original, { raw: { width: SIZE, height: SIZE, channels: 3 } })
    .resize(SMALL, SMALL, { kernel: 'lanczos3', fit: 'fill' })
    .raw()
    .toBuffer();
  const file = path.join(dir, `${name}.png`);
  await resampleToFile(
    { data: small, width: SMALL, height: SMALL },
    { width: SIZE, height: SIZE, seamless: false, encoding: 'png' },
    file,
  );
  const resampled = await sharp(file).raw().toBuffer();
  const plain = (kernel: 'cubic' | 'linear') =>
    sharp(small, { raw: { width: SMALL, height: SMALL, channels: 3 } })
      .resize(SIZE, SIZE, { kernel, fit: 'fill' })
      .raw()
      .toBuffer();
  const greyOriginal = greyOf(original, SIZE, SIZE, 3);
  const greySmall = greyOf(small, SMALL, SMALL, 3);
  const quality = (pixels: Uint8Array) =>
    enlargementQuality(greyOriginal, greySmall, greyOf(pixels, SIZE, SIZE, 3));
  return {
    resample: quality(resampled),
    bicubic: quality(await plain('cubic')),
    bilinear: quality(await plain('linear')),
  };
}

describe('the enlargement after the network (issue 28, part 3)', () => {
  it.each(Object.entries(REFERENCES))(
    '%s: as sharp as bicubic, no more ringing to speak of, about the same error',
    async (name, make) => {
      const { resample, bicubic, bilinear } = await compare(name, make);
      expect(resample.sharpness).toBeGreaterThanOrEqual(0.93 * bicubic.sharpness);
      expect(resample.ringing).toBeLessThanOrEqual(1.6 * bicubic.ringing + 0.005);
      expect(resample.error).toBeLessThanOrEqual(1.04 * bicubic.error);
      // The measure tells: plain bilinear, which the pre-emphasis corrects, is visibly softer.
      expect(bilinear.sharpness).toBeLessThan(0.9 * bicubic.sharpness);
    },
  );
});
