import fs from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../prng.js';
import { subPixelKernel } from './esrgan.js';
import { esrganModelPath, fileModelHandler, loadEsrgan } from './model.js';

/** A tile of random colours, with hard black/white blocks to provoke overshoot. */
function randomTile(width: number, height: number, seed = 3): Float32Array {
  const rng = mulberry32(seed);
  const data = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const block = (Math.floor(x / 4) + Math.floor(y / 4)) % 2;
      for (let c = 0; c < 3; c++) {
        data[(y * width + x) * 3 + c] = x < width / 2 ? rng.next() * 255 : block * 255;
      }
    }
  }
  return data;
}

describe('ESRGAN model (tfjs-wasm)', () => {
  it('loads the ×2 and ×4 Keras models from the installed package files', async () => {
    for (const scale of [2, 4] as const) {
      const file = esrganModelPath(scale);
      expect(fs.existsSync(file)).toBe(true);
      const artifacts = await fileModelHandler(file).load();
      const bytes = (artifacts.weightSpecs ?? []).reduce(
        (sum, spec) => sum + spec.shape.reduce((n, d) => n * d, 1) * 4,
        0,
      );
      expect((artifacts.weightData as ArrayBuffer).byteLength).toBe(bytes);
    }
    const model = await loadEsrgan(2);
    expect(tf.getBackend()).toBe('wasm');
    const out = await model.run(randomTile(20, 12), 20, 12);
    expect(out.length).toBe(40 * 24 * 3);
  });

  it('runs the last layers at the input resolution with the same result, clamped to 0–255', async () => {
    const width = 36;
    const height = 28;
    const input = randomTile(width, height);
    for (const scale of [2, 4] as const) {
      const subPixel = await (await loadEsrgan(scale, true)).run(input, width, height);
      const original = await (await loadEsrgan(scale, false)).run(input, width, height);
      expect(subPixel.length).toBe(width * scale * height * scale * 3);
      let max = 0;
      for (let i = 0; i < subPixel.length; i++) {
        max = Math.max(max, Math.abs((subPixel[i] ?? 0) - (original[i] ?? 0)));
      }
      expect(max).toBeLessThan(0.01);
      expect(Math.min(...subPixel)).toBeGreaterThanOrEqual(0);
      expect(Math.max(...subPixel)).toBeLessThanOrEqual(255);
    }
  }, 30_000);

  it('folds an upsample + 3×3 convolution into a 3×3 convolution at the input resolution', () => {
    // One input channel, one colour, ×2: the kernel's taps land on the input pixel they read.
    const kernel = Float32Array.from({ length: 9 }, (_, i) => i + 1); // rows dy = -1, 0, 1
    const folded = subPixelKernel(kernel, 1, 1, 2);
    // Output offset (0, 0) reads upsampled rows -1, 0, 1 = input rows -1, 0, 0.
    const tap = (ty: number, tx: number, phase: number) => folded[(ty * 3 + tx) * 4 + phase];
    expect(tap(0, 0, 0)).toBe(1); // dy = -1, dx = -1
    expect(tap(0, 1, 0)).toBe(2 + 3); // dy = -1, dx = 0 and 1
    expect(tap(1, 1, 0)).toBe(5 + 6 + 8 + 9);
    expect(tap(2, 2, 0)).toBe(0);
    // Offset (1, 1) reads input rows 0, 0, 1 and columns 0, 0, 1.
    expect(tap(1, 1, 3)).toBe(1 + 2 + 4 + 5);
    expect(tap(2, 2, 3)).toBe(9);
    expect(folded.reduce((sum, v) => sum + v, 0)).toBe(4 * 45);
  });
});
