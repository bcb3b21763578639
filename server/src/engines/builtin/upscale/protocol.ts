/** Messages between the upscaler (index.ts) and its ESRGAN worker threads (esrgan-worker.ts). */
import type { EsrganRuntime, EsrganVariant, ModelScale, Padding, Tile } from './plan.js';

/** A worker's `workerData`: the images are shared, so no pixels travel in messages. */
export interface EsrganWorkerData {
  scale: ModelScale;
  /** What runs the network (both behind `Esrgan.run`, the tile reading and writing shared). */
  runtime: EsrganRuntime;
  variant: EsrganVariant;
  /** The LD image, 8-bit RGB, row-major, `sourceWidth`×`sourceHeight`. */
  source: SharedArrayBuffer;
  sourceWidth: number;
  sourceHeight: number;
  /**
   * The network's output, 8-bit RGB, (`sourceWidth`·scale)×(`sourceHeight`·scale): each worker
   * writes the cores of its tiles, which do not overlap.
   */
  output: SharedArrayBuffer;
  /** How tiles read context beyond the image's edges. */
  padding: Padding;
  /** Context around each tile core, in LD pixels. */
  margin: number;
}

/** A tile to run: its core, read with `margin` pixels of context. */
export interface ToEsrganWorker {
  type: 'tile';
  index: number;
  tile: Tile;
}

export type FromEsrganWorker =
  /**
   * The model is loaded: send tiles. `runtime` is what runs it: 'tfjs' when 'onnx' was asked
   * but onnxruntime's native library does not load on this platform.
   */
  | { type: 'ready'; runtime: EsrganRuntime; fallbackReason?: string }
  /** The tile's core is in the shared output. */
  | { type: 'tile-done'; index: number }
  | { type: 'failed'; message: string }
  /**
   * No runtime loads here: onnxruntime's native library does not and tfjs, the fallback (a
   * development dependency), is not installed or does not either. `message` says why (for the log).
   */
  | { type: 'unavailable'; message: string };
