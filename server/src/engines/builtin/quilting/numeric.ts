/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction (see options.ts). */
/** Small numeric helpers and image statistics shared by the quilting steps. */

/** Mean squared RGB difference between horizontal and vertical neighbours, per channel. */
export function gradientEnergy(data: ArrayLike<number>, W: number, H: number): number {
  // Integer sums: exact in any order, so the two directions are summed in separate loops
  // without an allocation per pixel.
  let sum = 0;
  const pairs = (H * (W - 1) + W * (H - 1)) * 3;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const p = (y * W + x) * 4;
      for (let c = 0; c < 3; c++) {
        const v = data[p + c]!;
        if (x + 1 < W) sum += (v - data[p + 4 + c]!) ** 2;
        if (y + 1 < H) sum += (v - data[p + W * 4 + c]!) ** 2;
      }
    }
  }
  return pairs > 0 ? sum / pairs : 0;
}

/** Mean per-channel variance of the RGB values. */
export function colourVariance(data: ArrayLike<number>, n: number): number {
  let total = 0;
  for (let ch = 0; ch < 3; ch++) {
    let sum = 0;
    let sq = 0;
    for (let p = ch; p < n * 4; p += 4) {
      const v = data[p] as number;
      sum += v;
      sq += v * v;
    }
    const mean = sum / n;
    total += sq / n - mean * mean;
  }
  return total / 3;
}

export function luma(r: number, g: number, b: number): number {
  return 0.299 * r + 0.587 * g + 0.114 * b;
}

export function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}

export function clampInt(v: number, lo: number, hi: number): number {
  return Math.round(clamp(v, lo, hi));
}

/** Per pixel, the luminance gradient (central differences, one-sided at the border), x and y. */
export function luminanceGradient(data: Uint8Array, W: number, H: number): Int16Array {
  // Luminance in fixed point (× 1024) keeps the loop in integers.
  const Y = new Int32Array(W * H);
  for (let i = 0, p = 0; i < W * H; i++, p += 4) {
    Y[i] = 306 * data[p]! + 601 * data[p + 1]! + 117 * data[p + 2]!;
  }
  const out = new Int16Array(W * H * 2);
  for (let y = 0; y < H; y++) {
    const u = y > 0 ? -W : 0;
    const d = y + 1 < H ? W : 0;
    const dy = u !== 0 && d !== 0 ? 2048 : 1024;
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      const l = x > 0 ? i - 1 : i;
      const r = x + 1 < W ? i + 1 : i;
      out[i * 2] = Math.round((Y[r]! - Y[l]!) / (r - l === 2 ? 2048 : 1024));
      out[i * 2 + 1] = Math.round((Y[i + d]! - Y[i + u]!) / dy);
    }
  }
  return out;
}

/** A 3 × 3 box blur of a W × H float image, the border averaged over the pixels it has. */
export function boxBlur3(src: Float32Array, W: number, H: number): Float32Array {
  const out = new Float32Array(W * H);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      let s = 0;
      let n = 0;
      for (let j = Math.max(0, y - 1); j <= Math.min(H - 1, y + 1); j++) {
        for (let i = Math.max(0, x - 1); i <= Math.min(W - 1, x + 1); i++) {
          s += src[j * W + i]!;
          n++;
        }
      }
      out[y * W + x] = s / n;
    }
  }
  return out;
}
