import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNTHESIS_USED_METADATA_KEY, type SynthesisMode } from '@tessera/contract';
import type { GenerateParams } from '../engine.js';
import type { RawImage } from '../../imaging/raw-image.js';
import { BuiltinEngine } from './builtin-engine.js';
import { FORM_DEFAULTS } from '../../testing/generate-params.js';
import { bricks } from './test-references.js';
import { granite } from './test-references-stochastic.js';

let dir: string;
let referencePath: string;
let counter = 0;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-builtin-'));
  referencePath = path.join(dir, 'reference.png');
  await writePng(bricks(320, 320), referencePath);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function writePng(image: RawImage, target: string) {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } })
    .png()
    .toFile(target);
}

/** The generation form's defaults (SPEC §3) for a fresh output name. */
function params(overrides: Partial<GenerateParams> = {}): GenerateParams {
  return {
    referencePath,
    outputPath: path.join(dir, `out-${counter++}.png`),
    width: 1024,
    height: 1024,
    seed: 10,
    ...FORM_DEFAULTS,
    positivePrompt: 'red bricks',
    negativePrompt: 'blurry',
    ...overrides,
  };
}

/** Files of the test folder other than the references. */
function outputs(): string[] {
  return fs.readdirSync(dir).filter((name) => !name.startsWith('reference'));
}

const engine = new BuiltinEngine();
const never = new AbortController().signal;

