import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hdFactorsFor, hdTargetSize, type HdSizeLabel } from '@tessera/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UpscaleParams } from '../../engine.js';
import { BuiltinEngine } from '../builtin-engine.js';
import { bricks } from '../test-references.js';
import { upscaleImage, type UpscaleOptions } from './index.js';
import {
  columnStep,
  maxAbsDifference,
  meanAbsDifference,
  readPixels,
  rowStep,
  seamRatio,
  stationaryNoise,
  tileableNoise,
  writePng,
} from './test-images.js';

// The neural runs start worker threads with tfjs-wasm; on two busy cores allow them time.
const SLOW = 60_000;

let dir: string;
let bricksPath: string;
let tileablePath: string;
let counter = 0;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-upscale-'));
  bricksPath = path.join(dir, 'source-bricks.png');
  tileablePath = path.join(dir, 'source-tileable.png');
  await writePng(bricks(96, 64), bricksPath);
  await writePng(tileableNoise(128, 96), tileablePath);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const never = new AbortController().signal;
const neural: UpscaleOptions = { neural: true, workers: 2 };
const lanczos: UpscaleOptions = { neural: false };

/** An HD job for a source, to a fresh output name with the extension given. */
function job(
  sourcePath: string,
  size: { width: number; height: number },
  extension: 'png' | 'jpg',
  overrides: Partial<UpscaleParams> = {},
): UpscaleParams {
  return {
    sourcePath,
    outputPath: path.join(dir, `out-${counter++}.${extension}`),
    encoding: extension === 'png' ? 'png' : 'jpeg',
    width: size.width,
    height: size.height,
    factors: hdFactorsFor('30x30') ?? fail(),
    seed: 1,
    seamless: false,
    ...overrides,
  };
}

function fail(): never {
  throw new Error('unreachable');
}

/** Files of the test folder other than the sources. */
function outputs(): string[] {
  return fs.readdirSync(dir).filter((name) => !name.startsWith('source'));
}

function removeOutputs(): void {
  for (const name of outputs()) fs.rmSync(path.join(dir, name), { force: true });
}

function target(label: HdSizeLabel, width: number, height: number) {
  return hdTargetSize(width, height, label);
}

