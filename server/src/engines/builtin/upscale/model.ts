/**
 * The ESRGAN network of `@upscalerjs/esrgan-slim` on TensorFlow.js with the WebAssembly backend,
 * loaded from the installed packages' own files: nothing is fetched at run time. The fallback of
 * the upscaler's worker threads (esrgan-worker.ts) where onnxruntime does not load, and the
 * reference the ONNX conversion is tested against. tfjs is a development dependency: a
 * production install (`--omit=dev`) has none, and only this module imports it.
 */
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { subPixelKernel, type Esrgan } from './esrgan.js';
import { esrganModelPath } from './model-files.js';
import type { EsrganVariant, ModelScale } from './plan.js';

const require = createRequire(import.meta.url);

export { esrganModelPath } from './model-files.js';

interface ModelJson {
  modelTopology: object;
  weightsManifest: tf.io.WeightsManifestConfig;
  format?: string;
  generatedBy?: string;
  convertedBy?: string | null;
}

/**
 * A tf.io handler that reads a TensorFlow.js model (model.json and its weight shards) from the
 * file system, the shards concatenated in manifest order as tfjs expects.
 */
export function fileModelHandler(
  modelJsonPath: string,
): tf.io.IOHandler & Required<Pick<tf.io.IOHandler, 'load'>> {
  return {
    async load(): Promise<tf.io.ModelArtifacts> {
      const json = JSON.parse(await fs.readFile(modelJsonPath, 'utf8')) as ModelJson;
      const dir = path.dirname(modelJsonPath);
      const shards = await Promise.all(
        json.weightsManifest.flatMap((group) =>
          group.paths.map((file) => fs.readFile(path.join(dir, file))),
        ),
      );
      const bytes = new Uint8Array(shards.reduce((sum, shard) => sum + shard.byteLength, 0));
      let offset = 0;
      for (const shard of shards) {
        bytes.set(shard, offset);
        offset += shard.byteLength;
      }
      return {
        modelTopology: json.modelTopology,
        weightSpecs: json.weightsManifest.flatMap((group) => group.weights),
        weightData: bytes.buffer,
        format: json.format,
        generatedBy: json.generatedBy,
        convertedBy: json.convertedBy ?? null,
      };
    },
  };
}

let backendReady: Promise<void> | undefined;

/**
 * Selects tfjs' WebAssembly backend (SIMD build when the runtime has SIMD, as Node 20 does), its
 * binaries read from the installed package's dist folder. tfjs falls back to its (far slower)
 * CPU backend silently when a backend fails; this refuses to.
 */
export function useWasmBackend(): Promise<void> {
  backendReady ??= (async () => {
    const dist = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm'));
    setWasmPaths(`${dist}${path.sep}`);
    if (!(await tf.setBackend('wasm'))) throw new Error('The tfjs WebAssembly backend failed');
    await tf.ready();
  })();
  return backendReady;
}

/**
 * The ESRGAN-slim model for the scale, on the WebAssembly backend.
 *
 * The model ends in a nearest-neighbour ×s upsampling of 3·s² channels followed by a 3×3
 * convolution to RGB at the output resolution ('UPN3' → 'UPsample' → 'SR'). With `subPixel`
 * (the default) that end is run as the equivalent convolution at the input resolution to 3·s²
 * channels followed by a depth-to-space shuffle ({@link subPixelKernel}): the same arithmetic on
 * the same weights (results equal to 1e-3), but it never builds the upsampled 48-channel tensor
 * (201 MB for a 256² tile with ×4), which halves the WebAssembly heap and saves some time.
 */
export async function loadEsrgan(
  scale: ModelScale,
  subPixel = true,
  variant: EsrganVariant = 'slim',
): Promise<Esrgan> {
  await useWasmBackend();
  const model = await tf.loadLayersModel(fileModelHandler(esrganModelPath(scale, variant)));
  const clamp = (y: tf.Tensor) => tf.clipByValue(y, 0, 255);
  let forward = (x: tf.Tensor4D) => clamp(model.predict(x) as tf.Tensor);
  if (subPixel) {
    const body = tf.model({
      inputs: model.inputs,
      outputs: model.getLayer('UPN3').output as tf.SymbolicTensor,
    });
    const [kernel, bias] = model.getLayer('SR').getWeights();
    if (!kernel || !bias) throw new Error('ESRGAN: the SR layer has no weights');
    const [kh, kw, channels, colours] = kernel.shape as [number, number, number, number];
    if (kh !== 3 || kw !== 3) throw new Error('ESRGAN: the SR layer is not 3x3');
    const filter = tf.tensor4d(
      subPixelKernel(kernel.dataSync() as Float32Array, channels, colours, scale),
      [3, 3, channels, colours * scale * scale],
    );
    const biases = bias.dataSync();
    const shuffledBias = tf.tensor1d(
      Float32Array.from({ length: colours * scale * scale }, (_, i) => biases[i % colours] ?? 0),
    );
    forward = (x) =>
      clamp(
        tf.depthToSpace(
          tf.fused.conv2d({
            x: body.predict(x) as tf.Tensor4D,
            filter,
            bias: shuffledBias,
            strides: 1,
            pad: 'same',
          }),
          scale,
          'NHWC',
        ),
      );
  }
  return {
    scale,
    async run(input, width, height) {
      const output = tf.tidy(() => forward(tf.tensor4d(input, [1, height, width, 3])));
      try {
        return (await output.data()) as Float32Array;
      } finally {
        output.dispose();
      }
    },
  };
}
