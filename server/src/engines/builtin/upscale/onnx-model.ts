/**
 * The ESRGAN network (slim or medium) on onnxruntime (the CPU library inside the `onnxruntime-node` npm
 * package), from the ONNX file the build converts from the installed Keras model
 * (build-onnx-models.ts). Used by the upscaler's worker threads instead of tfjs-wasm: about twice
 * as fast on the same core (docs/engines.md). Same `Esrgan` interface as model.ts.
 */
import fs from 'node:fs';
import * as ort from 'onnxruntime-node';
import type { Esrgan } from './esrgan.js';
import { ONNX_INPUT, ONNX_OUTPUT, onnxModelPath } from './model-files.js';
import type { EsrganVariant, ModelScale } from './plan.js';

/**
 * The network for `scale` on onnxruntime: from `model` (an ONNX file's bytes) if given, else from
 * the file the build wrote; without that file (sources run before a build: `npm run dev`, a
 * single vitest run) the same conversion runs here, in memory (a fraction of a second).
 */
export async function loadOnnxEsrgan(
  scale: ModelScale,
  variant: EsrganVariant = 'slim',
  model?: Uint8Array,
): Promise<Esrgan> {
  const file = onnxModelPath(scale, variant);
  const build = async () => (await import('./build-onnx-models.js')).esrganOnnx(scale, variant);
  const source = model ?? (fs.existsSync(file) ? file : await build());
  const options: ort.InferenceSession.SessionOptions = {
    executionProviders: ['cpu'],
    // One thread per worker: the pool has a worker per core, which parallelises better than
    // threads inside one convolution on tiles this small.
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    // Without its arena and pre-planned buffers onnxruntime frees each tensor when no longer
    // needed: the process's peak drops by about 200 MB (two workers, 320² tiles), for the same
    // CPU time.
    enableCpuMemArena: false,
    enableMemPattern: false,
  };
  const session =
    typeof source === 'string'
      ? await ort.InferenceSession.create(source, options)
      : await ort.InferenceSession.create(source, options);
  return {
    scale,
    async run(input, width, height) {
      const feeds = { [ONNX_INPUT]: new ort.Tensor('float32', input, [1, height, width, 3]) };
      const result = await session.run(feeds);
      const output = result[ONNX_OUTPUT];
      if (!output) throw new Error('The ONNX model gave no output');
      return output.data as Float32Array;
    },
  };
}
