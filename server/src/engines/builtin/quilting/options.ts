/**
 * What a synthesis is asked for, and the sizes that follow from it: the working size the caller
 * resizes the reference to, and the patch side.
 */
import type { PreviewSettings } from '@tessera/contract';
import type { RawImage } from '../../../imaging/raw-image.js';
import { clamp } from './numeric.js';

/**
 * The preview settings the builtin engine reads (it has no text model, so no prompts):
 * - width, height: the output size in pixels;
 * - seed: same reference, options and seed give identical pixels;
 * - seamless: synthesize on a torus, so the output tiles with no visible seam both ways;
 * - mask: copy only from where the reference's alpha is at least 128 (when it has such a region);
 * - similarity (0..1): how closely the layout follows the reference (0 free rearrangement);
 * - imaginationWeight (0..20): variation: temperature of the choice among good candidates, and how
 *   often a new piece is joined in where the neighbour's copy could simply go on (0: the best);
 * - promptAdherence (0..2): patch size, i.e. how large the reference's structures copied intact are;
 * - style (0..1): stylisation strength (saturated, contrasted, posterised colours).
 */
export type SynthesisOptions = Omit<PreviewSettings, 'positivePrompt' | 'negativePrompt'>;

/** How the joins are made; the default is the product's, the other serves as a measured baseline. */
export interface SeamHandling {
  /**
   * true (default): lighting drift taken out before and put back after, structure-aware
   * overlap cost, the worst cuts re-synthesised, Poisson blending. false: the plain quilting of
   * Efros & Freeman with colour-only cuts feathered over 3×3 pixels (the baseline of the seam
   * benchmark).
   */
  repair: boolean;
  /**
   * true (default): with `repair`, a strongly oriented reference gets patches that carry its
   * straight runs and a heavier structure term (structure.ts). false: today's, for the benchmark.
   */
  followStructure?: boolean;
  /**
   * With `repair`, whether the cut defects are re-synthesised (defect-repair.ts); default true.
   * false: the output before that step (the baseline of the defect benchmark).
   */
  defects?: boolean;
}

/** The options checked (sizes) and clamped to their ranges (the rest, defaulted when not finite). */
export interface CheckedOptions {
  W: number;
  H: number;
  Wr: number;
  Hr: number;
  seamless: boolean;
  similarity: number;
  imagination: number;
  adherence: number;
  style: number;
}

/** Throws for sizes that are not positive integers or a reference that is not RGBA. */
export function checkOptions(reference: RawImage, options: SynthesisOptions): CheckedOptions {
  const W = checkSide(options.width, 'width');
  const H = checkSide(options.height, 'height');
  const Wr = checkSide(reference.width, 'reference width');
  const Hr = checkSide(reference.height, 'reference height');
  if (reference.data.length < Wr * Hr * 4) throw new Error('reference data is not RGBA');
  return {
    W,
    H,
    Wr,
    Hr,
    seamless: options.seamless,
    similarity: param(options.similarity, 0, 1, 1),
    imagination: param(options.imaginationWeight, 0, 20, 3.5),
    adherence: param(options.promptAdherence, 0, 2, 0.9),
    style: param(options.style, 0, 1, 0),
  };
}

/** The references' short side is enlarged to at least this many pixels. */
export const MIN_WORKING_SIDE = 64;

/**
 * The size the caller resizes the reference to before synthesis: the reference scaled down
 * (never up) to about the output's area, so a patch carries texture features at the scale the
 * output shows them and the search stays fast whatever the upload size; a tiny reference is
 * enlarged to {@link MIN_WORKING_SIDE} on its short side.
 */
export function workingSize(
  referenceWidth: number,
  referenceHeight: number,
  outputWidth: number,
  outputHeight: number,
): { width: number; height: number } {
  let scale = Math.min(
    1,
    Math.sqrt((outputWidth * outputHeight) / (referenceWidth * referenceHeight)),
  );
  const shortSide = Math.min(referenceWidth, referenceHeight);
  if (shortSide * scale < MIN_WORKING_SIDE) scale = MIN_WORKING_SIDE / shortSide;
  return {
    width: Math.max(1, Math.round(referenceWidth * scale)),
    height: Math.max(1, Math.round(referenceHeight * scale)),
  };
}

/** The patch side for a working reference and output (promptAdherence scales it 0.4×..1.8×). */
export function patchSize(
  reference: { width: number; height: number },
  options: Pick<SynthesisOptions, 'width' | 'height' | 'seamless' | 'promptAdherence'>,
): number {
  const base = clamp(Math.min(reference.width, reference.height) / 5, 24, 160);
  const factor = 0.4 + 0.7 * clamp(options.promptAdherence, 0, 2);
  let side = Math.round(base * factor);
  side = Math.min(side, reference.width, reference.height);
  const outSide = Math.min(options.width, options.height);
  side = Math.min(side, options.seamless ? Math.floor(outSide / 2) : outSide);
  return Math.max(2, side);
}

function param(v: number, lo: number, hi: number, fallback: number): number {
  return Number.isFinite(v) ? clamp(v, lo, hi) : fallback;
}

function checkSide(v: number, name: string): number {
  if (!Number.isInteger(v) || v < 1) throw new RangeError(`${name} must be a positive integer`);
  return v;
}
