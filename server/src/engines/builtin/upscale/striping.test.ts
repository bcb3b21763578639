import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hdFactorsFor } from '@tessera/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawImage } from '../../../imaging/raw-image.js';
import { upscaleImage } from './index.js';
import { striping, stripingAgainstLanczos } from './striping.js';
import { pebbles, rotate90, stationaryNoise, writePng } from './test-images.js';

// Each case runs the network in worker threads; on two busy cores allow them time.
const SLOW = 240_000;
const SIDE = 256;

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-striping-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const never = new AbortController().signal;

/** The HD file of `image` at `factor` (×2.1 runs the ×2 model, ×4.05 the ×4 one), in 3×3 tiles. */
async function upscale(name: string, image: RawImage, factor: number): Promise<string> {
  const sourcePath = path.join(dir, `${name}.png`);
  await writePng(image, sourcePath);
  const outputPath = path.join(dir, `${name}-x${factor}.png`);
  await upscaleImage(
    {
      sourcePath,
      outputPath,
      encoding: 'png',
      width: Math.round(image.width * factor),
      height: Math.round(image.height * factor),
      factors: hdFactorsFor('30x30') ?? fail(),
      seed: 1,
      seamless: false,
    },
    { neural: true, workers: 2, tileCore: 96 },
    () => undefined,
    never,
  );
  return outputPath;
}

function fail(): never {
  throw new Error('unreachable');
}

describe('HD striping (issue 17, part 1)', () => {
  // Isotropic textures, as they are and turned by 90°. A single image's ratio also carries its
  // own content's chance (a perfectly isotropic resampler gives 0.77–1.29 on such 256² images),
  // and turning the image inverts that part, so the geometric mean of the two ratios is the
  // upscaler's own preference for a direction (libvips' resize alone: 0.99–1.01); stripes made
  // by the upscaler are in both images and survive it.
  const textures: [string, RawImage][] = [
    ['noise', stationaryNoise(SIDE, SIDE, 5)],
    ['pebbles', pebbles(SIDE, SIDE, 14, 11)],
  ];

  for (const factor of [2.1, 4.05]) {
    it(
      `×${factor}: the residual against Lanczos varies alike from row to row and from column to column (0.8–1.25)`,
      async () => {
        for (const [name, image] of textures) {
          const ratios: number[] = [];
          for (const [turn, pixels] of [image, rotate90(image)].entries()) {
            const file = await upscale(`${name}-${turn}`, pixels, factor);
            const source = path.join(dir, `${name}-${turn}.png`);
            ratios.push((await stripingAgainstLanczos(source, file)).ratio);
          }
          const directional = Math.sqrt((ratios[0] ?? 0) * (ratios[1] ?? 0));
          expect(directional, name).toBeGreaterThan(0.8);
          expect(directional, name).toBeLessThan(1.25);
        }
      },
      SLOW,
    );
  }

  it(
    'sees stripes of one LD pixel where there are: faint horizontal ones raise the ratio, vertical ones lower it',
    async () => {
      const source = path.join(dir, 'noise-0.png');
      const factor = 4.05;
      const file = await upscale('noise-0', stationaryNoise(SIDE, SIDE, 5), factor);
      const { data, info } = await sharp(file).raw().toBuffer({ resolveWithObject: true });
      const reference = await sharp(source)
        .removeAlpha()
        .resize(info.width, info.height, { fit: 'fill', kernel: 'lanczos3' })
        .raw()
        .toBuffer();
      // ±1 level, once per LD pixel: fainter than the stripes could be seen.
      const striped = (horizontal: boolean) => {
        const out = Uint8Array.from(data);
        for (let y = 0; y < info.height; y++) {
          for (let x = 0; x < info.width; x++) {
            const along = horizontal ? y : x;
            const wave = Math.round(Math.sin((2 * Math.PI * along) / factor));
            for (let c = 0; c < 3; c++) {
              const p = (y * info.width + x) * 3 + c;
              out[p] = Math.max(0, Math.min(255, (out[p] ?? 0) + wave));
            }
          }
        }
        return { data: out, width: info.width, height: info.height, channels: 3 };
      };
      const ref = { data: reference, width: info.width, height: info.height, channels: 3 };
      expect(striping(striped(true), ref).ratio).toBeGreaterThan(2);
      expect(striping(striped(false), ref).ratio).toBeLessThan(0.5);
    },
    SLOW,
  );
});
