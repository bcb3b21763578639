/**
 * The builtin HD upscaler (docs/engines.md, HD): the LD image through the ESRGAN-slim network
 * (×2 or ×4 by the factor needed) in worker threads, tile by tile with overlapping context, then
 * libvips (sharp) resamples to the exact target size and encodes in the job's encoding, in
 * one streamed pipeline. With `neural: false` only the resample runs (Lanczos; fast, for trials
 * and tests).
 *
 * The result is written to a partial name beside `outputPath` and renamed into place. On abort
 * the workers are terminated, a write in progress is awaited (libvips cannot be interrupted) and
 * both names are removed before the promise rejects, so an aborted job leaves no file.
 */
import { randomUUID } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import { openImage } from '../../../imaging/decode.js';
import type { ProgressReporter, UpscaledImage, UpscaleParams } from '../../engine.js';
import {
  abortError,
  planTiles,
  runNetwork,
  workerCount,
  type NetworkOptions,
  type RgbImage,
} from './network.js';
import { HD_ENCODINGS } from '../../../imaging/hd-encodings.js';
import {
  detailWidthFor,
  encodingFor,
  tileMargin,
  modelScaleFor,
  type EsrganRuntime,
  type EsrganVariant,
  upscaleFactor,
  type ModelScale,
} from './plan.js';
import { resampleToFile } from './resample.js';

export interface UpscaleOptions {
  /** Run the network (ESRGAN); false: the Lanczos resample alone. */
  neural: boolean;
  /** What runs the network; default 'onnx' (onnxruntime), 'tfjs' the WebAssembly path. */
  runtime?: EsrganRuntime;
  /** Which ESRGAN network; default 'slim'. */
  variant?: EsrganVariant;
  /** Worker threads for the network; default one per core, at most 4. */
  workers?: number;
  /** Tile cores in LD pixels (tests use small ones to get several tiles from a small image). */
  tileCore?: number;
}

/** Progress milestones, in percent. */
const DECODED = 2;
const ENCODED = 99;

/**
 * Rough costs on one core of the 2-core reference machine, only to weigh the stages' shares of
 * the progress bar: seconds per pixel through ESRGAN-slim (tile margins included) by runtime,
 * medium's cost relative to slim's, and a worker's start (runtime, model); per output pixel for
 * resample + encode, each encoding's row says (HD_ENCODINGS).
 */
const NETWORK_SECONDS_PER_PIXEL: Readonly<Record<EsrganRuntime, Record<ModelScale, number>>> = {
  onnx: { 2: 5.5e-6, 4: 6.5e-6 },
  tfjs: { 2: 16e-6, 4: 21e-6 },
};
const VARIANT_COST: Readonly<Record<EsrganVariant, number>> = { slim: 1, medium: 2.6 };
const WORKER_START_SECONDS = 1;

export async function upscaleImage(
  params: UpscaleParams,
  options: UpscaleOptions,
  progress: ProgressReporter,
  signal: AbortSignal,
): Promise<UpscaledImage> {
  if (signal.aborted) throw abortError(signal);
  const { width, height, outputPath } = params;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new RangeError(`Builtin upscaler: invalid target size ${width}x${height}`);
  }
  const { encoding } = params;
  // The name and the encoding agree, or the file would lie about what it holds.
  if (encodingFor(outputPath) !== HD_ENCODINGS[encoding].format) {
    throw new Error(`Builtin upscaler: ${outputPath} is not named for its encoding (${encoding})`);
  }
  const partialPath = `${outputPath}.${randomUUID()}.partial`;

  let reported = -1;
  const report = (percent: number) => {
    const p = Math.min(100, Math.floor(percent));
    if (p <= reported || signal.aborted) return;
    reported = p;
    progress(p);
  };
  const checkAbort = () => {
    if (signal.aborted) throw abortError(signal);
  };

  let timer: NodeJS.Timeout | undefined;
  try {
    report(0);
    const source = await decodeRgb(params.sourcePath);
    checkAbort();
    report(DECODED);

    const outputPixels = width * height;
    const encodeSeconds = outputPixels * HD_ENCODINGS[encoding].encodeSecondsPerPixel;
    let image: RgbImage = source;
    let encodeFrom = DECODED;
    let scale: ModelScale | 1 = 1;
    if (options.neural) {
      scale = modelScaleFor(upscaleFactor(source, params));
      const network: NetworkOptions = {
        scale,
        padding: params.seamless ? 'wrap' : 'mirror',
        runtime: options.runtime,
        variant: options.variant,
        workers: options.workers,
        tileCore: options.tileCore,
      };
      const networkSeconds = estimateNetworkSeconds(source, network);
      const share = networkSeconds / (networkSeconds + encodeSeconds);
      encodeFrom = DECODED + (ENCODED - DECODED) * share;
      image = await runNetwork(
        source,
        network,
        (fraction) => report(DECODED + (encodeFrom - DECODED) * fraction),
        signal,
      );
      checkAbort();
      report(encodeFrom);
    }

    // libvips reports no progress through sharp: the bar advances with the time the resample
    // and encode are expected to take, and stops short of their end until they are done.
    const start = performance.now();
    timer = setInterval(() => {
      const fraction = Math.min(0.95, (performance.now() - start) / 1000 / encodeSeconds);
      report(encodeFrom + (ENCODED - encodeFrom) * fraction);
    }, 200);
    await resampleToFile(
      image,
      { width, height, seamless: params.seamless, encoding },
      partialPath,
    );
    clearInterval(timer);
    checkAbort();
    report(ENCODED);
    await rename(partialPath, outputPath);
    checkAbort();
    report(100);
    return { width, height, detailWidth: detailWidthFor(source.width, width, scale) };
  } catch (error) {
    clearInterval(timer);
    await Promise.all([
      rm(partialPath, { force: true }),
      signal.aborted ? rm(outputPath, { force: true }) : undefined,
    ]);
    throw signal.aborted ? abortError(signal) : error;
  }
}

/** The LD image as 8-bit sRGB without alpha (an alpha channel is dropped: HD images are opaque). */
async function decodeRgb(sourcePath: string): Promise<RgbImage> {
  const { data, info } = await (
    await openImage(sourcePath)
  )
    .toColourspace('srgb')
    .removeAlpha()
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`Decoded to ${info.channels} channels, not RGB`);
  return { data, width: info.width, height: info.height };
}

function estimateNetworkSeconds(source: RgbImage, options: NetworkOptions): number {
  const margin = tileMargin(options.variant ?? 'slim');
  const pixels = planTiles(source, options).reduce(
    (sum, tile) => sum + (tile.width + 2 * margin) * (tile.height + 2 * margin),
    0,
  );
  const perPixel = NETWORK_SECONDS_PER_PIXEL[options.runtime ?? 'onnx'][options.scale];
  const seconds = pixels * perPixel * VARIANT_COST[options.variant ?? 'slim'];
  return WORKER_START_SECONDS + seconds / workerCount(options);
}