describe('upscaleImage (ESRGAN)', () => {
  it(
    'writes the exact target size, PNG or JPEG by the extension, and no partial file',
    async () => {
      // 30x30: factor 2.1, the ×2 model; 60x60: factor 4.05, the ×4 model.
      const small = target('30x30', 96, 64);
      const large = target('60x60', 96, 64);
      expect(small).toEqual({ width: 202, height: 134 });
      expect(large).toEqual({ width: 389, height: 259 });
      const png = job(bricksPath, small, 'png');
      const jpg = job(bricksPath, large, 'jpg', { seamless: true });
      // The detail generated (issue 26): 96 px through the ×2 network is 192 px of the 202,
      // through the ×4 one 384 px of the 389; the rest is the final resample's enlargement.
      expect(await upscaleImage(png, neural, () => undefined, never)).toEqual({
        ...small,
        detailWidth: 192,
      });
      expect(await upscaleImage(jpg, neural, () => undefined, never)).toEqual({
        ...large,
        detailWidth: 384,
      });

      const pngInfo = await sharp(png.outputPath).metadata();
      const jpgInfo = await sharp(jpg.outputPath).metadata();
      expect([pngInfo.format, pngInfo.width, pngInfo.height, pngInfo.channels]).toEqual([
        'png',
        202,
        134,
        3,
      ]);
      expect([jpgInfo.format, jpgInfo.width, jpgInfo.height, jpgInfo.chromaSubsampling]).toEqual([
        'jpeg',
        389,
        259,
        '4:4:4',
      ]);
      expect(outputs().sort()).toEqual(
        [path.basename(png.outputPath), path.basename(jpg.outputPath)].sort(),
      );
      removeOutputs();
    },
    SLOW,
  );

  it(
    'keeps a seamless texture seamless: wrap-around gradient ≤ 1.2 × the inside gradient',
    async () => {
      const source = await readPixels(tileablePath);
      expect(seamRatio(source)).toBeLessThanOrEqual(1.2);
      // A non-integer factor above 4 (×4 model, then a 1.41× resample), as for most HD sizes.
      const size = { width: 723, height: 542 };
      const seamless = job(tileablePath, size, 'png', { seamless: true });
      await upscaleImage(seamless, neural, () => undefined, never);
      const result = await readPixels(seamless.outputPath);
      const ratio = seamRatio(result);
      expect(ratio).toBeLessThanOrEqual(1.2);

      // The measure sees a seam where there is one: the same texture without wrap padding.
      const plain = job(tileablePath, size, 'png', { seamless: false });
      await upscaleImage(plain, neural, () => undefined, never);
      const plainRatio = seamRatio(await readPixels(plain.outputPath));
      expect(plainRatio).toBeGreaterThan(1.5);
      removeOutputs();
    },
    SLOW,
  );

  it(
    'leaves no trace of its tiles: no step in the gradient along tile borders',
    async () => {
      // Factor exactly 2, so output pixels are the network's. 160 = 54 + 53 + 53 in tiles of at
      // most 56: borders after LD columns/rows 53 and 106, i.e. output 107|108 and 213|214.
      const source = path.join(dir, 'source-noise-160.png');
      await writePng(stationaryNoise(160, 160), source);
      const size = { width: 320, height: 320 };
      const tiled = job(source, size, 'png');
      await upscaleImage(tiled, { ...neural, tileCore: 56 }, () => undefined, never);
      const image = await readPixels(tiled.outputPath);

      // The gradient across each border is as between the columns (rows) beside it: within
      // 20 % of their mean 2 to 10 pixels away on both sides (even offsets: at ×2 the steps
      // between two LD pixels' blocks differ from those inside one block).
      const near = (border: number, step: (k: number) => number) => {
        const offsets = [-10, -8, -6, -4, -2, 2, 4, 6, 8, 10];
        return offsets.reduce((sum, d) => sum + step(border + d), 0) / offsets.length;
      };
      for (const border of [107, 213]) {
        const column = columnStep(image, border);
        const row = rowStep(image, border);
        expect(Math.abs(column / near(border, (k) => columnStep(image, k)) - 1)).toBeLessThan(0.2);
        expect(Math.abs(row / near(border, (k) => rowStep(image, k)) - 1)).toBeLessThan(0.2);
      }

      // Stronger: each tile read enough context, so the tiled result is the untiled one.
      const whole = job(source, size, 'png');
      await upscaleImage(whole, { ...neural, tileCore: 400 }, () => undefined, never);
      const reference = await readPixels(whole.outputPath);
      expect(maxAbsDifference(image, reference)).toBeLessThanOrEqual(1);
      removeOutputs();
    },
    SLOW,
  );

  it(
    'reports real, rising progress across the tiles, ending at 100',
    async () => {
      const percents: number[] = [];
      const params = job(tileablePath, { width: 256, height: 192 }, 'png');
      await upscaleImage(params, { ...neural, tileCore: 32 }, (p) => percents.push(p), never);
      expect(percents[0]).toBe(0);
      expect(percents.at(-1)).toBe(100);
      for (let k = 1; k < percents.length; k++) {
        expect(percents[k]).toBeGreaterThan(percents[k - 1] ?? 0);
      }
      // 12 tiles: one step each between decoding and the resample.
      expect(percents.filter((p) => p > 2 && p < 99).length).toBeGreaterThanOrEqual(10);
      removeOutputs();
    },
    SLOW,
  );

  it(
    'on abort terminates its workers, leaves no file and rejects',
    async () => {
      const controller = new AbortController();
      const params = job(tileablePath, { width: 512, height: 384 }, 'png');
      const percents: number[] = [];
      const run = upscaleImage(
        params,
        { ...neural, tileCore: 24 },
        (p) => {
          percents.push(p);
          if (p > 10) controller.abort();
        },
        controller.signal,
      );
      await expect(run).rejects.toMatchObject({ name: 'AbortError' });
      expect(percents.at(-1)).toBeLessThan(50);
      expect(outputs()).toEqual([]);

      // Aborted before it starts: nothing happens at all.
      await expect(
        upscaleImage(
          job(tileablePath, { width: 256, height: 192 }, 'png'),
          neural,
          () => undefined,
          controller.signal,
        ),
      ).rejects.toMatchObject({ name: 'AbortError' });
      expect(outputs()).toEqual([]);
    },
    SLOW,
  );

  it(
    'produces sane pixels (the BuiltinEngine wiring): close to a Lanczos enlargement, not equal',
    async () => {
      // A network fed the wrong range, or unclamped, would be far off; the same as Lanczos would
      // mean that it did not run.
      const size = { width: 256, height: 192 };
      const esrgan = job(tileablePath, size, 'png');
      const plain = job(tileablePath, size, 'png');
      await new BuiltinEngine().upscale(esrgan, () => undefined, never);
      await new BuiltinEngine({ upscaler: 'lanczos' }).upscale(plain, () => undefined, never);
      const a = await readPixels(esrgan.outputPath);
      const b = await readPixels(plain.outputPath);
      expect(meanAbsDifference(a, b)).toBeLessThan(6);
      expect(meanAbsDifference(a, b)).toBeGreaterThan(0.3);
      removeOutputs();
    },
    SLOW,
  );
});

