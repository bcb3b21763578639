/**
 * What a blending is laid out with, from the options: the triangle lattice's step (prompt
 * adherence), the region of the reference the vertices' windows may come from (the mask), how
 * sharp the blend is (similarity) and how often a window is turned or mirrored (imagination).
 * Undefined when the mask leaves no room for a window of the least step: the caller then
 * quilts instead.
 */
import type { RawImage } from '../../../imaging/raw-image.js';
import { MASK_ALPHA_THRESHOLD } from '../../engine.js';
import { maskRegion } from '../quilting/mask-region.js';
import { checkOptions, type CheckedOptions, type SynthesisOptions } from '../quilting/options.js';
import { triangleLattice, type Lattice } from './lattice.js';
import type { SourceRegion } from './vertices.js';

/** The least lattice step, in pixels: below it a window holds too little of the texture. */
export const MIN_STEP = 8;

export interface BlendPlan {
  checked: CheckedOptions;
  lattice: Lattice;
  region: SourceRegion;
  /** With a mask: 1 for the reference pixels the histograms are taken from (alpha ≥ 128). */
  included?: Uint8Array;
  /**
   * The exponent of the barycentric weights in the detail's blend, 2 + 6 × similarity: 2 a soft
   * blend, 8 a crisp one (kernel.ts eases the broad band's towards 1).
   */
  sharpness: number;
  /** The chance that a vertex's window is turned or mirrored. */
  turnChance: number;
}

/**
 * The step asked for: (0.06 + 0.1 × adherence) × the working reference's short side (0.06× at
 * adherence 0, 0.15× at the default 0.9, 0.26× at 2), at least {@link MIN_STEP}.
 */
export function stepFor(reference: { width: number; height: number }, adherence: number): number {
  return Math.max(MIN_STEP, Math.min(reference.width, reference.height) * (0.06 + 0.1 * adherence));
}

/** The plan of a blending of `reference` (at working size) with `options`, if one fits. */
export function planBlending(
  reference: RawImage,
  options: SynthesisOptions,
): BlendPlan | undefined {
  const checked = checkOptions(reference, options);
  const { W, H, Wr, Hr, similarity, imagination, adherence } = checked;
  const shortRef = Math.min(Wr, Hr);
  let step = stepFor(reference, adherence);
  for (;;) {
    const lattice = triangleLattice(W, H, step);
    const radius = Math.ceil(Math.max(lattice.a, lattice.b)) + 1;
    const window = 2 * radius + 1;
    const base = {
      checked,
      lattice,
      sharpness: 2 + 6 * similarity,
      turnChance: imagination / 20,
    };
    const fits = window <= shortRef;
    if (fits && !options.mask) return { ...base, region: { Wr, Hr, radius } };
    if (fits) {
      const mask = maskRegion(reference, window);
      if (mask.count === mask.total) return { ...base, region: { Wr, Hr, radius } };
      if (mask.count > 0) {
        const centres = new Uint32Array(mask.count);
        const nvx = Wr - window + 1;
        mask.list.forEach((origin, k) => {
          centres[k] = (Math.floor(origin / nvx) + radius) * Wr + (origin % nvx) + radius;
        });
        return { ...base, region: { Wr, Hr, radius, centres }, included: opaque(reference) };
      }
    }
    if (step <= MIN_STEP) return undefined;
    step = Math.max(MIN_STEP, step * 0.75);
  }
}

/** 1 where the reference's alpha is at least 128. */
function opaque(reference: RawImage): Uint8Array {
  const n = reference.width * reference.height;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++)
    out[i] = (reference.data[i * 4 + 3] ?? 0) >= MASK_ALPHA_THRESHOLD ? 1 : 0;
  return out;
}
