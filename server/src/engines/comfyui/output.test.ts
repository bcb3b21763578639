// ComfyUI's image brought to the job's exact size (output.ts resampled).
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tileable } from '../../testing/comfyui-stand-in/pixels.js';
import { tempDir } from '../../testing/fixtures.js';
import { resampled } from './output.js';

let tmp: ReturnType<typeof tempDir>;
let tiling: string;

/** Mean squared RGB difference across the wrap-around edges against that inside, per direction. */
function wrapRatios(data: Buffer, width: number, height: number) {
  const energy = (p: number, q: number) => {
    let e = 0;
    for (let c = 0; c < 3; c++) e += ((data[p * 3 + c] ?? 0) - (data[q * 3 + c] ?? 0)) ** 2;
    return e;
  };
  let across = 0;
  let down = 0;
  let h = 0;
  let v = 0;
  for (let y = 0; y < height; y++) across += energy(y * width + width - 1, y * width);
  for (let x = 0; x < width; x++) down += energy((height - 1) * width + x, x);
  for (let y = 0; y < height - 1; y++) {
    for (let x = 0; x < width - 1; x++) {
      h += energy(y * width + x, y * width + x + 1);
      v += energy(y * width + x, (y + 1) * width + x);
    }
  }
  const pairs = (width - 1) * (height - 1);
  return { across: across / height / (h / pairs), down: down / width / (v / pairs) };
}

beforeAll(async () => {
  tmp = tempDir('tessera-comfy-output-');
  // A tiling texture of ComfyUI's size for Rectangle (1448 x 720, the latent's multiple of 8).
  let state = 99;
  const noise = Buffer.alloc(1448 * 720 * 3);
  for (let i = 0; i < noise.length; i++) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    noise[i] = state >> 23;
  }
  const raw = { width: 1448, height: 720, channels: 3 } as const;
  const blurred = await sharp(noise, { raw }).blur(1.5).raw().toBuffer();
  const tiled = tileable({ data: blurred, width: 1448, height: 720 }, true, true);
  tiling = path.join(tmp.dir, 'tiling.png');
  await sharp(tiled.data, { raw }).png().toFile(tiling);
});

afterAll(() => tmp.remove());

describe("ComfyUI's image at the exact size", () => {
  it('is left as it is when it has the size already', async () => {
    const same = await (
      await resampled(tiling, { width: 1448, height: 720 }, true)
    )
      .raw()
      .toBuffer();
    expect(same.equals(await sharp(tiling).raw().toBuffer())).toBe(true);
  });

  it('a seamless image is resampled wrapping round: its edges still join', async () => {
    const size = { width: 1448, height: 724 };
    const source = await sharp(tiling).raw().toBuffer();
    const before = wrapRatios(source, 1448, 720);
    const wrapped = await (await resampled(tiling, size, true)).raw().toBuffer();
    const plain = await (await resampled(tiling, size, false)).raw().toBuffer();
    expect(wrapped.length).toBe(1448 * 724 * 3);
    const after = wrapRatios(wrapped, size.width, size.height);
    const unwrapped = wrapRatios(plain, size.width, size.height);
    for (const direction of ['across', 'down'] as const) {
      expect(before[direction]).toBeLessThan(1.2);
      expect(after[direction]).toBeLessThan(1.2);
      // A plain resample repeats the edge pixels and softens the joins.
      expect(unwrapped[direction]).toBeGreaterThan(1.5);
    }
  });
});
