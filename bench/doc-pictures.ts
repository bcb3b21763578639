import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { RawImage } from '../server/src/imaging/raw-image.js';

// What the scripts that draw docs/images share: where the pictures go, how a tile is laid for
// them and how they are written.

export const DOCS_IMAGES = fileURLToPath(new URL('../docs/images/', import.meta.url));

/** RGBA pixels as sharp's raw composite input. */
export function rawInput(image: RawImage): Buffer {
  return Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength);
}

/** The image laid 2 × 2, as tiles are. */
export function tile2x2(image: RawImage): RawImage {
  const { width: W, height: H } = image;
  const data = new Uint8Array(W * H * 16);
  for (let y = 0; y < 2 * H; y++) {
    for (let k = 0; k < 2; k++) {
      const row = image.data.subarray((y % H) * W * 4, ((y % H) + 1) * W * 4);
      data.set(row, (y * 2 * W + k * W) * 4);
    }
  }
  return { data, width: 2 * W, height: 2 * H };
}

/**
 * Writes `image` as `name` in `dir` (docs/images unless told), a 256-colour palette PNG so each
 * picture stays a few hundred KB, resized to `maxWidth` when given; says its size.
 */
export async function savePicture(
  image: sharp.Sharp,
  name: string,
  options: { maxWidth?: number; dir?: string } = {},
): Promise<void> {
  // Flattened first: composite's result is one image, then resized (when asked) and quantised.
  const flat = await image.png().toBuffer();
  let out = sharp(flat).removeAlpha();
  if (options.maxWidth) out = out.resize({ width: options.maxWidth, kernel: 'lanczos3' });
  const info = await out
    .png({ palette: true, colours: 256, effort: 10 })
    .toFile(path.join(options.dir ?? DOCS_IMAGES, name));
  console.log(`${name}: ${info.width}x${info.height}, ${Math.round(info.size / 1024)} KB`);
}
