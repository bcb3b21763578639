/**
 * Lighting drift: the smooth, low-frequency change of brightness and colour across a photo
 * (light from one side, vignetting). Patches copied from its light and dark ends would meet in
 * colour steps along the cuts, so quilting works on the reference with the drift taken out and
 * the drift is put back afterwards, smoothly, over the whole output.
 *
 * The drift is modelled per channel as a quadratic polynomial in the image's coordinates, fitted
 * by least squares: smooth enough never to take in the texture's own features (a brick's shade,
 * a pebble), flexible enough for a side light or a vignette.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction (see options.ts). */
import type { RawImage } from '../../../imaging/raw-image.js';
import { MASK_ALPHA_THRESHOLD } from '../../engine.js';

const TERMS = 6;

/** Per channel, the coefficients of 1, u, v, u², uv, v² (u, v in −½..½ across the image). */
export type LightingField = Float64Array[];

function basis(u: number, v: number, out: Float64Array): void {
  out[0] = 1;
  out[1] = u;
  out[2] = v;
  out[3] = u * u;
  out[4] = u * v;
  out[5] = v * v;
}

/**
 * The drift of `image`, fitted on the pixels with alpha ≥ 128 when `masked` (the part that
 * patches are copied from), else on all pixels. Zero-mean over the fitted pixels: taking it out
 * keeps the reference's average colour.
 */
export function fitLighting(image: RawImage, masked: boolean): LightingField {
  const { data, width: W, height: H } = image;
  // Normal equations on a sparse grid of pixels (the fit is smooth; a few thousand suffice).
  const step = Math.max(1, Math.floor(Math.sqrt((W * H) / 16384)));
  const ata = new Float64Array(TERMS * TERMS);
  const atb = [new Float64Array(TERMS), new Float64Array(TERMS), new Float64Array(TERMS)];
  const phi = new Float64Array(TERMS);
  let n = 0;
  for (let y = 0; y < H; y += step) {
    for (let x = 0; x < W; x += step) {
      const p = (y * W + x) * 4;
      if (masked && data[p + 3]! < MASK_ALPHA_THRESHOLD) continue;
      basis((x + 0.5) / W - 0.5, (y + 0.5) / H - 0.5, phi);
      for (let a = 0; a < TERMS; a++) {
        for (let b = 0; b < TERMS; b++)
          ata[a * TERMS + b] = ata[a * TERMS + b]! + phi[a]! * phi[b]!;
        for (let c = 0; c < 3; c++) atb[c]![a] = atb[c]![a]! + phi[a]! * data[p + c]!;
      }
      n++;
    }
  }
  if (n < TERMS * 4) return [0, 1, 2].map(() => new Float64Array(TERMS));
  return atb.map((rhs) => {
    const coef = solve(ata.slice(), rhs.slice(), TERMS);
    // Zero mean over the fitted pixels: the constant term is the average colour.
    let mean = 0;
    for (let a = 0; a < TERMS; a++) mean += (coef[a]! * ata[a]!) / n;
    coef[0] = coef[0]! - mean;
    return coef;
  });
}

/** The field's value for channel `c` at pixel (x, y) of an image `W × H`. */
export function lightingAt(
  field: LightingField,
  c: number,
  x: number,
  y: number,
  W: number,
  H: number,
): number {
  const k = field[c]!;
  const u = (x + 0.5) / W - 0.5;
  const v = (y + 0.5) / H - 0.5;
  return k[0]! + k[1]! * u + k[2]! * v + k[3]! * u * u + k[4]! * u * v + k[5]! * v * v;
}

/** `image` with the drift taken out (rounded, clamped; alpha kept). */
export function removeLighting(image: RawImage, field: LightingField): RawImage {
  const { data, width: W, height: H } = image;
  const out = new Uint8Array(data.length);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const p = (y * W + x) * 4;
      for (let c = 0; c < 3; c++) {
        const v = data[p + c]! - lightingAt(field, c, x, y, W, H);
        out[p + c] = v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
      }
      out[p + 3] = data[p + 3]!;
    }
  }
  return { data: out, width: W, height: H };
}

/** Gaussian elimination with partial pivoting on a small dense system (a is n × n). */
function solve(a: Float64Array, b: Float64Array, n: number): Float64Array {
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) {
      if (Math.abs(a[r * n + col]!) > Math.abs(a[pivot * n + col]!)) pivot = r;
    }
    if (Math.abs(a[pivot * n + col]!) < 1e-12) continue;
    if (pivot !== col) {
      for (let k = 0; k < n; k++) {
        const t = a[col * n + k]!;
        a[col * n + k] = a[pivot * n + k]!;
        a[pivot * n + k] = t;
      }
      const t = b[col]!;
      b[col] = b[pivot]!;
      b[pivot] = t;
    }
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = a[r * n + col]! / a[col * n + col]!;
      if (f === 0) continue;
      for (let k = col; k < n; k++) a[r * n + k] = a[r * n + k]! - f * a[col * n + k]!;
      b[r] = b[r]! - f * b[col]!;
    }
  }
  const x = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    const d = a[r * n + r]!;
    x[r] = Math.abs(d) < 1e-12 ? 0 : b[r]! / d;
  }
  return x;
}
