/**
 * Floors laid from a series' faces (issue 25), and how strongly a floor repeats: used by the
 * series tests, the docs pictures (tools) and nothing in production.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction (see options.ts). */
import type { RawImage } from '../../../imaging/raw-image.js';
import { mulberry32 } from '../prng.js';
import { luma } from './numeric.js';

/**
 * `columns × rows` faces (all of one size) laid edge to edge, each drawn at random (seeded)
 * from `faces`; also which face lies where (row by row, indices into `faces`).
 */
export function layFloor(
  faces: readonly RawImage[],
  columns: number,
  rows: number,
  seed: number,
): { floor: RawImage; layout: number[] } {
  const { width: W, height: H } = faces[0]!;
  const rng = mulberry32(seed);
  const layout = Array.from({ length: columns * rows }, () => rng.int(faces.length));
  const width = W * columns;
  const data = new Uint8Array(width * H * rows * 4);
  layout.forEach((face, k) => {
    const from = faces[face]!.data;
    const x0 = (k % columns) * W;
    const y0 = Math.floor(k / columns) * H;
    for (let y = 0; y < H; y++) {
      data.set(from.subarray(y * W * 4, (y + 1) * W * 4), ((y0 + y) * width + x0) * 4);
    }
  });
  return { floor: { data, width, height: H * rows }, layout };
}

/**
 * The normalized autocorrelation of the image's luminance at the shift (dx, dy): 1 when the
 * image repeats exactly with that period, about 0 when what lies a shift apart is unrelated.
 */
export function autocorrelation(image: RawImage, dx: number, dy: number): number {
  const { data, width: W, height: H } = image;
  const lum = new Float64Array(W * H);
  let mean = 0;
  for (let i = 0; i < W * H; i++) {
    lum[i] = luma(data[i * 4]!, data[i * 4 + 1]!, data[i * 4 + 2]!);
    mean += lum[i]!;
  }
  mean /= W * H;
  let product = 0;
  let spreadA = 0;
  let spreadB = 0;
  for (let y = 0; y + dy < H; y++) {
    for (let x = 0; x + dx < W; x++) {
      const a = lum[y * W + x]! - mean;
      const b = lum[(y + dy) * W + x + dx]! - mean;
      product += a * b;
      spreadA += a * a;
      spreadB += b * b;
    }
  }
  return spreadA > 0 && spreadB > 0 ? product / Math.sqrt(spreadA * spreadB) : 0;
}
