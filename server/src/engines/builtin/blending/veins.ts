/**
 * Veins: long, thin features on a plain ground (marble's veins, cracks), which blending would
 * fade in and out and quilting keeps whole. They are neither periodic nor straight nor
 * coherent at any one scale (a vein wanders), so the classifier's other features miss them;
 * what gives them away is that the pixels standing out from the ground are few and connected
 * over long distances, where the chips, grains and pores of stochastic materials stand out as
 * many small separate spots or as no ground at all.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction. */

/** Above this share of standing-out pixels the texture has no plain ground: no veins. */
export const MAX_FEATURE_COVER = 0.3;

export interface VeinFigures {
  /** The share of the pixels standing out from the ground (0..1). */
  cover: number;
  /**
   * The share of those in features longer than a quarter of the short side (their bounding box's
   * longer side); 0 when `cover` exceeds {@link MAX_FEATURE_COVER}.
   */
  veins: number;
}

/**
 * The vein figures of a W × H luminance image (at the reference's working size). The ground is
 * the luminance histogram's main mode (smoothed over ±3 levels); a pixel stands out when its
 * luminance (3 × 3 box-blurred twice) lies more than 2.5 times the mode's spread (its half
 * width at half height, as a Gaussian's σ), and at least 12 levels, from the mode. The
 * standing-out pixels are closed over two pixels (dilated twice, eroded twice: a speckled vein
 * becomes one line) and split into 8-connected features.
 */
export function veinFigures(lum: Float64Array, W: number, H: number): VeinFigures {
  const L = box3(box3(lum, W, H), W, H);
  const hist = new Float64Array(256);
  for (const v of L) hist[Math.max(0, Math.min(255, Math.round(v)))]!++;
  const smooth = hist.map((_, i) => {
    let s = 0;
    for (let d = -3; d <= 3; d++) s += hist[Math.max(0, Math.min(255, i + d))]!;
    return s / 7;
  });
  let mode = 0;
  for (let i = 0; i < 256; i++) if (smooth[i]! > smooth[mode]!) mode = i;
  let lo = mode;
  let hi = mode;
  while (lo > 0 && smooth[lo]! > smooth[mode]! / 2) lo--;
  while (hi < 255 && smooth[hi]! > smooth[mode]! / 2) hi++;
  const spread = Math.max(1, (hi - lo) / 2 / 1.177);
  const limit = Math.max(2.5 * spread, 12);
  let mask = new Uint8Array(W * H);
  let standing = 0;
  for (let i = 0; i < W * H; i++) {
    if (Math.abs(L[i]! - mode) > limit) {
      mask[i] = 1;
      standing++;
    }
  }
  const cover = standing / (W * H);
  if (cover > MAX_FEATURE_COVER) return { cover, veins: 0 };
  for (let k = 0; k < 2; k++) mask = morph(mask, W, H, true);
  for (let k = 0; k < 2; k++) mask = morph(mask, W, H, false);
  return { cover, veins: longShare(mask, W, H, Math.min(W, H) / 4) };
}

/** The share of the mask's pixels in 8-connected features at least `length` long. */
function longShare(mask: Uint8Array, W: number, H: number, length: number): number {
  const seen = new Uint8Array(W * H);
  const stack = new Int32Array(W * H);
  let total = 0;
  let long = 0;
  for (let start = 0; start < W * H; start++) {
    if (mask[start] !== 1 || seen[start] === 1) continue;
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    let n = 0;
    let x0 = W;
    let x1 = 0;
    let y0 = H;
    let y1 = 0;
    while (top > 0) {
      const p = stack[--top]!;
      n++;
      const x = p % W;
      const y = (p - x) / W;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
      for (let j = -1; j <= 1; j++) {
        for (let i = -1; i <= 1; i++) {
          const X = x + i;
          const Y = y + j;
          if (X < 0 || Y < 0 || X >= W || Y >= H) continue;
          const q = Y * W + X;
          if (mask[q] === 1 && seen[q] !== 1) {
            seen[q] = 1;
            stack[top++] = q;
          }
        }
      }
    }
    total += n;
    if (Math.max(x1 - x0, y1 - y0) >= length) long += n;
  }
  return total > 0 ? long / total : 0;
}

/** A 3 × 3 dilation (or erosion), the border clamped. */
function morph(mask: Uint8Array, W: number, H: number, dilate: boolean): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(W * H);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      let v = dilate ? 0 : 1;
      for (let j = -1; j <= 1; j++) {
        const Y = Math.min(H - 1, Math.max(0, y + j));
        for (let i = -1; i <= 1; i++) {
          const m = mask[Y * W + Math.min(W - 1, Math.max(0, x + i))]!;
          v = dilate ? v | m : v & m;
        }
      }
      out[y * W + x] = v;
    }
  }
  return out;
}

/** A 3 × 3 box mean, the border's missing neighbours left out. */
function box3(src: Float64Array, W: number, H: number): Float64Array {
  const tmp = new Float64Array(W * H);
  const out = new Float64Array(W * H);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const l = x > 0 ? 1 : 0;
      const r = x + 1 < W ? 1 : 0;
      let s = src[y * W + x]!;
      if (l) s += src[y * W + x - 1]!;
      if (r) s += src[y * W + x + 1]!;
      tmp[y * W + x] = s / (1 + l + r);
    }
  }
  for (let y = 0; y < H; y++) {
    const u = y > 0 ? 1 : 0;
    const d = y + 1 < H ? 1 : 0;
    for (let x = 0; x < W; x++) {
      let s = tmp[y * W + x]!;
      if (u) s += tmp[(y - 1) * W + x]!;
      if (d) s += tmp[(y + 1) * W + x]!;
      out[y * W + x] = s / (1 + u + d);
    }
  }
  return out;
}
