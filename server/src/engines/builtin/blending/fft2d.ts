/**
 * Two-dimensional FFTs and autocorrelations of a real image, on fft.js (a radix-4 FFT of
 * power-of-two length): rows then columns. Used by the repetition measure and the stochastic
 * classifier; nothing here allocates per pixel beyond the spectrum itself.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction. */
import FFT from 'fft.js';

/** The smallest power of two ≥ n (and ≥ 2, fft.js's least size). */
export function powerOfTwoAtLeast(n: number): number {
  let p = 2;
  while (p < n) p *= 2;
  return p;
}

/** A W × H complex image, interleaved (re, im), W and H powers of two. */
export interface Spectrum {
  data: Float64Array;
  W: number;
  H: number;
}

/** In place: the 2-D DFT of `s` (or its inverse, scaled by 1 / (W·H), when `inverse`). */
export function fft2d(s: Spectrum, inverse = false): void {
  const { data, W, H } = s;
  const rows = new FFT(W);
  const cols = new FFT(H);
  const rowIn = new Float64Array(2 * W);
  const rowOut = new Float64Array(2 * W);
  for (let y = 0; y < H; y++) {
    rowIn.set(data.subarray(2 * W * y, 2 * W * (y + 1)));
    if (inverse) rows.inverseTransform(rowOut, rowIn);
    else rows.transform(rowOut, rowIn);
    data.set(rowOut, 2 * W * y);
  }
  const colIn = new Float64Array(2 * H);
  const colOut = new Float64Array(2 * H);
  for (let x = 0; x < W; x++) {
    for (let y = 0; y < H; y++) {
      colIn[2 * y] = data[2 * (y * W + x)]!;
      colIn[2 * y + 1] = data[2 * (y * W + x) + 1]!;
    }
    if (inverse) cols.inverseTransform(colOut, colIn);
    else cols.transform(colOut, colIn);
    for (let y = 0; y < H; y++) {
      data[2 * (y * W + x)] = colOut[2 * y]!;
      data[2 * (y * W + x) + 1] = colOut[2 * y + 1]!;
    }
  }
}

/**
 * The circular autocorrelation of the real W × H image `values` (W, H powers of two) after a
 * zero-mean and an optional filter of its spectrum (`gain(fx, fy)`, frequencies in cycles per
 * pixel, −½..½), normalised to 1 at the zero shift: out[dy · W + dx] for shifts modulo (W, H).
 * All zeros when the filtered image is flat.
 */
export function circularAutocorrelation(
  values: Float64Array,
  W: number,
  H: number,
  gain?: (fx: number, fy: number) => number,
): Float64Array {
  const s = autocorrelationSpectrum(values, W, H, W, H, gain);
  const out = new Float64Array(W * H);
  const zero = s.data[0]!;
  if (!(zero > 1e-9)) return out;
  for (let i = 0; i < W * H; i++) out[i] = s.data[2 * i]! / zero;
  return out;
}

/**
 * The linear (non-circular) normalised autocorrelation of a W × H image that does not wrap:
 * the image zero-padded to powers of two ≥ 2W, 2H, and each shift's sum divided by the number
 * of pixel pairs it has (so that a shift of half the image weighs as much as a small one).
 * out[(dy + H − 1) · (2W − 1) + dx + W − 1] for |dx| < W, |dy| < H; 1 at the zero shift.
 */
export function linearAutocorrelation(
  values: Float64Array,
  W: number,
  H: number,
  gain?: (fx: number, fy: number) => number,
): Float64Array {
  const PW = powerOfTwoAtLeast(2 * W);
  const PH = powerOfTwoAtLeast(2 * H);
  const s = autocorrelationSpectrum(values, W, H, PW, PH, gain);
  const OW = 2 * W - 1;
  const out = new Float64Array(OW * (2 * H - 1));
  const zero = s.data[0]! / (W * H);
  if (!(zero > 1e-9)) return out;
  for (let dy = 1 - H; dy < H; dy++) {
    for (let dx = 1 - W; dx < W; dx++) {
      const k = ((dy + PH) % PH) * PW + ((dx + PW) % PW);
      const pairs = (W - Math.abs(dx)) * (H - Math.abs(dy));
      out[(dy + H - 1) * OW + dx + W - 1] = s.data[2 * k]! / pairs / zero;
    }
  }
  return out;
}

/**
 * The W × H values, less their mean, laid in the corner of a PW × PH plane (zeros elsewhere),
 * transformed, squared to the power spectrum (times the gain squared) and transformed back:
 * the circular autocorrelation of that plane, unnormalised (Wiener–Khinchin).
 */
function autocorrelationSpectrum(
  values: Float64Array,
  W: number,
  H: number,
  PW: number,
  PH: number,
  gain?: (fx: number, fy: number) => number,
): Spectrum {
  const s: Spectrum = { data: new Float64Array(2 * PW * PH), W: PW, H: PH };
  let mean = 0;
  for (let i = 0; i < W * H; i++) mean += values[i]!;
  mean /= W * H;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) s.data[2 * (y * PW + x)] = values[y * W + x]! - mean;
  }
  fft2d(s);
  for (let fy = 0; fy < PH; fy++) {
    const vy = fy < PH / 2 ? fy / PH : fy / PH - 1;
    for (let fx = 0; fx < PW; fx++) {
      const vx = fx < PW / 2 ? fx / PW : fx / PW - 1;
      const k = 2 * (fy * PW + fx);
      const g = gain ? gain(vx, vy) : 1;
      s.data[k] = (s.data[k]! ** 2 + s.data[k + 1]! ** 2) * g * g;
      s.data[k + 1] = 0;
    }
  }
  fft2d(s, true);
  return s;
}
