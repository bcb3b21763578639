/**
 * Exemplar-based texture synthesis by image quilting (Efros & Freeman, SIGGRAPH 2001) with
 * minimum-error boundary cuts, seeded, optionally on a torus so that the result tiles.
 *
 * Pure and synchronous (no Node APIs): the builtin engine runs it in a worker thread, after
 * decoding and resizing the reference to {@link workingSize} with sharp. How each parameter
 * acts is documented in docs/engines.md; keep the two in step.
 *
 * Outline: the output is covered by a grid of square patches that overlap their neighbours by
 * a quarter of their side. Patches are placed row by row. For each one, candidate source
 * positions in the reference (a seeded random sample, the positions that continue the already
 * placed neighbours, positions near where the layout term wants the patch) are scored by the
 * squared colour difference over the overlap plus the layout term (on a sparse sample of the
 * overlap first, pruned early), the best few are refined by a local pattern search, and one is
 * drawn among the best distinct ones, scored on the whole overlap, with a temperature. The
 * chosen patch is pasted behind minimum-error boundary cuts (dynamic programming over the
 * per-pixel overlap error) on each side where it overlaps existing pixels, combined at the
 * corners (a pixel is new only if every cut says so) and feathered over 3×3 pixels.
 *
 * Structured references (planks, stripes: a strongly oriented structure tensor) get patches that
 * carry a typical straight run along the grain and a heavier structure term (structure.ts).
 *
 * Seamless: the grid is laid on a torus. The last column overlaps and cuts against the first,
 * the last row against the first (those closing patches are searched harder), so the
 * wrap-around is made of ordinary cuts. A torus has no edge, so the result is then framed
 * (rolled) to start at its smoothest column and row.
 */
import type { RawImage } from '../../../imaging/raw-image.js';
import { mulberry32 } from '../prng.js';
import { fitLighting, removeLighting } from './lighting.js';
import { DEFECT_BOUND, FINE_DEFECT_BOUND, repairDefects } from './defect-repair.js';
import { maskRegion } from './mask-region.js';
import { clampInt, colourVariance, gradientEnergy, luminanceGradient } from './numeric.js';
import { checkOptions, patchSize, type SeamHandling, type SynthesisOptions } from './options.js';
import type { SearchSpace } from './patch-search.js';
import { PatchPlacer } from './placement.js';
import { poissonBlend } from './poisson.js';
import {
  checkFrame,
  fitToFrame,
  frameWidths,
  insetGrid,
  prefillFrame,
  restoreKeep,
  type SharedFrame,
} from './frame.js';
import { ACROSS_PULL, followStructure, readStructure } from './structure.js';
import { stylise, writeBack } from './tones.js';
import { frameTorus, gridPositions } from './torus.js';

// The folder's one entry: what the worker, the tests and the seam benchmark use.
export {
  MIN_WORKING_SIDE,
  patchSize,
  workingSize,
  type SeamHandling,
  type SynthesisOptions,
} from './options.js';
export { stylise } from './tones.js';
export type { SharedFrame } from './frame.js';

/** Random candidates drawn per patch (besides the coherent and layout ones): bounds. */
const MIN_RANDOM = 256;
const MAX_RANDOM = 1536;
/**
 * Weight of the structure (squared luminance-gradient difference) against the squared RGB
 * difference in the overlap cost and the cuts: a line in the overlap must be matched by a line.
 */
const STRUCTURE_WEIGHT = 3;
/**
 * What a patch-sized area of the reference copied twice to different places adds to a
 * candidate's cost, as a share of that cost (reuse-term.ts). Marble 1024² → 1024² (seeds 10–15,
 * plain and seamless): 3 lengthens the veins 0.68× → 0.71× of the reference's and lowers the
 * repetition 0.060 → 0.057; 10 and 30 lower it further (0.044, 0.038) but cut the veins.
 */
const REUSE_WEIGHT = 3;

