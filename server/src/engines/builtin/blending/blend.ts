/**
 * Texture synthesis by tiling and blending with a histogram-preserving blending operator (Heitz
 * & Neyret, HPG 2018; Deliot & Heitz, GPU Zen 2, 2019), for stochastic materials: the output is
 * covered by a periodic triangle lattice (lattice.ts); each vertex copies a window of the
 * reference from a seeded random place (vertices.ts); every pixel is the blend of its
 * triangle's three windows with variance-preserving weights w_i / √(Σ w_j²), computed on the
 * reference Gaussianised per decorrelated colour channel (colour-space.ts, gaussianise.ts), so
 * that the blend keeps the reference's histogram when mapped back; no cut, no seam, and no large
 * copy of the reference to repeat.
 *
 * Pure and synchronous, typed arrays: the builtin engine runs it in its worker thread. How each
 * option acts is documented in docs/engines.md ("Stochastic materials: blending").
 */
/* eslint-disable @typescript-eslint/no-non-null-assertion --
 * A numeric kernel over typed arrays: every index is in bounds by construction. */
import type { RawImage } from '../../../imaging/raw-image.js';
import { fitLighting, removeLighting } from '../quilting/lighting.js';
import type { SynthesisOptions } from '../quilting/options.js';
import { stylise } from '../quilting/tones.js';
import { principalAxes, project, type ColourBasis } from './colour-space.js';
import { gaussianise, type InverseTable } from './gaussianise.js';
import { splitBands } from './bands.js';
import { blendWith, colourBin } from './kernel.js';
import { planBlending, type BlendPlan } from './plan.js';
import { drawVertices } from './vertices.js';

/** The blur radius of the broad band, as a fraction of the lattice step. */
const BAND_SPLIT = 0.5;

/** The reference made ready for blending: its Gaussianised channels and their inverses. */
export interface PreparedReference {
  basis: ColourBasis;
  /**
   * Per reference pixel, six values: per decorrelated channel its Gaussian value's broad part,
   * then per channel its detail (the Gaussian value is broad + detail); one pixel's values
   * together, as the blend reads them.
   */
  bands: Float32Array;
  /** The broad band's share of the Gaussian values' variance (mean over the channels). */
  lowShare: number;
  inverse: InverseTable[];
  /** The reference's colours (after the lighting and style passes), RGBA. */
  colours: Uint8Array;
  /**
   * 1 for the colour bins (kernel.ts's colourBin) within one bin of a colour the reference has
   * (at least 1 pixel in 10 000): a blended colour outside them is replaced.
   */
  palette: Uint8Array;
  /** The lighting drift taken out (put back over a non-seamless output). */
  lighting: ReturnType<typeof fitLighting>;
  style: number;
}

/**
 * Blends `options.width × options.height` RGBA pixels (alpha 255) from `reference`, or
 * undefined when the mask leaves no room for a window (then quilt instead). `onProgress`
 * receives the fraction of rows done.
 */
export function blendSynthesize(
  reference: RawImage,
  options: SynthesisOptions,
  onProgress?: (fraction: number) => void,
): RawImage | undefined {
  const plan = planBlending(reference, options);
  if (!plan) return undefined;
  const prepared = prepareReference(reference, plan);
  const draws = drawVertices(plan.lattice, plan.region, () => options.seed >>> 0, plan.turnChance);
  return blendWith(prepared, plan, draws, onProgress);
}

/** The reference's lighting drift out, the style pass, the colour basis and Gaussianisation. */
export function prepareReference(reference: RawImage, plan: BlendPlan): PreparedReference {
  const { style } = plan.checked;
  // With a mask, the drift is fitted where windows come from (alpha ≥ 128), as quilting does.
  const lighting = fitLighting(reference, plan.included !== undefined);
  const ref = stylise(removeLighting(reference, lighting), style).data;
  const n = reference.width * reference.height;
  const basis = principalAxes(ref, n, plan.included);
  const channels = [new Float32Array(n), new Float32Array(n), new Float32Array(n)];
  const coords = new Float64Array(3);
  for (let i = 0; i < n; i++) {
    project(basis, ref[i * 4]!, ref[i * 4 + 1]!, ref[i * 4 + 2]!, coords);
    for (let c = 0; c < 3; c++) channels[c]![i] = coords[c]!;
  }
  const gaussianised = channels.map((values) => gaussianise(values, plan.included));
  const radius = Math.max(1, Math.round(plan.lattice.a * BAND_SPLIT));
  const bands = gaussianised.map((g) =>
    splitBands(g.gaussian, reference.width, reference.height, radius, plan.included),
  );
  const interleaved = new Float32Array(n * 6);
  bands.forEach(({ low, high }, c) => {
    for (let i = 0; i < n; i++) {
      interleaved[i * 6 + c] = low[i]!;
      interleaved[i * 6 + 3 + c] = high[i]!;
    }
  });
  return {
    basis,
    bands: interleaved,
    colours: ref,
    palette: palette(ref, n, plan.included),
    lowShare: lowShare(bands),
    inverse: gaussianised.map((g) => g.inverse),
    lighting,
    style,
  };
}

/** The broad band's share of the variance, averaged over the channels that vary. */
function lowShare(bands: { low: Float32Array; high: Float32Array }[]): number {
  let sum = 0;
  let count = 0;
  for (const { low, high } of bands) {
    const vl = variance(low);
    const total = vl + variance(high);
    if (!(total > 1e-6)) continue;
    sum += vl / total;
    count++;
  }
  return count > 0 ? sum / count : 0;
}

function variance(values: Float32Array): number {
  let s = 0;
  let q = 0;
  const n = values.length;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    s += v;
    q += v * v;
  }
  const mean = s / values.length;
  return q / values.length - mean * mean;
}

/** The colour bins near the reference's colours (see PreparedReference.palette). */
function palette(colours: Uint8Array, n: number, included?: Uint8Array): Uint8Array {
  const counts = new Uint32Array(4096);
  let total = 0;
  for (let i = 0; i < n; i++) {
    if (included && included[i] !== 1) continue;
    counts[colourBin(colours[i * 4]!, colours[i * 4 + 1]!, colours[i * 4 + 2]!)]!++;
    total++;
  }
  const near = new Uint8Array(4096);
  for (let k = 0; k < 4096; k++) {
    if (counts[k]! < Math.max(1, total * 1e-4)) continue;
    const [r, g, b] = [k >> 8, (k >> 4) & 15, k & 15];
    for (let i = Math.max(0, r - 1); i <= Math.min(15, r + 1); i++) {
      for (let j = Math.max(0, g - 1); j <= Math.min(15, g + 1); j++) {
        for (let l = Math.max(0, b - 1); l <= Math.min(15, b + 1); l++)
          near[(i * 16 + j) * 16 + l] = 1;
      }
    }
  }
  return near;
}
