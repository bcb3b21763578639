/**
 * An ESRGAN worker thread of the builtin upscaler: its own network runtime (onnxruntime, or tfjs
 * on WebAssembly where installed), the model of `workerData.scale`, and tiles to run, one message
 * each. For a tile it reads the core with `margin` pixels of context from the shared LD image
 * (wrapped around or mirrored beyond the edges), runs the network, and writes the core of the
 * result, rounded, into the shared output. It writes no file and may be terminated at any time.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { missingModulePoint } from '../../../runtime/faults.js';
import type { Esrgan } from './esrgan.js';
import type * as TfjsModule from './model.js';
import type * as OnnxModule from './onnx-model.js';
import { padIndex, type Tile } from './plan.js';
import type { EsrganWorkerData, FromEsrganWorker, ToEsrganWorker } from './protocol.js';

const port = ((): MessagePort => {
  if (!parentPort) throw new Error('esrgan-worker.ts runs as a worker thread');
  return parentPort;
})();
const post = (message: FromEsrganWorker) => port.postMessage(message);

const job = workerData as EsrganWorkerData;
const source = new Uint8Array(job.source);
const output = new Uint8Array(job.output);
const outWidth = job.sourceWidth * job.scale;

/** The tile's core plus margin as float RGB, context read through the padding. */
function readTile(tile: Tile): { input: Float32Array; width: number; height: number } {
  const { margin, padding, sourceWidth, sourceHeight } = job;
  const width = tile.width + 2 * margin;
  const height = tile.height + 2 * margin;
  const input = new Float32Array(width * height * 3);
  const columns = Int32Array.from({ length: width }, (_, i) =>
    padIndex(tile.x - margin + i, sourceWidth, padding),
  );
  let q = 0;
  for (let j = 0; j < height; j++) {
    const row = padIndex(tile.y - margin + j, sourceHeight, padding) * sourceWidth;
    for (let i = 0; i < width; i++) {
      const p = (row + (columns[i] ?? 0)) * 3;
      input[q++] = source[p] ?? 0;
      input[q++] = source[p + 1] ?? 0;
      input[q++] = source[p + 2] ?? 0;
    }
  }
  return { input, width, height };
}

/** Copies the core of a tile's network output (already clamped to 0–255) into the output. */
function writeCore(tile: Tile, result: Float32Array, tileWidth: number): void {
  const { scale, margin } = job;
  const resultWidth = tileWidth * scale;
  const coreWidth = tile.width * scale;
  const coreHeight = tile.height * scale;
  const skip = margin * scale;
  for (let j = 0; j < coreHeight; j++) {
    let from = ((skip + j) * resultWidth + skip) * 3;
    let to = ((tile.y * scale + j) * outWidth + tile.x * scale) * 3;
    for (let n = coreWidth * 3; n > 0; n--) output[to++] = Math.round(result[from++] ?? 0);
  }
}

/**
 * The network on the runtime asked for. Each runtime's module is imported only when used, so a
 * worker holds one (tfjs' WebAssembly heap or onnxruntime's library, not both). If onnxruntime's
 * native library does not load (a platform its npm package has no binary for), tfjs runs instead,
 * where it is installed: it is a development dependency, absent from a production install.
 */
async function loadModel(): Promise<{ model: Esrgan; fallbackReason?: string }> {
  if (job.runtime === 'onnx') {
    let onnx: typeof OnnxModule;
    try {
      missingModulePoint('onnxruntime-node');
      onnx = await import('./onnx-model.js');
    } catch (error) {
      const reason = messageOf(error);
      return { model: await loadTfjs(reason), fallbackReason: reason };
    }
    return { model: await onnx.loadOnnxEsrgan(job.scale, job.variant) };
  }
  return { model: await loadTfjs() };
}

/** Thrown when neither runtime loads: the worker reports it as `unavailable`. */
class NoRuntime extends Error {}

async function loadTfjs(onnxError?: string): Promise<Esrgan> {
  let tfjs: typeof TfjsModule;
  try {
    missingModulePoint('@tensorflow/tfjs');
    tfjs = await import('./model.js');
  } catch (error) {
    const why = `tfjs does not load (${messageOf(error)})`;
    throw new NoRuntime(
      onnxError === undefined ? why : `onnxruntime does not load (${onnxError}) and ${why}`,
    );
  }
  return tfjs.loadEsrgan(job.scale, true, job.variant);
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function main(): Promise<void> {
  const { model, fallbackReason } = await loadModel();
  post({
    type: 'ready',
    runtime: fallbackReason === undefined ? job.runtime : 'tfjs',
    ...(fallbackReason === undefined ? {} : { fallbackReason }),
  });
  port.on('message', (message: ToEsrganWorker) => {
    const { tile, index } = message;
    const { input, width, height } = readTile(tile);
    model.run(input, width, height).then(
      (result) => {
        writeCore(tile, result, width);
        post({ type: 'tile-done', index });
      },
      (error: unknown) => fail(error),
    );
  });
}

function fail(error: unknown): void {
  post(
    error instanceof NoRuntime
      ? { type: 'unavailable', message: error.message }
      : { type: 'failed', message: messageOf(error) },
  );
}

main().catch(fail);
