import sharp from 'sharp';
import type { RawImage } from '../server/src/imaging/raw-image.js';

/** A PNG (or any image sharp reads) as RGBA pixels, as the engines hand them over. */
export async function readRawImage(file: string): Promise<RawImage> {
  const { data, info } = await sharp(file)
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

/** RGBA pixels written as a PNG. */
export function writeRawPng(image: RawImage, target: string): Promise<unknown> {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } })
    .png()
    .toFile(target);
}
