/**
 * The engine's side of the files: the image uploaded to ComfyUI, and ComfyUI's output written to
 * the job's `outputPath` as the builtin engine does (a partial name beside it, renamed into
 * place; nothing left behind on failure).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import sharp from 'sharp';
import { decodeToRaw, openImage } from '../../imaging/decode.js';
import { HD_ENCODINGS, type HdEncoding } from '../../imaging/hd-encodings.js';
import { MASK_ALPHA_THRESHOLD, type GeneratedImage } from '../engine.js';
import type { ComfyImageRef } from './api-types.js';
import type { ComfyClient } from './client.js';

/** Where the mask leaves the reference out, it is flattened to this neutral grey. */
const MASK_FILL = 128;

export interface PreparedImage {
  png: Buffer;
  width: number;
  height: number;
}

/**
 * An image as ComfyUI's LoadImage reads best: PNG, orientation applied (every accepted upload
 * format, BMP included). With `mask`, only the region where the alpha channel is at least 128 is
 * kept: the image is cut to that region's bounds and what lies outside it within them is neutral
 * grey, so that the IPAdapter sees the chosen material alone.
 */
export async function prepareImage(file: string, mask = false): Promise<PreparedImage> {
  if (mask) {
    const raw = await decodeToRaw(file);
    const masked = maskedRegion(raw.data, raw.width, raw.height);
    if (masked) {
      const { data, info } = await sharp(masked.data, {
        raw: { width: masked.width, height: masked.height, channels: 3 },
      })
        .png()
        .toBuffer({ resolveWithObject: true });
      return { png: data, width: info.width, height: info.height };
    }
  }
  const { data, info } = await (await openImage(file)).png().toBuffer({ resolveWithObject: true });
  return { png: data, width: info.width, height: info.height };
}

/** RGB pixels of the bounding box of the opaque region, the rest grey; undefined if none or all. */
export function maskedRegion(
  rgba: Uint8Array,
  width: number,
  height: number,
): { data: Buffer; width: number; height: number } | undefined {
  let left = width;
  let right = -1;
  let top = height;
  let bottom = -1;
  let opaque = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if ((rgba[(y * width + x) * 4 + 3] ?? 0) < MASK_ALPHA_THRESHOLD) continue;
      opaque++;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < top) top = y;
      if (y > bottom) bottom = y;
    }
  }
  // No alpha to speak of (or nothing opaque): the whole reference, as without a mask.
  if (opaque === 0 || opaque === width * height) return undefined;
  const w = right - left + 1;
  const h = bottom - top + 1;
  const data = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const from = ((top + y) * width + left + x) * 4;
      const to = (y * w + x) * 3;
      const inside = (rgba[from + 3] ?? 0) >= MASK_ALPHA_THRESHOLD;
      data[to] = inside ? (rgba[from] ?? 0) : MASK_FILL;
      data[to + 1] = inside ? (rgba[from + 1] ?? 0) : MASK_FILL;
      data[to + 2] = inside ? (rgba[from + 2] ?? 0) : MASK_FILL;
    }
  }
  return { data, width: w, height: h };
}

/**
 * Downloads an output image (GET /view, streamed to disk, failing only if it stalls), brings it to exactly width x height
 * (ComfyUI works in multiples of 8 and its upscalers round; see resampled) and encodes it in `encoding` (its
 * row of HD_ENCODINGS, optimised: the image is whole here anyway; PNG for previews); opaque,
 * with no text chunks (ComfyUI's embedded workflow is left out). Written to a partial name and
 * renamed into place.
 */
export async function writeOutput(
  client: ComfyClient,
  image: ComfyImageRef,
  outputPath: string,
  encoding: HdEncoding,
  size: { width: number; height: number },
  signal: AbortSignal,
  seamless = false,
): Promise<GeneratedImage> {
  const id = randomUUID();
  const download = `${outputPath}.${id}.download`;
  const partial = `${outputPath}.${id}.partial`;
  try {
    const body = (await client.view(image, signal)) as unknown as WebReadableStream<Uint8Array>;
    await pipeline(Readable.fromWeb(body), fs.createWriteStream(download), { signal });
    signal.throwIfAborted();
    const pipe = await resampled(download, size, seamless);
    const info = await HD_ENCODINGS[encoding].encode(pipe, 'optimised').toFile(partial);
    signal.throwIfAborted();
    await rename(partial, outputPath);
    return { width: info.width, height: info.height };
  } catch (error) {
    await rm(outputPath, { force: true });
    throw error;
  } finally {
    await Promise.all([rm(download, { force: true }), rm(partial, { force: true })]);
  }
}

/** Pixels around a seamless image taken from its other side before it is resampled. */
const WRAP_PAD = 16;
/** Above this many pixels a seamless image is resampled as any other (the wrap needs it in memory). */
const WRAP_MAX_PIXELS = 40_000_000;

/**
 * The downloaded image at exactly `size`: as it is when it already has that size (a resample
 * would soften its edges), else resampled (Lanczos). A seamless image is resampled with its
 * other side's pixels around it, so its edges still join (a plain resample pads by repeating the
 * edge, which costs a tiling image its smoothness across the joins: measured 1.0 → 1.9 times the
 * inside's gradient energy on a 1448 x 720 noise texture brought to 1448 x 724).
 */
export async function resampled(
  file: string,
  size: { width: number; height: number },
  seamless: boolean,
): Promise<sharp.Sharp> {
  const image = sharp(file, { limitInputPixels: false });
  const { width = 0, height = 0 } = await image.metadata();
  if (width === size.width && height === size.height) return image.removeAlpha();
  const plain = { fit: 'fill', kernel: 'lanczos3' } as const;
  if (
    !seamless ||
    size.width * size.height > WRAP_MAX_PIXELS ||
    width < WRAP_PAD ||
    height < WRAP_PAD
  ) {
    return image.resize(size.width, size.height, plain).removeAlpha();
  }
  const padX = Math.round((WRAP_PAD * size.width) / width);
  const padY = Math.round((WRAP_PAD * size.height) / height);
  // sharp extends after resizing within one pipeline: the wrapped copy is made first.
  const { data, info } = await image
    .removeAlpha()
    .extend({
      top: WRAP_PAD,
      bottom: WRAP_PAD,
      left: WRAP_PAD,
      right: WRAP_PAD,
      extendWith: 'repeat',
    })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(data, {
    raw: { width: info.width, height: info.height, channels: info.channels },
    limitInputPixels: false,
  })
    .resize(size.width + 2 * padX, size.height + 2 * padY, plain)
    .extract({ left: padX, top: padY, width: size.width, height: size.height });
}
