import { describe, expect, it } from 'vitest';
import { bricks, stripes, valueNoise } from '../test-references.js';
import { esrganOnnx } from './build-onnx-models.js';
import type { Esrgan } from './esrgan.js';
import { kerasToOnnxGraph } from './keras-to-onnx.js';
import { loadEsrgan } from './model.js';
import { esrganModelPath, readKerasModel } from './model-files.js';
import { runNetwork, type RgbImage } from './network.js';
import { loadOnnxEsrgan } from './onnx-model.js';
import { tileMargin } from './plan.js';

// tfjs-wasm and onnxruntime on the same tiles, on two cores shared with other work.
const SLOW = 120_000;

/** An RGBA test image as the float RGB tile the network takes (0–255). */
function tileOf(image: { data: Uint8Array; width: number; height: number }): Float32Array {
  const tile = new Float32Array(image.width * image.height * 3);
  for (let i = 0; i < image.width * image.height; i++) {
    for (let c = 0; c < 3; c++) tile[i * 3 + c] = image.data[i * 4 + c] ?? 0;
  }
  return tile;
}

function rgb(image: { data: Uint8Array; width: number; height: number }): RgbImage {
  const data = new Uint8Array(image.width * image.height * 3);
  for (let i = 0; i < image.width * image.height; i++) {
    for (let c = 0; c < 3; c++) data[i * 3 + c] = image.data[i * 4 + c] ?? 0;
  }
  return { data, width: image.width, height: image.height };
}

function maxDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs((a[i] ?? 0) - (b[i] ?? 0)));
  return max;
}

