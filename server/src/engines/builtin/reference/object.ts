/**
 * A strong object in the reference (a shoe on the floor, a drain, a big stain): a region whose
 * local mean luminance stands far from the rest's. The local means (the luminance blurred over a
 * tenth of the short side, which averages the texture's features away but keeps anything larger,
 * lighting drift taken out) of a texture vary a little from place to place; an object's stand out.
 * A local mean's "object contrast" is its distance from the median local mean over the texture's
 * own variation: the larger of the local means' robust standard deviation and a quarter of the
 * pixels' (both measured on the texture only: what the drift fit kept). The object is the largest
 * connected region above the threshold, measured by its share of the picture.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * Numeric kernels over typed arrays: every index is in bounds by construction. */
import type { Drift } from './drift.js';
import { quantile } from './grey.js';

/** The pixels' contrast counts for this share in the texture's own variation. */
const PIXEL_SHARE = 0.25;

export interface ObjectRegion {
  /** The largest region's share of the picture whose contrast is above the threshold (0..1). */
  area: number;
  /** The highest object contrast anywhere. */
  peakContrast: number;
}

export function findObject(drift: Drift, threshold: number): ObjectRegion {
  const { localMeans, flat, inlier } = drift;
  const { width: W, height: H } = localMeans;
  const kept = (plane: Float32Array) => plane.filter((_, p) => inlier[p] === 1);
  const means = kept(localMeans.data);
  const pixels = kept(flat.data);
  // Nothing kept would mean nothing is texture; measure against everything then.
  const centre = quantile(means.length > 0 ? means : localMeans.data, 0.5);
  const own = Math.max(
    0.5,
    robustDeviation(means.length > 0 ? means : localMeans.data),
    PIXEL_SHARE * robustDeviation(pixels.length > 0 ? pixels : flat.data),
  );
  const above = new Uint8Array(W * H);
  let peakContrast = 0;
  for (let p = 0; p < W * H; p++) {
    const c = Math.abs(localMeans.data[p]! - centre) / own;
    if (c > peakContrast) peakContrast = c;
    if (c > threshold) above[p] = 1;
  }
  return { area: largestRegion(above, W, H) / (W * H), peakContrast };
}

/** 1.4826 × the median absolute deviation: the standard deviation, were the values normal. */
function robustDeviation(values: Float32Array): number {
  const median = quantile(values, 0.5);
  return (
    1.4826 *
    quantile(
      values.map((v) => Math.abs(v - median)),
      0.5,
    )
  );
}

/** The pixel count of the largest 4-connected region of ones. */
function largestRegion(mask: Uint8Array, W: number, H: number): number {
  const seen = new Uint8Array(W * H);
  const stack: number[] = [];
  let largest = 0;
  for (let start = 0; start < W * H; start++) {
    if (!mask[start] || seen[start]) continue;
    seen[start] = 1;
    stack.push(start);
    let size = 0;
    while (stack.length > 0) {
      const p = stack.pop()!;
      size++;
      const x = p % W;
      const neighbours = [x > 0 ? p - 1 : -1, x < W - 1 ? p + 1 : -1, p - W, p + W];
      for (const q of neighbours) {
        if (q < 0 || q >= W * H || !mask[q] || seen[q]) continue;
        seen[q] = 1;
        stack.push(q);
      }
    }
    largest = Math.max(largest, size);
  }
  return largest;
}
