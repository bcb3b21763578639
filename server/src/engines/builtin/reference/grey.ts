/**
 * Luminance planes for the reference analysis (issue 27, part 5): the reference's luma at the
 * analysis size, box blurs and Sobel gradients. Plain typed arrays; values in 8-bit levels.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * Numeric kernels over typed arrays: every index is in bounds by construction. */
import type { RawImage } from '../../../imaging/raw-image.js';

export interface Grey {
  data: Float32Array;
  width: number;
  height: number;
}

/**
 * Rec. 709 luma of `image`, averaged over k × k blocks (k = its long side over `side`, rounded)
 * so the texture's own grain is averaged out as a camera at that size would.
 */
export function analysisLuminance(image: RawImage, side: number): Grey {
  const { data, width: W, height: H } = image;
  const k = Math.max(1, Math.round(Math.max(W, H) / side));
  const width = Math.max(1, Math.floor(W / k));
  const height = Math.max(1, Math.floor(H / k));
  const out = new Float32Array(width * height);
  const area = k * k;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let j = 0; j < k; j++) {
        let p = ((y * k + j) * W + x * k) * 4;
        for (let i = 0; i < k; i++, p += 4) {
          sum += 0.2126 * data[p]! + 0.7152 * data[p + 1]! + 0.0722 * data[p + 2]!;
        }
      }
      out[y * width + x] = sum / area;
    }
  }
  return { data: out, width, height };
}

/** One box blur of radius `r` along rows then columns, edges clamped. */
function boxOnce(src: Float32Array, width: number, height: number, r: number): Float32Array {
  const tmp = new Float32Array(src.length);
  const out = new Float32Array(src.length);
  const n = 2 * r + 1;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let sum = 0;
    for (let i = -r; i <= r; i++) sum += src[row + clamp(i, width)]!;
    for (let x = 0; x < width; x++) {
      tmp[row + x] = sum / n;
      sum += src[row + clamp(x + r + 1, width)]! - src[row + clamp(x - r, width)]!;
    }
  }
  for (let x = 0; x < width; x++) {
    let sum = 0;
    for (let i = -r; i <= r; i++) sum += tmp[clamp(i, height) * width + x]!;
    for (let y = 0; y < height; y++) {
      out[y * width + x] = sum / n;
      sum += tmp[clamp(y + r + 1, height) * width + x]! - tmp[clamp(y - r, height) * width + x]!;
    }
  }
  return out;
}

function clamp(i: number, n: number): number {
  return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/** Three box passes of radius `r`: close to a Gaussian of σ ≈ r (r ≥ 1), edges clamped. */
export function blur(grey: Grey, r: number): Grey {
  if (r < 1) return grey;
  let data = grey.data;
  for (let pass = 0; pass < 3; pass++) data = boxOnce(data, grey.width, grey.height, r);
  return { data, width: grey.width, height: grey.height };
}

export interface Gradient {
  gx: Float32Array;
  gy: Float32Array;
  /** |∇|, in levels per pixel (Sobel divided by 8: a ramp of 1 level a pixel gives 1). */
  magnitude: Float32Array;
}

/** Sobel gradients, zero on the border. */
export function sobel(grey: Grey): Gradient {
  const { data, width: W, height: H } = grey;
  const gx = new Float32Array(W * H);
  const gy = new Float32Array(W * H);
  const magnitude = new Float32Array(W * H);
  for (let y = 1; y < H - 1; y++) {
    for (let x = 1; x < W - 1; x++) {
      const p = y * W + x;
      const a = data[p - W - 1]!;
      const b = data[p - W]!;
      const c = data[p - W + 1]!;
      const d = data[p - 1]!;
      const f = data[p + 1]!;
      const g = data[p + W - 1]!;
      const h = data[p + W]!;
      const i = data[p + W + 1]!;
      const sx = (c + 2 * f + i - a - 2 * d - g) / 8;
      const sy = (g + 2 * h + i - a - 2 * b - c) / 8;
      gx[p] = sx;
      gy[p] = sy;
      magnitude[p] = Math.hypot(sx, sy);
    }
  }
  return { gx, gy, magnitude };
}

/** The q-quantile (0..1) of `values` (a sorted copy; NaN for none). */
export function quantile(values: ArrayLike<number>, q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor(q * (sorted.length - 1))))]!;
}