describe('ESRGAN-slim converted to ONNX (onnxruntime)', () => {
  it(
    'gives the output of the tfjs model within 0.5 of 255 on the same tiles, ×2 and ×4',
    async () => {
      // Textures with hard edges (overshoot, clamping) and smooth ones, tiles not square.
      const tiles = [bricks(72, 56, 4), valueNoise(64, 80, 8, 3), stripes(60, 44, 5)];
      for (const scale of [2, 4] as const) {
        const tfjs = await loadEsrgan(scale);
        const onnx = await loadOnnxEsrgan(scale, 'slim', await esrganOnnx(scale));
        for (const image of tiles) {
          const input = tileOf(image);
          const expected = await tfjs.run(input, image.width, image.height);
          const actual = await onnx.run(input, image.width, image.height);
          expect(actual.length).toBe(image.width * scale * image.height * scale * 3);
          // Measured: at most 0.0003.
          expect(maxDifference(actual, expected)).toBeLessThan(0.5);
          expect(actual.every((v) => v >= 0 && v <= 255)).toBe(true);
        }
      }
    },
    SLOW,
  );

  it(
    'converts ESRGAN-medium too: the output of its tfjs model within 0.5 of 255, ×2 and ×4',
    async () => {
      const image = bricks(52, 44, 8);
      const input = tileOf(image);
      for (const scale of [2, 4] as const) {
        const tfjs = await loadEsrgan(scale, true, 'medium');
        const onnx = await loadOnnxEsrgan(scale, 'medium', await esrganOnnx(scale, 'medium'));
        const expected = await tfjs.run(input, image.width, image.height);
        const actual = await onnx.run(input, image.width, image.height);
        expect(actual.length).toBe(expected.length);
        expect(maxDifference(actual, expected)).toBeLessThan(0.5);
      }
    },
    SLOW,
  );

  it(
    'reads enough context around a tile for each network: the crop is the whole image there',
    async () => {
      // A tile's core, computed from a crop with the margin around it, against the same pixels
      // of the whole image's output. Slim's receptive field is 10 LD pixels, medium's 18.
      const image = valueNoise(96, 80, 6, 9);
      const whole = tileOf(image);
      const scale = 2;
      /** Largest difference over the core (x, y from 38, 24×24) with `margin` of context. */
      const coreDifference = async (model: Esrgan, margin: number, full: Float32Array) => {
        const [x0, y0, size] = [38, 28, 24];
        const side = size + 2 * margin;
        const crop = new Float32Array(side * side * 3);
        for (let y = 0; y < side; y++) {
          const from = ((y0 - margin + y) * image.width + x0 - margin) * 3;
          crop.set(whole.subarray(from, from + side * 3), y * side * 3);
        }
        const out = await model.run(crop, side, side);
        let max = 0;
        for (let y = 0; y < size * scale; y++) {
          for (let x = 0; x < size * scale * 3; x++) {
            const a = out[((margin * scale + y) * side * scale + margin * scale) * 3 + x] ?? 0;
            const b = full[((y0 * scale + y) * image.width * scale + x0 * scale) * 3 + x] ?? 0;
            max = Math.max(max, Math.abs(a - b));
          }
        }
        return max;
      };
      for (const variant of ['slim', 'medium'] as const) {
        const model = await loadOnnxEsrgan(scale, variant);
        const full = await model.run(whole, image.width, image.height);
        // Measured: 0 from the receptive field on (10 slim, 18 medium).
        expect(await coreDifference(model, tileMargin(variant), full)).toBeLessThan(1e-4);
        if (variant === 'medium') {
          // Slim's margin is not quite enough for medium (measured 0.0012; 0.03 at 10).
          expect(await coreDifference(model, tileMargin('slim'), full)).toBeGreaterThan(5e-4);
        }
      }
    },
    SLOW,
  );

  it(
    'makes the same upscale through the worker pool as tfjs: same tiles, wrap and size',
    async () => {
      // Several tiles and wrap-around context: the tile reading and writing are shared, the
      // runtimes differ only by float rounding (at most 1 of 255 after rounding).
      const source = rgb(bricks(90, 70, 6));
      const signal = new AbortController().signal;
      const options = { scale: 4, padding: 'wrap', workers: 2, tileCore: 40 } as const;
      const ignore = () => undefined;
      const onnx = await runNetwork(source, { ...options, runtime: 'onnx' }, ignore, signal);
      const tfjs = await runNetwork(source, { ...options, runtime: 'tfjs' }, ignore, signal);
      expect([onnx.width, onnx.height]).toEqual([360, 280]);
      expect([tfjs.width, tfjs.height]).toEqual([360, 280]);
      expect(maxDifference(onnx.data, tfjs.data)).toBeLessThanOrEqual(1);
    },
    SLOW,
  );

  it(
    'survives aborts while its workers run tiles: rejects, the process lives on',
    async () => {
      // A worker terminated inside onnxruntime's synchronous run would abort the whole process
      // ("terminate called after throwing an instance of 'Napi::Error'"). Small tiles, aborted
      // after a few, while the other worker is in the middle of one; several times.
      const source = rgb(bricks(128, 96, 2));
      for (const abortAfter of [1, 2, 3, 4, 6]) {
        const controller = new AbortController();
        let reported = 0;
        const run = runNetwork(
          source,
          { scale: 4, padding: 'wrap', workers: 2, runtime: 'onnx', tileCore: 24 },
          () => {
            if (++reported >= abortAfter) controller.abort();
          },
          controller.signal,
        );
        await expect(run).rejects.toMatchObject({ name: 'AbortError' });
        expect(reported).toBe(abortAfter);
      }
      // Still here, and the runtime still works.
      const model = await loadOnnxEsrgan(2);
      expect((await model.run(new Float32Array(8 * 8 * 3), 8, 8)).length).toBe(16 * 16 * 3);
    },
    SLOW,
  );

  it('refuses a Keras model with a layer it cannot convert, by name', async () => {
    const model = await readKerasModel(esrganModelPath(2));
    const broken = {
      ...model,
      layers: model.layers.map((layer) =>
        layer.name === 'UPN1_Relu'
          ? { ...layer, config: { ...layer.config, activation: 'gelu' } }
          : layer,
      ),
    };
    expect(() => kerasToOnnxGraph(broken, 'broken')).toThrow(/UPN1_Relu: activation gelu/);
    const [, conv] = model.layers;
    if (!conv) throw new Error('The model has no layers');
    const dense = {
      ...model,
      layers: [...model.layers, { ...conv, class_name: 'Dense', name: 'extra' }],
    };
    expect(() => kerasToOnnxGraph(dense, 'dense')).toThrow(/unsupported layer Dense \(extra\)/);
  });
});
