/**
 * Is a reference stochastic (granite, sand, terrazzo, moss, concrete: no structure to keep, so
 * blending suits it) or structured (bricks, planks, stripes, veined marble, stone tiles: rows,
 * lines and joints that quilting keeps whole)? Decided from three measurable features of its
 * luminance, at an analysis size of at most 256 px on the short side:
 *
 * - periodicity: the strongest secondary peak of its normalised autocorrelation (broad tones
 *   filtered out), away from the central lobe: a repeating row, brick or weave scores high;
 * - lines: how far the autocorrelation stays high along one direction (the mean along the best
 *   of 36 rays, from 1/10 to 1/3 of the short side out): a long straight line (a mortar joint,
 *   a plank's gap or grain, a vein, a stripe) correlates with itself along its length;
 * - coherence: the energy-weighted mean coherence of the local structure tensor,
 *   ((λ1 − λ2) / (λ1 + λ2))²: 1 where the gradients all point one way (an edge, a grain), low
 *   where they point every way (grains, speckles);
 *
 * and a fourth at the working size, veins (veins.ts): the share of the pixels standing out from
 * a plain ground that lie in features longer than a quarter of the image (marble's veins).
 * Stochastic when all four are below their thresholds (docs/engines.md gives the figures).
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction. */
import type { RawImage } from '../../../imaging/raw-image.js';
import { luma } from '../quilting/numeric.js';
import { linearAutocorrelation } from './fft2d.js';
import { veinFigures } from './veins.js';

/** The analysis works at most this size on the short side (box-averaged down to it). */
const ANALYSIS_SIDE = 256;

/** The thresholds: a reference is stochastic when every feature is below its own. */
export const STOCHASTIC_THRESHOLDS = {
  periodicity: 0.3,
  lines: 0.15,
  coherence: 0.5,
  veins: 0.35,
} as const;

export interface StochasticFigures {
  periodicity: number;
  lines: number;
  coherence: number;
  /** Not measured when another figure already says structured. */
  veins?: number;
}

export interface StochasticDecision {
  stochastic: boolean;
  figures: StochasticFigures;
}

/** The decision for `reference` (RGBA, any size), with the figures it rests on. */
export function isStochastic(reference: RawImage): StochasticDecision {
  const { lum, W, H } = analysisLuminance(reference, ANALYSIS_SIDE);
  const t = STOCHASTIC_THRESHOLDS;
  const cheap = { ...autocorrelationFeatures(lum, W, H), coherence: coherence(lum, W, H) };
  // The veins figure works at the working size (a third of a 1024² job's time): when a figure
  // at the analysis size already says structured, it cannot change the decision.
  if (
    cheap.periodicity >= t.periodicity ||
    cheap.lines >= t.lines ||
    cheap.coherence >= t.coherence
  ) {
    return { stochastic: false, figures: cheap };
  }
  const full = analysisLuminance(reference, Infinity);
  const veins = veinFigures(full.lum, full.W, full.H).veins;
  return { stochastic: veins < t.veins, figures: { ...cheap, veins } };
}

/** The luminance, box-averaged so that the short side is at most `side`. */
function analysisLuminance(
  image: RawImage,
  side: number,
): { lum: Float64Array; W: number; H: number } {
  const { data, width, height } = image;
  const f = Math.max(1, Math.ceil(Math.min(width, height) / side));
  const W = Math.floor(width / f);
  const H = Math.floor(height / f);
  const lum = new Float64Array(W * H);
  for (let y = 0; y < H * f; y++) {
    for (let x = 0; x < W * f; x++) {
      const p = (y * width + x) * 4;
      lum[Math.floor(y / f) * W + Math.floor(x / f)]! += luma(data[p]!, data[p + 1]!, data[p + 2]!);
    }
  }
  for (let i = 0; i < W * H; i++) lum[i]! /= f * f;
  return { lum, W, H };
}

