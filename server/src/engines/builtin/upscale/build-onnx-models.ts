/**
 * Build step (`npm run build`): writes the ONNX form of the ESRGAN-slim and -medium ×2 and ×4 models from the
 * installed package's Keras files to `server/dist/models/` (model-files.ts, onnxModelPath), for
 * the onnxruntime path of the upscaler. Run after `tsc -b`: `node server/dist/engines/builtin/upscale/build-onnx-models.js`.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { kerasToOnnxGraph } from './keras-to-onnx.js';
import { esrganModelPath, onnxModelPath, readKerasModel } from './model-files.js';
import { encodeOnnxModel } from './onnx-writer.js';
import type { EsrganVariant, ModelScale } from './plan.js';

/** ONNX IR version 7 with opset 13: what every onnxruntime since 1.7 reads. */
const IR_VERSION = 7;
const OPSET = 13;

/** The ONNX file's bytes for the ESRGAN model of `scale`. */
export async function esrganOnnx(
  scale: ModelScale,
  variant: EsrganVariant = 'slim',
): Promise<Uint8Array> {
  const model = await readKerasModel(esrganModelPath(scale, variant));
  return encodeOnnxModel(kerasToOnnxGraph(model, `esrgan-${variant}-x${scale}`), {
    irVersion: IR_VERSION,
    opset: OPSET,
    producer: 'tessera keras-to-onnx',
    docString: `ESRGAN-${variant} x${scale} from @upscalerjs/esrgan-${variant}, converted at build time`,
  });
}

export async function buildOnnxModels(): Promise<string[]> {
  const written: string[] = [];
  for (const variant of ['slim', 'medium'] as const) {
    for (const scale of [2, 4] as const) {
      const file = onnxModelPath(scale, variant);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // Written under a temporary name and renamed, so a reader never sees half a model.
      const partial = `${file}.${process.pid}.partial`;
      await fs.writeFile(partial, await esrganOnnx(scale, variant));
      await fs.rename(partial, file);
      written.push(file);
    }
  }
  return written;
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  buildOnnxModels().then(
    (files) =>
      console.log(`ONNX models: ${files.map((f) => path.relative(process.cwd(), f)).join(', ')}`),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
