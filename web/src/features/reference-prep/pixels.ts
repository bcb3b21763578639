import { homography, project, rectangle, type Quad } from './homography';

/** RGBA pixels row by row, as a canvas' ImageData holds them. */
export interface Pixels {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

/** A rectangle in pixels. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The part of `source` inside `rect` (rounded to whole pixels, kept within the picture). */
export function crop(source: Pixels, rect: Rect): Pixels {
  const x0 = clamp(Math.round(rect.x), 0, source.width - 1);
  const y0 = clamp(Math.round(rect.y), 0, source.height - 1);
  const width = clamp(Math.round(rect.x + rect.width), x0 + 1, source.width) - x0;
  const height = clamp(Math.round(rect.y + rect.height), y0 + 1, source.height) - y0;
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    const from = ((y0 + y) * source.width + x0) * 4;
    data.set(source.data.subarray(from, from + width * 4), y * width * 4);
  }
  return { data, width, height };
}

/**
 * The quad of `source` straightened into a `width` × `height` picture: each output pixel's
 * centre is taken back through the homography to the source and sampled bilinearly there.
 */
export function warpQuad(source: Pixels, quad: Quad, width: number, height: number): Pixels {
  const back = homography(rectangle(width, height), quad);
  const data = new Uint8ClampedArray(width * height * 4);
  const rgba = [0, 0, 0, 0];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = project(back, { x: x + 0.5, y: y + 0.5 });
      sample(source, p.x - 0.5, p.y - 0.5, rgba);
      data.set(rgba, (y * width + x) * 4);
    }
  }
  return { data, width, height };
}

/** Bilinear sample at (x, y) in pixel-centre coordinates, edges clamped, into `out`. */
function sample(source: Pixels, x: number, y: number, out: number[]): void {
  const { data, width, height } = source;
  const x0 = clamp(Math.floor(x), 0, width - 1);
  const y0 = clamp(Math.floor(y), 0, height - 1);
  const x1 = Math.min(width - 1, x0 + 1);
  const y1 = Math.min(height - 1, y0 + 1);
  const fx = clamp(x - x0, 0, 1);
  const fy = clamp(y - y0, 0, 1);
  for (let c = 0; c < 4; c++) {
    const a = data[(y0 * width + x0) * 4 + c] ?? 0;
    const b = data[(y0 * width + x1) * 4 + c] ?? 0;
    const d = data[(y1 * width + x0) * 4 + c] ?? 0;
    const e = data[(y1 * width + x1) * 4 + c] ?? 0;
    out[c] = (a * (1 - fx) + b * fx) * (1 - fy) + (d * (1 - fx) + e * fx) * fy;
  }
}

function clamp(value: number, min: number, max: number): number {
  return value < min ? min : value > max ? max : value;
}

/** `source` scaled down (never up) so its long side is at most `maxSide`: its new size. */
export function fitWithin(width: number, height: number, maxSide: number) {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

/** The prepared reference's file name: the original's stem, marked, as a PNG. */
export function preparedName(original: string): string {
  const dot = original.lastIndexOf('.');
  const stem = (dot > 0 ? original.slice(0, dot) : original).replace(/-prepared$/, '');
  return `${stem}-prepared.png`;
}
