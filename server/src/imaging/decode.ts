// Decoding accepted images (SPEC §5) to 8-bit RGBA pixels or a sharp pipeline, whatever their
// format (BMP by bmp.ts), the pixel limit checked before decoding. What the header alone tells,
// format and size, is image-header.ts's.
import fsp from 'node:fs/promises';
import { UPLOAD_MAX_PIXELS } from '@tessera/contract';
import sharp from 'sharp';
import type { RawImage } from './raw-image.js';
import { decodeBmp } from './bmp.js';
import { sniffImageFormat } from './image-header.js';

export interface DecodeOptions {
  /** Refuse images with more pixels than this before decoding them; default UPLOAD_MAX_PIXELS. */
  maxPixels?: number;
}

/**
 * The image as a sharp pipeline, orientation applied, for any accepted format (BMP decoded by
 * bmp.ts and handed over as raw RGBA). Refuses more than `maxPixels` before decoding. The file
 * is read into memory first: libvips caches loads by file name, which a replaced file would
 * defeat.
 */
export async function openImage(path: string, options: DecodeOptions = {}): Promise<sharp.Sharp> {
  const maxPixels = options.maxPixels ?? UPLOAD_MAX_PIXELS;
  const data = await fsp.readFile(path);
  const format = sniffImageFormat(data);
  if (!format) throw new Error('Not an image in an accepted format (png, jpeg, gif, webp, bmp)');
  if (format === 'bmp') {
    const { data: pixels, width, height } = decodeBmp(data, maxPixels);
    return sharp(pixels, { raw: { width, height, channels: 4 } });
  }
  return sharp(data, { limitInputPixels: maxPixels }).autoOrient();
}

/** 8-bit RGBA pixels of any accepted format, EXIF orientation applied (first frame of animations). */
export async function decodeToRaw(path: string, options: DecodeOptions = {}): Promise<RawImage> {
  const maxPixels = options.maxPixels ?? UPLOAD_MAX_PIXELS;
  const data = await fsp.readFile(path);
  const format = sniffImageFormat(data);
  if (format === 'bmp') return decodeBmp(data, maxPixels);
  if (!format) throw new Error('Not an image in an accepted format (png, jpeg, gif, webp, bmp)');
  const { data: pixels, info } = await sharp(data, { limitInputPixels: maxPixels })
    .autoOrient()
    .toColourspace('srgb')
    .ensureAlpha()
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 4) throw new Error(`Decoded to ${info.channels} channels, not RGBA`);
  return { data: pixels, width: info.width, height: info.height };
}
