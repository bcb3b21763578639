/**
 * How strongly an output repeats itself when tiled (issue 27, part 3): the strongest peaks of
 * the normalised autocorrelation of the luminance of the output tiled 4 × 4, away from the
 * origin and from the tiling's own lattice — "the same stone again" inside a tile, which a
 * 3×3 preview or a floor shows as a pattern. For tests, the benchmark and the docs' figures.
 *
 * The tiling repeats the output exactly, so the circular autocorrelation of the 4 × 4 tiling
 * at a shift (dx, dy) is the circular autocorrelation of the output itself at (dx mod W,
 * dy mod H): every lattice point (k·W, l·H) scores 1, and everything else is computed on one
 * tile (16 times less work; tested equal on a small image). Measured on the luminance with its
 * broad variations filtered out (a high-pass whose gain is ½ at a wavelength of 1/16 of the
 * tile's short side: lighting and cloudy tones say nothing of a copied stone, and would lift
 * every shift alike); peaks within 1/32 of the short side of a lattice point (the texture's own
 * grain) are not counted.
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction. */
import type { RawImage } from '../../../imaging/raw-image.js';
import { luma } from '../quilting/numeric.js';
import { circularAutocorrelation, powerOfTwoAtLeast } from './fft2d.js';

export interface Repetition {
  /** The strongest peak's autocorrelation: about 0 for no repetition, 1 for an exact one. */
  peak: number;
  /** The mean of the {@link TOP} strongest distinct peaks: a steadier figure. */
  top: number;
  /** The strongest peak's shift (pixels, −W/2..W/2 and −H/2..H/2). */
  shift: [number, number];
}

/** How many peaks `top` averages. */
export const TOP = 8;

/** The repetition of `image` tiled (see the module's comment). */
export function repetition(image: RawImage): Repetition {
  const { width: W, height: H } = image;
  const PW = powerOfTwoAtLeast(W);
  const PH = powerOfTwoAtLeast(H);
  const lum = periodicLuminance(image, PW, PH);
  const short = Math.min(W, H);
  // Gain 1 − exp(−(f λ)² / 2) is ½ at f λ = 1.18: λ = 1.18 × short / 16.
  const lambda = (1.18 * short) / 16;
  const sx = PW / W;
  const sy = PH / H;
  const gain = (fx: number, fy: number) => {
    const f2 = (fx * sx) ** 2 + (fy * sy) ** 2;
    return 1 - Math.exp(-(f2 * lambda * lambda) / 2);
  };
  const ac = circularAutocorrelation(lum, PW, PH, gain);
  const exclusion = short / 32;
  // Local maxima (8 neighbours, circular) outside the exclusion disc, strongest first.
  const peaks: { value: number; dx: number; dy: number }[] = [];
  for (let y = 0; y < PH; y++) {
    for (let x = 0; x < PW; x++) {
      const v = ac[y * PW + x]!;
      const dx = (x < PW / 2 ? x : x - PW) / sx;
      const dy = (y < PH / 2 ? y : y - PH) / sy;
      if (Math.hypot(dx, dy) < exclusion) continue;
      let isMax = true;
      for (let j = -1; j <= 1 && isMax; j++) {
        for (let i = -1; i <= 1; i++) {
          if ((i || j) && ac[((y + j + PH) % PH) * PW + ((x + i + PW) % PW)]! > v) {
            isMax = false;
            break;
          }
        }
      }
      if (isMax) peaks.push({ value: v, dx, dy });
    }
  }
  peaks.sort((p, q) => q.value - p.value);
  // Distinct peaks: at least the exclusion radius apart (a peak's shoulders are one peak).
  const kept: typeof peaks = [];
  for (const p of peaks) {
    if (kept.length >= TOP) break;
    if (kept.some((q) => circularDistance(p, q, W, H) < exclusion)) continue;
    kept.push(p);
  }
  const strongest = kept[0];
  return {
    peak: strongest?.value ?? 0,
    top: kept.length > 0 ? kept.reduce((s, p) => s + p.value, 0) / kept.length : 0,
    shift: strongest ? [Math.round(strongest.dx), Math.round(strongest.dy)] : [0, 0],
  };
}

function circularDistance(
  p: { dx: number; dy: number },
  q: { dx: number; dy: number },
  W: number,
  H: number,
): number {
  let dx = Math.abs(p.dx - q.dx) % W;
  let dy = Math.abs(p.dy - q.dy) % H;
  dx = Math.min(dx, W - dx);
  dy = Math.min(dy, H - dy);
  return Math.hypot(dx, dy);
}

/**
 * The luminance of `image` on a PW × PH grid (powers of two ≥ its size), resampled bilinearly
 * as a periodic image when the sizes differ (so the resampled image tiles as the image does).
 */
export function periodicLuminance(image: RawImage, PW: number, PH: number): Float64Array {
  const { data, width: W, height: H } = image;
  const lum = new Float64Array(W * H);
  for (let i = 0; i < W * H; i++) lum[i] = luma(data[i * 4]!, data[i * 4 + 1]!, data[i * 4 + 2]!);
  if (PW === W && PH === H) return lum;
  const out = new Float64Array(PW * PH);
  for (let y = 0; y < PH; y++) {
    const fy = (y * H) / PH;
    const y0 = Math.floor(fy);
    const ty = fy - y0;
    const y1 = (y0 + 1) % H;
    for (let x = 0; x < PW; x++) {
      const fx = (x * W) / PW;
      const x0 = Math.floor(fx);
      const tx = fx - x0;
      const x1 = (x0 + 1) % W;
      const top = lum[y0 * W + x0]! * (1 - tx) + lum[y0 * W + x1]! * tx;
      const bottom = lum[y1 * W + x0]! * (1 - tx) + lum[y1 * W + x1]! * tx;
      out[y * PW + x] = top * (1 - ty) + bottom * ty;
    }
  }
  return out;
}
