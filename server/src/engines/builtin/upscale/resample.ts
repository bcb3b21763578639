/**
 * The last stage of the builtin upscaler: libvips (sharp) resamples an RGB image to the exact
 * target size and encodes it straight to a file, in one streamed pipeline — libvips computes the
 * output strip by strip as the encoder asks for it, so the full-size image never exists in
 * memory (docs/engines.md, HD: memory).
 */
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
 * Resamples `image` to exactly `width`×`height` and writes it to `file` in `encoding`, its
 * encoder streaming (HD_ENCODINGS).
 */
export async function resampleToFile(
  image: RgbImage,
  options: ResampleOptions,
  file: string,
): Promise<void> {
  const { width, height } = options;
  const raw = (data: Uint8Array, w: number, h: number) =>
    sharp(data, { raw: { width: w, height: h, channels: 3 } });

  let pipeline: sharp.Sharp;
  if (options.seamless) {
    // Enough wrapped context for the kernel at the edges (3 source pixels for an enlargement,
    // 3 output pixels' worth for a reduction), and the pad that keeps the scale exact.
    const minPad = (scale: number) => Math.ceil(3 / Math.min(1, scale)) + 1;
    const x = wrapExtension(image.width, width, minPad(width / image.width));
    const y = wrapExtension(image.height, height, minPad(height / image.height));
    // Two pipelines, because sharp extends after resizing within one. The extended copy is of
    // the network's output, a few tens of MB at most, not of the target.
    const extended = await raw(image.data, image.width, image.height)
      .extend({ left: x.pad, right: x.pad, top: y.pad, bottom: y.pad, extendWith: 'repeat' })
      .raw()
      .toBuffer();
    pipeline = raw(extended, image.width + 2 * x.pad, image.height + 2 * y.pad)
      .resize(width + 2 * x.cut, height + 2 * y.cut, { fit: 'fill', kernel: 'lanczos3' })
      .extract({ left: x.cut, top: y.cut, width, height });
  } else {
    pipeline = raw(image.data, image.width, image.height).resize(width, height, {
      fit: 'fill',
      kernel: 'lanczos3',
    });
  }
  await HD_ENCODINGS[options.encoding].encode(pipeline, 'streamed').toFile(file);
}