describe('BuiltinEngine', () => {
  it('[G10] writes a PNG of the output format size to outputPath, in a worker, with rising progress', async () => {
    const job = params({ width: 2506, height: 418, seamless: true });
    const percents: number[] = [];
    const result = await engine.generate(job, (p) => percents.push(p), never);

    expect(result).toMatchObject({ width: 2506, height: 418 });
    const info = await sharp(job.outputPath).metadata();
    expect([info.format, info.width, info.height]).toEqual(['png', 2506, 418]);
    // No partial file is left beside it.
    expect(outputs()).toEqual([path.basename(job.outputPath)]);

    // Real progress: rising through intermediate values as patches are placed, ending at 100.
    expect(percents.at(-1)).toBe(100);
    for (let k = 1; k < percents.length; k++)
      expect(percents[k]).toBeGreaterThan(percents[k - 1] ?? 0);
    expect(percents.filter((p) => p > 5 && p < 95).length).toBeGreaterThan(10);
    fs.rmSync(job.outputPath);
  });

  it('[G11] the same seed gives identical pixels through the worker, another seed others', async () => {
    const run = async (seed: number) => {
      const job = params({ width: 300, height: 200, seed, similarity: 0.5 });
      await engine.generate(job, () => undefined, never);
      const pixels = await sharp(job.outputPath).raw().toBuffer();
      fs.rmSync(job.outputPath);
      return pixels;
    };
    const [a, b, c] = await Promise.all([run(7), run(7), run(8)]);
    expect(a.equals(b)).toBe(true);
    expect(a.equals(c)).toBe(false);
  });

  it.each([
    ['while placing patches', 10],
    ['once encoded', 99],
  ])('an aborted job (%s) rejects, stops its worker and leaves no file', async (_when, at) => {
    const controller = new AbortController();
    const job = params({ seamless: true });
    const percents: number[] = [];
    const running = engine.generate(
      job,
      (p) => {
        percents.push(p);
        if (p >= at) controller.abort();
      },
      controller.signal,
    );
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    expect(percents.at(-1)).toBeLessThan(100);
    // The engine rejects only once the worker is terminated, a write under way has settled and
    // both files are removed: nothing can arrive later from the stopped worker.
    expect(outputs()).toEqual([]);
  });

  it('a series writes every face, PNGs of the size asked, face 1 the single image (issue 25)', async () => {
    const single = params({ width: 240, height: 160, seamless: true });
    await engine.generate(single, () => undefined, never);
    const seriesPaths = [1, 2, 3].map((face) => path.join(dir, `series-f${face}.png`));
    const job = params({ width: 240, height: 160, seamless: true, seriesPaths });
    job.outputPath = seriesPaths[0] ?? '';
    const percents: number[] = [];
    await expect(engine.generate(job, (p) => percents.push(p), never)).resolves.toMatchObject({
      width: 240,
      height: 160,
    });
    expect(outputs().sort()).toEqual(
      [path.basename(single.outputPath), ...seriesPaths.map((p) => path.basename(p))].sort(),
    );
    const pixels = await Promise.all(
      seriesPaths.map(async (file) => {
        const { data, info } = await sharp(file).raw().toBuffer({ resolveWithObject: true });
        expect([info.width, info.height]).toEqual([240, 160]);
        return data;
      }),
    );
    const [first, second, third] = pixels;
    expect(first?.equals(await sharp(single.outputPath).raw().toBuffer())).toBe(true);
    expect(second && first && second.equals(first)).toBe(false);
    expect(third && second && third.equals(second)).toBe(false);
    expect(percents.at(-1)).toBe(100);
    for (let k = 1; k < percents.length; k++)
      expect(percents[k]).toBeGreaterThan(percents[k - 1] ?? 0);
    for (const file of [single.outputPath, ...seriesPaths]) fs.rmSync(file);
  });

  it('an aborted series (after its first faces) rejects and leaves no file of any face', async () => {
    const controller = new AbortController();
    const seriesPaths = [1, 2, 3].map((face) => path.join(dir, `aborted-f${face}.png`));
    const job = params({ width: 320, height: 240, seamless: true, seriesPaths });
    job.outputPath = seriesPaths[0] ?? '';
    const running = engine.generate(
      job,
      (p) => {
        // Faces 1 and 2 are made by then (each a third of 5..95).
        if (p >= 70) controller.abort();
      },
      controller.signal,
    );
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    expect(outputs()).toEqual([]);
  });

  it('blends a stochastic reference and quilts a structured one unless told, and says which (issue 27)', async () => {
    const granitePath = path.join(dir, 'reference-granite.png');
    await writePng(granite(192, 192), granitePath);
    const run = async (reference: string, synthesis?: SynthesisMode) => {
      const job = params({ referencePath: reference, width: 256, height: 256, synthesis });
      const result = await engine.generate(job, () => undefined, never);
      fs.rmSync(job.outputPath);
      return result.metadata?.[SYNTHESIS_USED_METADATA_KEY];
    };
    const used = await Promise.all([
      run(granitePath),
      run(referencePath),
      run(granitePath, 'quilting'),
      run(referencePath, 'blending'),
    ]);
    expect(used).toEqual(['blending', 'quilting', 'quilting', 'blending']);
  });

  it('a job aborted before it starts rejects at once', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      engine.generate(params(), () => undefined, controller.signal),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(outputs()).toEqual([]);
  });

  it('an unreadable reference rejects with an error and leaves no file', async () => {
    const bad = path.join(dir, 'reference-bad.png');
    fs.writeFileSync(bad, 'not an image');
    await expect(
      engine.generate(params({ referencePath: bad }), () => undefined, never),
    ).rejects.toThrow(/Builtin engine/);
    expect(outputs()).toEqual([]);
  });

  it('reads a BMP reference (which sharp alone cannot)', async () => {
    const bmp = path.join(dir, 'reference.bmp');
    fs.writeFileSync(bmp, encodeBmp24(bricks(96, 64)));
    const job = params({ referencePath: bmp, width: 200, height: 150, mask: true });
    await expect(engine.generate(job, () => undefined, never)).resolves.toMatchObject({
      width: 200,
      height: 150,
    });
    const { data } = await sharp(job.outputPath).raw().toBuffer({ resolveWithObject: true });
    // Bricks are red: the image was read, not replaced by black or noise.
    let red = 0;
    for (let p = 0; p < data.length; p += 3) if ((data[p] ?? 0) > (data[p + 2] ?? 0) + 40) red++;
    expect(red / (data.length / 3)).toBeGreaterThan(0.5);
    fs.rmSync(job.outputPath);
  });
});

/** A bottom-up 24-bit BITMAPINFOHEADER BMP. */
function encodeBmp24(image: RawImage): Buffer {
  const stride = Math.ceil((image.width * 3) / 4) * 4;
  const size = 54 + stride * image.height;
  const out = Buffer.alloc(size);
  out.write('BM', 0, 'ascii');
  out.writeUInt32LE(size, 2);
  out.writeUInt32LE(54, 10);
  out.writeUInt32LE(40, 14);
  out.writeInt32LE(image.width, 18);
  out.writeInt32LE(image.height, 22);
  out.writeUInt16LE(1, 26);
  out.writeUInt16LE(24, 28);
  out.writeUInt32LE(stride * image.height, 34);
  for (let y = 0; y < image.height; y++) {
    const row = 54 + (image.height - 1 - y) * stride;
    for (let x = 0; x < image.width; x++) {
      const p = (y * image.width + x) * 4;
      out[row + x * 3] = image.data[p + 2] ?? 0;
      out[row + x * 3 + 1] = image.data[p + 1] ?? 0;
      out[row + x * 3 + 2] = image.data[p] ?? 0;
    }
  }
  return out;
}