describe('upscaleImage (Lanczos only)', () => {
  it('writes the exact size by the extension, with progress steps, seamless kept', async () => {
    const percents: number[] = [];
    const params = job(tileablePath, { width: 1001, height: 750 }, 'png', { seamless: true });
    // No network: the only detail is the LD image's own 128 px; the rest is enlargement.
    expect(await upscaleImage(params, lanczos, (p) => percents.push(p), never)).toEqual({
      width: 1001,
      height: 750,
      detailWidth: 128,
    });
    expect(percents.length).toBeGreaterThanOrEqual(3);
    expect(percents.at(-1)).toBe(100);
    const result = await readPixels(params.outputPath);
    expect([result.width, result.height, result.channels]).toEqual([1001, 750, 3]);
    expect(seamRatio(result)).toBeLessThanOrEqual(1.2);

    const jpg = job(bricksPath, { width: 500, height: 333 }, 'jpg');
    await upscaleImage(jpg, lanczos, () => undefined, never);
    const info = await sharp(jpg.outputPath).metadata();
    expect([info.format, info.width, info.height]).toEqual(['jpeg', 500, 333]);
    expect(outputs().length).toBe(2);
    removeOutputs();
  });

  it(
    'drops an alpha channel: HD images are opaque RGB',
    async () => {
      const source = path.join(dir, 'source-alpha.png');
      const image = bricks(64, 48);
      for (let i = 3; i < image.data.length; i += 8) image.data[i] = 0;
      await writePng(image, source);
      const params = job(source, { width: 135, height: 101 }, 'png');
      await upscaleImage(params, neural, () => undefined, never);
      const info = await sharp(params.outputPath).metadata();
      expect([info.width, info.height, info.channels, info.hasAlpha]).toEqual([135, 101, 3, false]);
      removeOutputs();
    },
    SLOW,
  );

  it('rejects a source it cannot read, leaving no file', async () => {
    const params = job(path.join(dir, 'source-missing.png'), { width: 200, height: 100 }, 'png');
    await expect(upscaleImage(params, neural, () => undefined, never)).rejects.toThrow();
    expect(outputs()).toEqual([]);
  });

  it('refuses an output name whose extension is neither .png nor .jpg', async () => {
    await expect(
      upscaleImage(
        job(bricksPath, { width: 200, height: 100 }, 'png', {
          outputPath: path.join(dir, 'out.tiff'),
        }),
        lanczos,
        () => undefined,
        never,
      ),
    ).rejects.toThrow(/\.png or \.jpg/);
    expect(outputs()).toEqual([]);
  });
});