/**
 * Synthesizes `options.width × options.height` RGBA pixels (alpha 255) from `reference`.
 * `onProgress` receives the fraction of patches placed, rising from 0 to 1.
 *
 * The steps, each in its own module of this folder: the options and the patch size
 * (options.ts), the style pass and the write-back (tones.ts), the patch grid on a plane or a
 * torus (torus.ts), placing each patch (placement.ts: the overlap with what is already placed in
 * overlap.ts, the patch search in patch-search.ts, the minimum-error boundary cuts in
 * boundary-cut.ts, pasting in assembly.ts, re-synthesis in resynthesis.ts), Poisson blending
 * (poisson.ts) and the framing of a seamless result (torus.ts).
 */
export function synthesize(
  reference: RawImage,
  options: SynthesisOptions,
  onProgress?: (fraction: number) => void,
): RawImage {
  return synthesizeTraced(reference, options, onProgress).image;
}

/** A synthesized image and, per pixel, the reference pixel (y · Wr + x) it was copied from. */
export interface TracedSynthesis {
  image: RawImage;
  source: Int32Array;
}

/** {@link synthesize}, also returning where each pixel came from (for the seam measurements). */
export function synthesizeTraced(
  reference: RawImage,
  options: SynthesisOptions,
  onProgress?: (fraction: number) => void,
  seams: SeamHandling = { repair: true },
  frame?: SharedFrame,
): TracedSynthesis {
  const { W, H, Wr, Hr, seamless, similarity, imagination, adherence, style } = checkOptions(
    reference,
    options,
  );
  const rng = mulberry32(options.seed);

  // Lighting drift out (put back at the end), over the part that patches are copied from.
  const repair = seams.repair;
  const lighting = repair ? fitLighting(reference, options.mask) : undefined;
  const ref = stylise(lighting ? removeLighting(reference, lighting) : reference, style).data;

  // Patch size, and where patches may be copied from (the mask).
  let P = patchSize(reference, { width: W, height: H, seamless, promptAdherence: adherence });
  // Defects are looked for over a half and a quarter of this patch whatever the structure makes of
  // it: how long a broken line must be to show does not grow with the patches that carry planks.
  const defectPatch = P;
  // An oriented reference (planks, stripes): patches that carry a typical run along the grain.
  let structureWeight = repair ? STRUCTURE_WEIGHT : 0;
  let grain: { tx: number; ty: number } | undefined;
  if (repair && seams.followStructure !== false && !options.mask) {
    const outSide = Math.min(W, H);
    // Room for a choice: a patch as large as the reference would leave the seed nothing to draw.
    const refSide = Math.floor((3 * Math.min(Wr, Hr)) / 4);
    // On a torus, at most 3/4 of the side: two patches per row and column, each overlapping the
    // other on both sides (1/2 of the side left seamless planks' boards half as long).
    const maxSide = Math.min(refSide, seamless ? Math.floor((3 * outSide) / 4) : outSide);
    ({ P, structureWeight, grain } = followStructure(
      readStructure(reference),
      P,
      structureWeight,
      maxSide,
    ));
  }
  let region = options.mask ? maskRegion(reference, P) : undefined;
  while (region && region.count === 0 && P > 8) {
    P = Math.max(8, Math.floor(P * 0.75));
    region = maskRegion(reference, P);
  }
  if (region && (region.count === 0 || region.count === region.total)) region = undefined;
  const O = Math.max(1, Math.round(P / 4));
  const S = P - O;
  // A series' later face (series.ts): face 1's edges kept, the inside quilted on a plane.
  if (frame) checkFrame(frame, W, H, seamless);
  const framed = frame ? { ...frameWidths(O), face: frame } : undefined;
  const onTorus = seamless && !framed;
  const nvx = Wr - P + 1;
  const nvy = Hr - P + 1;
  const space: SearchSpace = {
    ref,
    grad: luminanceGradient(ref, Wr, Hr),
    structureWeight,
    Wr,
    nvx,
    nvy,
    allowed: region?.allowed,
    validList: region?.list,
    randomCandidates: clampInt(
      2 * Math.sqrt(region ? region.count : nvx * nvy),
      MIN_RANDOM,
      MAX_RANDOM,
    ),
  };

  // Cost scales. Layout: a patch may sit up to `slack` pixels from where the reference's layout
  // puts it (a quarter patch at similarity 1, growing to half the reference as similarity falls)
  // and beyond that pays, quadratically, the colour variance per patch side; nothing at 0.
  // Imagination: the temperature of the draw, in units of the reference's gradient energy (the
  // error of a patch shifted by one pixel), so that it means the same on smooth and rough
  // textures.
  const variance = Math.max(25, colourVariance(ref, Wr * Hr));
  const refEnergy = Math.max(1, gradientEnergy(ref, Wr, Hr));
  const placer = new PatchPlacer(
    space,
    {
      W,
      H,
      seamless: onTorus,
      P,
      O,
      // The grid of patch positions (on the torus when seamless: x wraps modulo W).
      xs: framed ? insetGrid(W, P, S, framed.keep) : gridPositions(W, P, S, seamless),
      ys: framed ? insetGrid(H, P, S, framed.keep) : gridPositions(H, P, S, seamless),
      pull: similarity > 0 ? (4 * variance) / (P * P) : 0,
      slack: Math.floor(P / 4 + ((1 - similarity) * Math.max(Wr, Hr)) / 2),
      nearLayout: similarity > 0,
      // On a torus, an oriented reference's lines are held in the layout's phase across the grain
      // (the closure forces a slip somewhere; every column makes it at the same place). On a
      // plane nothing forces one, and holding it there copied boards into longer ones (1.5×).
      grain:
        grain && onTorus && similarity > 0
          ? { ...grain, acrossPull: (ACROSS_PULL * 4 * variance) / (P * P) }
          : undefined,
      temperature: 0.04 * imagination * refEnergy,
      breakAwayChance: 0.5 * (imagination / 20) ** 2,
      // Drawn before any patch is searched: the seed's first two numbers.
      offX: rng.int(nvx),
      offY: rng.int(nvy),
      frame: framed ? framed.band : 0,
      avoidSources: framed ? [framed.face.source, ...(framed.face.earlier ?? [])] : [],
      // Not on oriented references: their patches, up to 3/4 of the reference, share source by design.
      reuseWeight: repair && !grain ? REUSE_WEIGHT : 0,
    },
    rng,
  );
  if (framed) prefillFrame(placer.canvas, framed.face, framed.band, space.grad);

  // The work: every patch once, then (when repairing) the worst share again.
  const { first, redo } = placer.patchCount(repair);
  const total = first + redo;
  let placed = 0;
  const onPlaced = () => {
    placed++;
    onProgress?.(placed / total);
  };
  onProgress?.(0);
  placer.placeAll(onPlaced);
  const energy = 3 * refEnergy;
  if (redo > 0) placer.redoWorst(redo, energy, onPlaced);
  // Cut defects (a line that stops at a cut) re-synthesised until none is above the bound.
  if (repair && seams.defects !== false) {
    // Not at the fine scale where patches follow the structure: a thin line's repair there draws
    // patches that shift the boards' end joints, and the boards' lengths (part 6) suffer more than
    // the line gains (docs/engines.md, "Defects that repeat").
    const fine = grain ? Infinity : FINE_DEFECT_BOUND;
    repairDefects(placer, { ref, Wr, Hr, energy, patch: defectPatch }, [DEFECT_BOUND, fine]);
  }

  const { canvas } = placer;
  if (repair) {
    const blended = poissonBlend({
      ref,
      Wr,
      Hr,
      source: canvas.source,
      W,
      H,
      seamless: onTorus,
      reach: Math.max(4, P / 2),
    });
    if (framed) fitToFrame(blended, framed.face.image, framed.keep, P);
    writeBack(canvas.data, blended, W, H, seamless ? undefined : lighting, style);
  }
  if (framed) restoreKeep(canvas.data, framed.face.image, framed.keep);
  if (!onTorus) return { image: { data: canvas.data, width: W, height: H }, source: canvas.source };
  const rolled = frameTorus(canvas.data, canvas.source, W, H);
  return { image: { data: rolled.data, width: W, height: H }, source: rolled.source };
}
