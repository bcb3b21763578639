/**
 * The neural pass of the builtin upscaler: the LD image through ESRGAN-slim (×2 or ×4), tile by
 * tile, on a pool of worker threads (esrgan-worker.ts), each with its own onnxruntime session (or
 * tfjs-wasm instance).
 * The LD image and the result live in SharedArrayBuffers; messages carry only tile numbers.
 */
import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { serverError } from '@tessera/contract';
import { startWorker } from '../../../runtime/worker-url.js';
import {
  DEFAULT_TILE_CORE,
  ONNX_TILE_CORE,
  balancedTileCore,
  tileMargin,
  tileGrid,
  type EsrganRuntime,
  type EsrganVariant,
  type ModelScale,
  type Padding,
  type Tile,
} from './plan.js';
import type { EsrganWorkerData, FromEsrganWorker, ToEsrganWorker } from './protocol.js';

/** 8-bit RGB pixels, row by row. */
export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

export interface NetworkOptions {
  scale: ModelScale;
  /** What runs the network; default 'onnx'. */
  runtime?: EsrganRuntime;
  /** Which network; default 'slim'. */
  variant?: EsrganVariant;
  padding: Padding;
  /** Worker threads; default {@link defaultWorkerCount}. */
  workers?: number;
  /** Tile cores in LD pixels; default {@link DEFAULT_TILE_CORE} for the scale. */
  tileCore?: number;
}

/**
 * One worker per core, at most 4: each holds its own WebAssembly heap (up to about 350 MB with
 * the ×4 model), so four keep the whole job under 2 GB.
 */
export function defaultWorkerCount(): number {
  return Math.max(1, Math.min(os.availableParallelism(), 4));
}

export function workerCount(options: NetworkOptions): number {
  return Math.max(1, options.workers ?? defaultWorkerCount());
}

/** The tiles the network runs on: `tileCore` if given, else balanced for the workers. */
export function planTiles(
  source: { width: number; height: number },
  options: NetworkOptions,
): Tile[] {
  const core =
    options.tileCore ??
    balancedTileCore(
      source.width,
      source.height,
      (options.runtime ?? 'onnx') === 'onnx' ? ONNX_TILE_CORE : DEFAULT_TILE_CORE[options.scale],
      workerCount(options),
      tileMargin(options.variant ?? 'slim'),
    );
  return tileGrid(source.width, source.height, core);
}

/**
 * The network's output for `source` (scale × its size), or a rejection: on abort (all workers
 * terminated first) or when a worker fails. `onProgress` gets the fraction of tiles done.
 */
export function runNetwork(
  source: RgbImage,
  options: NetworkOptions,
  onProgress: (fraction: number) => void,
  signal: AbortSignal,
): Promise<RgbImage> {
  const { scale } = options;
  const workers = workerCount(options);
  const tiles = planTiles(source, options);
  const shared = new SharedArrayBuffer(source.data.byteLength);
  new Uint8Array(shared).set(source.data);
  const width = source.width * scale;
  const height = source.height * scale;
  const output = new SharedArrayBuffer(width * height * 3);
  const workerData: EsrganWorkerData = {
    scale,
    runtime: options.runtime ?? 'onnx',
    variant: options.variant ?? 'slim',
    source: shared,
    sourceWidth: source.width,
    sourceHeight: source.height,
    output,
    padding: options.padding,
    margin: tileMargin(options.variant ?? 'slim'),
  };
  const count = Math.min(workers, tiles.length);

  return new Promise<RgbImage>((resolve, reject) => {
    const workers: Worker[] = [];
    let next = 0;
    let done = 0;
    let settled = false;
    let warned = false;

    /**
     * Workers inside a call to their runtime (loading the model, running a tile). onnxruntime runs
     * synchronously on the worker's thread, and a worker terminated in the middle of that takes
     * the whole process down when the call returns (its N-API binding throws a C++ exception
     * into a dying environment: "terminate called after throwing an instance of 'Napi::Error'").
     * So a busy worker is terminated only once it reports back: on abort, at most one tile later.
     */
    const busy = new Set<Worker>();
    const onIdle = new Map<Worker, () => void>();
    const idle = (worker: Worker) => {
      busy.delete(worker);
      onIdle.get(worker)?.();
      onIdle.delete(worker);
    };
    const stop = (worker: Worker): Promise<number> =>
      busy.has(worker)
        ? new Promise<void>((resolve) => onIdle.set(worker, resolve)).then(() => worker.terminate())
        : worker.terminate();

    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      // Terminated before anything else happens: their heaps are freed and no worker writes
      // into the output any more.
      void Promise.allSettled(workers.map(stop)).then(() => {
        if (error) reject(error);
        else resolve({ data: new Uint8Array(output), width, height });
      });
    };
    const onAbort = () => finish(abortError(signal));
    if (signal.aborted) {
      reject(abortError(signal));
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });

    const give = (worker: Worker) => {
      if (next >= tiles.length) return;
      const index = next++;
      const tile = tiles[index];
      if (!tile) return;
      busy.add(worker);
      worker.postMessage({ type: 'tile', index, tile } satisfies ToEsrganWorker);
    };

    for (let k = 0; k < count; k++) {
      const worker = startWorker(import.meta.url, 'esrgan-worker', { workerData });
      workers.push(worker);
      busy.add(worker); // loading its model
      worker.on('message', (message: FromEsrganWorker) => {
        idle(worker);
        if (settled) return;
        switch (message.type) {
          case 'ready':
            if (message.fallbackReason !== undefined && !warned) {
              warned = true;
              process.emitWarning(
                `onnxruntime does not load here (${message.fallbackReason}); running tfjs-wasm`,
                'TesseraUpscalerWarning',
              );
            }
            give(worker);
            break;
          case 'tile-done':
            done++;
            onProgress(done / tiles.length);
            if (done === tiles.length) finish();
            else give(worker);
            break;
          case 'failed':
            finish(new Error(`Builtin upscaler: ${message.message}`));
            break;
          case 'unavailable':
            // The cause (a library's text, paths) goes to the log; the job's status gets the
            // contract's text through the error's code (services/readable-error.ts).
            process.emitWarning(
              `The ESRGAN upscaler cannot run here: ${message.message}. Install the development ` +
                'dependencies (tfjs, the fallback) or set BUILTIN_UPSCALER=lanczos.',
              'TesseraUpscalerWarning',
            );
            finish(upscalerUnavailable());
            break;
        }
      });
      worker.on('error', (error) => {
        idle(worker);
        finish(error);
      });
      worker.on('exit', (code) => {
        idle(worker);
        finish(new Error(`Builtin upscaler: a worker stopped (exit code ${code}) before the end`));
      });
    }
  });
}

/** The error a job fails with when no ESRGAN runtime loads: its message is the user's text. */
export function upscalerUnavailable(): Error & { code: 'HD_UPSCALER_UNAVAILABLE' } {
  const { code, text } = serverError('HD_UPSCALER_UNAVAILABLE');
  return Object.assign(new Error(text), { code });
}

export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  return new DOMException('The upscale was aborted', 'AbortError');
}
