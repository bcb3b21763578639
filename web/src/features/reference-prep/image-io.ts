import { fitWithin, type Pixels } from './pixels';

/** A picture as pixels, and whether it had to be made smaller to fit. */
export interface LoadedPixels {
  pixels: Pixels;
  reduced: boolean;
}

/**
 * The image file's pixels, scaled down (never up) to `maxSide` on the long side; its EXIF
 * orientation applied, as the browser shows it.
 */
export async function loadPixels(file: Blob, maxSide: number): Promise<LoadedPixels> {
  const bitmap = await createImageBitmap(file);
  try {
    const size = fitWithin(bitmap.width, bitmap.height, maxSide);
    const canvas = document.createElement('canvas');
    Object.assign(canvas, size);
    const context = canvas.getContext('2d');
    if (!context) throw new Error('No 2D canvas');
    context.imageSmoothingQuality = 'high';
    context.drawImage(bitmap, 0, 0, size.width, size.height);
    const { data } = context.getImageData(0, 0, size.width, size.height);
    return {
      pixels: { data, ...size },
      reduced: size.width !== bitmap.width || size.height !== bitmap.height,
    };
  } finally {
    bitmap.close();
  }
}

/** Draws `pixels` on `canvas`, sized to them. */
export function drawPixels(canvas: HTMLCanvasElement, pixels: Pixels): void {
  canvas.width = pixels.width;
  canvas.height = pixels.height;
  const image = new ImageData(new Uint8ClampedArray(pixels.data), pixels.width, pixels.height);
  canvas.getContext('2d')?.putImageData(image, 0, 0);
}

/** `pixels` as a PNG. */
export function toPng(pixels: Pixels): Promise<Blob> {
  const canvas = document.createElement('canvas');
  drawPixels(canvas, pixels);
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('The PNG could not be made'))),
      'image/png',
    ),
  );
}
