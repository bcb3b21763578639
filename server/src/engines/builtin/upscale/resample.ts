/**
 * The last stage of the builtin upscaler: libvips (sharp) resamples an RGB image to the exact
 * target size and encodes it straight to a file, in one streamed pipeline — libvips computes the
 * output strip by strip as the encoder asks for it, so the full-size image never exists in
 * memory (docs/engines.md, HD: memory).
 */
import os from 'node:os';
import sharp from 'sharp';
import type { RgbImage } from './network.js';
import { HD_ENCODINGS, type HdEncoding } from '../../../imaging/hd-encodings.js';
import { wrapExtension } from './plan.js';

export interface ResampleOptions {
  width: number;
  height: number;
  /** The image tiles: keep it tileable (extend by wrapping, resize, cut back). */
  seamless: boolean;
  encoding: HdEncoding;
}

/**
 * The pre-emphasis before a bilinear enlargement (issue 28, part 3): libvips enlarges with an
 * affine transform whose cost is per output pixel, and at the largest sizes (207 MP for a
 * Slab 320x140) its bicubic interpolator cost twice what the JPEG encode does. Bilinear costs
 * about half of it but softens; sharpening the network's output first (separable [−k, 1+2k, −k],
 * k = 0.06, on the small image: 1/12 of the pixels) gives it back. Measured against bicubic on the
 * generated references (enlargement-quality.test.ts): the same sharpness (0.96–1.02×), ringing
 * about the same, error within 1.5 %.
 */
export const PRE_EMPHASIS = 0.06;

/** The pre-emphasis as libvips' integer 3×3 kernel (scale 1024), summing exactly to its scale. */
export function preEmphasisKernel(k = PRE_EMPHASIS): sharp.Kernel {
  const side = Math.round(-k * (1 + 2 * k) * 1024);
  const corner = Math.round(k * k * 1024);
  const centre = 1024 - 4 * side - 4 * corner;
  return {
    width: 3,
    height: 3,
    scale: 1024,
    kernel: [corner, side, corner, side, centre, side, corner, side, corner],
  };
}

/**
 * libvips' threads for the resample: one per core. sharp starts with one here (glibc without
 * jemalloc, against heap fragmentation), but by the resample the network's workers are done and
 * the cores are free; the encoder keeps its own thread either way.
 */
function resampleThreads(): number {
  return os.availableParallelism();
}

/**
 * Resamples `image` to exactly `width`×`height` and writes it to `file` in `encoding`, its
 * encoder streaming (HD_ENCODINGS). An enlargement is bilinear from a pre-emphasised copy, a
 * reduction Lanczos (libvips' reduce, fast and exact).
 */
export async function resampleToFile(
  image: RgbImage,
  options: ResampleOptions,
  file: string,
): Promise<void> {
  const { width, height } = options;
  const raw = (data: Uint8Array, w: number, h: number) =>
    sharp(data, { raw: { width: w, height: h, channels: 3 } });
  const enlarging = width > image.width && height > image.height;
  const kernel = enlarging ? 'linear' : 'lanczos3';

  // The small copy the resample reads: wrapped for a seamless image (two pipelines, because
  // sharp extends after resizing within one), pre-emphasised for an enlargement (after the
  // wrap, so that the edges are sharpened from their neighbours across the torus). A few tens
  // of MB at most, the network's output's size.
  let source = { data: image.data, width: image.width, height: image.height };
  let cut = { x: 0, y: 0 };
  if (options.seamless || enlarging) {
    // Enough wrapped context for the kernel at the edges (3 source pixels for an enlargement,
    // 3 output pixels' worth for a reduction), and the pad that keeps the scale exact.
    const minPad = (scale: number) => Math.ceil(3 / Math.min(1, scale)) + 1;
    const x = options.seamless
      ? wrapExtension(image.width, width, minPad(width / image.width))
      : { pad: 0, cut: 0 };
    const y = options.seamless
      ? wrapExtension(image.height, height, minPad(height / image.height))
      : { pad: 0, cut: 0 };
    let copy = raw(image.data, image.width, image.height);
    if (options.seamless) {
      copy = copy.extend({
        left: x.pad,
        right: x.pad,
        top: y.pad,
        bottom: y.pad,
        extendWith: 'repeat',
      });
    }
    if (enlarging) copy = copy.convolve(preEmphasisKernel());
    source = {
      data: await copy.raw().toBuffer(),
      width: image.width + 2 * x.pad,
      height: image.height + 2 * y.pad,
    };
    cut = { x: x.cut, y: y.cut };
  }
  const pipeline = raw(source.data, source.width, source.height)
    .resize(width + 2 * cut.x, height + 2 * cut.y, { fit: 'fill', kernel })
    .extract({ left: cut.x, top: cut.y, width, height });
  const threads = sharp.concurrency();
  sharp.concurrency(Math.max(threads, resampleThreads()));
  try {
    await HD_ENCODINGS[options.encoding].encode(pipeline, 'streamed').toFile(file);
  } finally {
    sharp.concurrency(threads);
  }
}
