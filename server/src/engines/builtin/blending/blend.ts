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
import { blendWith } from './kernel.js';
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