/** Periodicity and lines, from the autocorrelation with broad tones filtered out. */
function autocorrelationFeatures(
  lum: Float64Array,
  W: number,
  H: number,
): { periodicity: number; lines: number } {
  const short = Math.min(W, H);
  // High-pass: gain ½ at a wavelength of 1/4 of the short side (lighting and clouds out).
  const lambda = (1.18 * short) / 4;
  const ac = linearAutocorrelation(lum, W, H, (fx, fy) => {
    return 1 - Math.exp(-((fx * fx + fy * fy) * lambda * lambda) / 2);
  });
  const OW = 2 * W - 1;
  const at = (dx: number, dy: number) => ac[(dy + H - 1) * OW + dx + W - 1]!;
  // The central lobe: out to where the radial mean first falls below 0.1.
  const reach = Math.floor(short / 2);
  let lobe = reach;
  for (let r = 1; r < reach; r++) {
    let sum = 0;
    const steps = Math.max(8, Math.round(2 * Math.PI * r));
    for (let k = 0; k < steps; k++) {
      const a = (2 * Math.PI * k) / steps;
      sum += at(Math.round(r * Math.cos(a)), Math.round(r * Math.sin(a)));
    }
    if (sum / steps < 0.1) {
      lobe = r;
      break;
    }
  }
  // Periodicity: the strongest local maximum beyond twice the lobe, within half the image.
  let periodicity = 0;
  const min = Math.max(3, 2 * lobe);
  const hx = Math.floor(W / 2);
  const hy = Math.floor(H / 2);
  for (let dy = 0; dy <= hy; dy++) {
    for (let dx = -hx; dx <= hx; dx++) {
      if (dx * dx + dy * dy < min * min) continue;
      const v = at(dx, dy);
      if (v <= periodicity) continue;
      let isMax = true;
      for (let j = -1; j <= 1 && isMax; j++) {
        for (let i = -1; i <= 1; i++) {
          const x = dx + i;
          const y = dy + j;
          if (Math.abs(x) >= W || Math.abs(y) >= H) continue;
          if ((i || j) && at(x, y) > v) {
            isMax = false;
            break;
          }
        }
      }
      if (isMax) periodicity = v;
    }
  }
  // Lines: the best direction's mean autocorrelation from 1/10 to 1/3 of the short side.
  let lines = 0;
  const r0 = Math.max(min, Math.round(short / 10));
  const r1 = Math.round(short / 3);
  for (let k = 0; k < 36; k++) {
    const a = (Math.PI * k) / 36;
    let sum = 0;
    let n = 0;
    for (let r = r0; r <= r1; r++) {
      sum += at(Math.round(r * Math.cos(a)), Math.round(r * Math.sin(a)));
      n++;
    }
    if (n > 0) lines = Math.max(lines, sum / n);
  }
  return { periodicity, lines };
}

/**
 * The energy-weighted mean coherence of the structure tensor: gradients by central differences,
 * their products averaged over a 5 × 5 window.
 */
function coherence(lum: Float64Array, W: number, H: number): number {
  const xx = new Float64Array(W * H);
  const xy = new Float64Array(W * H);
  const yy = new Float64Array(W * H);
  for (let y = 1; y + 1 < H; y++) {
    for (let x = 1; x + 1 < W; x++) {
      const i = y * W + x;
      const gx = (lum[i + 1]! - lum[i - 1]!) / 2;
      const gy = (lum[i + W]! - lum[i - W]!) / 2;
      xx[i] = gx * gx;
      xy[i] = gx * gy;
      yy[i] = gy * gy;
    }
  }
  const R = 2;
  let weighted = 0;
  let energy = 0;
  for (let y = R + 1; y + R + 1 < H; y++) {
    for (let x = R + 1; x + R + 1 < W; x++) {
      let a = 0;
      let b = 0;
      let c = 0;
      for (let j = -R; j <= R; j++) {
        for (let i = -R; i <= R; i++) {
          const k = (y + j) * W + x + i;
          a += xx[k]!;
          b += xy[k]!;
          c += yy[k]!;
        }
      }
      const trace = a + c;
      if (!(trace > 1e-9)) continue;
      const diff = Math.sqrt((a - c) ** 2 + 4 * b * b);
      weighted += (diff / trace) ** 2 * trace;
      energy += trace;
    }
  }
  return energy > 0 ? weighted / energy : 0;
}
